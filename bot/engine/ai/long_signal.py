"""A partnership convention about long numbers, and its reading.

Knowing which numbers the partner holds most of is most of what knowing its hand is
worth to the search (docs/AI.md, issue 17, eighth round). The convention tells it:
a seat that lays a tile prefers, among the moves its search values within a margin
of the best, one that leaves open a number it keeps the most tiles of (a *long*
placement). A partner that knows the convention reads each of the seat's choices:
a world where the seat could have made a long placement and did not is taken
``exp(-strength)`` times less likely.
"""

from __future__ import annotations

import math

from ..moves import Move
from ..tiles import PIPS, SUIT_MASKS
from .determinize import World
from .knowledge import Choice, Knowledge

NUMBERS = len(SUIT_MASKS)
"""Numbers a tile can carry, up to double-12."""


def is_long(kept: int, exposed: int) -> bool:
    """Whether leaving ``exposed`` open is a long placement for a seat keeping ``kept``:
    it keeps at least one tile of that number, and of no number more."""
    count = (kept & SUIT_MASKS[exposed]).bit_count()
    if count == 0:
        return False
    return all((kept & SUIT_MASKS[n]).bit_count() <= count for n in range(NUMBERS))


def left_open(know: Knowledge, move: Move) -> int | None:
    """The number ``move`` leaves open where it lays its tile (``None``: a lead, or more
    than one tile)."""
    end = move.placements[0].end
    if end is None or len(move.placements) != 1:
        return None
    return move.tile.pips - know.layout.values[end]


def long_move(know: Knowledge, ranked: list[tuple[Move, float]], margin: float) -> Move:
    """The best of ``ranked`` (moves and their values, best first) that is a long
    placement and within ``margin`` points of the best, else the best."""
    best, top = ranked[0]
    for move, value in ranked:
        if top - value > margin:
            break
        exposed = left_open(know, move)
        if exposed is not None and is_long(know.hand & ~(1 << move.tile), exposed):
            return move
    return best


def could_show(c: Choice, hand: int) -> bool:
    """Whether a seat holding ``hand`` at choice ``c`` had a long placement open to it."""
    for value in c.values:
        options = hand & SUIT_MASKS[value]
        while options:
            low = options & -options
            options ^= low
            if is_long(hand & ~low, PIPS[low.bit_length() - 1] - value):
                return True
    return False


def long_weight(know: Knowledge, world: World, seats: frozenset[int], strength: float) -> float:
    """How well ``world`` explains the choices of ``seats`` under the convention: each
    choice that was not a long placement when one was open costs ``exp(-strength)``."""
    misses = 0
    hands = world.hands
    for c in know.choices:
        if not c.exact or c.seat not in seats:
            continue
        tile = int(c.tile)
        hand = hands[c.seat] | c.later | (1 << tile)
        if is_long(hand & ~(1 << tile), c.exposed):
            continue
        if could_show(c, hand):
            misses += 1
    return math.exp(-strength * misses)
