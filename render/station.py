"""Mexican Train's table: the station with its engine and one row per train.

What :func:`render.board.render_board` draws when the public view has a station
(``board.station``, RULES.md#mexican-train). Like every board it is drawn from the
public view only (no hand, nothing hidden: every tile on a train is face up), and
a seat's own view is refused.

The picture, under the usual header (names, tiles in hand, totals; its info line
says ``Engine 12`` and the boneyard)::

    .-----------.  .--.
    | Alice (o) |  |  |==[12|4][4]===================
    |           |  |  |      [4]
    | Bob       |  |12|==[12|7][7|1][1|9]============
    | Carol     |  |12|==============================  (an empty train: its track)
    | Mexican   |  |  |==[12|0][0|3][3|5]============
    '-----------'  '--'

- A label per train: the owner's colour (the header's stripe colour), their name,
  and the marker token (a small locomotive on a gold disc) while the train carries
  their marker, so anybody may lay on it. The Mexican train's label is red and
  says so (:attr:`Labels.mexican_train`). The label of the seat to move is
  outlined in gold, as their header chip is.
- The station: a dark band the trains leave from, the engine double standing in it.
- The cars run from the station to the right in the order they were laid, their
  inner number (the one they were matched on) on the left: a train reads left to
  right. Doubles stand across the train, as on a table (a line holding one is two
  units tall). A train longer than a line goes on under itself, a whole tile at a
  time (up to :data:`MAX_LINES` lines); past that the innermost cars are counted in
  a ``+n`` badge and the last ones shown.
- The last tile laid is lit like the board's last move; the double that waits to
  be satisfied is ringed in gold; ``recent`` tiles carry numbered badges
  (:mod:`render.badges`).

Sizes are for Discord's preview, about 400 px wide (:data:`SHOWN`): the picture is
:data:`WIDTH` px wide (twice that), the tiles use the largest unit of :data:`UNITS`
at which every train fits one line, else the smallest (a double-12 numeral is then
10 px tall as shown) with wrapped lines. The picture grows taller with the players
and with wrapped trains; it never gets narrower.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.engine.tiles import Tile
from bot.engine.trains import MEXICAN
from bot.engine.view import PlayerView, SeenPlay

from . import sprites, theme
from .badges import Badge, draw_badges, place_badges
from .canvas import blank, draw_box, draw_stripe, draw_text, line_height
from .geometry import Box
from .header import draw_header, fit_name, header_height, seat_chips, seat_colour
from .labels import ENGLISH, Labels
from .theme import Colour
from .wrap import wrap_text

__all__ = [
    "MAX_LINES",
    "SHOWN",
    "UNITS",
    "WIDTH",
    "PlacedCar",
    "StationGeometry",
    "TrainRow",
    "draw_station",
    "last_tiles",
    "station_badges",
    "station_geometry",
]

SHOWN = 400
"""How wide Discord shows the picture (an attachment on a phone, an embed's image):
every size below is chosen for it."""
WIDTH = 2 * SHOWN
"""The picture's width: twice what is shown (crisp when scaled down, readable opened)."""
UNITS = (40, 36, 34, 32, 30)
"""Tile units (half a tile's length), largest first. At 30 a double-12 numeral is
20 px tall drawn, 10 px as shown."""
MAX_LINES = 3
"""Lines a train may take in its row before its innermost cars become a ``+n`` badge."""
PAD = 10
"""Around the table."""
GAP = 8
"""Between the labels, the station and the cars."""
LABEL_WIDTH = 150
"""The labels' width, unless the Mexican train's word needs more (:func:`label_width`)."""
LABEL_MAX = 200
ROW_PAD = 5
"""Above and below a row's cars, inside its label's height."""
ROW_GAP = 6
LINE_GAP = 4
"""Between the lines of a wrapped train."""
CAR_GAP = 4
"""Felt between two cars, besides each tile's own margin (a ring around a double fits)."""
ENGINE_UNIT = 30
STATION_WIDTH = ENGINE_UNIT + 12
NAME_SIZE = 24
NAME_MIN_SIZE = 20
"""10 px as shown: the smallest name drawn (a longer one ends with "…")."""
STRIPE = 6
TOKEN = 28
"""The marker token's diameter."""
RING = 3
"""The width of the ring around the double that waits."""
MORE_SIZE = 22
RAIL = 4

_SEAT_FILL = theme.LABEL
_MEXICAN_FILL = theme.LABEL_CLOSED
_STATION_FILL = theme.FELT_DARK


@dataclass(frozen=True, slots=True)
class PlacedCar:
    """One tile on a train, as drawn."""

    train: int
    index: int
    """Its place on the train, counting from the station (0: the first car)."""
    tile: Tile
    first: int
    """The number on its left half: the one it was matched on (the station's side);
    a double stands across the train and shows it on both halves."""
    second: int
    """The number on its right half: the train's end if it is the last car."""
    box: Box
    line: int = 0
    """The line of its row it is on (0: the first)."""

    @property
    def across(self) -> bool:
        """A double standing across the train."""
        return self.box.h > self.box.w


@dataclass(frozen=True, slots=True)
class TrainRow:
    """One train's row: its label and the cars shown."""

    train: int
    """The owner's seat, or ``MEXICAN``."""
    box: Box
    """The whole row (label, station side and cars)."""
    label: Box
    name: Box
    """Where the name (or the Mexican train's word) may go, inside ``label``."""
    marker: Box | None
    """The marker token, on a train carrying its owner's marker."""
    lines: int
    cars: tuple[PlacedCar, ...]
    """The cars shown, from the station out (the last ones when some are counted)."""
    hidden: int
    """The innermost cars counted by the ``+n`` badge instead of drawn."""
    more: Box | None
    """The ``+n`` badge, when ``hidden``."""
    tracks: tuple[Box, ...] = ()
    """Each line's band (from the station to the picture's edge): its cars stand in it."""


@dataclass(frozen=True, slots=True)
class StationGeometry:
    """The whole picture in pixels (header included): what :func:`draw_station` draws."""

    width: int
    height: int
    top: int
    """Where the table starts (the header's height)."""
    unit: int
    station: Box
    """The band the trains leave from."""
    engine: Box
    """The engine double, standing in the station."""
    rows: tuple[TrainRow, ...]
    """Each seat's train in seat order, then the Mexican train."""
    ring: Box | None
    """Around the double that waits to be satisfied, if it is shown."""


def mexican_label(text: str, width: int) -> tuple[str, ...]:
    """The Mexican train's label in one line (if it fits at a readable size), else two."""
    if sprites.fit_text(text, width, NAME_SIZE, True, NAME_MIN_SIZE)[0] == text:
        return (text,)
    return wrap_text(text, width, NAME_MIN_SIZE, True)[:2]


def label_width(labels: Labels) -> int:
    """The labels' width: :data:`LABEL_WIDTH`, or what the longest word of the Mexican
    train's label needs at the smallest size (``Meksikolainen``), up to :data:`LABEL_MAX`."""
    words = labels.mexican_train.split() or [""]
    need = sprites.widest(words, NAME_MIN_SIZE, True) + PAD + PAD // 2 + 2
    return min(LABEL_MAX, max(LABEL_WIDTH, need))


def _cars_left(label: int) -> int:
    """Where the cars start, right of the labels (``label`` wide) and the station."""
    return PAD + label + GAP + STATION_WIDTH + GAP


def _fill(widths: Sequence[int], room: int) -> list[tuple[int, int]]:
    """Each item's (line, x) when laid left to right, a line broken before the item that
    would not fit whole (so no tile is ever split between two lines)."""
    out, line, x = [], 0, 0
    for w in widths:
        if x and x + w - CAR_GAP > room:
            line, x = line + 1, 0
        out.append((line, x))
        x += w
    return out


def _lay(doubles: Sequence[bool], unit: int, label: int) -> tuple[int, list[tuple[int, int]]]:
    """How many innermost cars a ``+n`` badge stands for, and where the rest (after
    the badge, if any) go: as many of the last cars as fit :data:`MAX_LINES` lines."""
    room = WIDTH - _cars_left(label) - PAD
    widths = [(unit if d else 2 * unit) + CAR_GAP for d in doubles]  # a double stands across
    hidden = 0
    while True:
        items = ([2 * unit + CAR_GAP] if hidden else []) + widths[hidden:]
        spots = _fill(items, room)
        if not spots or spots[-1][0] < MAX_LINES:
            return hidden, spots
        hidden += 1


def _choose_unit(trains: Sequence[Sequence[bool]], label: int) -> int:
    """The largest unit at which every train fits one line, else the smallest."""
    for unit in UNITS:
        laid = (_lay(t, unit, label) for t in trains)
        if all(not spots or spots[-1][0] == 0 for _, spots in laid):
            return unit
    return UNITS[-1]


def station_geometry(
    board: PlayerView, *, title: str | None = None, labels: Labels = ENGLISH
) -> StationGeometry:
    """Where everything of a Mexican Train table goes (``board.station`` set), header
    included. ``title`` is taken as :func:`render.board.table_geometry` takes it; the
    layout does not depend on it (the header's info line always shows the engine).
    ``labels`` matter for the Mexican train's label: a long one ("Meksikolainen juna")
    takes two lines, and its row is made tall enough for them."""
    station = board.station
    if station is None:
        raise ValueError("not a Mexican Train table: the view has no station")
    players = board.rules.players
    top = header_height(players, True, WIDTH)  # the info line: the engine, the boneyard
    doubles = [[car.tile.is_double for car in t.cars] for t in station.trains]
    label_w = label_width(labels)
    unit = _choose_unit(doubles, label_w)
    label_x = PAD
    station_x = PAD + label_w + GAP
    cars_x = _cars_left(label_w)
    y = top + PAD
    rows: list[TrainRow] = []
    ring: Box | None = None
    for train, across in zip(station.trains, doubles, strict=True):
        hidden, spots = _lay(across, unit, label_w)
        shown_cars = list(enumerate(train.cars))[hidden:]
        kinds = ([False] if hidden else []) + across[hidden:]  # the badge is tile-wide
        lines = spots[-1][0] + 1 if spots else 1
        tall = {line for (line, _), double in zip(spots, kinds, strict=True) if double}
        heights = [2 * unit if line in tall else unit for line in range(lines)]
        line_tops = [ROW_PAD + sum(heights[:i]) + i * LINE_GAP for i in range(lines)]
        height = line_tops[-1] + heights[-1] + ROW_PAD
        mexican = train.train == MEXICAN
        # the label's contents sit by the first line
        line_h = max(heights[0], line_height(NAME_SIZE, True)) + 2 * ROW_PAD
        if mexican:
            width = label_w - PAD - PAD // 2  # the name box of a label without a stripe
            written = len(mexican_label(labels.mexican_train, width))
            line_h = max(line_h, written * line_height(NAME_MIN_SIZE, True) + 2 * ROW_PAD)
        height = max(height, line_h)
        label = Box(label_x, y, label_w, height)
        token = Box(label.right - PAD // 2 - TOKEN, y + (line_h - TOKEN) // 2, TOKEN, TOKEN)
        marker = token if train.marker else None
        name_left = label_x + PAD + (0 if mexican else STRIPE + PAD // 2)
        name_right = label.right - PAD // 2 - (0 if mexican else TOKEN + PAD // 2)
        name = Box(name_left, y, name_right - name_left, line_h)
        boxes: list[tuple[Box, int]] = []  # each car's (and the badge's) box and line
        for (line, x), double in zip(spots, kinds, strict=True):
            w, h = (unit, 2 * unit) if double else (2 * unit, unit)
            middle = y + line_tops[line] + heights[line] // 2
            boxes.append((Box(cars_x + x, middle - h // 2, w, h), line))
        more = boxes.pop(0)[0] if hidden else None
        cars = tuple(
            PlacedCar(train.train, index, car.tile, car.inner, car.outer, box, line)
            for (index, car), (box, line) in zip(shown_cars, boxes, strict=True)
        )
        if station.unsatisfied == train.train and cars and cars[-1].tile.is_double:
            b = cars[-1].box
            ring = Box(b.x - RING, b.y - RING, b.w + 2 * RING, b.h + 2 * RING)
        tracks = tuple(
            Box(station_x + STATION_WIDTH, y + t, WIDTH - PAD - station_x - STATION_WIDTH, h)
            for t, h in zip(line_tops, heights, strict=True)
        )
        row = Box(label_x, y, WIDTH - 2 * PAD, height)
        rows.append(
            TrainRow(train.train, row, label, name, marker, lines, cars, hidden, more, tracks)
        )
        y += height + ROW_GAP
    bottom = y - ROW_GAP
    band = Box(station_x, top + PAD, STATION_WIDTH, bottom - (top + PAD))
    engine = Box(
        station_x + (STATION_WIDTH - ENGINE_UNIT) // 2,
        band.y + (band.h - 2 * ENGINE_UNIT) // 2,
        ENGINE_UNIT,
        2 * ENGINE_UNIT,
    )
    return StationGeometry(WIDTH, bottom + PAD, top, unit, band, engine, tuple(rows), ring)


def station_badges(g: StationGeometry, recent: Sequence[tuple[int, Tile]]) -> list[Badge]:
    """Where :func:`draw_station` puts the badges of ``recent``: on the cars shown."""
    boxes = [(car.tile, car.box) for row in g.rows for car in row.cars]
    return place_badges(recent, boxes, g.unit)


def last_tiles(board: PlayerView) -> frozenset[Tile]:
    """The tile the last move laid (what the board's last move lights), if any."""
    for event in reversed(board.history):
        if isinstance(event, SeenPlay):
            return frozenset(p.tile for p in event.placements if p.tile is not None)
    return frozenset()


def draw_station(
    board: PlayerView,
    *,
    names: Sequence[str],
    totals: Sequence[float] | None = None,
    title: str | None = None,
    labels: Labels = ENGLISH,
    recent: Sequence[tuple[int, Tile]] = (),
) -> Image.Image:
    """The Mexican Train table as a palette image (what ``render_board`` encodes for it).

    ``recent``: the (seat, tile) pairs laid since the viewer's last turn, in order;
    each car shown gets a badge numbered in that order, in the seat's colour."""
    chips, _ = seat_chips(board, names, totals)
    g = station_geometry(board, title=title, labels=labels)  # refuses a view without a station
    station = board.station
    assert station is not None
    rules = board.rules
    to_move = None if board.deal_over else board.turn
    im = blank(g.width, g.height)
    facts = [(labels.engine, str(station.engine))]
    if rules.draws:
        facts.append((labels.boneyard, str(board.boneyard_size)))
    draw_header(im, g.width, chips, title, facts)

    faces = sprites.faces_for(rules.set)
    fresh = last_tiles(board)
    band = g.station
    draw_box(
        im, band.x, band.y, band.w, band.h, radius=10, fill=_STATION_FILL, background=theme.FELT
    )
    engine = sprites.tile_sprite(
        station.engine, station.engine, True, ENGINE_UNIT, "face", _STATION_FILL, faces
    )
    im.paste(engine.image, (g.engine.x, g.engine.y), engine.mask)
    for row in g.rows:
        _draw_row(im, g, row, names, labels, to_move, fresh, faces)
    if g.ring is not None:
        ring = _ring_sprite(g.ring.w, g.ring.h, RING, max(4, g.unit // 5))
        im.paste(theme.index(theme.GOLD), (g.ring.x, g.ring.y, g.ring.right, g.ring.bottom), ring)
    draw_badges(im, station_badges(g, recent), [chip.colour for chip in chips])
    return im


def _draw_row(
    im: Image.Image,
    g: StationGeometry,
    row: TrainRow,
    names: Sequence[str],
    labels: Labels,
    to_move: int | None,
    fresh: frozenset[Tile],
    faces: sprites.Faces,
) -> None:
    mexican = row.train == MEXICAN
    fill = _MEXICAN_FILL if mexican else _SEAT_FILL
    label = row.label
    moving = not mexican and row.train == to_move
    draw_box(
        im,
        label.x,
        label.y,
        label.w,
        label.h,
        radius=10,
        fill=fill,
        background=theme.FELT,
        gold=3 if moving else 0,
    )
    name_box = row.name
    if not mexican:
        colour = seat_colour(row.train, False)
        stripe_h = name_box.h - 2 * ROW_PAD - 4
        stripe_y = name_box.y + (name_box.h - stripe_h) // 2
        draw_stripe(im, label.x + PAD, stripe_y, stripe_h, colour, fill, STRIPE)
    if not mexican:  # whole if it fits at a readable size, else the part before any "("
        fitted, size, _ = fit_name(names[row.train], name_box.w, NAME_SIZE, NAME_MIN_SIZE)
        written: tuple[str, ...] = (fitted,)
    elif len(written := mexican_label(labels.mexican_train, name_box.w)) > 1:
        size = NAME_MIN_SIZE
    else:
        text = labels.mexican_train
        fitted, size = sprites.fit_text(text, name_box.w, NAME_SIZE, True, NAME_MIN_SIZE)
        written = (fitted,)
    step = line_height(size, True)
    top = name_box.y + (name_box.h - step * len(written)) // 2  # centred, one line or two
    for i, one in enumerate(written):
        draw_text(im, one, name_box.x, top + i * step, size, bold=True, background=fill)
    if row.marker is not None:
        token = _marker_sprite(row.marker.w, fill)
        im.paste(token, (row.marker.x, row.marker.y))

    # The track: from the station to the picture's edge, one per line.
    for track in row.tracks:
        middle = track.y + track.h // 2
        im.paste(
            theme.index(_STATION_FILL),
            (track.x, middle - RAIL // 2, track.right, middle - RAIL // 2 + RAIL),
        )
    if row.more is not None:
        _draw_more(im, row.more, row.hidden, labels)
    for car in row.cars:
        style: sprites.Style = "fresh" if car.tile in fresh else "face"
        sprite = sprites.tile_sprite(
            car.first, car.second, car.across, g.unit, style, theme.FELT, faces
        )
        im.paste(sprite.image, (car.box.x, car.box.y), sprite.mask)


def _draw_more(im: Image.Image, box: Box, hidden: int, labels: Labels) -> None:
    """The ``+n`` badge standing for the innermost cars of a long train."""
    inset = max(2, box.h // 8)
    h = box.h - 2 * inset
    draw_box(
        im,
        box.x + inset,
        box.y + inset,
        box.w - 2 * inset,
        h,
        radius=h // 2,
        fill=theme.LABEL,
        background=theme.FELT,
    )
    text = "+" + labels.number(hidden)
    fitted, size = sprites.fit_text(text, box.w - 2 * inset - 6, MORE_SIZE, True, NAME_MIN_SIZE)
    draw_text(
        im,
        fitted,
        box.x + box.w // 2,
        box.y + inset + (h - line_height(size, True)) // 2,
        size,
        bold=True,
        background=theme.LABEL,
        align="centre",
    )


_SCALE = 4


@lru_cache(maxsize=8)
def _marker_sprite(size: int, background: Colour) -> Image.Image:
    """The marker token: a small locomotive on a gold disc, over ``background``."""
    s = _SCALE
    big = Image.new("RGB", (size * s, size * s), background)
    draw = ImageDraw.Draw(big)
    full = size * s - 1
    draw.ellipse((0, 0, full, full), fill=theme.GOLD)

    def box(x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
        return x0 * full, y0 * full, x1 * full, y1 * full

    ink = theme.INK
    draw.rectangle(box(0.22, 0.42, 0.60, 0.64), fill=ink)  # boiler
    draw.rectangle(box(0.56, 0.26, 0.80, 0.64), fill=ink)  # cab
    draw.rectangle(box(0.62, 0.32, 0.74, 0.42), fill=theme.GOLD)  # its window
    draw.rectangle(box(0.28, 0.28, 0.38, 0.42), fill=ink)  # chimney
    draw.polygon(
        [(0.22 * full, 0.56 * full), (0.12 * full, 0.70 * full), (0.22 * full, 0.70 * full)],
        fill=ink,
    )
    draw.rectangle(box(0.20, 0.62, 0.84, 0.68), fill=ink)  # frame
    for cx in (0.33, 0.52, 0.72):
        r = 0.085
        draw.ellipse(box(cx - r, 0.72 - r, cx + r, 0.72 + r), fill=ink)
    return theme.to_palette(big.reduce(s))


@lru_cache(maxsize=8)
def _ring_sprite(width: int, height: int, thickness: int, radius: int) -> Image.Image:
    """A mask ("1") of a rounded ring ``thickness`` wide filling ``width`` × ``height``."""
    s = _SCALE
    big = Image.new("L", (width * s, height * s), 0)
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, width * s - 1, height * s - 1), radius * s, outline=255, width=thickness * s
    )
    return big.reduce(s).point(lambda v: 255 if v >= 128 else 0).convert("1")
