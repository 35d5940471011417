"""Errors the engine raises, each named for what went wrong."""

from __future__ import annotations

import reprlib
from enum import Enum
from typing import Any


class DominoError(Exception):
    """Base of every engine error."""


class RulesError(DominoError, ValueError):
    """A rules value that RULES.md does not allow (names the option and why)."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(message)
        self.option = option
        self.message = message


class MoveFault(Enum):
    """Why a move is refused: the code an :class:`IllegalMoveError` carries.

    Each value is the engine's English message, formatted with the error's fields
    (``tile``: a :class:`~bot.engine.tiles.Tile`; ``written``: the tile as the move
    wrote it, ``4-2`` for ``2-4``; ``end``: an :class:`~bot.engine.moves.End`; ``ends``:
    a tuple of them; ``number``: what an end shows; ``seat``/``turn``: seats;
    ``west``: a half; ``move``: a :class:`~bot.engine.moves.Move`). The bot says each
    in the player's language instead (``bot/games/moves_text.py``).
    """

    DEAL_OVER = "the deal is already over"
    NOT_YOUR_TURN = "it is seat {turn}'s turn, not seat {seat}'s"
    NO_TILE = "a move lays at least one tile"
    TILE_TWICE = "{tile} is named twice"
    NOT_HELD = "seat {seat} does not hold {written}"
    LEAD_ALONE = "the lead is one tile"
    LEAD_WITH_END = "the lead takes no end: it goes in the middle"
    LEAD_CLOSED = "the lead cannot be laid face down"
    LEAD_HALF = "{tile} has no {west} to show at west"
    MUST_LEAD = "the lead must be {tile}"
    MUST_LAY_DRAWN = "seat {seat} drew {tile} and must lay it"
    END_MISSING = "the lead is already down: say which end each tile goes on"
    ONE_AT_A_TIME = "only latvian lays several tiles in one move"
    ONLY_DOUBLES = "only doubles may be laid together"
    CLOSED_NOT_LATVIAN = "only latvian lays tiles face down"
    NO_SUCH_END = "this layout has no {end} end"
    END_NOT_OPEN_YET = (
        "{end} is not open yet: it opens once both long sides of the spinner have a tile"
    )
    END_NOT_OPEN = "{end} is not open"
    END_CLOSED = "{end} is closed"
    DOES_NOT_FIT = "{written} does not fit {end} (shows {number})"
    FITS_NO_END = "{tile} fits no open end"
    END_AMBIGUOUS = "{tile} fits {ends}: the move must name its end"
    NOT_LEGAL = "{move} is not a legal move here"
    # Mexican Train (``train``/``trains``: TrainName values, which read "seat 2's train")
    TRAINS_ONLY_MEXICAN = "only Mexican Train lays tiles on trains"
    ENDS_NOT_MEXICAN = "Mexican Train lays tiles on trains, not on ends"
    NO_SUCH_TRAIN = "this table has no {train}"
    TRAIN_NOT_OPEN = "{train} is not open to seat {seat}: it carries no marker"
    MUST_SATISFY = "the double {number}-{number} on {train} must be satisfied first"
    TRAIN_DOES_NOT_FIT = "{written} does not fit {train} (it ends in {number})"
    FITS_NO_TRAIN = "{tile} fits no train open to seat {seat}"
    TRAIN_AMBIGUOUS = "{tile} fits {trains}: the move must name its train"


class IllegalMoveError(DominoError, ValueError):
    """A move that is not among the legal moves: ``fault`` says why, ``fields`` the details."""

    def __init__(self, fault: MoveFault = MoveFault.NOT_LEGAL, /, **fields: Any) -> None:
        self.fault = fault
        self.fields = fields
        self.message = fault.value.format(**{k: _said(v) for k, v in fields.items()})
        super().__init__(self.message)

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (a process pool) as fault and fields: ``args`` holds only the message.
        return _rebuilt, (type(self), self.fault, self.fields), self.__dict__


def _rebuilt(
    cls: type[IllegalMoveError], fault: MoveFault, fields: dict[str, Any]
) -> IllegalMoveError:
    error = cls.__new__(cls)
    IllegalMoveError.__init__(error, fault, **fields)
    return error


def _said(value: Any) -> str:
    if isinstance(value, tuple):
        return " and ".join(str(v) for v in value)
    return str(value)


class NotYourTurnError(IllegalMoveError):
    """A seat tried to move out of turn."""

    def __init__(self, seat: int, turn: int) -> None:
        super().__init__(MoveFault.NOT_YOUR_TURN, seat=seat, turn=turn)
        self.seat = seat
        self.turn = turn


class DealOverError(IllegalMoveError):
    """A move was made after the deal ended."""

    def __init__(self) -> None:
        super().__init__(MoveFault.DEAL_OVER)


class MatchOverError(DominoError):
    """A new deal was asked for after the match ended."""


class RecordError(DominoError, ValueError):
    """A match record that breaks the format or the rules.

    ``deal`` and ``move`` count from 1 (written moves only), as in RECORD.md; either
    may be ``None`` for a fault of the deal or of the record as a whole.
    """

    def __init__(self, message: str, deal: int | None = None, move: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.deal = deal
        self.move = move


class _Brief(reprlib.Repr):
    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxstring = self.maxother = 40
        self.maxlist = self.maxdict = 4

    def repr_NoneType(self, x: None, level: int) -> str:  # reprlib names it so
        return "null"  # as JSON says it: a record is JSON

    def repr_bool(self, x: bool, level: int) -> str:
        return "true" if x else "false"

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 256:  # also spares str() its digit limit
            return f"a number of about {int(x.bit_length() * 0.30103)} digits"
        return super().repr_int(x, level)


def brief(value: Any) -> str:
    """``repr(value)`` kept short and shallow: what a message may echo of a record."""
    return _Brief().repr(value)
