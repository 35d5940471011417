"""Mexican Train's ``hard`` level: determinized Monte Carlo search from the seat's view.

Each iteration samples a *world*: the unseen tiles (not in the seat's hand, not on
the trains, not the engine) dealt to the other hands at their public sizes and the
rest to the boneyard in a random order, such that no seat holds a tile its draws and
passes prove it lacks (:attr:`TrainKnowledge.lacks`). The world is rebuilt as a
:class:`TrainDeal` (:meth:`TrainDeal.position`), every candidate move (the normal
level's best few) is played in it, and a playout finishes the round: every seat
plays a fast version of the normal policy (:func:`quick_move`) from its own hand and
the table, with a random move ``epsilon`` of the time. The candidates of one world
share the playout's random numbers. A finished round is valued from the seat's side:
the other seats' mean pips minus its own (going out is 0 pips); the best mean wins.
Sequential halving drops the worse half of the candidates after each round of the
budget.

Effort is counted in deterministic work units (about a microsecond each on the
machine the defaults were measured on), as in :mod:`bot.engine.ai.search`: when the
work budget or the world cap runs out before the CPU-time deadline (the safety
net), a decision depends only on the view and the ``random.Random``.
"""

from __future__ import annotations

import math
import random
import time

from ..mexican import TrainDeal
from ..moves import Move
from ..tiles import PIPS, SUIT_MASKS, Tile, mask_pips, tiles_in
from .search import SearchSettings
from .trains_normal import TrainKnowledge, score_train_moves

WORLD_COST = 20
"""Work units to sample and build one world, plus ``TILE_COST`` per unseen tile and
other seat (each other hand is drawn from the unseen tiles)."""
TILE_COST = 0.25
CANDIDATE_COST = 5
MOVE_COST = 8
"""Work units per move of a playout (the engine's draws and passes included)."""
HORIZON = 0
"""Playout moves per seat at most (0: to the round's end)."""
ATTEMPTS = 8
"""Random fills tried before the draws' and passes' constraints are dropped."""

_OUT = 1000.0
_CHAIN_KEEP = 4.0
_CLOSE = 8.0
_FOLLOW_DOUBLE = 10.0
_BARE_DOUBLE = 10.0
_OWN_FOLLOW = 3.0


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
        ok = True
        for s in order:
            allowed = pool if relaxed else pool & ~know.lacks[s]
            tiles = list(tiles_in(allowed))
            size = know.hand_sizes[s]
            if len(tiles) < size:
                ok = False
                break
            mask = 0
            for t in rng.sample(tiles, size):
                mask |= 1 << t
            hands[s] = mask
            pool &= ~mask
        if ok:
            rest = list(tiles_in(pool))
            rng.shuffle(rest)
            return hands, rest
    raise AssertionError("hand sizes do not add up")


def build_train_deal(know: TrainKnowledge, hands: list[int], boneyard: list[Tile]) -> TrainDeal:
    """The world as a round ready for playouts, the viewer to move."""
    return TrainDeal.position(
        know.rules, know.number, know.station, hands, boneyard, know.seat, know.forced
    )


def quick_move(deal: TrainDeal, moves: list[Move]) -> Move:
    """The fast policy: pips shed, own train kept followable and closed, doubles followed."""
    seat = deal.turn
    hand = deal.hands[seat]
    station = deal.station
    ends = station.ends
    own = ends[seat]
    marked = station.markers[seat]
    best = moves[0]
    best_score = -1e18
    for move in moves:
        p = move.placements[0]
        t = p.tile
        train = p.train
        assert train is not None
        after = hand & ~(1 << t)
        pips = PIPS[t]
        score = float(pips)
        if not after:
            score += _OUT
        else:
            value = ends[train]
            outer = pips - value
            if outer == value:
                score += _FOLLOW_DOUBLE if after & SUIT_MASKS[value] else -_BARE_DOUBLE
            if train == seat:
                if marked:
                    score += _CLOSE
                if after & SUIT_MASKS[outer]:
                    score += _OWN_FOLLOW
            elif SUIT_MASKS[own] >> t & 1:
                score -= _CHAIN_KEEP  # a tile for the own train, laid elsewhere
        if score > best_score:
            best, best_score = move, score
    return best


def playout(deal: TrainDeal, rng: random.Random, epsilon: float, limit: int = -1) -> int:
    """Play ``deal`` (in place) to the round's end, or ``limit`` moves when that is not
    negative; the number of moves played."""
    rand = rng.random
    played = 0
    while deal.end is None and played != limit:
        moves = deal.legal_moves()
        played += 1
        if len(moves) == 1:
            deal.push(moves[0])
        elif rand() < epsilon:
            deal.push(moves[int(rand() * len(moves))])
        else:
            deal.push(quick_move(deal, moves))
    return played


def round_value(deal: TrainDeal, seat: int) -> float:
    """A round from ``seat``'s side: the others' mean pips minus its own, in the hands
    at its end (or now, when the playout stopped before it)."""
    result = deal.result
    score = result.score if result is not None else [mask_pips(h) for h in deal.hands]
    others = (sum(score) - score[seat]) / (len(score) - 1)
    return others - score[seat]


def hard_train_move(know: TrainKnowledge, rng: random.Random, settings: SearchSettings) -> Move:
    """The candidate with the best mean value over sampled worlds."""
    return rank_train_moves(know, rng, settings)[0][0]


def rank_train_moves(
    know: TrainKnowledge, rng: random.Random, settings: SearchSettings
) -> list[tuple[Move, float]]:
    """The candidates and their mean values, best first (ties: the normal level's order)."""
    deadline = time.thread_time() + settings.seconds
    moves = know.legal
    scores = score_train_moves(know, moves)
    order = sorted(range(len(moves)), key=lambda i: -scores[i])
    candidates = [moves[i] for i in order[: max(1, settings.candidates)]]
    if len(candidates) == 1:
        return [(candidates[0], 0.0)]
    n = len(candidates)
    totals = [0.0] * n
    counts = [0] * n
    active = list(range(n))
    dropped: list[int] = []
    world_cost = WORLD_COST + TILE_COST * know.unseen.bit_count() * (know.rules.players - 1)
    work = 0.0
    worlds = 0
    rounds = max(1, math.ceil(math.log2(n))) if settings.halving else 1
    clock = time.thread_time
    limit = HORIZON * know.rules.players if HORIZON else -1
    late = False
    for r in range(rounds):
        goal = settings.work * (r + 1) / rounds
        played = 0
        while worlds < settings.worlds and (not played or work < goal):
            if worlds and clock() > deadline:
                late = True
                break
            hands, boneyard = sample_hands(know, rng)
            base = build_train_deal(know, hands, boneyard)
            seed = rng.getrandbits(64)
            worlds += 1
            played += 1
            work += world_cost + CANDIDATE_COST * len(active)
            for j in active:
                deal = base.copy()
                deal.push(candidates[j])
                work += MOVE_COST * playout(deal, random.Random(seed), settings.epsilon, limit)
                totals[j] += round_value(deal, know.seat)
                counts[j] += 1
        if late:
            break
        if r + 1 < rounds and len(active) > 1:
            active.sort(key=lambda j: (-totals[j], j))
            keep = (len(active) + 1) // 2
            dropped[:0] = active[keep:]
            del active[keep:]
    means = [t / c if c else -math.inf for t, c in zip(totals, counts, strict=True)]
    ranking = sorted(active, key=lambda j: (-means[j], j)) + dropped
    return [(candidates[j], means[j]) for j in ranking]


__all__ = [
    "build_train_deal",
    "hard_train_move",
    "playout",
    "quick_move",
    "rank_train_moves",
    "round_value",
    "sample_hands",
]
