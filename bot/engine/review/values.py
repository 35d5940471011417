"""Every candidate move of one decision valued two ways: from what the mover could know,
and with every hand open.

* **known**: the hard level's own search (:class:`bot.engine.ai.search._Search`, Mexican
  Train's :class:`bot.engine.ai.trains_search._TrainSearch`) over worlds sampled from the
  mover's :class:`PlayerView` alone, every candidate played in every world (no halving),
  valued in the deal's own points (no bonus for winning the deal or the match);
* **open**: the real deal, every hand and the boneyard as they were. Exact where the
  line solver covers it (block and draw on a line, two sides, within its node budget);
  otherwise the mean of a few playouts of the real deal after each move (the hard level's
  playout policy, the same random numbers for every move), an estimate.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, replace

from ..ai.evaluate import deal_value
from ..ai.halving import Halving
from ..ai.knowledge import read_view
from ..ai.normal import score_moves
from ..ai.rollout import playout
from ..ai.search import SearchSettings, _Search
from ..ai.solver import LineSolver, SearchLimit, solvable
from ..ai.trains_normal import read_trains, score_train_moves
from ..ai.trains_search import _TrainSearch, round_value
from ..ai.trains_search import playout as train_playout
from ..deal import Deal
from ..mexican import TrainDeal
from ..moves import Move
from ..view import view
from .replay import Step

KNOWN = SearchSettings(
    work=250_000,
    worlds=400,
    seconds=60.0,
    candidates=12,
    halving=False,
    win_bonus=0.0,
    match_bonus=0.0,
)
"""The known side's search: the hard level's, every candidate in every world, valued in
the deal's own points; the budget (not the clock, a safety net) ends it, so a review is
deterministic."""


@dataclass(frozen=True, slots=True)
class ReviewSettings:
    """How hard a review looks at each decision."""

    known: SearchSettings = KNOWN
    """The known side's search (``candidates``: moves valued at most, the normal level's
    best ones and the move played)."""
    mexican_work: int = 250_000
    """Mexican Train's known budget per decision (its rounds are long)."""
    open_nodes: int = 150_000
    """The open side's solver nodes per decision; past it, playouts."""
    open_playouts: int = 16
    """Playouts per move where the open side estimates."""
    open_epsilon: float = 0.1
    """Chance of a random move at each turn of those playouts (the first one has none)."""


@dataclass(frozen=True, slots=True)
class Valued:
    """One decision's candidates and their values (same order), and how they were got."""

    moves: tuple[Move, ...]
    known: tuple[float, ...]
    open: tuple[float, ...]
    open_exact: bool
    trimmed: bool
    """Only the most promising moves were valued (a very long move list)."""
    worlds: int


def value_step(step: Step, rng: random.Random, settings: ReviewSettings) -> Valued:
    """Value the candidates of one decision (a :class:`Step` with a choice)."""
    deal = step.deal
    mexican = isinstance(deal, TrainDeal)
    seen = view(step.before, step.seat)
    legal = list(seen.legal_moves)
    known = settings.known
    search: Halving
    if mexican:
        tknow = read_trains(seen)
        candidates = _candidates(
            legal, score_train_moves(tknow, legal), step.move, known.candidates
        )
        search = _TrainSearch(tknow, candidates, replace(known, work=settings.mexican_work))
    else:
        know = read_view(seen)
        candidates = _candidates(legal, score_moves(know, legal), step.move, known.candidates)
        search = _Search(know, candidates, known)
    search.run(rng, time.thread_time() + known.seconds)
    means = search.means()
    seed = rng.getrandbits(64)
    opened, exact = open_values(deal, candidates, seed, settings)
    return Valued(
        tuple(candidates),
        tuple(means),
        tuple(opened),
        exact,
        len(candidates) < len(legal),
        search.worlds,
    )


def _candidates(legal: list[Move], scores: list[float], played: Move, cap: int) -> list[Move]:
    """The normal level's best ``cap`` moves, best first, and the move played."""
    order = sorted(range(len(legal)), key=lambda i: -scores[i])
    chosen = [legal[i] for i in order[: max(2, cap)]]
    mine = played.canonical()
    if mine not in chosen:
        chosen.append(mine)
    return chosen


def open_values(
    deal: Deal, moves: list[Move], seed: int, settings: ReviewSettings
) -> tuple[list[float], bool]:
    """Each move's value with every hand open, for the seat to move, and whether exact."""
    if not isinstance(deal, TrainDeal) and solvable(deal):
        solver = LineSolver(deal, deal.rules.side_of(deal.turn), settings.open_nodes, 0.0, 0.0)
        try:
            return [solver.after(deal, m) for m in moves], True
        except SearchLimit:
            pass
    # else the mean of a few playouts of the real deal after each move
    seat = deal.turn
    side = deal.rules.side_of(seat)
    values = []
    for move in moves:
        total = 0.0
        for k in range(settings.open_playouts):
            d = deal.copy()
            d.push(move)
            rng = random.Random(seed + k)
            epsilon = settings.open_epsilon if k else 0.0
            if isinstance(d, TrainDeal):
                train_playout(d, rng, epsilon)
                total += round_value(d, seat)
            else:
                playout(d, rng, epsilon)
                total += deal_value(d, side, 0.0, 0.0)
        values.append(total / settings.open_playouts)
    return values, False
