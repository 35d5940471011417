"""The ``hard`` level: determinized Monte Carlo search under hidden information.

Each iteration samples a *world* (a guess at every hidden tile consistent with
the public history, :mod:`bot.engine.ai.determinize`; with ``infer``, drawn from
a few by how well they explain the tiles other seats chose to lay), builds it as a deal, and
plays every candidate move in it. What follows each candidate is valued:

* exactly, when the rest can be solved (:mod:`bot.engine.ai.solver`: line
  layouts, two sides, few tiles left): both sides then play perfectly *in that
  world*;
* otherwise by a playout (:mod:`bot.engine.ai.rollout`), which hands over to
  the exact solver once few enough tiles are left, where it can.

The playouts of one world share their random numbers, so candidates are
compared on equal terms. A finished deal is valued by its scoring mode from the
mover's side (:mod:`bot.engine.ai.evaluate`); the candidate with the best mean
wins. Candidates are the normal level's best few moves, so long latvian move
lists stay affordable, and share the budget by sequential halving
(:mod:`bot.engine.ai.halving`).

Effort is counted in deterministic *work units* (about a microsecond each on the
machine the defaults were tuned on): a sampled world, a playout move and a solver
node each cost a fixed number. Search stops when the work budget or the world
cap is spent, or at the ``seconds`` deadline, a safety net: when the budget runs
out first, a decision depends only on the view and the ``random.Random`` given.
The deadline counts the CPU time of the deciding thread (``time.thread_time``),
not the wall clock, so a busy machine (other processes, other threads, waiting
for the GIL) slows a decision down but does not cut its search short.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import partial

from ..deal import Deal
from ..moves import Move
from ..rules import Rules
from .determinize import (
    build_deal,
    fixed_groups,
    play_weight,
    sample_world,
    signal_table,
    tile_heft,
)
from .evaluate import MATCH_BONUS, WIN_BONUS, deal_value
from .halving import Halving, rank
from .knowledge import Knowledge
from .normal import score_moves
from .rollout import hand_set_for, playout, weights_for
from .solver import LineSolver, SearchLimit, solvable

WORLD_COST = 20
"""Work units to sample and build one world, plus ``TILE_COST`` per unseen tile."""
TILE_COST = 2
CANDIDATE_COST = 5
"""Work units to set up and value one candidate in one world."""
MOVE_COST = 10
"""Work units per move of a playout; more in all fives (the count is worked out for
every legal move) and latvian (long move lists)."""
FIVES_MOVE_COST = 23
LATVIAN_MOVE_COST = 36
NODE_COST = 1.4
"""Work units per node of the exact solver."""


SIGNALS: dict[tuple[str, int], float] = {("block", 2): 1.5}
"""``SearchSettings.signal`` by game and number of players where reading signals
measured better than not (docs/AI.md, "The live settings"); off elsewhere."""


THEIR_TUNED: dict[tuple[str, int], bool] = {("latvian", 4): False}
"""``SearchSettings.their_tuned`` by game and number of players where the hand-set
weights measured better for the other sides' seats (docs/AI.md, "The live settings");
elsewhere as ``tuned``."""


def their_tuned_for(rules: Rules, settings: SearchSettings) -> bool:
    """Whether the other sides' seats play out with the tuned weights in a game of
    ``rules``."""
    their = settings.their_tuned
    return THEIR_TUNED.get((rules.game, rules.players), settings.tuned) if their is None else their


def signal_for(rules: Rules, settings: SearchSettings) -> float:
    """The ``signal`` in force for a game of ``rules``."""
    signal = settings.signal
    return SIGNALS.get((rules.game, rules.players), 0.0) if signal is None else signal


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """How much the hard level searches (Mexican Train's hard level reads the budget,
    the deadline, ``candidates`` and ``halving``)."""

    work: int = 150_000
    """Work units per decision (see the module docstring)."""
    worlds: int = 500
    """Sampled worlds at most (each plays every candidate once)."""
    seconds: float = 0.4
    """Deadline per decision, a safety net (at least one world is always played), in
    CPU seconds of the thread that decides (``time.thread_time``): time the thread
    spends waiting for a core or for the GIL does not count."""
    candidates: int = 8
    """Moves searched: the normal level's best ones."""
    epsilon: float = 0.1
    """Chance of a random move at each turn of a playout."""
    exact_tiles: int = 20
    """Solve exactly from the root when the hands hold this many tiles or fewer."""
    endgame_tiles: int = 16
    """Playouts hand over to the exact solver at this many tiles in hands."""
    solver_nodes: int = 30_000
    """Solver nodes per world at most; past it the world is valued by playouts."""
    win_bonus: float = WIN_BONUS
    """Points a won deal is worth beyond its margin (points and fives scoring)."""
    match_bonus: float = MATCH_BONUS
    """Points a deal that decides the match is worth beyond its margin (0: none, as a game
    review values moves in the deal's own points)."""
    halving: bool = True
    """Drop the worse half of the candidates after each round (sequential halving)."""
    infer: float = 0.3
    """Weigh worlds by the tiles the other seats chose to lay (0: off): a seat is taken
    to lay each tile it could with chance ``exp(infer * (pips + infer_double if a
    double))``; each world searched is drawn from ``infer_samples`` sampled ones by
    that likelihood (sampling-importance-resampling)."""
    infer_double: float = 3.0
    infer_samples: int = 4
    signal: float | None = None
    """Read the other seats' choices as signs of their long numbers too: players leave
    open the numbers they hold, so a placement keeping ``k`` tiles of the number it
    leaves open is taken ``exp(signal * k)`` times likelier (0: off; ``None``: the
    game's measured default, ``SIGNALS``)."""
    tuned: bool = True
    """Playouts use the weights tuned by self-play for the game (``rollout.TUNED``),
    else the hand-set defaults."""
    their_tuned: bool | None = None
    """The other sides' seats in playouts: the tuned weights, or the hand-set ones
    (which play much as the normal level does); ``None``: the game's measured default
    (``THEIR_TUNED``), else as ``tuned``."""


def rank_moves(
    know: Knowledge, rng: random.Random, settings: SearchSettings
) -> list[tuple[Move, float]]:
    """The candidates and their mean values over the sampled worlds, best first (ties:
    the normal level's order): the first is the hard level's move."""
    search = partial(_Search, know, settings=settings)
    return rank(know.legal, partial(score_moves, know), search, rng, settings)


class _Search(Halving):
    """One decision's search: the candidates' summed values and the work spent."""

    def __init__(self, know: Knowledge, candidates: list[Move], settings: SearchSettings) -> None:
        super().__init__(len(candidates), settings)
        rules = know.rules
        self.know = know
        self.candidates = candidates
        self.side = rules.side_of(know.seat)
        self.world_cost = WORLD_COST + TILE_COST * know.unseen.bit_count()
        self.move_cost = (
            LATVIAN_MOVE_COST
            if rules.game == "latvian"
            else FIVES_MOVE_COST
            if rules.scoring == "fives"
            else MOVE_COST
        )
        self.solve_root = sum(know.hand_sizes) <= settings.exact_tiles
        """Solve each world exactly from the root (until one proves too big)."""
        self.solve_end = settings.endgame_tiles >= 0
        """Hand playouts over to the solver (until one proves too big)."""
        own = weights_for(rules) if settings.tuned else hand_set_for(rules)
        other = weights_for(rules) if their_tuned_for(rules, settings) else hand_set_for(rules)
        self.weights = [
            own if rules.side_of(s) == self.side else other for s in range(rules.players)
        ]
        """Each seat's playout weights."""
        self.fixed = fixed_groups(know)
        """What each other hand may hold, when the same in every world."""
        self.samples = 1
        """Worlds sampled for each one searched (more when the choices are read)."""
        self.heft: tuple[float, ...] = ()
        self.signal: dict[int, tuple[float, ...]] = {}
        if settings.infer > 0 and settings.infer_samples > 1 and any(c.exact for c in know.choices):
            self.samples = settings.infer_samples
            self.heft = tile_heft(settings.infer, settings.infer_double, know.every.bit_length())
            gamma = signal_for(rules, settings)
            if gamma > 0:
                others = [s for s in range(rules.players) if s != know.seat]
                self.signal = dict.fromkeys(others, signal_table(gamma))

    def _world(self, rng: random.Random, active: list[int]) -> None:
        """Sample one world and play the candidates ``active`` in it."""
        base = self._sample(rng)
        seed = rng.getrandbits(64)
        self.work += CANDIDATE_COST * len(active)
        moves = [self.candidates[j] for j in active]
        exact = solvable(base)
        values = self._solve_all(base, moves) if exact and self.solve_root else None
        if values is None:
            values = self._playouts(base, moves, seed, exact and self.solve_end)
        for j, v in zip(active, values, strict=True):
            self.totals[j] += v
            self.counts[j] += 1

    def _sample(self, rng: random.Random) -> Deal:
        """One world (drawn by how well it explains the choices, with ``infer``), built as
        a deal at the decision; its cost is counted."""
        know = self.know
        fixed = self.fixed
        world = sample_world(know, rng, fixed)
        if self.samples > 1:
            pool = [world] + [sample_world(know, rng, fixed) for _ in range(self.samples - 1)]
            weights = [play_weight(know, w, self.heft, self.signal) for w in pool]
            world = rng.choices(pool, weights)[0]
        self.work += self.world_cost * self.samples
        return build_deal(know, world)

    def _solver(self, base: Deal) -> LineSolver:
        """A solver for the world of ``base``, within the budget left."""
        s = self.settings
        budget = max(1, min(s.solver_nodes, int((s.work - self.work) / NODE_COST)))
        return LineSolver(base, self.side, budget, s.win_bonus, s.match_bonus)

    def _solve_all(self, base: Deal, moves: list[Move]) -> list[float] | None:
        """Exact values of every candidate in one world, or ``None`` past the node budget."""
        solver = self._solver(base)
        try:
            return [solver.after(base, move) for move in moves]
        except SearchLimit:
            self.solve_root = False  # too big to solve: playouts from here on
            return None
        finally:
            self.work += solver.nodes * NODE_COST

    def _playouts(self, base: Deal, moves: list[Move], seed: int, solve_end: bool) -> list[float]:
        """Each candidate valued by one playout (the same random numbers for all), handed
        over to the exact solver at ``endgame_tiles`` when ``solve_end``."""
        settings = self.settings
        side = self.side
        epsilon = settings.epsilon
        solver = self._solver(base) if solve_end else None
        values = []
        for move in moves:
            deal = base.copy()
            deal.push(move)
            rng = random.Random(seed)
            until = settings.endgame_tiles if solver is not None else -1
            voids = list(self.know.voids)
            self.work += self.move_cost * playout(deal, rng, epsilon, until, voids, self.weights)
            if deal.end is None and solver is not None:
                before = solver.nodes
                try:
                    values.append(solver.value(deal))
                    continue
                except SearchLimit:
                    self.solve_end = False  # endgames too big here: plain playouts
                finally:
                    self.work += (solver.nodes - before) * NODE_COST
                solver = None
                self.work += self.move_cost * playout(deal, rng, epsilon, -1, voids, self.weights)
            values.append(deal_value(deal, side, settings.win_bonus, settings.match_bonus))
        return values
