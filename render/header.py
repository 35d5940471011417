"""The band above the board: a title, table facts and one chip per player."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from . import sprites, theme
from .canvas import ascent, draw_box, draw_text, line_height
from .theme import Colour

PAD = 14
INFO_HEIGHT = 52
CHIP_HEIGHT = 96
CHIP_RADIUS = 12
TITLE_SIZE = 34
FACT_LABEL_SIZE = 26
FACT_VALUE_SIZE = 34
NAME_SIZE = 34
NAME_MIN_SIZE = 24
SCORE_SIZE = 42
TILES_SIZE = 28
ICON_UNIT = 20


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


def header_height(players: int, has_info: bool) -> int:
    rows = len(_rows(players))
    info = INFO_HEIGHT + PAD // 2 if has_info else 0
    return PAD + info + rows * CHIP_HEIGHT + (rows - 1) * (PAD // 2) + PAD


def draw_header(
    im: Image.Image,
    width: int,
    chips: Sequence[Chip],
    title: str | None,
    facts: Sequence[tuple[str, str]],
) -> None:
    """Draw the header across the top ``width`` pixels of ``im`` (already sized for it)."""
    height = header_height(len(chips), bool(title or facts))
    im.paste(theme.index(theme.PANEL), (0, 0, width, height))
    y = PAD
    if title or facts:
        _draw_info(im, width, y, title, facts)
        y += INFO_HEIGHT + PAD // 2
    seat = 0
    for count in _rows(len(chips)):
        chip_w = (width - PAD * (count + 1)) // count
        for i in range(count):
            _draw_chip(im, PAD + i * (chip_w + PAD), y, chip_w, chips[seat])
            seat += 1
        y += CHIP_HEIGHT + PAD // 2


def _draw_info(
    im: Image.Image, width: int, y: int, title: str | None, facts: Sequence[tuple[str, str]]
) -> None:
    value_top = y + (INFO_HEIGHT - line_height(FACT_VALUE_SIZE, True)) // 2
    baseline = value_top + ascent(FACT_VALUE_SIZE, True)
    label_top = baseline - ascent(FACT_LABEL_SIZE)
    x = width - PAD
    for label, value in reversed(facts):
        x -= draw_text(
            im,
            value,
            x,
            value_top,
            FACT_VALUE_SIZE,
            bold=True,
            background=theme.PANEL,
            align="right",
        )
        x -= 10
        x -= draw_text(
            im,
            label,
            x,
            label_top,
            FACT_LABEL_SIZE,
            colour=theme.TEXT_MUTED,
            background=theme.PANEL,
            align="right",
        )
        x -= 32
    if title:
        text, size = sprites.fit_text(title, x - 2 * PAD, TITLE_SIZE, True, 18)
        top = baseline - ascent(size, True)
        draw_text(im, text, PAD, top, size, bold=True, background=theme.PANEL)


def _draw_chip(im: Image.Image, x: int, y: int, w: int, chip: Chip) -> None:
    outline = theme.GOLD if chip.to_move else None
    draw_box(
        im,
        x,
        y,
        w,
        CHIP_HEIGHT,
        radius=CHIP_RADIUS,
        fill=theme.CHIP,
        background=theme.PANEL,
        outline=outline,
        outline_width=4 if outline else 0,
    )
    draw_box(
        im,
        x + 12,
        y + 14,
        8,
        CHIP_HEIGHT - 28,
        radius=4,
        fill=chip.colour,
        background=theme.CHIP,
    )
    score_w = draw_text(
        im,
        chip.score,
        x + w - 16,
        y + (CHIP_HEIGHT - line_height(SCORE_SIZE, True)) // 2,
        SCORE_SIZE,
        bold=True,
        colour=theme.GOLD if chip.to_move else theme.TEXT,
        background=theme.CHIP,
        align="right",
    )
    left = x + 34
    name_h = line_height(NAME_SIZE, True)
    count_h = line_height(TILES_SIZE, True)
    icon_h = 2 * ICON_UNIT
    second_h = max(count_h, icon_h)
    top = y + (CHIP_HEIGHT - (name_h + second_h)) // 2
    name, size = sprites.fit_text(
        chip.name, w - (left - x) - score_w - 28, NAME_SIZE, True, NAME_MIN_SIZE
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
    icon = sprites.tile_sprite(0, 0, True, ICON_UNIT, "back", theme.CHIP)
    im.paste(icon.image, (left, second + (second_h - icon_h) // 2), icon.mask)
    draw_text(
        im,
        str(chip.tiles),
        left + ICON_UNIT + 10,
        second + (second_h - count_h) // 2,
        TILES_SIZE,
        bold=True,
        colour=theme.TEXT_MUTED,
        background=theme.CHIP,
    )
