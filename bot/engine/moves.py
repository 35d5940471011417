"""Moves: small hashable values, interned for the common single-tile case."""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from .errors import IllegalMoveError, MoveFault
from .tiles import TILES, Tile


class End(IntEnum):
    """The four names an open end can have (RULES.md#what-every-game-shares)."""

    WEST = 0
    EAST = 1
    NORTH = 2
    SOUTH = 3

    def __str__(self) -> str:
        return self.name.lower()


class Placement(NamedTuple):
    """One tile laid on one end. The lead has ``end=None`` and says which half faces west.

    Mexican Train names a ``train`` instead of an end (a seat, or ``MEXICAN``:
    :mod:`bot.engine.trains`); its moves have ``end=None`` and are never a lead.
    """

    tile: Tile
    end: End | None
    closed: bool = False
    west: int | None = None
    train: int | None = None

    def __str__(self) -> str:
        if self.train is not None:
            return f"{self.tile} on {'mexican' if self.train < 0 else self.train}"
        if self.end is None:
            west = self.tile.high if self.west is None else self.west
            return f"{west}-{self.tile.other(west)}"
        text = f"{self.tile} {self.end}"
        return text + " closed" if self.closed else text


class Move:
    """A whole move: one tile, or (latvian) several doubles laid at once.

    Compare and hash by value. Use :meth:`single` and :meth:`lead` to get the
    shared instances the engine hands out.
    """

    __slots__ = ("_hash", "placements")

    placements: tuple[Placement, ...]

    def __init__(self, placements: tuple[Placement, ...]) -> None:
        if not placements:
            raise ValueError("a move lays at least one tile")
        self.placements = placements
        self._hash = hash(placements)

    @staticmethod
    def single(tile: Tile, end: End, closed: bool = False) -> Move:
        return _SINGLE[(tile << 3) | (end << 1) | closed]

    @staticmethod
    def on_train(tile: Tile, train: int) -> Move:
        """Mexican Train: ``tile`` laid on ``train`` (a seat, or ``MEXICAN``)."""
        return _TRAIN[tile * _TRAIN_SLOTS + train + 1]

    @staticmethod
    def lead(tile: Tile, west: int | None = None) -> Move:
        """The lead move showing ``west`` at west (by default the higher half)."""
        if west is None or west == tile.high:
            return _LEAD[tile]
        if not tile.has(west):
            raise IllegalMoveError(MoveFault.LEAD_HALF, tile=tile, west=west)
        return Move((Placement(tile, None, False, west),))

    @property
    def tile(self) -> Tile:
        """The tile of a one-tile move (the first tile of a several-doubles move)."""
        return self.placements[0].tile

    @property
    def tiles(self) -> tuple[Tile, ...]:
        return tuple(p.tile for p in self.placements)

    @property
    def is_lead(self) -> bool:
        first = self.placements[0]
        return first.end is None and first.train is None

    @property
    def train(self) -> int | None:
        """The train a Mexican Train move lays on (``None`` in the other games)."""
        return self.placements[0].train

    def canonical(self) -> Move:
        """The same move as :func:`legal_moves` lists it (a lead's orientation dropped)."""
        first = self.placements[0]
        if (
            first.end is None
            and first.train is None
            and len(self.placements) == 1
            and not first.closed
            and (first.west is None or first.tile.has(first.west))
        ):
            return _LEAD[first.tile]
        return self

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Move):
            return NotImplemented
        return self.placements == other.placements

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[object, tuple[tuple[Placement, ...]]]:
        # The cached hash is not pickled: it is only valid in the process that made it
        # (before Python 3.12, ``hash(None)`` differs between processes).
        return _unpickle, (self.placements,)

    def __repr__(self) -> str:
        return f"Move({self})"

    def __str__(self) -> str:
        return " + ".join(str(p) for p in self.placements)


_SINGLE: dict[int, Move] = {
    (t << 3) | (e << 1) | c: Move((Placement(t, e, bool(c)),))
    for t in TILES
    for e in End
    for c in (0, 1)
}
_LEAD: tuple[Move, ...] = tuple(Move((Placement(t, None, False, t.high),)) for t in TILES)
_TRAIN_SLOTS = 9
"""Trains per tile in ``_TRAIN``: the Mexican train (-1) and up to eight seats."""
_TRAIN: tuple[Move, ...] = tuple(
    Move((Placement(t, None, False, None, train),)) for t in TILES for train in range(-1, 8)
)


def _unpickle(placements: tuple[Placement, ...]) -> Move:
    """A pickled move back: the shared instance when there is one, its hash recomputed."""
    if len(placements) == 1:
        p = placements[0]
        if p.train is not None:
            if p.end is None and not p.closed and p.west is None and -1 <= p.train < 8:
                return _TRAIN[p.tile * _TRAIN_SLOTS + p.train + 1]
        elif p.end is None:
            if not p.closed and p.west == p.tile.high:
                return _LEAD[p.tile]
        elif p.west is None:
            return _SINGLE[(p.tile << 3) | (p.end << 1) | p.closed]
    return Move(placements)
