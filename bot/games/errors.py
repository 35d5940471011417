"""Refusals the service gives a user: a translatable message and its fields.

The cogs show them as polite ephemeral replies; nothing changes when one is raised.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine import End
from bot.engine.trains import MEXICAN, TrainName
from bot.i18n import N_, Translator
from bot.storage import DatabaseUnavailableError

END_NAMES = {
    End.WEST: N_("west"),
    End.EAST: N_("east"),
    End.NORTH: N_("north"),
    End.SOUTH: N_("south"),
}


def end_name(end: End, tr: Translator) -> str:
    """An end by its name in ``tr``'s language."""
    return tr(END_NAMES[end])


@dataclass(frozen=True, slots=True)
class TrainWord:
    """A Mexican Train train as one player reads it: "your train", "the Mexican train",
    "Bob's train" (RULES.md#mexican-train).

    ``owner`` is the owner's name as given: whoever shows it in message text escapes it
    first (:func:`dataclasses.replace` with the escaped name).
    """

    train: int
    owner: str = ""
    yours: bool = False

    def text(self, tr: Translator) -> str:
        """The train in a sentence: "the Mexican train", "your train", "Bob's train"."""
        if self.train == MEXICAN:
            return tr("the Mexican train")
        if self.yours:
            return tr("your train")
        return tr("{name}'s train", name=self.owner or f"#{self.train + 1}")

    def label(self, tr: Translator) -> str:
        """The train on a button or a choice: "Mexican train", "your train", "Bob's train"."""
        if self.train == MEXICAN:
            return tr("Mexican train")
        return self.text(tr)


def train_word(train: int, names: Sequence[str] = (), seat: int | None = None) -> TrainWord:
    """``train`` as the player at ``seat`` reads it (``None``: a spectator), owners named
    by ``names``."""
    if train == MEXICAN:
        return TrainWord(MEXICAN)
    owner = names[train] if 0 <= train < len(names) else ""
    return TrainWord(train, owner, train == seat)


class GameError(Exception):
    """A user asked for something the game does not allow right now."""

    def __init__(self, message: str, /, **fields: Any) -> None:
        super().__init__(message)
        self.message = message
        self.fields = fields

    def text(self, tr: Translator) -> str:
        return tr(self.message, **{k: _shown(v, tr) for k, v in self.fields.items()})


_LISTED = End | TrainWord | TrainName
"""What a field lists, the items in words (the ends or trains a tile fits)."""


def _shown(value: Any, tr: Translator) -> Any:
    """A field as the user reads it: an end or a train (or a tuple of them) in words."""
    if isinstance(value, End):
        return end_name(value, tr)
    if isinstance(value, TrainWord):
        return value.text(tr)
    if isinstance(value, TrainName):
        return TrainWord(int(value)).text(tr)
    if isinstance(value, tuple) and value and all(isinstance(v, _LISTED) for v in value):
        return ", ".join(_shown(v, tr) for v in value)  # ends, or trains
    return value


class StaleError(GameError):
    """The user acted on an old message: the game has moved on since."""


class UnavailableError(GameError):
    """The database cannot be reached just now (a PostgreSQL server gone): nothing was
    done, and the same request may well succeed in a moment."""


DATABASE_UNAVAILABLE = N_(
    "The bot can't reach its database just now, so nothing was done. Please try again in a moment."
)


def unavailable(error: BaseException) -> UnavailableError | None:
    """``error`` as the refusal a user is told when the database cannot be reached just
    now (a :class:`~bot.storage.DatabaseUnavailableError`), else None."""
    if isinstance(error, DatabaseUnavailableError):
        return UnavailableError(DATABASE_UNAVAILABLE)
    return None
