"""Ranks and outcomes of a finished match, from what it stored about its sides.

Pure: plain values in, plain values out; no SQL, no I/O. The rules
(docs/LEADERBOARDS.md, "Results"):

- Latvian sessions rank by place points, higher first.
- Mexican Train matches rank by their final totals, lowest first (equal totals share
  a rank; the lowest total wins, shared by every side that has it).
- Other games put the winning sides first (tied with each other) and the rest
  by their totals, in the direction the winners show (higher wins for points,
  lower for penalty scoring); when that direction is unclear the other sides tie.
- A **win** is an outright first place; a **draw** a shared first place or a
  match with no winner; anything else a **loss**.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from bot.storage import MatchSeat

__all__ = ["LOWEST_WINS", "SeatResult", "match_results"]


@dataclass(frozen=True, slots=True)
class SeatResult:
    """How one seat did in a match: its side's rank (1 is best, ties share) and outcome."""

    seat: int
    user_id: int | None
    name: str
    side: int
    rank: int
    outcome: str
    """``win`` (the only winning side), ``draw`` (a shared first, or no winner) or ``loss``."""
    points: float
    place: float | None


LOWEST_WINS: Final = frozenset({"mexican"})
"""Games ranked by their final totals alone, lowest first (RULES.md#mexican-train)."""


def match_results(seats: Sequence[MatchSeat], game: str | None = None) -> tuple[SeatResult, ...]:
    """Each seat's rank and outcome (by seat number), from what the match stored about its sides.

    Mexican Train (``game`` in :data:`LOWEST_WINS`) ranks by the totals, lowest first.
    Latvian sessions rank by place points (higher is better). Other games put the
    winning sides first (tied with each other) and the rest by their totals, in
    the direction the winners show (higher wins for points, lower for penalty
    scoring); when that direction is unclear the other sides tie. A match with no
    winner is a draw for everyone; several winning sides draw with each other.
    """
    sides = sorted({s.side for s in seats})
    first = {side: next(s for s in seats if s.side == side) for side in sides}
    won = {side: any(s.won for s in seats if s.side == side) for side in sides}
    winners = [side for side in sides if won[side]]
    losers = [side for side in sides if not won[side]]
    key: dict[int, tuple[float, float]]
    if game in LOWEST_WINS:
        key = {side: (first[side].total, 0.0) for side in sides}
    elif all(first[side].place is not None for side in sides):
        key = {side: (-(first[side].place or 0.0), 0.0) for side in sides}
    else:
        direction = _direction([first[s].total for s in winners], [first[s].total for s in losers])
        key = {side: (0.0 if won[side] else 1.0, -direction * first[side].total) for side in sides}
    rank = {side: 1 + sum(1 for other in sides if key[other] < key[side]) for side in sides}
    best = [side for side in sides if rank[side] == 1]

    def outcome(side: int) -> str:
        if rank[side] != 1:
            return "loss"
        if game in LOWEST_WINS:
            return "win" if len(best) == 1 else "draw"
        return "win" if len(best) == 1 and winners else "draw"

    return tuple(
        SeatResult(
            seat=s.seat,
            user_id=s.user_id,
            name=s.name,
            side=s.side,
            rank=rank[s.side],
            outcome=outcome(s.side),
            points=float(s.total),
            place=s.place,
        )
        for s in sorted(seats, key=lambda s: s.seat)
    )


def _direction(winners: Sequence[float], losers: Sequence[float]) -> float:
    """+1 when winners have the higher totals, -1 the lower, 0 when it is unclear."""
    if not winners or not losers:
        return 0.0
    if min(winners) > max(losers):
        return 1.0
    if max(winners) < min(losers):
        return -1.0
    return 0.0
