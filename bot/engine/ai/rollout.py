"""Playouts: finishing a sampled deal quickly with a cheap version of the normal policy.

Every seat in a playout looks only at its own hand and the table (the sampled
world's other hands stay out of its choice), and plays the move with the best
quick score: pips shed, doubles, how many of its tiles still fit the ends, going
out, and in all fives the count scored; and, from the passes and draws seen so
far (before the playout and in it), whether the next seat surely cannot follow the
ends it leaves (good against an opponent, bad for a partner). With probability
``epsilon`` it plays a random legal move instead, so that playouts from one world
differ.

The score's weights (:class:`PlayoutWeights`) are tuned by self-play for each kind
of game (:data:`TUNED`, found by ``benchmarks/tune_playouts.py``); other games use
the hand-set :data:`DEFAULT_WEIGHTS` (:data:`FIVES_WEIGHTS` in all fives).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

from ..deal import Deal
from ..events import Drew, Event, Passed
from ..layout import NOT_OPEN
from ..moves import Move
from ..rules import Rules
from ..tiles import PIPS, SUIT_MASKS, tile

_OUT = 1000.0


class PlayoutWeights(NamedTuple):
    """The playout policy's weights (pips; the move with the highest sum is played)."""

    pips: float = 1.0
    """Per pip laid."""
    double: float = 3.0
    """Per double laid."""
    strand: float = 10.0
    """Per double laid, times the share of its number's other tiles already out of reach."""
    follow: float = 2.0
    """Per tile left in hand that fits the ends after the move (3 at most)."""
    stuck: float = 4.0
    """Cost of leaving no tile in hand that fits."""
    variety: float = 1.0
    """Per number the hand still holds."""
    fives: float = 1.0
    """All fives: per point the move scores."""
    seats: tuple[float, ...] = (6.0, 2.7, 1.5, 0.9, 0.6, 0.6, 0.6)
    """How much it counts that each next seat (in turn order) cannot lay on the ends
    left: a gain for an opponent, a cost for a partner."""


DEFAULT_WEIGHTS = PlayoutWeights()
FIVES_WEIGHTS = PlayoutWeights(pips=0.4)
"""All fives: the pips laid count less than the counts scored."""


def _tuned(*row: float) -> PlayoutWeights:
    """A row of :data:`TUNED`: pips, double, strand, follow, stuck, variety, then the first
    next seats' weights (the later seats' are the defaults')."""
    pips, double, strand, follow, stuck, variety, *seats = row
    seats += DEFAULT_WEIGHTS.seats[len(seats) :]
    return PlayoutWeights(pips, double, strand, follow, stuck, variety, seats=tuple(seats))


TUNED: dict[str, PlayoutWeights] = {
    "block-4t": _tuned(1.0, 2.98, 11.13, 1.98, 3.37, 1.42, 31.28, 3.29, 2.08),
    "block-2": _tuned(1.0, 1.64, 7.44, 1.81, 2.76, 0.83, 53.96),
    "draw-3": _tuned(1.0, 3.38, 8.84, 2.24, 7.66, 0.79, 12.69, 1.81),
    "draw-2s": _tuned(1.0, 2.06, 9.23, 1.57, 3.51, 1.07, 54.6),
    "allfives-4ts": _tuned(0.174, 2.35, 4.13, 1.94, 2.13, 0.95, 18.36, 1.59, 1.4),
    "allfives-2s": _tuned(0.202, 2.78, 12.31, 1.61, 3.1, 0.89, 33.58),
    "latvian-4": _tuned(1.0, 1.78, 13.89, 0.61, 1.95, 0.64, 15.5, 7.1, 2.66),
}
"""Weights tuned by self-play per kind of game (:func:`game_key`), found by
``benchmarks/tune_playouts.py``; other games use the defaults."""


def game_key(rules: Rules) -> str:
    """The kind of game a set of playout weights is tuned for: ``block-2``,
    ``draw-3``, ``block-4t`` (teams), ``draw-2s`` (spinner), ``latvian-4``, …"""
    teams = "t" if rules.teams else ""
    spinner = "s" if rules.layout == "spinner" else ""
    return f"{rules.game}-{rules.players}{teams}{spinner}"


def weights_for(rules: Rules) -> PlayoutWeights:
    """The playout weights for a deal under ``rules``."""
    return TUNED.get(game_key(rules)) or hand_set_for(rules)


def hand_set_for(rules: Rules) -> PlayoutWeights:
    """The hand-set playout weights for a deal under ``rules`` (before any tuning)."""
    return FIVES_WEIGHTS if rules.scoring == "fives" else DEFAULT_WEIGHTS


_DOUBLE_SIX = tile(6, 6)
_DOUBLE_BLANK = tile(0, 0)


def playout(
    deal: Deal,
    rng: random.Random,
    epsilon: float | Sequence[float] = 0.1,
    stop_tiles: int = -1,
    voids: list[int] | None = None,
    weights: PlayoutWeights | list[PlayoutWeights] | None = None,
) -> int:
    """Play ``deal`` on (in place) to its end, or until the hands hold ``stop_tiles``
    tiles or fewer in all. Returns the number of moves played.

    ``epsilon``: the chance of a random move at each turn, or one for each seat.

    ``voids`` (per seat, tiles it surely lacks; updated in place) is what the seats
    know from the passes and draws so far. ``weights``: the policy's, or one for each
    seat (default: those of :func:`weights_for` the deal's rules).
    """
    if weights is None:
        weights = weights_for(deal.rules)
    seat_weights = weights if isinstance(weights, list) else [weights] * deal.n
    rand = rng.random
    hands = deal.hands
    history = deal.history
    if voids is None:
        voids = [0] * deal.n
    every = (1 << deal.rules.tile_count) - 1
    chance = [epsilon] * deal.n if isinstance(epsilon, float | int) else list(epsilon)
    played = 0
    while deal.end is None:
        if stop_tiles >= 0 and sum([h.bit_count() for h in hands]) <= stop_tiles:
            break
        played += 1
        moves = deal.legal_moves()
        before = len(history)
        if len(moves) == 1:
            deal.push(moves[0])
        elif rand() < chance[deal.turn]:
            deal.push(moves[int(rand() * len(moves))])
        else:
            deal.push(best_move(deal, moves, seat_weights[deal.turn], voids, every))
        if len(history) > before + 1:
            _learn(deal, history[before + 1 :], voids)
    return played


def _learn(deal: Deal, events: list[Event], voids: list[int]) -> None:
    """What the passes and draws just made tell everyone: the seat lacked the ends."""
    fit = deal.layout.fit_mask()
    for e in events:
        if type(e) is Passed:
            voids[e.seat] |= fit
        elif type(e) is Drew:
            voids[e.seat] = fit


def best_move(
    deal: Deal, moves: list[Move], weights: PlayoutWeights, voids: list[int], every: int
) -> Move:
    """The move with the best quick score for the seat to move (its own view only)."""
    fives = deal.fives
    w_pips, w_double, w_strand, w_follow, w_stuck, w_variety, w_fives, w_seats = weights
    seat = deal.turn
    n = deal.n
    hand = deal.hands[seat]
    hands = deal.hands
    side_of = deal.side_of
    layout = deal.layout
    values = layout.values
    closed = layout.closed
    unseen = every & ~hand & ~layout.on_table
    share = 1.0 / max(1, unseen.bit_count())
    # the next seats: (seat, weight, its hand's share of the unseen tiles, what it lacks)
    others = []
    nxt = seat
    for weight in w_seats[: n - 1]:
        nxt = nxt + 1 if nxt + 1 < n else 0
        size = hands[nxt].bit_count()
        if size:
            w = weight if side_of[nxt] != side_of[seat] else -weight
            others.append((w, min(1.0, size * share), ~voids[nxt]))
    open_ends = [e for e in range(4) if values[e] != NOT_OPEN and not closed[e]]
    top = deal.rules.set
    latvian = deal.latvian
    best = moves[0]
    best_score = -1e18
    for move in moves:
        after = hand
        score = 0.0
        new_values = values[:]
        shut = 0
        for p in move.placements:
            t = p[0]
            bit = 1 << t
            after &= ~bit
            pips = PIPS[t]
            score += w_pips * pips
            end = p[1]
            if end is None:
                continue
            v = values[end]
            if pips == 2 * v:
                openers = ((unseen | hand) & SUIT_MASKS[v] & ~bit).bit_count()
                score += w_double + (w_strand * (4 - openers) / 4 if openers < 4 else 0.0)
            if p[2]:
                shut |= 1 << end
            else:
                new_values[end] = pips - v
        if not after:
            score += _OUT
            if latvian:
                tiles = move.tiles
                score += 50 * (_DOUBLE_SIX in tiles) + 25 * (_DOUBLE_BLANK in tiles)
        else:
            fit = 0
            for e in open_ends:
                if not shut >> e & 1:
                    fit |= SUIT_MASKS[new_values[e]]
            fit &= every
            follow = (after & fit).bit_count()
            score += w_follow * (follow if follow < 3 else 3)
            if not follow:
                score -= w_stuck
            for number in range(top + 1):
                if after & SUIT_MASKS[number]:
                    score += w_variety
            candidates = unseen & fit
            for weight, part, lacking in others:
                k = (candidates & lacking).bit_count()
                score += weight * ((1.0 - part) ** k if k else 1.0)
        if fives:
            trial = layout.copy()
            for p in move.placements:
                trial.place(p)
            count = trial.count()
            if count and count % 5 == 0:
                score += w_fives * count
        if score > best_score:
            best, best_score = move, score
    return best
