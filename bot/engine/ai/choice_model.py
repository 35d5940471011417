"""A fitted model of how players choose among the tiles they could lay.

The hard level weighs each sampled world by how well it explains the tiles the other
seats chose to lay (:mod:`~bot.engine.ai.determinize`'s ``play_weight``: heavy tiles
first, and with ``signal`` the numbers held). This module reads the same choices
with a richer model, a *conditional logit*: a seat holding ``hand`` is taken to make
each placement open to it (a tile on an open number) with chance proportional to
``exp(w · f)``, where ``f`` are the placement's features (:func:`features`):

* ``heft``: the tile's pips, plus 3 for a double;
* ``follow``: the tiles kept that fit the ends the placement leaves (at most 3);
* ``stuck``: 1 when none of them does (and tiles are left);
* ``variety``: the numbers the hand still holds;
* ``kept``: the tiles kept that carry the number the placement leaves open;
* ``block``: the chance that the next seat holds nothing for the ends left, from the
  tiles the chooser could not see and the next seat's share of them;
* ``strand``: for a double, how few tiles are left that could open its number.

These are what a heuristic player weighs (the ``normal`` level weighs them all), so
the model fits such players far better than heavy-first does; the choices of a
searching player (the hard level, ``dominoes``' alphabeta) it reads barely better
than chance (``docs/AI.md``, sixth round). The weights ``w``
are fitted by maximum likelihood on the choices of real deals
(``benchmarks/fit_choices.py``; ``FITTED`` keeps the values it found, by game).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

from ..tiles import PIPS, SUIT_MASKS, TILES
from .knowledge import Choice, Knowledge

DOUBLE_HEFT = 3
"""What a double adds to its pips in ``heft``."""
FOLLOW_CAP = 3
"""``follow`` counts the tiles that fit the ends left up to this many."""


@dataclass(frozen=True, slots=True)
class ChoiceWeights:
    """The weight of each feature (see the module's docstring)."""

    heft: float
    follow: float
    stuck: float
    variety: float
    kept: float
    block: float
    strand: float

    def vector(self, scale: float = 1.0) -> tuple[float, ...]:
        """The weights in :func:`features`' order, times ``scale``."""
        return tuple(scale * getattr(self, f.name) for f in fields(self))


FITTED: dict[tuple[str, int], ChoiceWeights] = {
    ("block", 2): ChoiceWeights(
        heft=1.82, follow=3.13, stuck=-3.42, variety=1.43, kept=1.07, block=4.95, strand=1.23
    ),
    ("block", 4): ChoiceWeights(
        heft=0.12, follow=0.33, stuck=0.12, variety=0.16, kept=-0.05, block=3.08, strand=0.52
    ),
}
"""Weights fitted by ``benchmarks/fit_choices.py``, by (game, players)."""


def features(c: Choice, hand: int, tile: int, value: int, every: int) -> tuple[float, ...]:
    """The features of laying ``tile`` on an open ``value`` at choice ``c``, for a seat
    that held ``hand`` then (``ChoiceWeights``' order). Written plainly: the reader
    below computes the same thing faster, and a test holds them together."""
    other = PIPS[tile] - value
    fit = _fit_after(c, tile, value, every)
    after = hand & ~(1 << tile)
    unseen = every & ~hand & ~c.table
    follow = (after & fit).bit_count()
    numbers = sum(1 for v in range(len(SUIT_MASKS)) if after & SUIT_MASKS[v] & every)
    return (
        _heft(tile),
        float(min(FOLLOW_CAP, follow)),
        float(after != 0 and follow == 0),
        float(numbers),
        float((after & SUIT_MASKS[other]).bit_count()),
        (1.0 - c.share) ** (unseen & fit).bit_count(),
        _strand(c, tile, value, every),
    )


def _heft(tile: int) -> float:
    return float(PIPS[tile] + DOUBLE_HEFT * TILES[tile].is_double)


def _fit_after(c: Choice, tile: int, value: int, every: int) -> int:
    """The tiles that fit the open ends after laying ``tile`` on ``value`` at ``c``."""
    values = list(c.values)
    values.remove(value)
    values.append(PIPS[tile] - value)
    fit = 0
    for v in values:
        fit |= SUIT_MASKS[v]
    return fit & every


def _strand(c: Choice, tile: int, value: int, every: int) -> float:
    """For a double, how few tiles could still open its number (0 to 1; 0 otherwise)."""
    if not TILES[tile].is_double:
        return 0.0
    openers = (every & ~c.table & SUIT_MASKS[value] & ~(1 << tile)).bit_count()
    return max(0.0, (4 - openers) / 4)


def placements(c: Choice, hand: int) -> list[tuple[int, int]]:
    """(tile, value) of every placement open at choice ``c`` to a seat holding ``hand``."""
    out = []
    for value in sorted(set(c.values)):
        options = hand & SUIT_MASKS[value]
        while options:
            low = options & -options
            options ^= low
            out.append((low.bit_length() - 1, value))
    return out


class _Placement:
    """What a placement's features need that does not depend on the hand."""

    __slots__ = ("base", "bit", "fit", "other_suit", "suits", "value_suit")

    def __init__(self, c: Choice, tile: int, value: int, every: int, w: tuple[float, ...]):
        t = TILES[tile]
        other = PIPS[tile] - value
        self.fit = _fit_after(c, tile, value, every)
        self.bit = 1 << tile
        self.value_suit = SUIT_MASKS[value] & every
        self.other_suit = SUIT_MASKS[other] & every
        self.suits = (SUIT_MASKS[t.low] & every, SUIT_MASKS[t.high] & every)
        self.base = w[0] * _heft(tile) + w[6] * _strand(c, tile, value, every)


class _Read:
    """One choice, ready to be weighed in any world."""

    __slots__ = ("by_value", "chosen", "could_see", "later", "miss", "seat", "tile")

    def __init__(self, c: Choice, every: int, w: tuple[float, ...]) -> None:
        self.seat = c.seat
        self.tile = int(c.tile)
        self.later = c.later | 1 << int(c.tile)
        self.could_see = every & ~c.table
        chosen_value = PIPS[self.tile] - c.exposed
        self.by_value: list[tuple[int, list[_Placement]]] = []
        self.chosen: _Placement | None = None
        for value in sorted(set(c.values)):
            suit = SUIT_MASKS[value]
            entries = []
            tiles = self.could_see & suit
            while tiles:
                low = tiles & -tiles
                tiles ^= low
                t = low.bit_length() - 1
                entry = _Placement(c, t, value, every, w)
                entries.append(entry)
                if t == self.tile and value == chosen_value:
                    self.chosen = entry
            self.by_value.append((suit, entries))
        self.miss = tuple(w[5] * (1.0 - c.share) ** k for k in range(every.bit_count() + 1))


class ChoiceReader:
    """The fitted model applied to one view's choices: :meth:`weight` is how likely a
    world makes them (mixed, seat by seat, with a seat that chooses at random, as
    ``play_weight`` does with ``at_random``)."""

    def __init__(
        self,
        know: Knowledge,
        seats: set[int],
        weights: ChoiceWeights,
        scale: float = 1.0,
        at_random: float = 0.0,
    ) -> None:
        every = know.every
        self.w = weights.vector(scale)
        self.every = every
        self.numbers = [m & every for m in SUIT_MASKS if m & every]
        self.at_random = at_random
        self.reads = [
            _Read(c, every, self.w)
            for c in know.choices
            if c.exact and c.seat in seats and c.values
        ]

    def weight(self, hands: list[int]) -> float:
        """The likelihood of the recorded choices if the seats now hold ``hands``."""
        w = self.w
        w_follow, w_stuck, w_variety, w_kept = w[1], w[2], w[3], w[4]
        model: dict[int, float] = {}
        uniform: dict[int, float] = {}
        for r in self.reads:
            hand = hands[r.seat] | r.later
            unseen = r.could_see & ~hand
            numbers = sum(1 for suit in self.numbers if hand & suit)
            total = 0.0
            chosen = 0.0
            count = 0
            for suit, entries in r.by_value:
                if not hand & suit:
                    continue
                for p in entries:
                    if not hand & p.bit:
                        continue
                    after = hand ^ p.bit
                    follow = (after & p.fit).bit_count()
                    low, high = p.suits
                    lost = (not after & low) + (high != low and not after & high)
                    score = p.base + w_variety * (numbers - lost)
                    score += w_follow * min(FOLLOW_CAP, follow)
                    if follow == 0 and after:
                        score += w_stuck
                    score += w_kept * (after & p.other_suit).bit_count()
                    score += r.miss[(unseen & p.fit).bit_count()]
                    e = math.exp(score)
                    total += e
                    count += 1
                    if p is r.chosen:
                        chosen = e
            if count == 0 or chosen == 0.0:
                continue
            model[r.seat] = model.get(r.seat, 1.0) * chosen / total
            uniform[r.seat] = uniform.get(r.seat, 1.0) / count
        weight = 1.0
        a = self.at_random
        for seat, m in model.items():
            weight *= (1.0 - a) * m + a * uniform[seat]
        return weight
