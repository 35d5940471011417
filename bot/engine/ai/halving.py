"""Sequential halving: how both hard levels share a decision's budget among its candidates.

:func:`rank` takes the normal level's best few moves as the candidates and searches
them. A search (:mod:`bot.engine.ai.search`, :mod:`bot.engine.ai.trains_search`)
samples a world at a time and plays every candidate still in play in it. The work budget is
split into rounds (``ceil(log2(candidates))``, one without ``halving``); after each
round the worse half of the candidates still in play is dropped, so the best few get
most of the worlds. The search stops when the budget or the world cap is spent, or at
the deadline, a safety net on the clock of ``time.thread_time`` (the deciding thread's
CPU time): when the budget runs out first, a decision depends only on the view and
the ``random.Random`` given.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..moves import Move

if TYPE_CHECKING:
    from .search import SearchSettings


def rank(
    moves: Sequence[Move],
    score: Callable[[Sequence[Move]], list[float]],
    search: Callable[[list[Move]], Halving],
    rng: random.Random,
    settings: SearchSettings,
) -> list[tuple[Move, float]]:
    """The candidates (the ``candidates`` best ``moves`` by ``score``, the normal level's)
    and their mean values after a search over them, best first (ties: the normal
    level's order). ``search`` sets up one decision's search of the candidates."""
    deadline = time.thread_time() + settings.seconds
    scores = score(moves)
    order = sorted(range(len(moves)), key=lambda i: -scores[i])
    candidates = [moves[i] for i in order[: max(1, settings.candidates)]]
    if len(candidates) == 1:
        return [(candidates[0], 0.0)]
    found = search(candidates)
    found.run(rng, deadline)
    means = found.means()
    return [(candidates[j], means[j]) for j in found.ranking()]


class Halving:
    """One decision's candidates (by index), their values and the loop that spends its
    budget.

    A search plays one world in :meth:`_world`, adding each candidate's value to
    :attr:`totals` and :attr:`counts` and what it cost to :attr:`work`.
    """

    protected: int | None = None
    """A candidate never dropped (``None``: any may be). With one, the candidates kept
    after a round are in index order, else best first."""

    def __init__(self, count: int, settings: SearchSettings) -> None:
        self.settings = settings
        self.work = 0.0
        """Work units spent."""
        self.worlds = 0
        """Worlds played."""
        self.active = list(range(count))
        """The candidates still in play."""
        self.dropped: list[int] = []
        """The candidates dropped, the latest first."""
        self.totals = [0.0] * count
        """Each candidate's values summed over the worlds it was played in."""
        self.counts = [0] * count

    def _world(self, rng: random.Random, active: list[int]) -> None:
        """Sample one world and play the candidates ``active`` in it."""
        raise NotImplementedError

    def means(self) -> list[float]:
        """Each candidate's mean value over the worlds it was played in."""
        return [t / c if c else -math.inf for t, c in zip(self.totals, self.counts, strict=True)]

    def merit(self, j: int, means: list[float]) -> float:
        """What candidate ``j`` is ranked by: its mean."""
        return means[j]

    def ranking(self) -> list[int]:
        """Candidate indexes, best first: those still in play by :meth:`merit`, then the
        dropped ones, the latest dropped first."""
        means = self.means()
        return sorted(self.active, key=lambda j: (-self.merit(j, means), j)) + self.dropped

    def run(self, rng: random.Random, deadline: float) -> None:
        """Play worlds until the budget, the world cap or ``deadline`` (on the clock of
        ``time.thread_time``; at least one world is always played), halving the
        candidates in play after each round."""
        settings = self.settings
        clock = time.thread_time
        active = self.active
        rounds = max(1, math.ceil(math.log2(len(active)))) if settings.halving else 1
        for r in range(rounds):
            goal = settings.work * (r + 1) / rounds
            played = 0
            while self.worlds < settings.worlds and (not played or self.work < goal):
                if self.worlds and clock() > deadline:
                    return
                self._world(rng, active)
                self.worlds += 1
                played += 1
            if r + 1 < rounds and len(active) > 1:
                self._halve()

    def _halve(self) -> None:
        """Drop the worse half of the candidates in play (ties: the later index)."""
        means = self.means()
        active = self.active
        active.sort(key=lambda j: (-means[j], j))
        keep = (len(active) + 1) // 2
        protected = self.protected
        if protected is None:
            self.dropped[:0] = active[keep:]
            del active[keep:]
        else:
            self.dropped[:0] = [j for j in active[keep:] if j != protected]
            active[:] = sorted(set(active[:keep]) | {protected})
