"""Refusals the service gives a user: a translatable message and its fields.

The cogs show them as polite ephemeral replies; nothing changes when one is raised.
"""

from __future__ import annotations

from typing import Any

from bot.engine import End
from bot.i18n import N_, Translator

END_NAMES = {
    End.WEST: N_("west"),
    End.EAST: N_("east"),
    End.NORTH: N_("north"),
    End.SOUTH: N_("south"),
}


def end_name(end: End, tr: Translator) -> str:
    """An end by its name in ``tr``'s language."""
    return tr(END_NAMES[end])


class GameError(Exception):
    """A user asked for something the game does not allow right now."""

    def __init__(self, message: str, /, **fields: Any) -> None:
        super().__init__(message)
        self.message = message
        self.fields = fields

    def text(self, tr: Translator) -> str:
        return tr(self.message, **{k: _shown(v, tr) for k, v in self.fields.items()})


def _shown(value: Any, tr: Translator) -> Any:
    """A field as the user reads it: an end (or a tuple of ends) by its translated name."""
    if isinstance(value, End):
        return end_name(value, tr)
    if isinstance(value, tuple) and value and all(isinstance(v, End) for v in value):
        return ", ".join(end_name(v, tr) for v in value)
    return value


class StaleError(GameError):
    """The user acted on an old message: the game has moved on since."""
