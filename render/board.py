"""The board image everybody sees each turn: the table, the ends, the players.

The image is public, so it is drawn from the public view of the match
(:func:`bot.engine.view.public_view`, a spectator's view): the table as a
spectator sees it (while the deal is in play a face-down tile is a back without
a tile; once it is over the view reveals it and it is drawn face up, edged
navy), hand sizes, the boneyard size, the last move and the totals. That view
holds no hand and no hidden tile, so no path through this module can draw one.

The picture is 800 px wide (shown 400 px wide by Discord) unless the table
needs more, and at most 3/4 as tall (Discord shows an embed's image in at most
400 x 300 px, so a taller one would be shown narrower); it is cropped to the
tiles below the header, with no band of empty felt. The header scales with the
width and the table is framed to what is on it (:mod:`render.geometry`).

``recent`` (the tiles laid since the viewer's last turn) puts a numbered badge
in the seat's colour on each of them that the table shows (:mod:`render.badges`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from bot.engine.moves import End
from bot.engine.tiles import Tile
from bot.engine.view import PlayerView, SeenPlay

from . import sprites, theme
from .badges import Badge, draw_badges, place_badges
from .canvas import blank, draw_box, draw_text, line_height, to_png
from .geometry import BoardGeometry, Box, EndMark, PlacedTile, board_geometry
from .header import Team, draw_header, format_score, header_height, header_share, seat_chips
from .labels import ENGLISH, Labels
from .station import draw_station

__all__ = [
    "LastMove",
    "board_badges",
    "draw_board",
    "end_value_size",
    "last_move",
    "render_board",
    "table_geometry",
]


def render_board(
    board: PlayerView,
    *,
    names: Sequence[str],
    totals: Sequence[float] | None = None,
    title: str | None = None,
    labels: Labels = ENGLISH,
    recent: Sequence[tuple[int, Tile]] = (),
) -> bytes:
    """The board of the deal in play as PNG bytes, from ``board = public_view(state)``.

    ``names`` has one entry per seat (a long ``Name (note)`` is split in the
    header rather than cut: :func:`render.header.split_name`). ``totals`` has
    one entry per side (``rules.sides``); by default the match totals of the
    view (every finished deal plus what the deal in play has scored so far).
    ``title`` is drawn as given. ``labels`` supplies every other word.
    ``recent``: the (seat, tile) pairs laid since the viewer's last turn, in
    order; each tile the table shows face up gets a badge numbered 1, 2, 3...
    in that seat's colour (others are skipped). A seat's own view is refused:
    the board is public.
    """
    return to_png(
        draw_board(board, names=names, totals=totals, title=title, labels=labels, recent=recent)
    )


def draw_board(
    board: PlayerView,
    *,
    names: Sequence[str],
    totals: Sequence[float] | None = None,
    title: str | None = None,
    labels: Labels = ENGLISH,
    recent: Sequence[tuple[int, Tile]] = (),
) -> Image.Image:
    """The board as a palette image (what :func:`render_board` encodes)."""
    if board.station is not None:  # Mexican Train: the station and its trains
        return draw_station(
            board, names=names, totals=totals, title=title, labels=labels, recent=recent
        )
    chips, side_totals = seat_chips(board, names, totals)
    rules = board.rules
    facts: list[tuple[str, str]] = []
    if rules.draws:
        facts.append((labels.boneyard, str(board.boneyard_size)))
    if rules.scoring == "fives":
        facts.append((labels.count, str(board.table.count)))
    geometry = table_geometry(board, title=title)
    teams = (
        [Team(seats, format_score(side_totals[i])) for i, seats in enumerate(rules.sides)]
        if rules.teams
        else []
    )
    top = header_height(len(chips), bool(title or facts), geometry.width, bool(teams))
    im = blank(geometry.width, top + geometry.height)
    draw_header(im, geometry.width, chips, title, facts, teams)
    faces = sprites.faces_for(rules.set)
    draw_table(im, geometry, top, last_move(board), labels, faces)
    draw_badges(im, board_badges(geometry, recent, top), [chip.colour for chip in chips])
    return im


def board_badges(
    geometry: BoardGeometry, recent: Sequence[tuple[int, Tile]], top: int = 0
) -> list[Badge]:
    """Where :func:`draw_board` puts the badges of ``recent`` (``top``: the header's
    height): on the face-up tiles of ``geometry`` only."""
    boxes = [(p.tile, Box(p.box.x, p.box.y + top, p.box.w, p.box.h)) for p in geometry.tiles]
    return place_badges(recent, boxes, geometry.unit)


PICTURE_SHAPE = 0.75
"""The board picture is at most 3/4 as tall as wide (header included): Discord shows
an embed's image in at most 400 by 300 pixels, so such a picture is shown the full
400 wide, and a taller one would be shown narrower. Below that bound it is as tall
as its tiles. Big boards gain their room from packed rows (:mod:`render.geometry`)."""


def table_geometry(board: PlayerView, *, title: str | None = None) -> BoardGeometry:
    """Where the tiles and labels of ``board`` go below its header (what :func:`draw_board` uses).

    The table gets at most the part of a 4:3 picture the header leaves (its
    bound depends only on the players, the teams and whether the header has a
    line for the title or the boneyard and count), and is cropped to its tiles.
    """
    rules = board.rules
    has_info = bool(title) or rules.draws or rules.scoring == "fives"
    shape = PICTURE_SHAPE - header_share(rules.players, has_info, rules.teams)
    return board_geometry(board.table, rules.layout or "line", shape=shape, packed=rules.set > 6)


@dataclass(frozen=True, slots=True)
class LastMove:
    """What the last move laid (several tiles for a latvian doubles move), to be lit."""

    tiles: frozenset[Tile]
    """The tiles the viewer can see."""
    hidden_ends: frozenset[End]
    """Ends it closed with a tile the viewer may not see (always the outermost of its arm)."""

    def lit(self, placed: PlacedTile) -> bool:
        if placed.tile is None:
            return placed.chain in self.hidden_ends
        return placed.tile in self.tiles


def last_move(board: PlayerView) -> LastMove:
    """What the last move of the deal laid."""
    for event in reversed(board.history):
        if isinstance(event, SeenPlay):
            ps = event.placements
            return LastMove(
                frozenset(p.tile for p in ps if p.tile is not None),
                frozenset(p.end for p in ps if p.tile is None and p.end is not None),
            )
    return LastMove(frozenset(), frozenset())


def draw_table(
    im: Image.Image,
    geometry: BoardGeometry,
    top: int,
    fresh: LastMove,
    labels: Labels,
    faces: sprites.Faces,
) -> None:
    """Paste the tiles and end labels of ``geometry`` with its top at ``top``."""
    unit = geometry.unit
    for placed in geometry.tiles:
        is_fresh = fresh.lit(placed)
        if placed.tile is None:  # face down and hidden: never draw its numbers
            style: sprites.Style = "fresh_back" if is_fresh else "back"
            sprite = sprites.tile_sprite(0, 0, placed.vertical, unit, style)
        else:
            assert placed.first is not None  # face up: both numbers are seen
            assert placed.second is not None
            # a tile laid face down is turned up when the deal is over
            style = "fresh" if is_fresh else "revealed" if placed.closed else "face"
            sprite = sprites.tile_sprite(
                placed.first, placed.second, placed.vertical, unit, style, theme.FELT, faces
            )
        box = placed.box
        im.paste(sprite.image, (box.x, top + box.y), sprite.mask)
    for mark in geometry.ends:
        _draw_end(im, mark, top, unit, labels)


def _label_inset(unit: int) -> int:
    return max(2, unit // 10)


def end_value_size(unit: int) -> int:
    """The size of an end label's number (``east 5``) on a board of ``unit``."""
    return max(10, round((unit - 2 * _label_inset(unit)) * 0.78))


def _end_name(names: tuple[str, str], width: int, size: int) -> tuple[str, int]:
    """The full end name if it fits at a readable size, else the short one, else nothing."""
    readable = max(8, size * 3 // 4)
    for name in names:
        text, fitted = sprites.fit_text(name, width, size, False, readable)
        if text == name:
            return text, fitted
    return "", size


def _draw_end(im: Image.Image, mark: EndMark, top: int, unit: int, labels: Labels) -> None:
    inset = _label_inset(unit)
    box = mark.box
    x, y = box.x + inset, top + box.y + inset
    w, h = box.w - 2 * inset, box.h - 2 * inset
    fill = theme.LABEL_CLOSED if mark.closed else theme.LABEL
    draw_box(im, x, y, w, h, radius=h // 2, fill=fill, background=theme.FELT)
    name = labels.end_name(mark.end)
    room = w - h // 2
    if mark.value is None:  # closed: name over the word "closed", both small
        size = max(8, round(h * 0.38))
        line = line_height(size)
        for i, text in enumerate((name, labels.closed)):
            fitted, s = sprites.fit_text(text, room, size, False, 8)
            draw_text(
                im,
                fitted,
                x + w // 2,
                y + (h - 2 * line) // 2 + i * line,
                s,
                background=fill,
                align="centre",
            )
        return
    value = str(mark.value)
    value_size = end_value_size(unit)
    value_w = sprites.text_width(value, value_size, True)
    gap = max(3, h // 6)
    name_text, name_size = _end_name(
        (name, labels.end_short(mark.end)), room - value_w - gap, max(8, round(h * 0.46))
    )
    if not name_text:
        gap = 0
    name_w = sprites.text_width(name_text, name_size, False)
    start = x + (w - (name_w + gap + value_w)) // 2
    value_h = line_height(value_size, True)
    name_h = line_height(name_size)
    draw_text(
        im,
        name_text,
        start,
        y + (h - name_h) // 2,
        name_size,
        colour=theme.TEXT_MUTED,
        background=fill,
    )
    draw_text(
        im,
        value,
        start + name_w + gap,
        y + (h - value_h) // 2,
        value_size,
        bold=True,
        background=fill,
    )
