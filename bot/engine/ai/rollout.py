"""Playouts: finishing a sampled deal quickly with a cheap version of the normal policy.

Every seat in a playout looks only at its own hand and the table (the sampled
world's other hands stay out of its choice), and plays the move with the best
quick score: pips shed, doubles, how many of its tiles still fit the ends, going
out, and in all fives the count scored; and, from the passes and draws seen so
far (before the playout and in it), whether the next seat surely cannot follow the
ends it leaves (good against an opponent, bad for a partner). With probability
``epsilon`` it plays a random legal move instead, so that playouts from one world
differ.
"""

from __future__ import annotations

import random

from ..deal import Deal
from ..events import Drew, Event, Passed
from ..layout import NOT_OPEN
from ..moves import Move
from ..tiles import PIPS, SUIT_MASKS, tile

_OUT = 1000.0
_PIPS = 1.0
_PIPS_FIVES = 0.4
_DOUBLE = 3.0
_FOLLOW = 2.0
_STUCK = 4.0
_FIVES = 1.0
_STRAND = 10.0
_VARIETY = 1.0
_SEAT_WEIGHTS = (6.0, 2.7, 1.5, 0.9, 0.6, 0.6, 0.6)
"""How much it counts that each next seat (in turn order) cannot lay on the ends left."""
_DOUBLE_SIX = tile(6, 6)
_DOUBLE_BLANK = tile(0, 0)


def playout(
    deal: Deal,
    rng: random.Random,
    epsilon: float = 0.1,
    stop_tiles: int = -1,
    voids: list[int] | None = None,
) -> int:
    """Play ``deal`` on (in place) to its end, or until the hands hold ``stop_tiles``
    tiles or fewer in all. Returns the number of moves played.

    ``voids`` (per seat, tiles it surely lacks; updated in place) is what the seats
    know from the passes and draws so far.
    """
    fives = deal.fives
    w_pips = _PIPS_FIVES if fives else _PIPS
    rand = rng.random
    hands = deal.hands
    history = deal.history
    if voids is None:
        voids = [0] * deal.n
    every = (1 << deal.rules.tile_count) - 1
    played = 0
    while deal.end is None:
        if stop_tiles >= 0 and sum([h.bit_count() for h in hands]) <= stop_tiles:
            break
        played += 1
        moves = deal.legal_moves()
        before = len(history)
        if len(moves) == 1:
            deal.push(moves[0])
        elif rand() < epsilon:
            deal.push(moves[int(rand() * len(moves))])
        else:
            deal.push(_best(deal, moves, w_pips, fives, voids, every))
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


def _best(
    deal: Deal, moves: list[Move], w_pips: float, fives: bool, voids: list[int], every: int
) -> Move:
    """The move with the best quick score for the seat to move (its own view only)."""
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
    for weight in _SEAT_WEIGHTS[: n - 1]:
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
                score += _DOUBLE + (_STRAND * (4 - openers) / 4 if openers < 4 else 0.0)
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
            score += _FOLLOW * (follow if follow < 3 else 3)
            if not follow:
                score -= _STUCK
            for number in range(top + 1):
                if after & SUIT_MASKS[number]:
                    score += _VARIETY
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
                score += _FIVES * count
        if score > best_score:
            best, best_score = move, score
    return best
