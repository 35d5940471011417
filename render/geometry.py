"""Where every tile of a layout goes: pure geometry, no drawing.

:func:`board_geometry` turns a :class:`~bot.engine.layout.Layout` into boxes in
pixels: one per tile on the table and one per end label. Tests check these boxes
directly (no overlap, inside the canvas) without decoding any image.

How the table is laid out (RULES.md §2):

- The *centre* tile sits in the middle of the board: the lead, or the spinner
  once there is one (a spinner laid on an arm re-roots the picture: the tiles
  between it and the lead become part of its west or east chain).
- Each of the four chains (west, east, north, south) first runs straight out
  from the centre (its *spoke*) and then snakes back and forth in rows, turning
  a corner with one tile laid across the end of the row, the way players turn
  a corner on a real table.
- With a spinner or the latvian hub the board is a pinwheel: west snakes into
  the upper-left quarter, north into the upper-right, east into the lower-right
  and south into the lower-left, so the four chains never meet. A plain line
  gives west the whole upper half and east the whole lower half.
- Doubles lie crosswise, except face-down tiles, which always lie lengthwise so
  that their shape does not tell a double from the rest.
- The grid is measured in *units* (half a tile's length). Boards grow through
  a ladder of grid sizes; the first that holds every chain (and a free slot
  for each end's label) wins. Pixel unit sizes are even, so every box lands on
  whole pixels.

Everything here is computed in half-units (integers) and scaled at the end.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import count
from typing import NamedTuple

from bot.engine.layout import NOT_OPEN, Layout
from bot.engine.moves import End
from bot.engine.tiles import Tile

__all__ = ["BoardGeometry", "Box", "EndMark", "PlacedTile", "board_geometry", "grid_sizes"]

MIN_GRID = 18
"""Width of the smallest grid, in units (a tile is 2 units long)."""
TARGET_WIDTH = 1200
"""Pixel width the board aims for; the unit shrinks down to MIN_UNIT, then the board widens."""
MAX_UNIT = 64
MIN_UNIT = 30
MARGIN = 1
"""Free border around the board, in half-units."""

# Lengths in half-units: a tile lengthwise is 4 long and 2 across; a crosswise double 2 by 4.
_LONG, _SHORT = 4, 2


@dataclass(frozen=True, slots=True)
class Box:
    """An axis-aligned rectangle in pixels: ``x``, ``y`` is its top-left corner."""

    x: int
    y: int
    w: int
    h: int

    @property
    def right(self) -> int:
        return self.x + self.w

    @property
    def bottom(self) -> int:
        return self.y + self.h

    def overlaps(self, other: Box) -> bool:
        """Whether the two boxes share any area (touching edges do not count)."""
        return (
            self.x < other.right
            and other.x < self.right
            and self.y < other.bottom
            and other.y < self.bottom
        )

    def inside(self, width: int, height: int) -> bool:
        return self.x >= 0 and self.y >= 0 and self.right <= width and self.bottom <= height


@dataclass(frozen=True, slots=True)
class PlacedTile:
    """A tile on the board: its box, and the number on each half as drawn."""

    tile: Tile
    box: Box
    first: int
    """The number on the left half (horizontal tile) or the top half (vertical tile)."""
    second: int
    closed: bool
    """Face down: draw its back, never its numbers."""
    chain: End | None
    """The chain it belongs to, walking out from the centre; ``None`` for the centre tile."""

    @property
    def vertical(self) -> bool:
        return self.box.h > self.box.w


@dataclass(frozen=True, slots=True)
class EndMark:
    """Where the label of one end goes (the free slot just past the end)."""

    end: End
    value: int | None
    """The number the end shows; ``None`` for a closed end (its number is face down)."""
    closed: bool
    box: Box


@dataclass(frozen=True, slots=True)
class BoardGeometry:
    """The board in pixels: its size, the unit (half a tile's length), tiles and end labels.

    ``tiles`` lists the centre tile first, then each chain (west, east, north,
    south) from the centre outwards.
    """

    width: int
    height: int
    unit: int
    tiles: tuple[PlacedTile, ...]
    ends: tuple[EndMark, ...]


class _Link(NamedTuple):
    """A tile of a chain as seen walking outwards from the centre."""

    tile: Tile
    near: int
    far: int
    closed: bool


class _Piece(NamedTuple):
    """A placed tile in a chain's local frame (half-units)."""

    link: _Link
    a1: int
    a2: int
    b1: int
    b2: int
    climb: bool
    """Travels along +b (a corner tile) rather than along the row."""
    sign: int
    """Travel direction along a for row tiles (+1 outwards, -1 back); +1 for climbs."""


class _Frame(NamedTuple):
    """A chain's local frame: ``a`` runs along the spoke, ``b`` is where the rows stack."""

    fx: int
    fy: int
    sx: int
    sy: int


# West snakes up, north snakes right, east snakes down, south snakes left: a pinwheel.
_FRAMES = {
    End.WEST: _Frame(-1, 0, 0, -1),
    End.EAST: _Frame(1, 0, 0, 1),
    End.NORTH: _Frame(0, -1, 1, 0),
    End.SOUTH: _Frame(0, 1, -1, 0),
}


class _Chains(NamedTuple):
    centre: _Link
    arms: dict[End, list[_Link]]
    pinwheel: bool


def grid_sizes() -> Iterator[tuple[int, int, int]]:
    """The ladder of board sizes: ``(width in units, height in units, pixels per unit)``."""
    for step in count():
        grid_w = MIN_GRID + 2 * step
        grid_h = grid_w * 5 // 8
        unit = max(MIN_UNIT, min(MAX_UNIT, TARGET_WIDTH // grid_w)) // 2 * 2
        yield grid_w, grid_h, unit


def board_geometry(layout: Layout, max_grid: int = 400) -> BoardGeometry:
    """The boxes of every tile and end label of ``layout``, on the smallest grid that holds them."""
    if layout.lead is None:
        grid_w, grid_h, unit = next(grid_sizes())
        return BoardGeometry(grid_w * unit, grid_h * unit, unit, (), ())
    chains = _chains(layout)
    shown = {
        end: (None if layout.closed[end] else value, layout.closed[end])
        for end, value in enumerate(layout.values)
        if value != NOT_OPEN
    }
    for grid_w, grid_h, unit in grid_sizes():
        if grid_w > max_grid:
            break
        placed = _place(chains, shown, grid_w * 2, grid_h * 2)
        if placed is not None:
            pieces, labels = placed
            return _to_pixels(pieces, labels, shown, grid_w, grid_h, unit)
    raise ValueError(f"no board up to {max_grid} units wide holds this layout")


# -- chains ------------------------------------------------------------------


def _chains(layout: Layout) -> _Chains:
    lead = layout.lead
    assert lead is not None
    arms = layout.arms
    as_is = {end: [_Link(*laid) for laid in arms[end]] for end in End}
    lead_link = _Link(lead.tile, lead.inner, lead.outer, False)
    if layout.kind == "hub":
        return _Chains(lead_link, as_is, True)
    if layout.kind == "line" or layout.spinner is None:
        return _Chains(lead_link, {End.WEST: as_is[End.WEST], End.EAST: as_is[End.EAST]}, False)
    if layout.spinner_arm is None:
        return _Chains(lead_link, as_is, True)
    # The spinner lies on an arm: walk from it back through the lead to the other arm.
    side = layout.spinner_arm
    other = End.EAST if side == End.WEST else End.WEST
    k = layout.spinner_index
    arm = arms[side]
    back = [_Link(t.tile, t.outer, t.inner, t.closed) for t in reversed(arm[:k])]
    if side == End.WEST:
        through = _Link(lead.tile, lead.inner, lead.outer, False)
    else:
        through = _Link(lead.tile, lead.outer, lead.inner, False)
    chains = dict(as_is)
    chains[side] = [_Link(*t) for t in arm[k + 1 :]]
    chains[other] = [*back, through, *as_is[other]]
    centre = arm[k]
    return _Chains(_Link(centre.tile, centre.inner, centre.outer, False), chains, True)


def _crosswise(link: _Link, previous_crosswise: bool) -> bool:
    """Doubles lie across the chain; face-down tiles never do (their shape would tell)."""
    return link.tile.is_double and not link.closed and not previous_crosswise


# -- placing -----------------------------------------------------------------

_NEXT = _Link(Tile(1), 0, 1, False)
"""A stand-in lengthwise tile: where it would go is where the end's label goes."""


def _place(
    chains: _Chains,
    shown: dict[int, tuple[int | None, bool]],
    width: int,
    height: int,
) -> tuple[list[tuple[End | None, _Piece]], dict[End, tuple[int, int, int, int]]] | None:
    """Place every chain on a board of ``width`` by ``height`` half-units.

    ``None`` if some chain (or its end's label) does not fit.
    """
    centre_cross = chains.centre.tile.is_double
    half_w = width // 2 - MARGIN
    half_h = height // 2 - MARGIN
    # The centre's box is fixed (see _to_pixels); its piece only carries the tile.
    out: list[tuple[End | None, _Piece]] = [(None, _Piece(chains.centre, 0, 0, 0, 0, False, 1))]
    labels: dict[End, tuple[int, int, int, int]] = {}
    for end in End:
        chain = chains.arms.get(end)
        if chain is None:
            continue
        horizontal = end in (End.WEST, End.EAST)
        if horizontal:
            a0 = 1 if centre_cross else 2
            a_max, b_max = half_w, half_h
            a_min = 2 if chains.pinwheel else -half_w
        else:
            a0, a_max, b_max, a_min = 2, half_h, half_w, 2
        snake = _snake(chain, a0, a_max, a_min, b_max, labelled=end in shown, horizontal=horizontal)
        if snake is None:
            return None
        pieces, label = snake
        out.extend((end, p) for p in pieces)
        if label is not None:
            labels[end] = label
    return out, labels


def _snake(
    chain: Sequence[_Link],
    a0: int,
    a_max: int,
    a_min: int,
    b_max: int,
    *,
    labelled: bool,
    horizontal: bool,
) -> tuple[list[_Piece], tuple[int, int, int, int] | None] | None:
    """Lay one chain in its local frame; ``None`` if it does not fit.

    Returns the pieces and, when ``labelled``, the label box ``(a1, a2, b1, b2)``.
    """
    pieces: list[_Piece] = []
    sign, axis, cursor = 1, 0, a0
    last_across = 0  # how far across the last tile of the current row reaches (0: row empty)
    pending: tuple[int, int, int] | None = None  # a corner's forced climb: (a1, a2, b1)
    previous_cross = False
    items = [*chain, _NEXT] if labelled else list(chain)
    slot: _Piece | None = None
    for index, link in enumerate(items):
        is_next = labelled and index == len(chain)
        cross = _crosswise(link, previous_cross) and not is_next and pending is None
        previous_cross = cross
        if pending is not None:
            a1, a2, b1 = pending
            piece = _Piece(link, a1, a2, b1, b1 + _LONG, True, 1)
            if piece.b2 > b_max:
                return None
            pending = None
            axis, cursor, sign = b1 + _LONG - 1, _back(a1, a2, sign), -sign
            last_across = 0
        else:
            length, across = (_SHORT, _LONG) if cross else (_LONG, _SHORT)
            end = cursor + sign * length
            limit_ok = end <= a_max if sign > 0 else end >= a_min
            if limit_ok and axis + across // 2 <= b_max:
                a1, a2 = sorted((cursor, end))
                piece = _Piece(link, a1, a2, axis - across // 2, axis + across // 2, False, sign)
                cursor, last_across = end, across
            elif last_across == 0:
                return None  # not even one tile fits in this row
            else:
                top = axis + last_across // 2
                c1, c2 = sorted((cursor - 2 * sign, cursor))
                if cross:  # a double turns the corner lying on top of the row's last tile
                    d1, d2 = sorted((cursor - 4 * sign, cursor))
                    piece = _Piece(link, d1, d2, top, top + _SHORT, True, 1)
                    pending = (c1, c2, top + _SHORT)
                else:
                    piece = _Piece(link, c1, c2, top, top + _LONG, True, 1)
                    axis, cursor, sign = top + _LONG - 1, _back(c1, c2, sign), -sign
                    last_across = 0
                if piece.b2 > b_max:
                    return None
        if is_next:
            slot = piece
        else:
            pieces.append(piece)
    if slot is None:
        return pieces, None
    label = _label_box(slot, horizontal, min(a_min, a0), a_max, b_max)
    return None if label is None else (pieces, label)


def _back(a1: int, a2: int, sign: int) -> int:
    """Where the row after a corner starts: the corner column's edge facing back."""
    return a1 if sign > 0 else a2


def _label_box(
    slot: _Piece, horizontal: bool, a_lo: int, a_hi: int, b_max: int
) -> tuple[int, int, int, int] | None:
    """A label box 2 units wide and 1 tall on screen, centred on the free slot, kept in bounds."""
    mid_a = (slot.a1 + slot.a2) // 2
    mid_b = (slot.b1 + slot.b2) // 2
    half_a, half_b = (2, 1) if horizontal else (1, 2)
    a1, a2 = mid_a - half_a, mid_a + half_a
    if a2 > a_hi:
        a1, a2 = a1 - (a2 - a_hi), a_hi
    if a1 < a_lo:
        a1, a2 = a_lo, a2 + (a_lo - a1)
    b1, b2 = mid_b - half_b, mid_b + half_b
    if b2 > b_max:
        return None
    return a1, a2, b1, b2


# -- to pixels ---------------------------------------------------------------


def _to_pixels(
    pieces: list[tuple[End | None, _Piece]],
    labels: dict[End, tuple[int, int, int, int]],
    shown: dict[int, tuple[int | None, bool]],
    grid_w: int,
    grid_h: int,
    unit: int,
) -> BoardGeometry:
    cx, cy = grid_w, grid_h  # the centre, in half-units
    half = unit // 2
    tiles = []
    for end, piece in pieces:
        link = piece.link
        if end is None:  # the centre tile: a double stands upright, any other tile lies flat
            if link.tile.is_double:
                box = _box(cx - 1, cx + 1, cy - 2, cy + 2, half)
            else:
                box = _box(cx - 2, cx + 2, cy - 1, cy + 1, half)
            tiles.append(PlacedTile(link.tile, box, link.near, link.far, False, None))
            continue
        frame = _FRAMES[end]
        x1, x2, y1, y2 = _to_screen(frame, piece.a1, piece.a2, piece.b1, piece.b2)
        box = _box(cx + x1, cx + x2, cy + y1, cy + y2, half)
        if piece.climb:
            tx, ty = frame.sx, frame.sy
        else:
            tx, ty = frame.fx * piece.sign, frame.fy * piece.sign
        forward = tx > 0 or ty > 0  # travelling right or down: the near half comes first
        first, second = (link.near, link.far) if forward else (link.far, link.near)
        tiles.append(PlacedTile(link.tile, box, first, second, link.closed, end))
    ends = []
    for end, (a1, a2, b1, b2) in labels.items():
        x1, x2, y1, y2 = _to_screen(_FRAMES[end], a1, a2, b1, b2)
        value, closed = shown[end]
        ends.append(EndMark(end, value, closed, _box(cx + x1, cx + x2, cy + y1, cy + y2, half)))
    return BoardGeometry(grid_w * unit, grid_h * unit, unit, tuple(tiles), tuple(ends))


def _to_screen(frame: _Frame, a1: int, a2: int, b1: int, b2: int) -> tuple[int, int, int, int]:
    xs = (frame.fx * a1 + frame.sx * b1, frame.fx * a2 + frame.sx * b2)
    ys = (frame.fy * a1 + frame.sy * b1, frame.fy * a2 + frame.sy * b2)
    return min(xs), max(xs), min(ys), max(ys)


def _box(x1: int, x2: int, y1: int, y2: int, half: int) -> Box:
    return Box(x1 * half, y1 * half, (x2 - x1) * half, (y2 - y1) * half)
