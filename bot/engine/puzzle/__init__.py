"""Daily puzzles: positions of finished deals where one move is best by a proven margin.

A puzzle is a moment of a deal that is over, so every hand may be shown; the move
values are exact (every hand and the boneyard's order are known), computed by the
line solver (:class:`bot.engine.ai.solver.LineSolver`) or, for the other layouts, an
exhaustive search of the deal's own rules (:mod:`.values`).

    puzzles = match_puzzles(state, source="match 12")   # a finished match only
    puzzles = builtin_puzzles()                           # fixed seeds, the AI playing
    state = puzzle.position()                             # the deal at the puzzle's moment
    doc = puzzle.to_json(); puzzle = Puzzle.from_json(doc)
"""

from .builtin import BUILTIN_SEEDS, builtin_puzzles
from .finder import MARGIN, deal_puzzles, match_puzzles
from .puzzle import Puzzle
from .values import exact_values

__all__ = [
    "BUILTIN_SEEDS",
    "MARGIN",
    "Puzzle",
    "builtin_puzzles",
    "deal_puzzles",
    "exact_values",
    "match_puzzles",
]
