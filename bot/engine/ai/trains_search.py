"""Mexican Train's ``hard`` level: determinized Monte Carlo search from the seat's view.

Each iteration samples a *world*: the unseen tiles (not in the seat's hand, not on
the trains, not the engine) dealt to the other hands at their public sizes and the
rest to the boneyard in a random order, such that no seat holds a tile its draws and
passes prove it lacks (:attr:`TrainKnowledge.lacks`). The world is rebuilt as a
:class:`TrainDeal` (:meth:`TrainDeal.position`), every candidate move (the normal
level's best few) is played in it, and a playout finishes the round: every seat
plays the normal level's scoring with its chain planned once (:class:`Planner`), from
its own hand and the table, with no random moves (``EPSILON``). Every candidate is
played on the same worlds with the same playouts (common random numbers), so the
differences between candidates are not swamped by the worlds' spread. A finished
round is valued from the seat's side: the other seats' mean pips minus its own
(going out is 0 pips). Sequential halving (:mod:`bot.engine.ai.halving`) drops the
worse half of the candidates after each round of the budget, never the normal level's
choice; a candidate other than that one must beat it by ``PRIOR_Z`` standard errors of
their paired difference.

Effort is counted in deterministic work units (about a microsecond each on the
machine the defaults were measured on), as in :mod:`bot.engine.ai.search`: when the
work budget or the world cap runs out before the CPU-time deadline (the safety
net), a decision depends only on the view and the ``random.Random``.
"""

from __future__ import annotations

import math
import random
from functools import partial

from ..mexican import TrainDeal
from ..moves import Move
from ..tiles import PIPS, SUIT_MASKS, Tile, mask_of, mask_pips, tiles_in
from .halving import Halving, rank
from .search import SearchSettings
from .trains_normal import (
    BARE_DOUBLE,
    CHAIN,
    CHAIN_PIP,
    CLOSE,
    TrainKnowledge,
    longest_chain,
    score_train_moves,
)

WORLD_COST = 30
"""Work units to sample and build one world, plus ``TILE_COST`` per unseen tile and
other seat (each other hand is drawn from the unseen tiles)."""
TILE_COST = 0.25
CANDIDATE_COST = 10
MOVE_COST = 14
"""Work units per move of a playout (the engine's draws and passes included)."""
NODE_COST = 1
"""Work units per node of a chain search in the playout policy."""
PLAN_COST = 10
"""Work units per chain search (as nodes), besides its nodes."""
EPSILON = 0.0
"""Chance of a random move at each turn of a playout."""
PRIOR_Z = 0.5
"""A candidate other than the normal level's choice must beat it by this many standard
errors of the paired difference (same worlds, same playout random numbers)."""
HORIZON = 2
"""Playout moves per seat at most (0: to the round's end); then the hands are valued
with their chains (:func:`round_value`)."""
LEAF_CHAIN = 0.5
"""At the horizon, each hand counts its pips less this share of its plan's pips."""
ATTEMPTS = 8
"""Random fills tried before the draws' and passes' constraints are dropped."""

PLAYOUT_CHAIN_NODES = 600
"""Chain search nodes per plan in playouts."""


def sample_hands(know: TrainKnowledge, rng: random.Random) -> tuple[list[int], list[Tile]]:
    """A random world: every seat's hand (the viewer's as it is) and the boneyard, top first.

    The most constrained seats are filled first; after ``ATTEMPTS`` dead ends the
    constraints are dropped (never seen in play: the boneyard takes the rest).
    """
    n = know.rules.players
    order = sorted(
        (s for s in range(n) if s != know.seat),
        key=lambda s: (know.unseen & ~know.lacks[s]).bit_count() - know.hand_sizes[s],
    )
    for attempt in range(ATTEMPTS + 1):
        relaxed = attempt == ATTEMPTS
        pool = know.unseen
        hands = [0] * n
        hands[know.seat] = know.hand
        for s in order:
            allowed = pool if relaxed else pool & ~know.lacks[s]
            tiles = list(tiles_in(allowed))
            size = know.hand_sizes[s]
            if len(tiles) < size:
                break
            mask = mask_of(rng.sample(tiles, size))
            hands[s] = mask
            pool &= ~mask
        else:
            rest = list(tiles_in(pool))
            rng.shuffle(rest)
            return hands, rest
    raise AssertionError("hand sizes do not add up")


def build_train_deal(know: TrainKnowledge, hands: list[int], boneyard: list[Tile]) -> TrainDeal:
    """The world as a round ready for playouts, the viewer to move."""
    return TrainDeal.position(
        know.rules, know.number, know.station, hands, boneyard, know.seat, know.forced
    )


class Planner:
    """The playout policy: the normal level's scoring with each seat's chain planned once.

    Every seat keeps its longest chain from its own train's end (:func:`chain_path`) and
    replans only when its train's end moved other than along the plan or a tile of the
    plan left its hand (a drawn tile that fits the chain's last number lengthens it); a
    move is then scored like the normal level does it (pips laid, the chain kept whole,
    a marked own train closed, a double followed or not) without a chain search per
    move. One planner follows one playout (:meth:`copy` it to branch).
    """

    __slots__ = ("chains", "ends", "hands", "masks", "nodes", "pips", "rules_set", "tails")

    def __init__(self, deal: TrainDeal) -> None:
        n = deal.n
        self.rules_set = deal.rules.set
        self.chains: list[list[Tile]] = [[] for _ in range(n)]
        """Per seat, its plan: the chain's tiles from its own train's end, in order."""
        self.masks: list[int] = [0] * n
        """The plan's tiles as a mask."""
        self.pips: list[int] = [0] * n
        """The plan's pips."""
        self.ends: list[int] = [-1] * n
        """The own train's end each plan starts from (-1: no plan)."""
        self.tails: list[int] = [-1] * n
        """The number each plan ends on."""
        self.hands: list[int] = [0] * n
        """The hand each plan was last checked against (tiles drawn since are new)."""
        self.nodes = 0
        """Chain search nodes spent (work)."""

    def copy(self) -> Planner:
        """A planner for a branch of the playout (every per-seat list copied)."""
        new = Planner.__new__(Planner)
        for name in self.__slots__:
            value = getattr(self, name)
            setattr(new, name, value[:] if isinstance(value, list) else value)
        return new

    def plan(self, deal: TrainDeal, seat: int) -> list[Tile]:
        hand = deal.hands[seat]
        end = deal.station.ends[seat]
        if self.ends[seat] != end or self.masks[seat] & ~hand:
            path, nodes = chain_path(end, hand)
            self.nodes += nodes + PLAN_COST
            self.chains[seat] = path
            self.masks[seat] = mask_of(path)
            self.pips[seat] = sum(PIPS[t] for t in path)
            self.ends[seat] = end
            tail = end
            for t in path:
                tail = PIPS[t] - tail
            self.tails[seat] = tail
        else:
            new = hand & ~self.hands[seat]
            if new:  # drawn tiles: one that fits the chain's tail lengthens it
                fits = new & SUIT_MASKS[self.tails[seat]]
                if fits:
                    t = Tile(fits.bit_length() - 1)
                    self.chains[seat] = [*self.chains[seat], t]
                    self.masks[seat] |= 1 << t
                    self.pips[seat] += PIPS[t]
                    self.tails[seat] = PIPS[t] - self.tails[seat]
        self.hands[seat] = hand
        return self.chains[seat]

    def choose(self, deal: TrainDeal, moves: list[Move]) -> Move:
        """The best move for the seat to move by the normal level's scoring, approximated."""
        seat = deal.turn
        hand = deal.hands[seat]
        chain = self.plan(deal, seat)
        length = len(chain)
        chain_pips = self.pips[seat]
        station = deal.station
        ends = station.ends
        marked = station.markers[seat]
        first = chain[0] if chain else -1
        best = moves[0]
        best_score = -1e18
        for move in moves:
            p = move.placements[0]
            t = p.tile
            train = p.train
            assert train is not None
            after = hand & ~(1 << t)
            pips = PIPS[t]
            if not after:
                return move
            score = float(pips)
            value = ends[train]
            outer = pips - value
            if t == first and train == seat:
                score += CHAIN * (length - 1) + CHAIN_PIP * (chain_pips - pips)
            elif train == seat and outer != value:
                pass  # the own train's end moves: the plan is lost
            elif t in chain:
                i = chain.index(t)
                kept = chain[:i]
                score += CHAIN * i + CHAIN_PIP * sum(PIPS[k] for k in kept)
            else:
                score += CHAIN * length + CHAIN_PIP * chain_pips
            if outer == value:  # a double: the layer moves again and must follow it
                follow = after & SUIT_MASKS[value]
                if follow:
                    score += max(PIPS[f] for f in tiles_in(follow))
                else:
                    score -= self.rules_set + (0 if marked else BARE_DOUBLE)
                    if train == seat:
                        score -= BARE_DOUBLE
            if train == seat and marked:
                score += CLOSE
            if score > best_score:
                best, best_score = move, score
        p = best.placements[0]
        if p.tile == first and p.train == seat:  # the plan goes on
            self.chains[seat] = chain[1:]
            self.masks[seat] &= ~(1 << first)
            self.pips[seat] = chain_pips - PIPS[first]
            self.ends[seat] = PIPS[first] - ends[seat]
        elif p.tile in chain:
            self.ends[seat] = -1
        self.hands[seat] = hand & ~(1 << p.tile)
        return best


def chain_path(end: int, hand: int) -> tuple[list[Tile], int]:
    """The longest (then heaviest) chain of tiles through ``hand`` from ``end``, in order,
    and the search nodes it took."""
    memo: dict[tuple[int, int], tuple[int, int]] = {}
    budget = [PLAYOUT_CHAIN_NODES]
    longest_chain(end, hand, memo, budget)
    path: list[Tile] = []
    while (best := memo.get((end, hand))) and best[0]:
        length, pips = best
        step = next(  # the first tile the rest of the best chain follows
            (
                t
                for t in tiles_in(hand & SUIT_MASKS[end])
                if memo.get((PIPS[t] - end, hand ^ (1 << t)), (0, 0))
                == (length - 1, pips - PIPS[t])
            ),
            None,
        )
        if step is None:
            break
        path.append(step)
        end = PIPS[step] - end
        hand &= ~(1 << step)
    return path, PLAYOUT_CHAIN_NODES - budget[0]


def quick_move(deal: TrainDeal, moves: list[Move]) -> Move:
    """The policy's move for one position (a fresh plan): see :class:`Planner`."""
    return Planner(deal).choose(deal, moves)


def playout(
    deal: TrainDeal,
    rng: random.Random,
    epsilon: float,
    limit: int = -1,
    planner: Planner | None = None,
) -> int:
    """Play ``deal`` (in place) to the round's end, or ``limit`` moves when that is not
    negative; the work spent (``MOVE_COST`` per move, ``NODE_COST`` per chain node)."""
    rand = rng.random
    played = 0
    if planner is None:
        planner = Planner(deal)
    nodes = planner.nodes
    while deal.end is None and played != limit:
        moves = deal.legal_moves()
        played += 1
        if len(moves) == 1:
            deal.push(moves[0])
        elif epsilon and rand() < epsilon:
            deal.push(moves[int(rand() * len(moves))])
        else:
            deal.push(planner.choose(deal, moves))
    return MOVE_COST * played + NODE_COST * (planner.nodes - nodes)


def round_value(deal: TrainDeal, seat: int, planner: Planner | None = None) -> float:
    """A round from ``seat``'s side: the others' mean pips minus its own, in the hands
    at its end; when the playout stopped before it, every hand's pips less ``LEAF_CHAIN``
    times its plan's pips (the chain it will likely shed) when a ``planner`` is given."""
    result = deal.result
    score: list[float]
    if result is not None:
        score = [float(x) for x in result.score]
    else:
        score = [float(mask_pips(h)) for h in deal.hands]
        if planner is not None:
            for s in range(deal.n):
                planner.plan(deal, s)
                score[s] -= LEAF_CHAIN * planner.pips[s]
    others = (sum(score) - score[seat]) / (len(score) - 1)
    return others - score[seat]


def rank_train_moves(
    know: TrainKnowledge, rng: random.Random, settings: SearchSettings
) -> list[tuple[Move, float]]:
    """The candidates and their mean values, best first (ties: the normal level's order):
    the first is the hard level's move."""
    search = partial(_TrainSearch, know, settings=settings)
    return rank(know.legal, partial(score_train_moves, know), search, rng, settings)


class _TrainSearch(Halving):
    """One decision's search: per candidate, its summed values and its paired
    differences from the normal level's choice (candidate 0, never dropped)."""

    protected = 0

    def __init__(
        self, know: TrainKnowledge, candidates: list[Move], settings: SearchSettings
    ) -> None:
        super().__init__(len(candidates), settings)
        n = len(candidates)
        players = know.rules.players
        self.know = know
        self.candidates = candidates
        self.diffs = [0.0] * n
        """Per candidate: the sum of its value minus the first candidate's, world by world."""
        self.squares = [0.0] * n
        self.values = [0.0] * n
        """The candidates' values in the latest world."""
        self.world_cost = WORLD_COST + TILE_COST * know.unseen.bit_count() * (players - 1)
        self.limit = HORIZON * players if HORIZON else -1

    def _world(self, rng: random.Random, active: list[int]) -> None:
        know = self.know
        hands, boneyard = sample_hands(know, rng)
        base = build_train_deal(know, hands, boneyard)
        planner = Planner(base)
        for other in range(know.rules.players):
            planner.plan(base, other)
        seed = rng.getrandbits(64)
        self.work += self.world_cost + CANDIDATE_COST * len(active) + NODE_COST * planner.nodes
        planner.nodes = 0
        values = self.values
        for j in active:
            deal = base.copy()
            deal.push(self.candidates[j])
            branch = planner.copy()
            self.work += playout(deal, random.Random(seed), EPSILON, self.limit, branch)
            nodes = branch.nodes
            values[j] = v = round_value(deal, know.seat, branch)
            self.work += NODE_COST * (branch.nodes - nodes)
            self.totals[j] += v
            self.counts[j] += 1
        v0 = values[0]
        for j in active:
            d = values[j] - v0
            self.diffs[j] += d
            self.squares[j] += d * d

    def merit(self, j: int, means: list[float]) -> float:
        """The candidate's mean, less ``PRIOR_Z`` standard errors of its difference from
        the normal level's choice (that one itself: its mean)."""
        c = self.counts[j]
        if j == 0 or not c:
            return means[j]
        mean = self.diffs[j] / c
        var = max(0.0, self.squares[j] / c - mean * mean) / max(1, c - 1)
        return means[0] + mean - PRIOR_Z * math.sqrt(var)
