"""Refusals the service gives a user: a translatable message and its fields.

The cogs show them as polite ephemeral replies; nothing changes when one is raised.
"""

from __future__ import annotations

from typing import Any

from bot.i18n import Translator


class GameError(Exception):
    """A user asked for something the game does not allow right now."""

    def __init__(self, message: str, /, **fields: Any) -> None:
        super().__init__(message)
        self.message = message
        self.fields = fields

    def text(self, tr: Translator) -> str:
        return tr(self.message, **self.fields)


class StaleError(GameError):
    """The user acted on an old message: the game has moved on since."""
