"""Finding puzzles in finished deals: moments where one choice is best by a margin.

A moment qualifies when (each is checked by ``tests/engine/test_puzzles.py``):

* the deal it comes from is over, and so is its match (:func:`match_puzzles`); the
  position may show every hand only because nothing of it is still in play;
* the game is one :func:`~.values.exact_values` values (block, draw, all fives,
  latvian; two sides; scored in points);
* the lead is laid and the seat has at least two different choices (moves to the
  same position, the same tile at either of two ends showing the same number, are
  one choice);
* it is late: at most :data:`LATE` tiles left in the hands and the boneyard
  (:data:`LATE_SEARCH` where the slower search values it), and the search finishes
  within its node budget, so every value is exact;
* it has at most :data:`MAX_CHOICES` choices (one button each);
* the best choice is worth at least :data:`MARGIN` points more than every other.
"""

from __future__ import annotations

from ..ai.solver import SearchLimit, solvable
from ..deal import Deal
from ..match import MatchState
from ..moves import Move
from .puzzle import Choice, Puzzle
from .values import exact_values, supported

MARGIN = 5.0
"""Points the answer must be worth beyond every other choice."""
LATE = 14
"""Tiles left (hands and boneyard) at most, on a line layout (the line solver)."""
LATE_SEARCH = 20
"""The same for the other layouts (all fives' spinner, latvian): a plain search."""
MAX_CHOICES = 25
"""Choices at most (a message holds 25 buttons)."""


def match_puzzles(state: MatchState, source: str, margin: float = MARGIN) -> list[Puzzle]:
    """Every puzzle of a finished match, deal by deal, in the order they came up.

    Raises ``ValueError`` for a match still in play: its hands are hidden."""
    if not state.over:
        raise ValueError("the match is still in play: its hands may not be shown")
    found: list[Puzzle] = []
    for number, deal in enumerate(state.deals, start=1):
        found += deal_puzzles(deal, source=source, deal_number=number, margin=margin)
    return found


def deal_puzzles(
    deal: Deal, *, source: str, deal_number: int, margin: float = MARGIN
) -> list[Puzzle]:
    """Every puzzle of one finished deal, in the order they came up.

    Raises ``ValueError`` for a deal still in play."""
    if deal.end is None:
        raise ValueError("the deal is still in play: its hands may not be shown")
    if not supported(deal):
        return []
    replay = Deal.start(deal.rules, deal.dealt, deal.stock, deal.leader, deal.base_totals)
    played: list[Move] = []
    found: list[Puzzle] = []
    for move in deal.moves():
        puzzle = _puzzle_at(replay, played, source, deal_number, margin)
        if puzzle is not None:
            found.append(puzzle)
        replay.play(move)
        played.append(move)
    return found


def _puzzle_at(
    deal: Deal, played: list[Move], source: str, deal_number: int, margin: float
) -> Puzzle | None:
    if deal.layout.lead is None or deal.forced is not None or len(deal.legal_moves()) < 2:
        return None
    left = sum(deal.hand_sizes()) + deal.boneyard_size
    if left > (LATE if solvable(deal) else LATE_SEARCH):
        return None  # not late enough
    try:
        values = exact_values(deal)
    except SearchLimit:
        return None
    choices = _choices(deal, values)
    if not 2 <= len(choices) <= MAX_CHOICES:
        return None
    order = sorted(range(len(choices)), key=lambda i: -choices[i].value)
    best, second = order[0], order[1]
    gap = choices[best].value - choices[second].value
    if gap < margin:
        return None
    return Puzzle(
        source=source,
        deal_number=deal_number,
        ply=len(played),
        rules=deal.rules,
        hands=deal.dealt,
        stock=deal.stock,
        leader=deal.leader,
        base_totals=tuple(float(x) for x in deal.base_totals),
        moves=tuple(played),
        seat=deal.turn,
        choices=tuple(choices),
        answer=best,
        margin=gap,
    )


def _choices(deal: Deal, values: list[tuple[Move, float]]) -> list[Choice]:
    """The moves as choices: moves with the same tiles and value that leave the same
    ends (and count) open are one choice."""
    groups: dict[tuple[object, ...], list[tuple[Move, float]]] = {}
    for move, value in values:
        child = deal.copy()
        child.push(move)
        key = (move.tiles, tuple(sorted(child.layout.values)), child.layout.count(), value)
        groups.setdefault(key, []).append((move, value))
    return [
        Choice(group[0][0], group[0][1], tuple(m for m, _ in group[1:]))
        for group in groups.values()
    ]
