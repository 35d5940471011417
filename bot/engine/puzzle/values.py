"""The exact value of each legal move of a position whose every tile is known.

A value is the deal's margin for the mover's side when both sides play perfectly from
there: the side's points in the deal minus the other side's (``points`` and all fives:
what each side scores in this deal; ``penalty`` and latvian: the other side's points
against less the side's own). No bonus for winning the deal or the match is added, so
a margin between two moves is in points, as a player counts them.

Line layouts with points or penalty scoring go through the line solver (fast, with a
transposition table); every other two-sided game of ends (all fives, a spinner,
latvian) through :func:`_search`, an alpha-beta search over the deal's own rules,
slower, so the finder calls it only late in a deal. Either gives up past a node budget
(:class:`~bot.engine.ai.solver.SearchLimit`).
"""

from __future__ import annotations

from ..ai.solver import INF, LineSolver, SearchLimit, solvable
from ..deal import Deal
from ..moves import Move

SUPPORTED = ("block", "draw", "allfives", "latvian")
"""The games a puzzle is taken from (Mexican Train's trains are not searched here)."""

SCORED = ("points", "penalty", "fives", "places")
"""Scorings whose values are points (``single`` counts only who won)."""

LINE_BUDGET = 400_000
SEARCH_BUDGET = 25_000


def supported(deal: Deal) -> bool:
    """Whether :func:`exact_values` values positions of this deal's game."""
    rules = deal.rules
    return rules.game in SUPPORTED and rules.scoring in SCORED and len(rules.sides) == 2


def exact_values(deal: Deal, budget: int | None = None) -> list[tuple[Move, float]]:
    """Each legal move of ``deal`` (in play, every tile known) and its exact value for the
    mover's side. Raises :class:`SearchLimit` past the budget, ``ValueError`` for a deal
    it does not value (:func:`supported`) or one that is over."""
    if deal.end is not None:
        raise ValueError("the deal is over: there is no move to value")
    if not supported(deal):
        raise ValueError(f"{deal.rules.game} ({deal.rules.scoring}) positions are not valued")
    side = deal.rules.side_of(deal.turn)
    moves = list(deal.legal_moves())
    if solvable(deal):
        solver = LineSolver(deal, side, budget or LINE_BUDGET, win_bonus=0.0)
        solver.target = None  # the deal's points only: no bonus for deciding the match
        return [(m, solver.after(deal, m)) for m in moves]
    counter = _Budget(budget or SEARCH_BUDGET)
    values = []
    for m in moves:
        child = deal.copy()
        child.push(m)
        values.append((m, _search(child, side, -INF, INF, counter)))
    return values


def margin_value(deal: Deal, side: int) -> float:
    """The finished ``deal``'s margin for ``side`` (module docstring)."""
    result = deal.result
    assert result is not None, "the deal is not over"
    score = result.score
    mine, theirs = score[side], score[1 - side]
    if deal.rules.scoring in ("penalty", "places"):
        return float(theirs - mine)
    return float(mine - theirs)


class _Budget:
    __slots__ = ("left",)

    def __init__(self, nodes: int) -> None:
        self.left = nodes


def _search(deal: Deal, side: int, alpha: float, beta: float, budget: _Budget) -> float:
    """The exact value of ``deal`` for ``side`` (alpha-beta, ``side`` maximizing)."""
    if deal.end is not None:
        return margin_value(deal, side)
    budget.left -= 1
    if budget.left < 0:
        raise SearchLimit
    maximize = deal.side_of[deal.turn] == side
    best = -INF if maximize else INF
    for move in deal.legal_moves():
        child = deal.copy()
        child.push(move)
        value = _search(child, side, alpha, beta, budget)
        if maximize:
            if value > best:
                best = value
                alpha = max(alpha, best)
        elif value < best:
            best = value
            beta = min(beta, best)
        if alpha >= beta:
            break
    return best
