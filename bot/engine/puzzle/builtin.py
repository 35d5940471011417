"""The built-in puzzles, for a server with no finished match of its own that has one.

Nothing is shipped as data: each built-in puzzle is found, as a server's are, in a
deal the normal AI plays for every seat from a fixed seed (:data:`BUILTIN_SEEDS`), so
the set is the same on every machine and every start. Built-in puzzle ``n`` is the
best puzzle (the largest margin, then the earliest) of deal ``n``'s position list;
a seed whose deal has none gives no puzzle.
"""

from __future__ import annotations

import random
from functools import cache

from ..ai import Level, choose_move
from ..match import new_match, play
from ..rules import Rules
from ..view import view
from .finder import deal_puzzles
from .puzzle import Puzzle

BUILTIN_GAMES: tuple[dict[str, object], ...] = (
    {"game": "block", "players": 2},
    {"game": "draw", "players": 2},
    {"game": "block", "players": 4, "teams": True},
    {"game": "allfives", "players": 2},
    {"game": "draw", "players": 4, "teams": True},
)
"""The games the seeds cycle through."""
BUILTIN_SEEDS = 60
"""How many seeds the built-in set is taken from."""


@cache
def builtin_puzzle(index: int) -> Puzzle | None:
    """Built-in puzzle ``index`` (0 to :data:`BUILTIN_SEEDS` - 1), or None."""
    if not 0 <= index < BUILTIN_SEEDS:
        raise ValueError(f"built-in puzzles are numbered 0 to {BUILTIN_SEEDS - 1}")
    rules = Rules.make(**BUILTIN_GAMES[index % len(BUILTIN_GAMES)])  # type: ignore[arg-type]
    rng = random.Random(f"dominobot puzzle {index}")
    state = new_match(rules, rng)
    while not state.deal.over:
        move = choose_move(view(state, state.turn), Level.NORMAL, rng)
        state = play(state, move)
    found = deal_puzzles(state.deal, source=f"builtin {index}", deal_number=1)
    if not found:
        return None
    return max(found, key=lambda p: (p.margin, -p.ply))


def builtin_puzzles(count: int = BUILTIN_SEEDS) -> list[Puzzle]:
    """The built-in puzzles of the first ``count`` seeds, in seed order."""
    return [p for i in range(min(count, BUILTIN_SEEDS)) if (p := builtin_puzzle(i)) is not None]
