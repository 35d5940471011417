"""The band above the board: a title, table facts and one chip per player."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image

from . import sprites, theme
from .canvas import ascent, draw_box, draw_text, line_height
from .theme import Colour

REFERENCE_WIDTH = 800
"""The sizes below are for a picture this wide (twice what Discord shows) and
scale with the picture, so the header looks the same in Discord's preview
whatever the board's width: names 12 px tall there, scores 15 px."""
PAD = 10
INFO_HEIGHT = 36
CHIP_HEIGHT = 68
CHIP_RADIUS = 8
TITLE_SIZE = 24
FACT_LABEL_SIZE = 20
FACT_VALUE_SIZE = 24
NAME_SIZE = 24
NAME_MIN_SIZE = 17
SCORE_SIZE = 30
TILES_SIZE = 20
ICON_UNIT = 14


@dataclass(frozen=True, slots=True)
class HeaderSizes:
    """The header's sizes for one picture width."""

    pad: int
    info: int
    chip: int
    radius: int
    title: int
    fact_label: int
    fact_value: int
    name: int
    name_min: int
    score: int
    tiles: int
    icon: int
    stripe: int
    outline: int


@lru_cache(maxsize=32)
def header_sizes(width: int) -> HeaderSizes:
    scale = width / REFERENCE_WIDTH

    def px(value: float) -> int:
        return max(1, round(value * scale))

    return HeaderSizes(
        pad=px(PAD),
        info=px(INFO_HEIGHT),
        chip=px(CHIP_HEIGHT),
        radius=px(CHIP_RADIUS),
        title=px(TITLE_SIZE),
        fact_label=px(FACT_LABEL_SIZE),
        fact_value=px(FACT_VALUE_SIZE),
        name=px(NAME_SIZE),
        name_min=px(NAME_MIN_SIZE),
        score=px(SCORE_SIZE),
        tiles=px(TILES_SIZE),
        icon=px(ICON_UNIT / 2) * 2,
        stripe=px(6),
        outline=px(3),
    )


@dataclass(frozen=True, slots=True)
class Chip:
    """One player as the header shows them."""

    name: str
    tiles: int
    score: str
    colour: Colour
    to_move: bool


def seat_colour(seat: int, teams: bool) -> Colour:
    """Team colours with partnerships, else one colour per seat."""
    if teams:
        return theme.TEAM_COLOURS[seat % 2]
    return theme.SEAT_COLOURS[seat % len(theme.SEAT_COLOURS)]


def format_score(value: float) -> str:
    """``35`` for whole numbers, ``2.5`` otherwise."""
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def _rows(players: int) -> list[int]:
    """How many chips each row holds: one row up to 4 players, else two."""
    if players <= 4:
        return [players]
    first = (players + 1) // 2
    return [first, players - first]


def header_height(players: int, has_info: bool, width: int = REFERENCE_WIDTH) -> int:
    """How tall the header is over a picture ``width`` pixels wide."""
    z = header_sizes(width)
    rows = len(_rows(players))
    info = z.info + z.pad // 2 if has_info else 0
    return z.pad + info + rows * z.chip + (rows - 1) * (z.pad // 2) + z.pad


def header_share(players: int, has_info: bool) -> float:
    """The header's height as a share of the picture's width."""
    return header_height(players, has_info) / REFERENCE_WIDTH


def draw_header(
    im: Image.Image,
    width: int,
    chips: Sequence[Chip],
    title: str | None,
    facts: Sequence[tuple[str, str]],
) -> None:
    """Draw the header across the top ``width`` pixels of ``im`` (already sized for it)."""
    z = header_sizes(width)
    height = header_height(len(chips), bool(title or facts), width)
    im.paste(theme.index(theme.PANEL), (0, 0, width, height))
    y = z.pad
    if title or facts:
        _draw_info(im, z, width, y, title, facts)
        y += z.info + z.pad // 2
    seat = 0
    for count in _rows(len(chips)):
        chip_w = (width - z.pad * (count + 1)) // count
        for i in range(count):
            _draw_chip(im, z, z.pad + i * (chip_w + z.pad), y, chip_w, chips[seat])
            seat += 1
        y += z.chip + z.pad // 2


def _draw_info(
    im: Image.Image,
    z: HeaderSizes,
    width: int,
    y: int,
    title: str | None,
    facts: Sequence[tuple[str, str]],
) -> None:
    value_top = y + (z.info - line_height(z.fact_value, True)) // 2
    baseline = value_top + ascent(z.fact_value, True)
    label_top = baseline - ascent(z.fact_label)
    x = width - z.pad
    for label, value in reversed(facts):
        x -= draw_text(
            im,
            value,
            x,
            value_top,
            z.fact_value,
            bold=True,
            background=theme.PANEL,
            align="right",
        )
        x -= z.pad * 2 // 3
        x -= draw_text(
            im,
            label,
            x,
            label_top,
            z.fact_label,
            colour=theme.TEXT_MUTED,
            background=theme.PANEL,
            align="right",
        )
        x -= z.pad * 2
    if title:
        text, size = sprites.fit_text(title, x - 2 * z.pad, z.title, True, z.name_min)
        top = baseline - ascent(size, True)
        draw_text(im, text, z.pad, top, size, bold=True, background=theme.PANEL)


def _draw_chip(im: Image.Image, z: HeaderSizes, x: int, y: int, w: int, chip: Chip) -> None:
    outline = theme.GOLD if chip.to_move else None
    draw_box(
        im,
        x,
        y,
        w,
        z.chip,
        radius=z.radius,
        fill=theme.CHIP,
        background=theme.PANEL,
        outline=outline,
        outline_width=z.outline if outline else 0,
    )
    inset = z.pad
    draw_box(
        im,
        x + inset,
        y + z.pad,
        z.stripe,
        z.chip - 2 * z.pad,
        radius=z.stripe // 2,
        fill=chip.colour,
        background=theme.CHIP,
    )
    score_w = draw_text(
        im,
        chip.score,
        x + w - inset - z.outline,
        y + (z.chip - line_height(z.score, True)) // 2,
        z.score,
        bold=True,
        colour=theme.GOLD if chip.to_move else theme.TEXT,
        background=theme.CHIP,
        align="right",
    )
    left = x + inset + z.stripe + z.pad
    name_h = line_height(z.name, True)
    count_h = line_height(z.tiles, True)
    icon_h = 2 * z.icon
    second_h = max(count_h, icon_h)
    top = y + (z.chip - (name_h + second_h)) // 2
    name, size = sprites.fit_text(
        chip.name, w - (left - x) - score_w - 2 * inset, z.name, True, z.name_min
    )
    draw_text(
        im,
        name,
        left,
        top + name_h - line_height(size, True),
        size,
        bold=True,
        background=theme.CHIP,
    )
    second = top + name_h
    icon = sprites.tile_sprite(0, 0, True, z.icon, "back", theme.CHIP)
    im.paste(icon.image, (left, second + (second_h - icon_h) // 2), icon.mask)
    draw_text(
        im,
        str(chip.tiles),
        left + z.icon + z.pad * 2 // 3,
        second + (second_h - count_h) // 2,
        z.tiles,
        bold=True,
        colour=theme.TEXT_MUTED,
        background=theme.CHIP,
    )
