"""Errors the engine raises, each named for what went wrong."""

from __future__ import annotations


class DominoError(Exception):
    """Base of every engine error."""


class RulesError(DominoError, ValueError):
    """A rules value that RULES.md does not allow (names the option and why)."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__(message)
        self.option = option
        self.message = message


class IllegalMoveError(DominoError, ValueError):
    """The move is not among the legal moves of the state."""


class NotYourTurnError(IllegalMoveError):
    """A seat tried to move out of turn."""

    def __init__(self, seat: int, turn: int) -> None:
        super().__init__(f"it is seat {turn}'s turn, not seat {seat}'s")
        self.seat = seat
        self.turn = turn


class DealOverError(IllegalMoveError):
    """A move was made after the deal ended."""


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
