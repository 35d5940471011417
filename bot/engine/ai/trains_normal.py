"""Mexican Train's ``normal`` level: a table player's heuristics, from the seat's view only.

:func:`read_trains` turns a :class:`PlayerView` into :class:`TrainKnowledge` (bit
masks: the hand, the unseen tiles, what each seat surely lacks after its draws and
passes, the station rebuilt). :func:`score_train_moves` values every legal move in
pips, higher is better:

* **shed weight**: the pips laid (every pip left in hand counts against the seat
  at the round's end);
* **own train**: the longest chain through the hand from the own train's end (a
  classic plan: the chain is the seat's own, sure plays while the train stays
  closed), worth ``CHAIN`` per tile, so tiles off that chain (*extras*) go first
  on the Mexican train and other open trains, and the chain stays whole; a marked
  own train is worth closing (``CLOSE``);
* **doubles**: the layer of a double moves again, so a double is valued with the
  best tile it can follow with; a double it cannot follow costs (it draws, likely
  puts its marker out and lets the others satisfy it; on its own train the chain
  is lost);
* **extras that fit**: tiles left that match a train open to the seat;
* going out wins outright.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..moves import Move
from ..rules import Rules
from ..tiles import PIPS, SUIT_MASKS, Tile, mask_of, set_size, tile, tiles_in
from ..trains import MEXICAN, NO_DOUBLE, Station
from ..view import PlayerView, SeenDraw, SeenPass, SeenPlay

OUT = 1000.0
"""Going out: the round is won and the seat adds nothing."""
PIP = 1.0
CHAIN = 6.0
"""Per tile of the longest chain from the own train's end left in hand."""
CHAIN_PIP = 0.15
"""Per pip of that chain (a heavy chain is worth playing off while the train is closed)."""
CLOSE = 8.0
"""Laying on the own train while it carries the marker (closing it again)."""
FIT = 1.5
"""Per tile left in hand that matches another train open to the seat."""
BARE_DOUBLE = 8.0
"""A double the layer cannot follow puts its marker out (unless the tile it draws fits);
it also keeps the drawn tile, about ``set`` pips."""
BARE_OWN_DOUBLE = 8.0
"""More when that double is on the own train (someone else will set its end)."""
CHAIN_NODES = 4000
"""Search nodes per longest-chain question at most (then the best found so far)."""


@dataclass(slots=True)
class TrainKnowledge:
    """What one seat knows about a round of Mexican Train, as bit masks."""

    rules: Rules
    number: int
    """The round (from 1)."""
    seat: int
    hand: int
    hand_sizes: tuple[int, ...]
    boneyard_size: int
    station: Station
    """The table now (rebuilt from the view; the AI's own copy)."""
    unseen: int
    """Tiles in other hands or the boneyard."""
    lacks: tuple[int, ...]
    """Per seat, tiles it surely does not hold now (from its draws and passes)."""
    forced: Tile | None
    legal: tuple[Move, ...]


def read_trains(seen: PlayerView) -> TrainKnowledge:
    """The knowledge of ``seen``'s seat (a Mexican Train view whose turn it is)."""
    sv = seen.station
    assert sv is not None
    assert seen.seat is not None
    rules = seen.rules
    n = rules.players
    seat = seen.seat
    station = Station(sv.engine, n)
    station.cars = [list(t.cars) for t in sv.trains]
    station.ends = [t.end for t in sv.trains]
    station.markers = [t.marker for t in sv.trains[:n]]
    station.unsatisfied = NO_DOUBLE if sv.unsatisfied is None else sv.unsatisfied
    hand = mask_of(seen.hand)
    on_trains = mask_of(car.tile for t in sv.trains for car in t.cars)
    every = (1 << set_size(rules.set)) - 1
    unseen = every & ~hand & ~on_trains & ~(1 << tile(sv.engine, sv.engine))
    return TrainKnowledge(
        rules=rules,
        number=seen.deal_number,
        seat=seat,
        hand=hand,
        hand_sizes=seen.hand_sizes,
        boneyard_size=seen.boneyard_size,
        station=station,
        unseen=unseen,
        lacks=_lacks(seen, sv.engine, n),
        forced=seen.forced,
        legal=seen.legal_moves,
    )


def _lacks(seen: PlayerView, engine: int, n: int) -> tuple[int, ...]:
    """Per seat, the tiles it surely lacks, from the history replayed on a fresh station.

    A seat that draws held nothing fitting its open trains; a seat that passes without
    drawing (the boneyard empty) too. A kept draw is a tile that did not fit then, but
    it may carry what the seat was known to lack before: only the newest fit is kept.
    """
    station = Station(engine, n)
    lacks = [0] * n
    before_draw: list[int | None] = [None] * n
    for e in seen.history:
        if type(e) is SeenPlay:
            p = e.placements[0]
            assert p.tile is not None
            assert p.train is not None
            if before_draw[e.seat] is not None:
                lacks[e.seat] = before_draw[e.seat] or 0  # the drawn tile was laid at once
                before_draw[e.seat] = None
            station.lay(p.tile, p.train, e.seat)
        elif type(e) is SeenDraw:
            fit = station.fit_mask(e.seat)
            before_draw[e.seat] = lacks[e.seat] | fit
            lacks[e.seat] = fit
        else:
            assert type(e) is SeenPass
            fit = station.fit_mask(e.seat)
            if before_draw[e.seat] is None:
                lacks[e.seat] |= fit
            else:
                lacks[e.seat] = fit  # the kept tile did not fit either
                before_draw[e.seat] = None
            station.markers[e.seat] = True
    return tuple(lacks)


def longest_chain(
    end: int,
    hand: int,
    memo: dict[tuple[int, int], tuple[int, int]],
    budget: list[int] | None = None,
) -> tuple[int, int]:
    """The longest path of tiles through ``hand`` from ``end``: (tiles, pips), longest
    first, then heaviest. ``memo`` may be shared between questions on one hand;
    ``budget`` (one number, lowered per node searched) defaults to ``CHAIN_NODES``."""
    key = (end, hand)
    found = memo.get(key)
    if found is not None:
        return found
    if budget is None:
        budget = [CHAIN_NODES]
    best = (0, 0)
    m = hand & SUIT_MASKS[end]
    while m and budget[0] > 0:
        low = m & -m
        m ^= low
        budget[0] -= 1
        t = low.bit_length() - 1
        length, pips = longest_chain(PIPS[t] - end, hand ^ low, memo, budget)
        if (length + 1, pips + PIPS[t]) > best:
            best = (length + 1, pips + PIPS[t])
    memo[key] = best
    return best


def score_train_moves(know: TrainKnowledge, moves: Sequence[Move]) -> list[float]:
    """Every move's score for the seat of ``know`` (higher is better)."""
    memo: dict[tuple[int, int], tuple[int, int]] = {}
    draw_fits = _draw_fits(know)
    return [_score(know, m.tile, m.placements[0].train, know.hand, memo, draw_fits) for m in moves]


def _draw_fits(know: TrainKnowledge) -> list[float]:
    """Per number, the chance that one tile drawn carries it (0 with an empty boneyard)."""
    unseen = know.unseen
    count = unseen.bit_count()
    if not know.boneyard_size or not count:
        return [0.0] * (know.rules.set + 1)
    return [(unseen & SUIT_MASKS[v]).bit_count() / count for v in range(know.rules.set + 1)]


def _score(
    know: TrainKnowledge,
    t: Tile,
    train: int | None,
    hand: int,
    memo: dict[tuple[int, int], tuple[int, int]],
    draw_fits: list[float],
    value: int | None = None,
) -> float:
    """Laying ``t`` on ``train``, whose end shows ``value`` (default: the end now; given
    for a tile that follows a double just laid)."""
    assert train is not None
    station = know.station
    seat = know.seat
    ends = station.ends
    after = hand & ~(1 << t)
    pips = PIPS[t]
    score = PIP * pips
    if not after:
        return score + OUT
    if value is None:
        value = ends[train]
    outer = pips - value
    if outer == value:  # a double: the layer moves again and must follow it
        follow = after & SUIT_MASKS[value]
        if follow:
            return score + max(
                _score(know, f, train, after, memo, draw_fits, value) for f in tiles_in(follow)
            )
        # it draws (a tile of about ``set`` pips kept unless it fits) and puts its
        # marker out unless the drawn tile fits
        miss = 1.0 - draw_fits[value]
        drawn = know.rules.set if know.boneyard_size else 0
        score -= miss * (drawn + (0 if station.markers[seat] else BARE_DOUBLE))
        if train == seat:
            score -= BARE_OWN_DOUBLE * miss
    if train == seat and station.markers[seat]:
        score += CLOSE
    own_end = outer if train == seat else ends[seat]  # a double keeps the own end as it was
    return score + _hand_value(know, after, own_end, train, outer, memo)


def _hand_value(
    know: TrainKnowledge,
    hand: int,
    own_end: int,
    train: int,
    outer: int,
    memo: dict[tuple[int, int], tuple[int, int]],
) -> float:
    """The hand left after a move: its chain from the own train and its extras that fit."""
    length, chain_pips = longest_chain(own_end, hand, memo)
    score = CHAIN * length + CHAIN_PIP * chain_pips
    station = know.station
    seat = know.seat
    fit = 0
    for other in range(-1, know.rules.players):
        if other == seat or (other != MEXICAN and not station.markers[other]):
            continue
        fit |= SUIT_MASKS[outer if other == train else station.ends[other]]
    return score + FIT * (hand & fit).bit_count()


def normal_train_move(know: TrainKnowledge) -> Move:
    """The best-scoring legal move (ties: the first listed)."""
    scores = score_train_moves(know, know.legal)
    best = max(range(len(know.legal)), key=lambda i: scores[i])
    return know.legal[best]
