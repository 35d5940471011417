"""Against strategy fusion: the mover's next decision taken once for all worlds alike.

Solving each sampled world exactly values a move as if the mover, from then on,
saw every hidden tile: in each world it answers what follows in the way best for
that world, even where the worlds look the same to it (*strategy fusion*). Moves
that leave choices for later look better than they are.

With two players and no drawing, what the mover will see before its next decision
is its own move and the other seat's reply (a tile, or a pass). So, per world,
:func:`reply_values` values each of the mover's follow-ups after each reply the
other seat could make there; :class:`Fusion` gathers those over the worlds, picks
*one* follow-up for each (move, reply) — the best on average over the worlds where
that reply could be made — and values a move, in each world, by the other seat's
best reply against those follow-ups (the other seat sees the world, as in the
solver); a move's value is the mean over the worlds. Deeper decisions are still
solved world by world.
"""

from __future__ import annotations

from ..deal import Deal
from ..moves import Move
from ..rules import Rules
from .evaluate import deal_value
from .solver import LineSolver

Follow = float | dict[Move, float]
"""After a reply: a value (the deal ended, or the mover has no choice), or the value of
each follow-up the mover may choose."""
Replies = float | dict[Move | None, Follow]
"""After a move, in one world: a value (the deal ended), or what follows each reply the
other seat could make (``None``: it passed)."""


def applies(rules: Rules) -> bool:
    """Whether the mover's next decision comes right after one reply it sees whole: two
    players, no drawing, a line layout."""
    return rules.players == 2 and not rules.draws and rules.layout == "line"


def reply_values(base: Deal, move: Move, solver: LineSolver, win_bonus: float) -> Replies:
    """``move`` played in the world of ``base`` (the mover to move), valued for each reply
    and follow-up by ``solver`` (which may raise ``SearchLimit``)."""
    me = base.turn
    side = base.side_of[me]
    deal = base.copy()
    deal.push(move)
    if deal.end is not None:
        return deal_value(deal, side, win_bonus)
    if deal.turn == me:  # the other seat passed
        return {None: _follow(deal, me, solver, win_bonus)}
    replies: dict[Move | None, Follow] = {}
    for reply in deal.legal_moves():
        after = deal.copy()
        after.push(reply)
        replies[reply] = _follow(after, me, solver, win_bonus)
    return replies


def _follow(deal: Deal, me: int, solver: LineSolver, win_bonus: float) -> Follow:
    side = deal.side_of[me]
    if deal.end is not None:
        return deal_value(deal, side, win_bonus)
    if deal.turn != me:
        return solver.value(deal)
    values: dict[Move, float] = {}
    for follow in deal.legal_moves():
        values[follow] = solver.after(deal, follow)
    if len(values) == 1:
        return next(iter(values.values()))
    return values


def positions(replies: Replies) -> int:
    """How many positions after a move ``replies`` values (for the work count)."""
    if isinstance(replies, float):
        return 1
    return sum(1 if isinstance(f, float) else len(f) + 1 for f in replies.values()) + 1


class Fusion:
    """Every world's :data:`Replies` for each candidate, and the follow-ups they pick."""

    __slots__ = ("sums", "worlds")

    def __init__(self, candidates: int) -> None:
        self.worlds: list[list[Replies]] = [[] for _ in range(candidates)]
        self.sums: list[dict[Move | None, dict[Move, float]]] = [{} for _ in range(candidates)]

    def add(self, candidate: int, replies: Replies) -> None:
        """One world's values of ``candidate``."""
        self.worlds[candidate].append(replies)
        if isinstance(replies, float):
            return
        sums = self.sums[candidate]
        for reply, follow in replies.items():
            if isinstance(follow, dict):
                totals = sums.setdefault(reply, {})
                for move, value in follow.items():
                    totals[move] = totals.get(move, 0.0) + value

    def chosen(self, candidate: int) -> dict[Move | None, Move]:
        """The follow-up picked after each reply: the best mean over the worlds where the
        reply could be made (ties: the first seen)."""
        return {
            reply: max(totals, key=lambda m: totals[m])
            for reply, totals in self.sums[candidate].items()
        }

    def mean(self, candidate: int) -> float:
        """The candidate's value: over the worlds, the other seat's best reply against the
        chosen follow-ups."""
        chosen = self.chosen(candidate)
        worlds = self.worlds[candidate]
        total = 0.0
        for replies in worlds:
            if isinstance(replies, float):
                total += replies
                continue
            total += min(
                follow
                if isinstance(follow, float)
                else follow.get(chosen[reply], max(follow.values()))
                for reply, follow in replies.items()
            )
        return total / len(worlds)
