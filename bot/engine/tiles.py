"""Domino tiles: interned values numbered so that every set is a prefix.

Tile ``a-b`` (a <= b) has the id ``b * (b + 1) // 2 + a``, so double-6 is ids
0..27, double-9 0..54 and double-12 0..90. A ``Tile`` *is* its id (an ``int``
subclass), which keeps hands as bit masks and sets of tiles cheap, while
``str(tile)`` gives the familiar ``"a-b"``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

MAX_PIPS = 12
SET_SIZES = (6, 9, 12)


class Tile(int):
    """One domino tile. Use :data:`TILES` or :func:`tile` / :meth:`parse` to get one."""

    __slots__ = ()

    @property
    def low(self) -> int:
        return _LOW[self]

    @property
    def high(self) -> int:
        return _HIGH[self]

    @property
    def halves(self) -> tuple[int, int]:
        return _LOW[self], _HIGH[self]

    @property
    def pips(self) -> int:
        return _LOW[self] + _HIGH[self]

    @property
    def is_double(self) -> bool:
        return _LOW[self] == _HIGH[self]

    def has(self, number: int) -> bool:
        return number in (_LOW[self], _HIGH[self])

    def other(self, number: int) -> int:
        """The half opposite ``number`` (``number`` must be on the tile)."""
        low, high = _LOW[self], _HIGH[self]
        if number == low:
            return high
        if number == high:
            return low
        raise ValueError(f"{self} has no {number}")

    def __str__(self) -> str:
        return f"{_LOW[self]}-{_HIGH[self]}"

    def __repr__(self) -> str:
        return f"Tile({_LOW[self]}, {_HIGH[self]})"

    @staticmethod
    def parse(text: str) -> Tile:
        """Parse ``"a-b"`` (either order, spaces allowed). Raises ``ValueError``."""
        parts = text.replace(" ", "").split("-")
        if len(parts) != 2 or not all(p.isascii() and p.isdigit() and len(p) <= 2 for p in parts):
            raise ValueError(f"{text!r} is not a tile; write it as a-b, e.g. 6-4")
        a, b = int(parts[0]), int(parts[1])
        if a > MAX_PIPS or b > MAX_PIPS:
            raise ValueError(f"{text!r} is not a tile: halves go from 0 to {MAX_PIPS}")
        return tile(a, b)

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return _from_id, (int(self),)


def tile_id(a: int, b: int) -> int:
    if a > b:
        a, b = b, a
    return b * (b + 1) // 2 + a


_LOW: list[int] = []
_HIGH: list[int] = []
for _b in range(MAX_PIPS + 1):
    for _a in range(_b + 1):
        _LOW.append(_a)
        _HIGH.append(_b)

TILES: tuple[Tile, ...] = tuple(Tile(i) for i in range(len(_LOW)))
"""Every tile of double-12, indexed by id."""
PIPS: tuple[int, ...] = tuple(a + b for a, b in zip(_LOW, _HIGH, strict=True))
"""``PIPS[t]``: the pips of tile ``t`` (a table, for hot loops)."""


def _from_id(i: int) -> Tile:
    return TILES[i]


def tile(a: int, b: int) -> Tile:
    """The tile with halves ``a`` and ``b`` (in either order)."""
    if not (0 <= a <= MAX_PIPS and 0 <= b <= MAX_PIPS):
        raise ValueError(f"{a}-{b} is not a tile")
    return TILES[tile_id(a, b)]


def set_size(top: int) -> int:
    """Number of tiles in double-``top``: 28, 55 or 91."""
    return (top + 1) * (top + 2) // 2


def full_set(top: int) -> tuple[Tile, ...]:
    return TILES[: set_size(top)]


SUIT_MASKS = tuple(sum(1 << t for t in TILES if t.has(n)) for n in range(MAX_PIPS + 1))
"""``SUIT_MASKS[n]``: bit mask of every tile (up to double-12) carrying ``n``."""
DOUBLES_MASK = sum(1 << t for t in TILES if t.is_double)


def mask_of(tiles: Iterable[int]) -> int:
    m = 0
    for t in tiles:
        m |= 1 << t
    return m


def tiles_in(mask: int) -> Iterator[Tile]:
    """The tiles of a bit mask, lowest id first."""
    while mask:
        low = mask & -mask
        yield TILES[low.bit_length() - 1]
        mask ^= low


def heaviest_key(t: Tile) -> tuple[int, int]:
    """Sort key for the heaviest tile: more pips, then the larger half (RULES.md#block-game)."""
    return t.pips, t.high


_BYTE_PIPS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sum(PIPS[8 * i + j] for j in range(8) if b >> j & 1 and 8 * i + j < len(PIPS))
        for b in range(256)
    )
    for i in range((len(PIPS) + 7) // 8)
)
"""``_BYTE_PIPS[i][b]``: the pips of the tiles of byte ``b`` of a mask's ``i``-th byte."""


def mask_pips(mask: int) -> int:
    """The pips of the tiles of a bit mask (a byte at a time: a hot loop of the solver)."""
    total = 0
    for table in _BYTE_PIPS:
        if not mask:
            break
        total += table[mask & 255]
        mask >>= 8
    return total
