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
lists stay affordable.

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

import math
import random
import time
from dataclasses import dataclass

from ..deal import Deal
from ..moves import Move
from ..rules import Rules
from ..tiles import SUIT_MASKS
from .choice_model import FITTED, ChoiceReader
from .determinize import (
    build_deal,
    fixed_groups,
    play_weight,
    sample_world,
    signal_table,
    tile_heft,
)
from .evaluate import WIN_BONUS, deal_value
from .fusion import Fusion, Replies, applies, positions, reply_values
from .knowledge import Knowledge
from .long_signal import left_open, long_move, long_weight
from .maxn import MaxnSolver
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
"""The measured default of ``SearchSettings.signal`` by game and number of players
(docs/AI.md, issue 17, fourth round: 2-player block against the normal level, 1,600
games, paired +1.3 ± 1.3 points of win rate and +0.42 ± 0.28 points of margin; no
gain measured against ``dominoes``' alphabeta in 4-player teams); off elsewhere."""


THEIR_TUNED: dict[tuple[str, int], int] = {("latvian", 4): 0}
"""The measured default of ``SearchSettings.their_tuned`` by game and number of players
(docs/AI.md, issue 17, twelfth round: 4-player latvian against the normal level, the
other seats played out with the hand-set weights, 4,000 games, paired +1.4 ± 0.8 points
of win rate, margin level); elsewhere as ``tuned``."""


def their_tuned_for(rules: Rules, settings: SearchSettings) -> bool:
    """Whether the other sides' seats play out with the tuned weights in a game of
    ``rules``."""
    if settings.their_tuned >= 0:
        return settings.their_tuned > 0
    default = THEIR_TUNED.get((rules.game, rules.players))
    return settings.tuned if default is None else default > 0


MODELS: dict[tuple[str, int], float] = {}
"""The measured default of ``SearchSettings.model`` by game and number of players."""


def model_for(rules: Rules, settings: SearchSettings) -> float:
    """The scale of the fitted choice model in force for a game of ``rules`` (0: off)."""
    if (rules.game, rules.players) not in FITTED:
        return 0.0
    if settings.model >= 0:
        return settings.model
    return MODELS.get((rules.game, rules.players), 0.0)


def signal_for(rules: Rules, settings: SearchSettings) -> float:
    """The ``signal`` in force for a game of ``rules``."""
    if settings.signal >= 0:
        return settings.signal
    return SIGNALS.get((rules.game, rules.players), 0.0)


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """How much the hard level searches."""

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
    their_epsilon: float = -1.0
    """The same for the other sides' seats (negative: ``epsilon``): an experiment, to
    measure what playing the deal out as the opponents really play is worth."""
    exact_tiles: int = 20
    """Solve exactly from the root when the hands hold this many tiles or fewer."""
    endgame_tiles: int = 16
    """Playouts hand over to the exact solver at this many tiles in hands."""
    solver_nodes: int = 30_000
    """Solver nodes per world at most; past it the world is valued by playouts."""
    win_bonus: float = WIN_BONUS
    """Points a won deal is worth beyond its margin (points and fives scoring)."""
    halving: bool = True
    """Drop the worse half of the candidates after each round (sequential halving)."""
    infer: float = 0.3
    """Weigh worlds by the tiles the other seats chose to lay (0: off): a seat is taken
    to lay each tile it could with chance ``exp(infer * (pips + infer_double if a
    double))``; each world searched is drawn from ``infer_samples`` sampled ones by
    that likelihood (sampling-importance-resampling)."""
    infer_double: float = 3.0
    infer_samples: int = 4
    infer_random: float = 0.0
    """Prior chance that a seat chooses its tiles at random rather than heavy first; the
    two models are mixed seat by seat (:func:`~bot.engine.ai.determinize.play_weight`),
    so the choices of a seat that does not play heavy first soon count for little."""
    infer_partner: float = -1.0
    """``infer`` for the partner's choices (negative: ``infer``). A partner that follows
    the ``convention`` below is read more sharply than an unknown player."""
    convention: float = 0.0
    """Partnership convention: between the two finalists of the search, when their means
    are within this many points, lay the heavier tile (pips, plus ``infer_double`` for
    a double), or with ``signal`` the one that leaves open the number the hand keeps
    most of, so the partner reads the hand better (0: off)."""
    signal: float = -1.0
    """Read the other seats' choices as signs of their long numbers too (and signal so
    under the ``convention``): players leave open the numbers they hold, so a placement
    keeping ``k`` tiles of the number it leaves open is taken ``exp(signal * k)`` times
    likelier (0: off; negative: the game's measured default, ``SIGNALS``)."""
    model: float = -1.0
    """Read the other seats' choices with the fitted choice model
    (:mod:`~bot.engine.ai.choice_model`) in place of heavy-first and ``signal``, its
    weights times this scale (0: off; negative: the game's measured default,
    ``MODELS``; a game with no fitted weights reads heavy-first)."""
    fusion: bool = False
    """Two players, no drawing: take the mover's next decision once for all the worlds
    where it sees the same reply (:mod:`~bot.engine.ai.fusion`), not world by world."""
    paranoid: bool = False
    """With three sides or more (3-player draw), solve worlds exactly too, as if the
    other sides played together against the mover's."""
    maxn: bool = False
    """With three sides or more, solve worlds exactly too, each seat playing for its own
    side (:mod:`~bot.engine.ai.maxn`; it takes the place of ``paranoid``)."""
    show_long: float = 0.0
    """Partnership convention (:mod:`~bot.engine.ai.long_signal`): lay a tile that leaves
    open a number the hand keeps most of when one is valued within this many points of
    the best move (0: off; when on, it takes the place of ``convention``)."""
    read_long: float = 0.0
    """Read the partner's choices under that convention: a world where the partner could
    have left open its long number and did not is ``exp(-read_long)`` times less likely
    (0: off; it weighs the sampled worlds with ``infer``'s resampling)."""
    chance: float = 0.0
    """An experiment: the exact solver takes the other side's seats to lay at random with
    this chance, their best move otherwise (:class:`~bot.engine.ai.solver.LineSolver`'s
    ``chance``; 1.0: expectimax, the best reply to random players; two sides)."""
    plies: int = 0
    """Search the first this many moves, the candidate's included, as one tree over the
    worlds (:mod:`~bot.engine.ai.tree_search`), not world by world (0 or 1: off)."""
    explore: float = 10.0
    """The tree search's exploration constant (UCB1), in points of the deal."""
    tuned: bool = True
    """Playouts use the weights tuned by self-play for the game (``rollout.TUNED``),
    else the hand-set defaults."""
    their_tuned: int = -1
    """The other sides' seats in playouts: 1 the tuned weights, 0 the hand-set ones
    (which play much as the normal level does), negative: the game's measured default
    (``THEIR_TUNED``), else as ``tuned``."""


def hard_move(know: Knowledge, rng: random.Random, settings: SearchSettings) -> Move:
    """The candidate with the best mean value over sampled worlds."""
    if len(know.legal) == 1:
        return know.legal[0]
    ranked = rank_moves(know, rng, settings)
    if settings.show_long > 0:
        return long_move(know, ranked, settings.show_long)
    best, value = ranked[0]
    if settings.convention > 0 and len(ranked) > 1:
        other, second = ranked[1]
        if value - second <= settings.convention and signal_of(know, other, settings) > (
            signal_of(know, best, settings)
        ):
            return other
    return best


def signal_of(know: Knowledge, move: Move, settings: SearchSettings) -> tuple[int, float]:
    """What laying ``move`` tells a partner under the convention: the tiles kept that
    carry the number it leaves open (with ``signal``), then its heft."""
    kept = 0
    exposed = left_open(know, move)
    if signal_for(know.rules, settings) > 0 and exposed is not None:
        kept = (know.hand & ~(1 << move.tile) & SUIT_MASKS[exposed]).bit_count()
    return kept, heft_of(move, settings)


def heft_of(move: Move, settings: SearchSettings) -> float:
    """How heavy a tile looks to the heavy-first reading of choices."""
    tile = move.tile
    return tile.pips + (settings.infer_double if tile.is_double else 0.0)


def rank_moves(
    know: Knowledge, rng: random.Random, settings: SearchSettings
) -> list[tuple[Move, float]]:
    """The candidates and their mean values over the sampled worlds, best first (ties:
    the normal level's order)."""
    deadline = time.thread_time() + settings.seconds
    moves = know.legal
    scores = score_moves(know, moves)
    order = sorted(range(len(moves)), key=lambda i: -scores[i])
    candidates = [moves[i] for i in order[: max(1, settings.candidates)]]
    if len(candidates) == 1:
        return [(candidates[0], 0.0)]
    if settings.plies > 1:
        from .tree_search import TreeSearch  # it builds on _Search

        search: _Search = TreeSearch(know, candidates, settings)
    else:
        search = _Search(know, candidates, settings)
    means = search.run(rng, deadline)
    return [(candidates[j], means[j]) for j in search.ranking()]


class _Search:
    """One decision's search: the candidates' summed values and the work spent."""

    def __init__(self, know: Knowledge, candidates: list[Move], settings: SearchSettings) -> None:
        rules = know.rules
        self.know = know
        self.candidates = candidates
        self.settings = settings
        self.side = rules.side_of(know.seat)
        self.world_cost = WORLD_COST + TILE_COST * know.unseen.bit_count()
        self.move_cost = (
            LATVIAN_MOVE_COST
            if rules.game == "latvian"
            else FIVES_MOVE_COST
            if rules.scoring == "fives"
            else MOVE_COST
        )
        self.work = 0.0
        self.worlds = 0
        self.totals: list[float] = []
        self.counts: list[int] = []
        self.active: list[int] = []
        self.dropped: list[int] = []
        self.solve_root = sum(know.hand_sizes) <= settings.exact_tiles
        """Solve each world exactly from the root (until one proves too big)."""
        self.solve_end = settings.endgame_tiles >= 0
        """Hand playouts over to the solver (until one proves too big)."""
        theirs = settings.epsilon if settings.their_epsilon < 0 else settings.their_epsilon
        self.epsilons = [
            settings.epsilon if rules.side_of(s) == self.side else theirs
            for s in range(rules.players)
        ]
        """Each seat's chance of a random move in playouts."""
        self.many = settings.paranoid or settings.maxn
        """Solve worlds with three sides or more."""
        self.fusion = Fusion(len(candidates)) if settings.fusion and applies(rules) else None
        """The worlds' values reply by reply (see :mod:`~bot.engine.ai.fusion`)."""
        own = weights_for(rules) if settings.tuned else hand_set_for(rules)
        other = weights_for(rules) if their_tuned_for(rules, settings) else hand_set_for(rules)
        self.weights = [
            own if rules.side_of(s) == self.side else other for s in range(rules.players)
        ]
        """Each seat's playout weights."""
        self.fixed = fixed_groups(know)
        """What each other hand may hold, when the same in every world."""
        self.samples = 1
        self.partners = frozenset(
            s for s in range(rules.players) if s != know.seat and rules.side_of(s) == self.side
        )
        self.heft: tuple[float, ...] = ()
        self.seat_heft: dict[int, tuple[float, ...]] = {}
        self.signal: dict[int, tuple[float, ...]] = {}
        self.reader: ChoiceReader | None = None
        if settings.infer > 0 and settings.infer_samples > 1 and any(c.exact for c in know.choices):
            self.samples = settings.infer_samples
            count = know.every.bit_length()
            self.heft = tile_heft(settings.infer, settings.infer_double, count)
            if settings.infer_partner >= 0:
                partner = tile_heft(settings.infer_partner, settings.infer_double, count)
                self.seat_heft = dict.fromkeys(self.partners, partner)
            others = {s for s in range(rules.players) if s != know.seat}
            gamma = signal_for(rules, settings)
            if gamma > 0:
                self.signal = dict.fromkeys(others, signal_table(gamma))
            scale = model_for(rules, settings)
            if scale > 0:
                weights = FITTED[rules.game, rules.players]
                self.reader = ChoiceReader(know, others, weights, scale, settings.infer_random)

    def run(self, rng: random.Random, deadline: float) -> list[float]:
        """Search until the budget, the world cap or the deadline; the mean value of
        each candidate over the worlds it was played in.

        Sequential halving: the budget is split into rounds; after each round the
        worse half of the candidates still in play is dropped, so the best few get
        most of the worlds. All candidates in play share every world. ``deadline`` is
        on the clock of ``time.thread_time`` (this thread's CPU time).
        """
        settings = self.settings
        clock = time.thread_time
        n = len(self.candidates)
        self.totals = [0.0] * n
        self.counts = [0] * n
        active = self.active = list(range(n))
        rounds = max(1, math.ceil(math.log2(n))) if settings.halving else 1
        for r in range(rounds):
            goal = settings.work * (r + 1) / rounds
            played = 0
            while self.worlds < settings.worlds and (not played or self.work < goal):
                if self.worlds and clock() > deadline:
                    return self._means()
                self._world(rng, active)
                played += 1
            if r + 1 < rounds and len(active) > 1:
                means = self._means()
                active.sort(key=lambda j: (-means[j], j))
                keep = (len(active) + 1) // 2
                self.dropped[:0] = active[keep:]
                del active[keep:]
        return self._means()

    def _means(self) -> list[float]:
        fusion = self.fusion
        if fusion is not None:
            return [fusion.mean(j) if c else -math.inf for j, c in enumerate(self.counts)]
        return [t / c if c else -math.inf for t, c in zip(self.totals, self.counts, strict=True)]

    def ranking(self) -> list[int]:
        """Candidate indexes, best first: those still in play by mean, then the dropped
        ones, the latest dropped first."""
        means = self._means()
        return sorted(self.active, key=lambda j: (-means[j], j)) + self.dropped

    def _world(self, rng: random.Random, active: list[int]) -> None:
        """Sample one world and play the candidates ``active`` in it."""
        base = self._sample(rng)
        seed = rng.getrandbits(64)
        self.work += CANDIDATE_COST * len(active)
        moves = [self.candidates[j] for j in active]
        exact = solvable(base, self.many)
        fusion = self.fusion
        if fusion is not None and exact and self.solve_root:
            replies = self._solve_replies(base, moves)
            if replies is not None:
                for j, entry in zip(active, replies, strict=True):
                    fusion.add(j, entry)
                    self.work += CANDIDATE_COST * positions(entry)
                    self.counts[j] += 1
                return
        values = self._solve_all(base, moves) if exact and self.solve_root else None
        if values is None:
            values = self._playouts(base, moves, seed, exact and self.solve_end)
        for j, v in zip(active, values, strict=True):
            self.totals[j] += v
            self.counts[j] += 1
            if fusion is not None:
                fusion.add(j, v)

    def _sample(self, rng: random.Random) -> Deal:
        """One world (drawn by how well it explains the choices, with ``infer``), built as
        a deal at the decision; its cost is counted."""
        know = self.know
        fixed = self.fixed
        world = sample_world(know, rng, fixed)
        if self.samples > 1:
            pool = [world] + [sample_world(know, rng, fixed) for _ in range(self.samples - 1)]
            reader = self.reader
            if reader is not None:
                weights = [reader.weight(w.hands) for w in pool]
            else:
                weights = [
                    play_weight(
                        know, w, self.heft, self.settings.infer_random, self.seat_heft, self.signal
                    )
                    for w in pool
                ]
            if self.settings.read_long > 0:
                strength = self.settings.read_long
                weights = [
                    w * long_weight(know, x, self.partners, strength)
                    for w, x in zip(weights, pool, strict=True)
                ]
            world = rng.choices(pool, weights)[0]
        self.work += self.world_cost * self.samples
        self.worlds += 1
        return build_deal(know, world)

    def _solver(self, base: Deal) -> LineSolver:
        """A solver for the world of ``base`` (max^n with ``maxn`` and three sides or more),
        within the budget left."""
        budget = self._node_budget()
        bonus = self.settings.win_bonus
        if self.settings.maxn and len(self.know.rules.sides) > 2:
            return MaxnSolver(base, self.side, budget, bonus)
        return LineSolver(base, self.side, budget, bonus, self.settings.chance)

    def _node_budget(self) -> int:
        left = (self.settings.work - self.work) / NODE_COST
        return max(1, min(self.settings.solver_nodes, int(left)))

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

    def _solve_replies(self, base: Deal, moves: list[Move]) -> list[Replies] | None:
        """:func:`~bot.engine.ai.fusion.reply_values` of every candidate in one world, or
        ``None`` past the node budget."""
        bonus = self.settings.win_bonus
        solver = LineSolver(base, self.side, self._node_budget(), bonus)
        try:
            return [reply_values(base, move, solver, bonus) for move in moves]
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
        stop = settings.endgame_tiles if solve_end else -1
        solver = self._solver(base) if solve_end else None
        values = []
        for move in moves:
            deal = base.copy()
            deal.push(move)
            rng = random.Random(seed)
            until = stop if solver is not None else -1
            voids = list(self.know.voids)
            self.work += self.move_cost * playout(
                deal, rng, self.epsilons, until, voids, self.weights
            )
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
                self.work += self.move_cost * playout(
                    deal, rng, self.epsilons, -1, voids, self.weights
                )
            values.append(deal_value(deal, side, settings.win_bonus))
        return values
