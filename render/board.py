"""The board image everybody sees each turn: the table, the ends, the players.

The image is public, so it is drawn only from public facts: the layout (with
face-down tiles drawn as backs), hand sizes, the boneyard size, the history's
last move and the totals. It never reads a hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from bot.engine.deal import Deal
from bot.engine.events import Played
from bot.engine.tiles import Tile

from . import sprites, theme
from .canvas import blank, draw_box, draw_text, line_height, to_png
from .geometry import BoardGeometry, EndMark, board_geometry
from .header import Chip, draw_header, format_score, header_height, seat_colour
from .labels import ENGLISH, Labels

__all__ = ["draw_board", "last_move_tiles", "render_board"]


def render_board(
    deal: Deal,
    *,
    names: Sequence[str],
    totals: Sequence[float] | None = None,
    title: str | None = None,
    labels: Labels = ENGLISH,
) -> bytes:
    """The board of ``deal`` as PNG bytes.

    ``names`` has one entry per seat. ``totals`` has one entry per side
    (``deal.rules.sides``); by default the match totals the deal carries
    (``deal.base_totals`` plus what this deal has scored so far). ``title`` is
    drawn as given. ``labels`` supplies every other word.
    """
    return to_png(draw_board(deal, names=names, totals=totals, title=title, labels=labels))


def draw_board(
    deal: Deal,
    *,
    names: Sequence[str],
    totals: Sequence[float] | None = None,
    title: str | None = None,
    labels: Labels = ENGLISH,
) -> Image.Image:
    """The board as a palette image (what :func:`render_board` encodes)."""
    rules = deal.rules
    if len(names) != rules.players:
        raise ValueError(f"{rules.players} seats need {rules.players} names, not {len(names)}")
    sides = rules.sides
    side_totals = list(totals) if totals is not None else _deal_totals(deal)
    if len(side_totals) != len(sides):
        raise ValueError(f"{len(sides)} sides need {len(sides)} totals, not {len(side_totals)}")

    geometry = board_geometry(deal.layout)
    facts: list[tuple[str, str]] = []
    if rules.draws:
        facts.append((labels.boneyard, str(deal.boneyard_size)))
    if rules.scoring == "fives":
        facts.append((labels.count, str(deal.layout.count())))
    sizes = deal.hand_sizes()
    chips = [
        Chip(
            name=names[seat],
            tiles=sizes[seat],
            score=format_score(side_totals[rules.side_of(seat)]),
            colour=seat_colour(seat, rules.teams),
            to_move=not deal.over and seat == deal.turn,
        )
        for seat in range(rules.players)
    ]
    top = header_height(len(chips), bool(title or facts))
    im = blank(geometry.width, top + geometry.height)
    draw_header(im, geometry.width, chips, title, facts)
    draw_table(im, geometry, 0, top, last_move_tiles(deal), labels)
    return im


def _deal_totals(deal: Deal) -> list[float]:
    gained = deal.result.score if deal.result is not None else deal.play_points
    return [base + g for base, g in zip(deal.base_totals, gained, strict=True)]


def last_move_tiles(deal: Deal) -> frozenset[Tile]:
    """The tiles laid by the last move of the deal (several for a latvian doubles move)."""
    for event in reversed(deal.history):
        if isinstance(event, Played):
            return frozenset(p.tile for p in event.move.placements)
    return frozenset()


def draw_table(
    im: Image.Image,
    geometry: BoardGeometry,
    left: int,
    top: int,
    fresh: frozenset[Tile],
    labels: Labels,
) -> None:
    """Paste the tiles and end labels of ``geometry`` with its corner at ``left``, ``top``."""
    unit = geometry.unit
    for placed in geometry.tiles:
        is_fresh = placed.tile in fresh
        if placed.closed:  # face down: never draw its numbers
            style: sprites.Style = "fresh_back" if is_fresh else "back"
            sprite = sprites.tile_sprite(0, 0, placed.vertical, unit, style)
        else:
            sprite = sprites.tile_sprite(
                placed.first, placed.second, placed.vertical, unit, "fresh" if is_fresh else "face"
            )
        box = placed.box
        im.paste(sprite.image, (left + box.x, top + box.y), sprite.mask)
    for mark in geometry.ends:
        _draw_end(im, mark, left, top, unit, labels)


def _end_name(names: tuple[str, str], width: int, size: int) -> tuple[str, int]:
    """The full end name if it fits at a readable size, else the short one, else nothing."""
    readable = max(8, size * 3 // 4)
    for name in names:
        text, fitted = sprites.fit_text(name, width, size, False, readable)
        if text == name:
            return text, fitted
    return "", size


def _draw_end(
    im: Image.Image, mark: EndMark, left: int, top: int, unit: int, labels: Labels
) -> None:
    inset = max(2, unit // 10)
    box = mark.box
    x, y = left + box.x + inset, top + box.y + inset
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
                colour=theme.TEXT,
                background=fill,
                align="centre",
            )
        return
    value = str(mark.value)
    value_size = max(10, round(h * 0.78))
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
