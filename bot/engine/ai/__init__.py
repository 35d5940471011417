"""AI seats: choose a move for a seat from what that seat may see.

Three levels:

* ``easy`` -- a random legal move;
* ``normal`` -- a heuristic player (:mod:`bot.engine.ai.normal`);
* ``hard`` -- determinized Monte Carlo search over the hidden tiles
  (:mod:`bot.engine.ai.search`).

Mexican Train has its own normal and hard levels (:mod:`bot.engine.ai.trains_normal`,
:mod:`bot.engine.ai.trains_search`): its table is trains, not a layout of ends.

Usage::

    seen = view(state, seat)
    move = choose_move(seen, Level.HARD, random.Random(seed))
    state = play(state, move, seat)

The decision is computed from the :class:`PlayerView` alone, so no level can
look at another seat's hand: two states that look the same to the seat get the
same move for the same ``rng`` state.
"""

from __future__ import annotations

import random
from enum import StrEnum

from ..moves import Move
from ..view import PlayerView
from .knowledge import read_view
from .normal import normal_move
from .search import SearchSettings, rank_moves
from .trains_normal import normal_train_move, read_trains
from .trains_search import rank_train_moves


class Level(StrEnum):
    """An AI level: the one definition of the level names (a seat stores the value)."""

    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"


LEVELS: tuple[Level, ...] = tuple(Level)
"""The AI levels, weakest first."""


def choose_move(
    seen: PlayerView,
    level: str,
    rng: random.Random,
    settings: SearchSettings | None = None,
) -> Move:
    """The move ``level`` makes for the seat of ``seen``, whose turn it must be.

    ``settings`` tunes the hard level's search (default :class:`SearchSettings`).
    Raises ``ValueError`` for an unknown level or when the seat has no move to make.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}; choose one of {', '.join(LEVELS)}")
    moves = seen.legal_moves
    if not moves:
        raise ValueError("it is not this seat's turn, or the deal is over")
    if level == Level.EASY:
        return rng.choice(moves)
    if len(moves) == 1:
        return moves[0]
    settings = settings or SearchSettings()
    if seen.station is not None:  # Mexican Train
        trains = read_trains(seen)
        if level == Level.NORMAL:
            return normal_train_move(trains)
        return rank_train_moves(trains, rng, settings)[0][0]
    know = read_view(seen)
    if level == Level.NORMAL:
        return normal_move(know, rng)
    return rank_moves(know, rng, settings)[0][0]


__all__ = ["LEVELS", "Level", "SearchSettings", "choose_move"]
