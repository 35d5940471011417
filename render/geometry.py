"""Where every tile of a layout goes: pure geometry, no drawing.

:func:`board_geometry` turns a table as somebody sees it (a
:class:`~bot.engine.view.TableView`: a face-down tile the viewer may not see has
no tile and no far number) into boxes in pixels: one per tile on the table and
one per end label. Tests check these boxes directly (no overlap, inside the
canvas) without decoding any image.

How the table is laid out (the table of RULES.md#what-every-game-shares, drawn):

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
  gives west the whole upper half and east the whole lower half. In a
  pinwheel a row of west that lies wholly above north's chain (of east, below
  south's) runs on past the centre, so one long arm takes the room short ones
  leave.
- Doubles lie crosswise, except face-down tiles, which always lie lengthwise so
  that their shape does not tell a double from the rest.
- *Packed rows* (``packed``: double-9 and double-12 boards, whose many tiles
  need the room): a chain's rows may be laid closer (:data:`PITCHES`): the
  corner tile stands just past the end of its row, the next row runs back
  right beside it, and doubles after the first row lie along the row.
  Packing is tried once the loose layout's unit is :data:`PACK_FROM` or less,
  and taken only when it frames the board larger, so a board that gains
  nothing looks as before.
- Lengths are in *units* (half a tile's length). How far a chain runs before
  it turns (its *reach*: west and east share one, north and south another,
  at least 9 and 5 units) is chosen so the framed picture gets the largest
  unit; of equal choices the shortest reach wins, so the chains keep their
  corners from move to move until the unit has to drop. Each chain keeps to
  its half or quarter whatever the reach, so the choice is a search over
  reaches, each chain laid once per reach (:func:`_arrange`).
- The picture is *framed*: cropped to what is on the table (tiles and
  labels, with a margin of half a unit) and scaled, so that Discord's small
  preview shows big tiles while there are few and the whole table as it
  grows. ``shape`` bounds the height (height over width, the table's part of
  a picture of at most 4:3); the picture is as tall as its tiles below that,
  800 px wide, and the unit is the largest of :data:`UNITS` that fits.
  Past the smallest unit the picture widens instead (no double-9/12 board of
  the tests gets there once packed; an unpacked 91-tile board would).
  Pixel units are even, so every box lands on whole pixels.

Everything here is computed in half-units (integers) and scaled at the end.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from bot.engine.moves import End
from bot.engine.rules import LayoutKind
from bot.engine.tiles import Tile
from bot.engine.view import SeenLaid, TableView

__all__ = ["UNITS", "BoardGeometry", "Box", "EndMark", "PlacedTile", "board_geometry"]

MIN_GRID = 10
"""Twice the shortest reach of the west and east chains, in half-units: a chain may
turn after two tiles, so a long line snakes into more, shorter rows and keeps bigger
tiles; north and south reach at least ``shape`` times as far."""
SHAPE = 0.6
"""Height over width of the table's frame when the caller gives none."""
MIN_WIDTH = 800
"""Width of the frame in pixels (twice what Discord shows); only boards that do
not fit at the smallest unit are wider."""
UNITS = tuple(range(64, 29, -2))
"""The pixel units a board may use, largest first: few sizes, so few sprites to cache."""
MIN_UNIT = UNITS[-1]
WIDEN_STEP = 2 * MIN_UNIT
"""A board too big for ``MIN_WIDTH`` at ``MIN_UNIT`` widens by whole tiles."""
MARGIN = 1
"""Taken off the shortest reaches, in half-units."""
FRAME_MARGIN = 1
"""Free border around the tiles and labels inside the frame, in half-units."""

# Lengths in half-units: a tile lengthwise is 4 long and 2 across; a crosswise double 2 by 4.
_LONG, _SHORT = 4, 2
LOOSE = 2 * _SHORT
"""Rows a tile apart (half-units between their middles): each corner turns on top
of its row's last tile, with felt between the rows for the doubles that lie across."""
PITCHES = (LOOSE, 2)
"""The pitches tried, loosest first: loose, then packed rows side by side (the first
turn, past the spoke's crosswise doubles, is half a unit wider)."""
PACK_FROM = 40
"""Packed rows are tried only for a board whose tiles laid loose would be this small
or smaller, in pixels per unit."""


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

    tile: Tile | None
    """``None`` for a face-down tile the viewer may not see."""
    box: Box
    first: int | None
    """The number on the left half (horizontal tile) or the top half (vertical tile).

    ``None`` where the viewer may not see it (the far half of a hidden face-down tile).
    """
    second: int | None
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

    tile: Tile | None
    """``None``: face down, and hidden from the viewer."""
    near: int | None
    far: int | None
    closed: bool


def _link(laid: SeenLaid) -> _Link:
    return _Link(laid.tile, laid.inner, laid.outer, laid.closed)


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


def board_geometry(
    table: TableView,
    kind: LayoutKind,
    max_grid: int = 400,
    *,
    shape: float = SHAPE,
    min_width: int = MIN_WIDTH,
    packed: bool = False,
) -> BoardGeometry:
    """The boxes of every tile and end label of ``table``, framed to fit what is on it.

    ``kind`` is how the table is laid out (``rules.layout``). The frame is
    ``min_width`` pixels wide (wider only if the table does not fit at the
    smallest unit) and ``shape`` times as high. ``max_grid`` bounds how far (in
    units) a chain may run before it must turn. ``packed`` lets the rows of a
    chain pack closer (:data:`PITCHES`) when that frames the board larger.
    """
    if table.lead is None:
        return BoardGeometry(min_width, round(min_width * shape), UNITS[0], (), ())
    chains = _chains(table, kind)
    shown: dict[int, tuple[int | None, bool]] = {
        end: (value, False) for end, value in table.ends.items()
    }
    shown.update((end, (None, True)) for end in table.closed)
    best: tuple[tuple[int, int], _Arranged] | None = None
    for pitch in PITCHES if packed else PITCHES[:1]:
        beat = best[0] if best is not None else None
        got = _arrange(chains, shown, shape, min_width, max_grid, pitch, beat)
        if best is None or got.score < best[0]:
            best = got.score, got
        if best[0][0] < UNITS.index(PACK_FROM):
            break  # big enough tiles: packing is not worth its time
    assert best is not None
    return _frame(best[1].pieces, best[1].labels, shown, shape, min_width)


# -- chains ------------------------------------------------------------------


def _chains(table: TableView, kind: LayoutKind) -> _Chains:
    lead = table.lead
    assert lead is not None
    arms = table.arms
    as_is = {end: [_link(laid) for laid in arms[end]] for end in End}
    lead_link = _Link(lead.tile, lead.inner, lead.outer, False)
    if kind == "hub":
        return _Chains(lead_link, as_is, True)
    if kind == "line" or table.spinner is None:
        return _Chains(lead_link, {End.WEST: as_is[End.WEST], End.EAST: as_is[End.EAST]}, False)
    if table.spinner_arm is None:
        return _Chains(lead_link, as_is, True)
    # The spinner lies on an arm: walk from it back through the lead to the other arm.
    side = table.spinner_arm
    other = End.EAST if side == End.WEST else End.WEST
    k = table.spinner_index
    arm = arms[side]
    back = [_Link(t.tile, t.outer, t.inner, t.closed) for t in reversed(arm[:k])]
    through = lead_link if side == End.WEST else _Link(lead.tile, lead.outer, lead.inner, False)
    chains = dict(as_is)
    chains[side] = [_link(t) for t in arm[k + 1 :]]
    chains[other] = [*back, through, *as_is[other]]
    centre = arm[k]
    return _Chains(_Link(centre.tile, centre.inner, centre.outer, False), chains, True)


def _is_double(link: _Link) -> bool:
    """Whether a tile the viewer can see is a double (a hidden one never counts as one)."""
    return link.tile is not None and link.tile.is_double


# -- placing -----------------------------------------------------------------

_NEXT = _Link(Tile(1), 0, 1, False)
"""A stand-in lengthwise tile: where it would go is where the end's label goes."""


_FREE = 1 << 30
"""No bound: west's and east's rows run back as far as the reach (no chain in the way)."""


class _Lane(NamedTuple):
    """One chain laid with a given reach: its pieces, label and extent on screen."""

    pieces: list[_Piece]
    label: tuple[int, int, int, int] | None
    extent: tuple[int, int, int, int]
    """``(x1, x2, y1, y2)`` in half-units around the centre, label included."""
    straight: bool
    """No row turned: a longer reach lays it the same way."""
    rise: int
    """How far its rows stack (the largest ``b``, label included, in half-units)."""


class _Option(NamedTuple):
    """The west and east (or north and south) chains laid with one reach."""

    reach: int
    extent: tuple[int, int, int, int]
    """Their extent with the centre tile's, in half-units."""
    lanes: list[_Lane]


REACH_STEP = 2
"""Reaches tried, in half-units: every unit (an eighth of the reach when longer)."""


class _Arranged(NamedTuple):
    """The chains laid at their best reaches for one pitch."""

    pieces: list[tuple[End | None, _Piece]]
    labels: dict[End, tuple[int, int, int, int]]
    score: tuple[int, int]
    """As :func:`_score`: the rank of the unit, then the picture's width."""


def _arrange(
    chains: _Chains,
    shown: dict[int, tuple[int | None, bool]],
    shape: float,
    min_width: int,
    max_grid: int,
    pitch: int = LOOSE,
    beat: tuple[int, int] | None = None,
) -> _Arranged:
    """Choose how far the chains run before they turn, so the framed board is largest.

    West and east chains run up to ``reach_w`` half-units from the centre, north
    and south up to ``reach_h``. A chain's rows never meet another chain's
    (each has its half or quarter of the board), so each chain is laid once
    per reach and the candidates only combine extents. Of the reaches that
    give the largest unit (then the narrowest picture), the shortest win: as
    tiles are added the chains keep their turns until the unit has to drop.
    ``beat``: a score found already (with another pitch), so the search stops
    early once it cannot do better.
    """
    centre_cross = _is_double(chains.centre)
    centre = (-1, 1, -2, 2) if centre_cross else (-2, 2, -1, 1)
    ends = [end for end in End if end in chains.arms]
    across: list[End] = [e for e in ends if e in (End.WEST, End.EAST)]
    upright: list[End] = [e for e in ends if e in (End.NORTH, End.SOUTH)]
    height = round(min_width * shape)
    upper = beat or (len(UNITS) + 1, 0)  # the best score found so far: a bound for pruning

    cache: dict[tuple[End, int, int], _Lane | None] = {}
    doubles = {end: _doubles(chains.arms[end]) for end in ends}

    def lay(end: End, reach: int, wide_from: int) -> _Lane | None:
        key = (end, reach, wide_from)
        if key not in cache:
            narrow = lay(end, reach, _FREE) if wide_from != _FREE else None
            # Rows that all stay below ``wide_from`` (a row lies within a unit of its
            # middle, a crosswise double's within two half-units) are laid the same.
            if narrow is not None and narrow.rise - 1 - _SHORT < wide_from:
                cache[key] = narrow
            else:
                cache[key] = _lane(
                    chains, end, reach, end in shown, centre_cross, doubles[end], pitch, wide_from
                )
        return cache[key]

    def bounds(column: _Option) -> tuple[int, int]:
        """Where west's and east's rows clear north and south (pinwheel only)."""
        if not chains.pinwheel:
            return _FREE, _FREE
        lanes = dict(zip(upright, column.lanes, strict=True))
        north, south = lanes[End.NORTH].extent, lanes[End.SOUTH].extent
        return max(0, -north[2]), max(0, south[3])

    def option(
        group: list[End], reach: int, straight: dict[End, _Lane], wide: tuple[int, int]
    ) -> _Option | None:
        lanes = []
        for end in group:
            wide_from = wide[0] if end == End.WEST else wide[1]
            lane = straight.get(end) or lay(end, reach, wide_from)
            if lane is None:
                return None
            if lane.straight:  # a chain laid straight stays so at longer reaches
                straight[end] = lane
            lanes.append(lane)
        return _Option(reach, _union([centre, *(lane.extent for lane in lanes)]), lanes)

    def score(row: _Option, column: _Option) -> tuple[int, int]:
        return _score(_union([row.extent, column.extent]), height, min_width)

    def reaches(
        group: list[End], first: int, other: _Option | None, wide: tuple[int, int]
    ) -> list[_Option]:
        """The options of ``group``, shortest reach first, while one could still win.

        ``wide``: where west's and east's rows clear north and south (:func:`bounds`).
        """
        nonlocal upper
        found: list[_Option] = []
        straight: dict[End, _Lane] = {}
        reach = first
        while reach < 2 * max_grid:
            got = option(group, reach, straight, wide)
            reach += max(REACH_STEP, reach // 8 // 2 * 2)  # finer where a step matters more
            if got is None:
                continue
            if other is None:
                return [got]
            found.append(got)
            upper = min(upper, score(got, other) if group is across else score(other, got))
            if len(straight) == len(group):
                break
            # From here on a chain that still turns runs to within a tile of the reach,
            # unless it is laid straight (its length): the group is at least that long,
            # and once that alone frames worse than a choice already found, stop.
            least = max(
                min(reach - 2 * _SHORT + 1, _straight_length(doubles[end], end in shown))
                for end in group
                if end not in straight
            )
            alone = (0, least, 0, 0) if group is across else (0, 0, 0, least)
            if _score(alone, height, min_width) > upper:
                break
        return found

    first_w = MIN_GRID - MARGIN
    first_h = max(MIN_GRID // 2, round(MIN_GRID * shape)) - MARGIN
    none = _Option(first_h, centre, [])
    free = (_FREE, _FREE)
    seed_column = reaches(upright, first_h, None, free) if upright else [none]
    if not seed_column:
        raise ValueError(f"no board up to {max_grid} units wide holds this layout")
    wide = bounds(seed_column[0])
    seed_row = reaches(across, first_w, None, wide)
    if not seed_row:
        raise ValueError(f"no board up to {max_grid} units wide holds this layout")
    rows = reaches(across, seed_row[0].reach, seed_column[0], wide)
    columns = reaches(upright, seed_column[0].reach, rows[0], free) if upright else [none]
    # West's and east's rows may run past north and south as the first column
    # lets them; with a column that reaches further they keep to their quarters
    # (laying them again for every column would cost more than it gains).
    narrow: list[_Option] | None = None
    best: tuple[int, int] | None = None
    pick = (rows[0], columns[0])
    for column in columns:
        north, south = bounds(column)
        if north <= wide[0] and south <= wide[1]:
            fitting = rows
        else:
            if narrow is None:
                narrow = reaches(across, seed_row[0].reach, column, free)
            fitting = narrow
        for row in fitting:
            fit = score(row, column)
            if best is None or fit < best:
                best, pick = fit, (row, column)
    out: list[tuple[End | None, _Piece]] = [(None, _Piece(chains.centre, 0, 0, 0, 0, False, 1))]
    labels: dict[End, tuple[int, int, int, int]] = {}
    laid = dict(zip(across, pick[0].lanes, strict=True))
    laid.update(zip(upright, pick[1].lanes, strict=True))
    for end in ends:
        lane = laid[end]
        out.extend((end, piece) for piece in lane.pieces)
        if lane.label is not None:
            labels[end] = lane.label
    assert best is not None
    return _Arranged(out, labels, best)


def _doubles(chain: Sequence[_Link]) -> tuple[bool, ...]:
    """For each link, whether it is a double that may lie across the chain (never a
    face-down one: its shape would tell)."""
    return tuple(not link.closed and _is_double(link) for link in chain)


def _straight_length(doubles: Sequence[bool], labelled: bool) -> int:
    """How far a chain laid straight out reaches (half-units; its label's slot included)."""
    previous = False
    length = 2 * _LONG if labelled else _LONG
    for double in doubles:
        previous = double and not previous
        length += _SHORT if previous else _LONG
    return length


def _lane(
    chains: _Chains,
    end: End,
    reach: int,
    labelled: bool,
    centre_cross: bool,
    doubles: Sequence[bool],
    pitch: int,
    wide_from: int,
) -> _Lane | None:
    """``end``'s chain laid with ``reach``; in a pinwheel its rows from ``wide_from``
    on (clear of the next quarter's chain) may run as far back as the reach."""
    horizontal = end in (End.WEST, End.EAST)
    a0 = (1 if centre_cross else 2) if horizontal else 2
    a_min = -reach if horizontal and not chains.pinwheel else 2
    snake = _snake(
        chains.arms[end],
        a0,
        reach,
        a_min,
        labelled=labelled,
        horizontal=horizontal,
        doubles=doubles,
        pitch=pitch,
        wide_from=wide_from,
        wide_min=-reach,
    )
    if snake is None:
        return None
    pieces, label, straight = snake
    boxes = [(p.a1, p.a2, p.b1, p.b2) for p in pieces] + ([label] if label is not None else [])
    if not boxes:
        return _Lane(pieces, label, (0, 0, 0, 0), straight, 0)
    extent = _union(boxes)
    return _Lane(pieces, label, _to_screen(_FRAMES[end], *extent), straight, extent[3])


def _union(boxes: Sequence[tuple[int, int, int, int]]) -> tuple[int, int, int, int]:
    return (
        min(b[0] for b in boxes),
        max(b[1] for b in boxes),
        min(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def _score(box: tuple[int, int, int, int], height: int, min_width: int) -> tuple[int, int]:
    """How a frame around ``box`` (half-units) comes out: (rank of its unit, its width).

    Smaller is better; ``height`` is the frame's height at ``min_width``.
    """
    w = box[1] - box[0] + 2 * FRAME_MARGIN
    h = box[3] - box[2] + 2 * FRAME_MARGIN
    largest = min(2 * min_width // w, 2 * height // h)
    for rank, unit in enumerate(UNITS):
        if unit <= largest:
            return rank, min_width
    half = MIN_UNIT // 2
    need = max(w * half, math.ceil(h * half * min_width / height))
    return len(UNITS), min_width + math.ceil((need - min_width) / WIDEN_STEP) * WIDEN_STEP


def _snake(
    chain: Sequence[_Link],
    a0: int,
    a_max: int,
    a_min: int,
    *,
    labelled: bool,
    horizontal: bool,
    doubles: Sequence[bool],
    pitch: int,
    wide_from: int,
    wide_min: int,
) -> tuple[list[_Piece], tuple[int, int, int, int] | None, bool] | None:
    """Lay one chain in its local frame; ``None`` if it does not fit.

    Returns the pieces, when ``labelled`` the label box ``(a1, a2, b1, b2)``, and
    whether the chain runs straight (no corner, its label's slot included, and the
    label not pushed back from ``a_max``): then a longer ``a_max`` lays it the same.
    ``doubles``: :func:`_doubles` of the chain. Its rows stack as far as they need.
    ``pitch`` is how far apart the rows are (:data:`PITCHES`): ``LOOSE`` turns each
    corner on top of the row's last tile; a packed pitch turns it just past the
    row's end and lays the doubles of every row but the first along the row.
    A row running back whose tiles all lie at ``b >= wide_from`` may run on to
    ``wide_min`` instead of ``a_min`` (past the chain that has the next quarter).
    """
    packed = pitch < LOOSE
    new = tuple.__new__
    pieces: list[_Piece] = []
    sign, axis, cursor = 1, 0, a0
    last_across = 0  # how far across the last tile of the current row reaches (0: row empty)
    pending: tuple[int, int, int] | None = None  # a corner's forced climb: (a1, a2, b1)
    previous_cross = False
    first_row = True
    # A packed row leaves a column at its far end for the corner.
    room = _SHORT if packed else 0
    items = [*chain, _NEXT] if labelled else list(chain)
    slot: _Piece | None = None
    next_row: tuple[int, int] | None = None  # after a packed corner: (row start, row axis)
    count = len(chain)
    for index, link in enumerate(items):
        is_next = index == count
        # Doubles lie across the chain (not two in a row, not at a corner).
        cross = (
            not is_next
            and doubles[index]
            and not previous_cross
            and pending is None
            and (first_row or not packed)
        )
        previous_cross = cross
        if pending is not None:
            a1, a2, b1 = pending
            piece = _Piece(link, a1, a2, b1, b1 + _LONG, True, 1)
            pending = None
            axis, cursor, sign = b1 + _LONG - 1, _back(a1, a2, sign), -sign
            last_across = 0
        else:
            length, across = (_SHORT, _LONG) if cross else (_LONG, _SHORT)
            if sign > 0:  # the hot path: written out, it is most of the search's time
                end = cursor + length
                limit_ok = end <= a_max - room
                a1, a2 = cursor, end
            else:
                end = cursor - length
                low = wide_min if axis - _SHORT >= wide_from else a_min
                limit_ok = end >= low + room
                a1, a2 = end, cursor
            half = across // 2
            if limit_ok:
                piece = new(_Piece, (link, a1, a2, axis - half, axis + half, False, sign))
                cursor, last_across = end, across
            elif last_across == 0:
                return None  # not even one tile fits in this row
            elif packed:  # the corner stands just past the row's end, the next row beside it
                step = max(pitch, _LONG - 1) if first_row else pitch  # clear the spoke's doubles
                c1, c2 = sorted((cursor, cursor + sign * _SHORT))
                b1 = axis + step + _SHORT // 2 - _LONG
                piece = _Piece(link, c1, c2, b1, b1 + _LONG, True, 1)
                previous_cross, first_row = False, False
                axis, sign, last_across = axis + step, -sign, 0
                next_row = (cursor, axis)
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
                first_row = False
        if is_next:
            slot = piece
        else:
            pieces.append(piece)
    if slot is None:
        return pieces, None, not any(p.climb for p in pieces)
    a_lo, a_hi = min(wide_min if axis - _SHORT >= wide_from else a_min, a0), a_max
    if packed and slot.climb and horizontal:
        # The label sits where the next row begins: over the corner's far half and
        # the first half of the row's first tile.
        assert next_row is not None
        start, row_axis = next_row
        x1, x2 = sorted((start + sign * _SHORT, start - sign * _SHORT))
        label = (x1, x2, row_axis - 1, row_axis + 1)
    else:
        if slot.climb and not packed:  # the slot turns a corner: keep the label in its row
            if sign < 0:  # the row ran outwards (the corner turned the sign)
                a_hi = min(a_hi, slot.a2)
            else:
                a_lo = max(a_lo, slot.a1)
        label = _label_box(slot, horizontal, a_lo, a_hi)
        if packed and not horizontal and not slot.climb:
            # Two units across the row: it leans out of the last row, not onto the one before.
            label = (label[0], label[1], label[2] + 1, label[3] + 1)
    straight = not slot.climb and not any(p.climb for p in pieces) and label[1] < a_max
    return pieces, label, straight


def _back(a1: int, a2: int, sign: int) -> int:
    """Where the row after a corner starts: the corner column's edge facing back."""
    return a1 if sign > 0 else a2


def _label_box(slot: _Piece, horizontal: bool, a_lo: int, a_hi: int) -> tuple[int, int, int, int]:
    """A label box 2 units wide and 1 tall on screen, centred on the free slot, kept in bounds."""
    mid_a = (slot.a1 + slot.a2) // 2
    mid_b = (slot.b1 + slot.b2) // 2
    half_a, half_b = (2, 1) if horizontal else (1, 2)
    a1, a2 = mid_a - half_a, mid_a + half_a
    if a2 > a_hi:
        a1, a2 = a1 - (a2 - a_hi), a_hi
    if a1 < a_lo:
        a1, a2 = a_lo, a2 + (a_lo - a1)
    return a1, a2, mid_b - half_b, mid_b + half_b


# -- to pixels ---------------------------------------------------------------


_HalfBox = tuple[int, int, int, int]
"""``(x1, x2, y1, y2)`` in half-units, around the centre tile's middle."""


def _frame(
    pieces: list[tuple[End | None, _Piece]],
    labels: dict[End, tuple[int, int, int, int]],
    shown: dict[int, tuple[int | None, bool]],
    shape: float,
    min_width: int,
) -> BoardGeometry:
    """Crop the placed pieces and labels to a frame of ``shape``, at the largest unit that fits."""
    tiles: list[tuple[End | None, _Piece, _HalfBox]] = []
    for end, piece in pieces:
        if end is None:  # the centre tile: a double stands upright, any other tile lies flat
            box = (-1, 1, -2, 2) if _is_double(piece.link) else (-2, 2, -1, 1)
        else:
            box = _to_screen(_FRAMES[end], piece.a1, piece.a2, piece.b1, piece.b2)
        tiles.append((end, piece, box))
    marks = {end: _to_screen(_FRAMES[end], *label) for end, label in labels.items()}
    x1, x2, y1, y2 = extent = _union([box for _, _, box in tiles] + list(marks.values()))
    rank, width = _score(extent, round(min_width * shape), min_width)
    unit = UNITS[rank] if rank < len(UNITS) else MIN_UNIT
    x1, x2, y1, y2 = x1 - FRAME_MARGIN, x2 + FRAME_MARGIN, y1 - FRAME_MARGIN, y2 + FRAME_MARGIN
    half = unit // 2
    # Cropped to what is on the table: as tall as the tiles and labels (with the
    # margin), no band of empty felt; centred across the picture's width.
    height = (y2 - y1) * half
    ox = (width - (x2 - x1) * half) // 2 - x1 * half
    oy = -y1 * half

    def to_px(b: _HalfBox) -> Box:
        return Box(ox + b[0] * half, oy + b[2] * half, (b[1] - b[0]) * half, (b[3] - b[2]) * half)

    placed = []
    for end, piece, box in tiles:
        link = piece.link
        if end is None:
            placed.append(PlacedTile(link.tile, to_px(box), link.near, link.far, False, None))
            continue
        frame = _FRAMES[end]
        if piece.climb:
            tx, ty = frame.sx, frame.sy
        else:
            tx, ty = frame.fx * piece.sign, frame.fy * piece.sign
        forward = tx > 0 or ty > 0  # travelling right or down: the near half comes first
        first, second = (link.near, link.far) if forward else (link.far, link.near)
        placed.append(PlacedTile(link.tile, to_px(box), first, second, link.closed, end))
    ends = tuple(EndMark(end, *shown[end], to_px(box)) for end, box in marks.items())
    return BoardGeometry(width, height, unit, tuple(placed), ends)


def _to_screen(frame: _Frame, a1: int, a2: int, b1: int, b2: int) -> tuple[int, int, int, int]:
    xs = (frame.fx * a1 + frame.sx * b1, frame.fx * a2 + frame.sx * b2)
    ys = (frame.fy * a1 + frame.sy * b1, frame.fy * a2 + frame.sy * b2)
    return min(xs), max(xs), min(ys), max(ys)
