"""Accuracy: how close a seat's moves came to the best it could know (docs/REVIEW.md).

A decision's **accuracy** is where the played move's known value lies between the worst
and the best candidate's, in percent::

    accuracy = 100 × (played − worst) / (best − worst)      (100 when best = worst)

so a best known move scores exactly 100 and the worst candidate 0, whatever the game's
unit. A seat's accuracy is the mean over its decisions (forced moves are no decisions):
exactly 100 when every move it chose was a best known move.
"""

from __future__ import annotations

from collections.abc import Sequence

from .report import MoveRow, SeatReview

TIE = 1e-9
"""Values closer than this are equal (sums of floats)."""


def cost(best: float, played: float) -> float:
    """The best value less the played one, never negative (0 for a tie)."""
    gap = best - played
    return gap if gap > TIE else 0.0


def move_accuracy(values: Sequence[float], played: float) -> float:
    """The accuracy of a decision whose candidates are worth ``values`` and whose played
    move is worth ``played``."""
    best = max(values)
    worst = min(values)
    if best - played <= TIE:
        return 100.0
    spread = best - worst
    return max(0.0, min(100.0, 100.0 * (played - worst) / spread))


def seat_reviews(rows: Sequence[MoveRow], players: int) -> tuple[SeatReview, ...]:
    """Each seat's decisions, accuracy and losses."""
    out = []
    for seat in range(players):
        mine = [r for r in rows if r.seat == seat and not r.forced]
        accuracy = sum(r.accuracy for r in mine) / len(mine) if mine else None
        out.append(
            SeatReview(
                seat=seat,
                decisions=len(mine),
                accuracy=accuracy,
                known_loss=sum(r.known_cost for r in mine),
                open_loss=sum(r.open_cost for r in mine),
                best_moves=sum(1 for r in mine if r.known_cost == 0.0),
            )
        )
    return tuple(out)


def biggest_mistakes(rows: Sequence[MoveRow], count: int = 3) -> tuple[int, ...]:
    """The rows of the ``count`` costliest moves (known cost, then open cost, then the
    earlier), only moves that cost something from the mover's view."""
    costly = [i for i, r in enumerate(rows) if r.known_cost > 0.0]
    costly.sort(key=lambda i: (-rows[i].known_cost, -rows[i].open_cost, i))
    return tuple(costly[:count])
