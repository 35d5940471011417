"""Stats cards: a leaderboard page and a player's card, as PNG bytes.

Plain data in, pictures out: every word and every formatted number comes from
the caller (already translated), so this module spells nothing itself. A card
is drawn on the shared palette like the other images.

    png = render_leaderboard(BoardCard(title=..., subtitle=..., name_heading=...,
                                       headings=(...), lines=(BoardLine(1, "Ann", (...)),)))
    png = render_player_card(PlayerCardImage(title=..., ...))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from . import sprites, theme
from .canvas import blank, draw_box, draw_text, line_height, to_png
from .theme import Colour

__all__ = [
    "BoardCard",
    "BoardLine",
    "PlayerCardImage",
    "ResultLine",
    "draw_leaderboard",
    "draw_player_card",
    "render_leaderboard",
    "render_player_card",
]

WIDTH = 1000
CARD_WIDTH = 1120
"""The player card is wider: its table has a game name and six columns."""
PAD = 24
TITLE_SIZE = 38
SUBTITLE_SIZE = 24
HEAD_SIZE = 22
CELL_SIZE = 26
NAME_SIZE = 28
NAME_MIN_SIZE = 18
ROW_HEIGHT = 50
ROW_GAP = 6
CELL_GAP = 26
POSITION_W = 64
SECTION_SIZE = 26
CHART_HEIGHT = 220
RESULT_HEIGHT = 40
FOOTER_SIZE = 20

OUTCOME_COLOURS: dict[str, Colour] = {
    "win": theme.SEAT_COLOURS[2],
    "draw": theme.TEXT_MUTED,
    "loss": theme.SEAT_COLOURS[1],
}
"""The marker colour of a result line, by outcome."""
PODIUM = 3
"""Positions drawn in gold."""


@dataclass(frozen=True, slots=True)
class BoardLine:
    """One player on a leaderboard page: position, name and the formatted cells."""

    position: int
    name: str
    cells: tuple[str, ...]
    highlight: bool = False
    """Outline the line (e.g. the player who asked)."""


@dataclass(frozen=True, slots=True)
class BoardCard:
    """A leaderboard page: every word already translated, every number formatted."""

    title: str
    subtitle: str
    name_heading: str
    headings: tuple[str, ...]
    """One per cell column, drawn right-aligned."""
    lines: tuple[BoardLine, ...]
    footer: str = ""
    empty: str = ""
    """Shown when there are no lines."""


@dataclass(frozen=True, slots=True)
class ResultLine:
    """A recent result: its outcome (``win``, ``draw`` or ``loss``), a text and a detail."""

    outcome: str
    text: str
    detail: str = ""
    """Right-aligned, e.g. the rating change."""


@dataclass(frozen=True, slots=True)
class PlayerCardImage:
    """A player's card: a per-game table, a rating trend and recent results."""

    title: str
    subtitle: str
    game_heading: str
    headings: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    """Per game: its name, then one cell per heading."""
    trend_title: str
    trend: tuple[float, ...]
    """Ratings after each rated match, oldest first."""
    trend_empty: str
    """Shown instead of the chart with fewer than two points."""
    recent_title: str
    recent: tuple[ResultLine, ...]
    footer: str = ""


def render_leaderboard(card: BoardCard) -> bytes:
    """A leaderboard page as PNG bytes."""
    return to_png(draw_leaderboard(card))


def render_player_card(card: PlayerCardImage) -> bytes:
    """A player's card as PNG bytes."""
    return to_png(draw_player_card(card))


# -- leaderboard ------------------------------------------------------------------------------


def draw_leaderboard(card: BoardCard) -> Image.Image:
    """The leaderboard page as a palette image (what :func:`render_leaderboard` encodes)."""
    for line in card.lines:
        if len(line.cells) != len(card.headings):
            raise ValueError(
                f"line {line.position} has {len(line.cells)} cells for "
                f"{len(card.headings)} headings"
            )
    rights = _columns(card.headings, [line.cells for line in card.lines], WIDTH)
    name_x = PAD + POSITION_W
    name_room = rights[0] - _width_of(0, card.headings, card.lines) if rights else WIDTH - PAD
    name_room -= CELL_GAP + name_x
    top = _header_height(card.subtitle)
    rows = max(len(card.lines), 1)
    footer = _footer_height(card.footer)
    height = top + line_height(HEAD_SIZE) + 10 + rows * (ROW_HEIGHT + ROW_GAP) + footer + PAD
    im = blank(WIDTH, height, theme.PANEL)
    _draw_header(im, card.title, card.subtitle)
    y = top
    draw_text(
        im,
        card.name_heading,
        name_x,
        y,
        HEAD_SIZE,
        colour=theme.TEXT_MUTED,
        background=theme.PANEL,
    )
    for heading, right in zip(card.headings, rights, strict=True):
        draw_text(
            im,
            heading,
            right,
            y,
            HEAD_SIZE,
            colour=theme.TEXT_MUTED,
            background=theme.PANEL,
            align="right",
        )
    y += line_height(HEAD_SIZE) + 10
    if not card.lines:
        _draw_row_box(im, y, False)
        _centre_text(im, card.empty, y, theme.TEXT_MUTED)
    for line in card.lines:
        _draw_board_line(im, line, y, name_x, name_room, rights)
        y += ROW_HEIGHT + ROW_GAP
    if card.lines:
        y -= ROW_GAP
    else:
        y += ROW_HEIGHT
    _draw_footer(im, card.footer, y)
    return im


def _draw_board_line(
    im: Image.Image,
    line: BoardLine,
    y: int,
    name_x: int,
    name_room: int,
    rights: Sequence[int],
) -> None:
    _draw_row_box(im, y, line.highlight)
    podium = line.position <= PODIUM
    cell_dy = (ROW_HEIGHT - line_height(CELL_SIZE, True)) // 2
    draw_text(
        im,
        str(line.position),
        PAD + POSITION_W - 18,
        y + cell_dy,
        CELL_SIZE,
        bold=True,
        colour=theme.GOLD if podium else theme.TEXT_MUTED,
        background=theme.ROW,
        align="right",
    )
    name, size = sprites.fit_text(line.name, max(name_room, 40), NAME_SIZE, True, NAME_MIN_SIZE)
    draw_text(
        im,
        name,
        name_x,
        y + (ROW_HEIGHT - line_height(size, True)) // 2,
        size,
        bold=True,
        background=theme.ROW,
    )
    for i, (cell, right) in enumerate(zip(line.cells, rights, strict=True)):
        draw_text(
            im,
            cell,
            right,
            y + cell_dy,
            CELL_SIZE,
            bold=i == 0,
            colour=theme.GOLD if i == 0 and podium else theme.TEXT,
            background=theme.ROW,
            align="right",
        )


# -- player card ------------------------------------------------------------------------------


def draw_player_card(card: PlayerCardImage) -> Image.Image:
    """The player's card as a palette image (what :func:`render_player_card` encodes)."""
    for row in card.rows:
        if len(row) != len(card.headings) + 1:
            raise ValueError(f"a row needs a name and {len(card.headings)} cells: {row!r}")
    rights = _columns(card.headings, [row[1:] for row in card.rows], CARD_WIDTH)
    if rights:
        first = rights[0] - _column_width(0, card.headings, [r[1:] for r in card.rows])
        game_room = first - CELL_GAP - (PAD + 16)
    else:
        game_room = CARD_WIDTH - 2 * PAD - 32
    top = _header_height(card.subtitle)
    table = line_height(HEAD_SIZE) + 10 + max(len(card.rows), 1) * (ROW_HEIGHT + ROW_GAP)
    section = line_height(SECTION_SIZE, True) + 12
    chart = section + CHART_HEIGHT + 20
    recent = section + max(len(card.recent), 1) * (RESULT_HEIGHT + ROW_GAP)
    footer = _footer_height(card.footer)
    height = top + table + chart + recent + footer + PAD
    im = blank(CARD_WIDTH, height, theme.PANEL)
    _draw_header(im, card.title, card.subtitle)

    y = top
    draw_text(
        im,
        card.game_heading,
        PAD + 16,
        y,
        HEAD_SIZE,
        colour=theme.TEXT_MUTED,
        background=theme.PANEL,
    )
    for heading, right in zip(card.headings, rights, strict=True):
        draw_text(
            im,
            heading,
            right,
            y,
            HEAD_SIZE,
            colour=theme.TEXT_MUTED,
            background=theme.PANEL,
            align="right",
        )
    y += line_height(HEAD_SIZE) + 10
    cell_dy = (ROW_HEIGHT - line_height(CELL_SIZE)) // 2
    for row in card.rows:
        _draw_row_box(im, y, False)
        name, size = sprites.fit_text(row[0], max(game_room, 40), NAME_SIZE, True, NAME_MIN_SIZE)
        draw_text(
            im,
            name,
            PAD + 16,
            y + (ROW_HEIGHT - line_height(size, True)) // 2,
            size,
            bold=True,
            background=theme.ROW,
        )
        for cell, right in zip(row[1:], rights, strict=True):
            draw_text(im, cell, right, y + cell_dy, CELL_SIZE, background=theme.ROW, align="right")
        y += ROW_HEIGHT + ROW_GAP
    if not card.rows:
        y += ROW_HEIGHT + ROW_GAP

    y += 14
    _section_title(im, card.trend_title, y)
    y += section
    _draw_trend(im, y, card.trend, card.trend_empty)
    y += CHART_HEIGHT + 20

    _section_title(im, card.recent_title, y)
    y += section
    for result in card.recent:
        _draw_result(im, y, result)
        y += RESULT_HEIGHT + ROW_GAP
    if not card.recent:
        y += RESULT_HEIGHT
    else:
        y -= ROW_GAP
    _draw_footer(im, card.footer, y)
    return im


def _draw_trend(im: Image.Image, y: int, trend: Sequence[float], empty: str) -> None:
    x0, x1 = PAD, im.width - PAD
    draw_box(im, x0, y, x1 - x0, CHART_HEIGHT, radius=12, fill=theme.ROW, background=theme.PANEL)
    if len(trend) < 2:
        _centre_text(im, empty, y + (CHART_HEIGHT - ROW_HEIGHT) // 2, theme.TEXT_MUTED)
        return
    low, high = min(trend), max(trend)
    span = high - low or 1.0
    label_w = max(sprites.text_width(_number(v), HEAD_SIZE, False) for v in (low, high)) + 20
    left, right = x0 + label_w + 10, x1 - 24
    top, bottom = y + 24, y + CHART_HEIGHT - 24
    draw_text(
        im,
        _number(high),
        left - 12,
        top - line_height(HEAD_SIZE) // 2,
        HEAD_SIZE,
        colour=theme.TEXT_MUTED,
        background=theme.ROW,
        align="right",
    )
    draw_text(
        im,
        _number(low),
        left - 12,
        bottom - line_height(HEAD_SIZE) // 2,
        HEAD_SIZE,
        colour=theme.TEXT_MUTED,
        background=theme.ROW,
        align="right",
    )
    draw = ImageDraw.Draw(im)
    muted = theme.index(theme.TEXT_MUTED)
    draw.line([(left, top), (right, top)], fill=theme.index(theme.CHIP), width=1)
    draw.line([(left, bottom), (right, bottom)], fill=muted, width=1)
    step = (right - left) / (len(trend) - 1)
    points = [
        (round(left + i * step), round(bottom - (v - low) / span * (bottom - top)))
        for i, v in enumerate(trend)
    ]
    gold = theme.index(theme.GOLD)
    draw.line(points, fill=gold, width=4, joint="curve")
    if len(points) <= 60:
        for px, py in points:
            draw.ellipse((px - 5, py - 5, px + 5, py + 5), fill=gold)


def _draw_result(im: Image.Image, y: int, result: ResultLine) -> None:
    draw_box(
        im,
        PAD,
        y,
        im.width - 2 * PAD,
        RESULT_HEIGHT,
        radius=10,
        fill=theme.ROW,
        background=theme.PANEL,
    )
    colour = OUTCOME_COLOURS.get(result.outcome, theme.TEXT_MUTED)
    draw_box(
        im, PAD + 10, y + 8, 8, RESULT_HEIGHT - 16, radius=4, fill=colour, background=theme.ROW
    )
    dy = (RESULT_HEIGHT - line_height(CELL_SIZE - 2)) // 2
    detail_w = sprites.text_width(result.detail, CELL_SIZE - 2, True) if result.detail else 0
    room = im.width - 2 * PAD - 40 - detail_w - 30
    text, size = sprites.fit_text(result.text, room, CELL_SIZE - 2, False, 16)
    draw_text(
        im,
        text,
        PAD + 32,
        y + (RESULT_HEIGHT - line_height(size)) // 2,
        size,
        background=theme.ROW,
    )
    if result.detail:
        draw_text(
            im,
            result.detail,
            im.width - PAD - 16,
            y + dy,
            CELL_SIZE - 2,
            bold=True,
            colour=colour,
            background=theme.ROW,
            align="right",
        )


# -- shared pieces ------------------------------------------------------------------------------


def _header_height(subtitle: str) -> int:
    height = PAD + line_height(TITLE_SIZE, True) + 8
    if subtitle:
        height += line_height(SUBTITLE_SIZE) + 8
    return height + 12


def _draw_header(im: Image.Image, title: str, subtitle: str) -> None:
    text, size = sprites.fit_text(title, im.width - 2 * PAD, TITLE_SIZE, True, 20)
    draw_text(im, text, PAD, PAD, size, bold=True, background=theme.PANEL)
    if subtitle:
        y = PAD + line_height(TITLE_SIZE, True) + 8
        text, size = sprites.fit_text(subtitle, im.width - 2 * PAD, SUBTITLE_SIZE, False, 14)
        draw_text(im, text, PAD, y, size, colour=theme.TEXT_MUTED, background=theme.PANEL)


def _footer_height(footer: str) -> int:
    return line_height(FOOTER_SIZE) + 18 if footer else 0


def _draw_footer(im: Image.Image, footer: str, y: int) -> None:
    if footer:
        text, size = sprites.fit_text(footer, im.width - 2 * PAD, FOOTER_SIZE, False, 12)
        draw_text(im, text, PAD, y + 14, size, colour=theme.TEXT_MUTED, background=theme.PANEL)


def _section_title(im: Image.Image, title: str, y: int) -> None:
    text, size = sprites.fit_text(title, im.width - 2 * PAD, SECTION_SIZE, True, 14)
    draw_text(im, text, PAD, y, size, bold=True, colour=theme.GOLD, background=theme.PANEL)


def _draw_row_box(im: Image.Image, y: int, highlight: bool) -> None:
    draw_box(
        im,
        PAD,
        y,
        im.width - 2 * PAD,
        ROW_HEIGHT,
        radius=10,
        fill=theme.ROW,
        background=theme.PANEL,
        outline=theme.GOLD if highlight else None,
        outline_width=2 if highlight else 0,
    )


def _centre_text(im: Image.Image, text: str, y: int, colour: Colour) -> None:
    if not text:
        return
    text, size = sprites.fit_text(text, im.width - 4 * PAD, CELL_SIZE, False, 14)
    draw_text(
        im,
        text,
        im.width // 2,
        y + (ROW_HEIGHT - line_height(size)) // 2,
        size,
        colour=colour,
        background=theme.ROW,
        align="centre",
    )


def _column_width(i: int, headings: Sequence[str], rows: Sequence[Sequence[str]]) -> int:
    widths = [sprites.text_width(headings[i], HEAD_SIZE, False)]
    widths += [sprites.text_width(row[i], CELL_SIZE, True) for row in rows]
    return max(widths)


def _width_of(i: int, headings: Sequence[str], lines: Sequence[BoardLine]) -> int:
    return _column_width(i, headings, [line.cells for line in lines])


def _columns(headings: Sequence[str], rows: Sequence[Sequence[str]], width: int) -> list[int]:
    """The right edge of each cell column, packed from the card's right side."""
    rights: list[int] = []
    x = width - PAD - 16
    for i in reversed(range(len(headings))):
        rights.append(x)
        x -= _column_width(i, headings, rows) + CELL_GAP
    return rights[::-1]


def _number(value: float) -> str:
    return f"{value:.1f}"
