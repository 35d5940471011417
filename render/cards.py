"""Stats cards: a leaderboard page and a player's card, as PNG bytes.

Plain data in, pictures out: every word and every formatted number comes from
the caller (already translated), so this module spells nothing itself. A card
is drawn on the shared palette like the other images.

Every text is drawn at :data:`MIN_TEXT_SIZE` or larger: at least 10 px when a
card is shown 400 px wide. Columns are as wide as their widest heading or cell,
measured with the font, so headings in any language never run into each other;
long sentences (subtitle, footer, results) wrap instead of shrinking.

    png = render_leaderboard(BoardCard(title=..., subtitle=..., name_heading=...,
                                       headings=(...), lines=(BoardLine(1, "Ann", (...)),)))
    png = render_player_card(PlayerCardImage(title=..., ...))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from . import sprites, theme
from .canvas import blank, draw_box, draw_text, line_height, to_png
from .labels import english_number
from .theme import Colour
from .wrap import wrap_text

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
CARD_WIDTH = 1000
"""The player card: the same width; each game's cells go on a line below its name."""
SHOWN_WIDTH = 400
"""How wide Discord shows a card in an embed."""
MIN_TEXT_SIZE = -(-10 * max(WIDTH, CARD_WIDTH) // SHOWN_WIDTH)
"""The smallest font size drawn: 10 px when a card is shown 400 px wide (25 at 1000)."""
PAD = 24
TITLE_SIZE = 38
SUBTITLE_SIZE = 26
HEAD_SIZE = 25
CELL_SIZE = 28
NAME_SIZE = 30
NAME_MIN_SIZE = MIN_TEXT_SIZE
ROW_HEIGHT = 54
ROW_GAP = 6
CELL_GAP = 26
POSITION_W = 64
NAME_ROOM = 200
"""A leaderboard's names keep at least this much room; headings shrink first."""
SECTION_SIZE = 28
CHART_HEIGHT = 220
RESULT_SIZE = 26
RESULT_HEIGHT = 44
FOOTER_SIZE = 25
TEXT_SIZES = (
    TITLE_SIZE,
    SUBTITLE_SIZE,
    HEAD_SIZE,
    CELL_SIZE,
    NAME_SIZE,
    NAME_MIN_SIZE,
    SECTION_SIZE,
    RESULT_SIZE,
    FOOTER_SIZE,
)
"""Every font size the cards draw (headings may shrink, never below the minimum)."""

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
    number: Callable[[float], str] = field(default=english_number, compare=False)
    """Writes the trend's highest and lowest ratings (``3.4``; ``3,4`` in Finnish)."""


def render_leaderboard(card: BoardCard) -> bytes:
    """A leaderboard page as PNG bytes."""
    return to_png(draw_leaderboard(card))


def render_player_card(card: PlayerCardImage) -> bytes:
    """A player's card as PNG bytes."""
    return to_png(draw_player_card(card))


@dataclass(frozen=True, slots=True)
class _Columns:
    """Right-aligned cell columns packed from the right: their edges, headings and size."""

    rights: tuple[int, ...]
    widths: tuple[int, ...]
    headings: tuple[str, ...]
    head_size: int

    @property
    def left(self) -> int:
        """The left edge of the first column (the right edge when there are none)."""
        return self.rights[0] - self.widths[0] if self.rights else 0


def _columns(
    headings: Sequence[str], rows: Sequence[Sequence[str]], right: int, room: int
) -> _Columns:
    """Columns ending at ``right``, each as wide as its widest heading or cell.

    When they would take more than ``room``, the headings shrink, down to
    :data:`MIN_TEXT_SIZE`; at the minimum a heading still too wide is cut. Two
    columns are always :data:`CELL_GAP` apart, so headings never touch.
    """
    cells = [
        max((sprites.text_width(row[i], CELL_SIZE, True) for row in rows), default=0)
        for i in range(len(headings))
    ]
    room -= CELL_GAP * max(len(headings) - 1, 0)
    texts = tuple(headings)

    def widths(size: int) -> list[int]:
        return [
            max(sprites.text_width(h, size, False), c) for h, c in zip(texts, cells, strict=True)
        ]

    size = HEAD_SIZE
    while size > MIN_TEXT_SIZE and sum(widths(size)) > room:
        size -= 1
    if sum(widths(size)) > room:  # at the minimum: cut the widest headings to a common cap
        heads = [sprites.text_width(h, size, False) for h in texts]
        low, high = 0, max(heads)
        while low < high:
            cap = (low + high + 1) // 2
            if sum(max(c, min(h, cap)) for h, c in zip(heads, cells, strict=True)) <= room:
                low = cap
            else:
                high = cap - 1
        texts = tuple(
            sprites.fit_text(h, max(c, low), size, False, size)[0]
            for h, c in zip(texts, cells, strict=True)
        )
    final = widths(size)
    rights: list[int] = []
    x = right
    for width in reversed(final):
        rights.append(x)
        x -= width + CELL_GAP
    return _Columns(tuple(reversed(rights)), tuple(final), texts, size)


def _heading_left(columns: _Columns) -> int:
    """Where the first column's heading starts (it may be narrower than its column)."""
    return columns.rights[0] - sprites.text_width(columns.headings[0], columns.head_size, False)


def _draw_headings(im: Image.Image, y: int, columns: _Columns) -> None:
    for heading, right in zip(columns.headings, columns.rights, strict=True):
        draw_text(
            im,
            heading,
            right,
            y,
            columns.head_size,
            colour=theme.TEXT_MUTED,
            background=theme.PANEL,
            align="right",
        )


# -- leaderboard ------------------------------------------------------------------------------


def draw_leaderboard(card: BoardCard) -> Image.Image:
    """The leaderboard page as a palette image (what :func:`render_leaderboard` encodes)."""
    for line in card.lines:
        if len(line.cells) != len(card.headings):
            raise ValueError(
                f"line {line.position} has {len(line.cells)} cells for "
                f"{len(card.headings)} headings"
            )
    name_x = PAD + POSITION_W
    right = WIDTH - PAD - 16
    name_room = max(NAME_ROOM, sprites.text_width(card.name_heading, HEAD_SIZE, False))
    columns = _columns(
        card.headings,
        [line.cells for line in card.lines],
        right,
        right - name_x - name_room - CELL_GAP,
    )
    name_room = (columns.left if columns.rights else right) - CELL_GAP - name_x
    top = _header_height(card.title, card.subtitle, WIDTH)
    empty = _wrapped(card.empty, WIDTH - 4 * PAD, CELL_SIZE)
    rows_height = (
        len(card.lines) * (ROW_HEIGHT + ROW_GAP) - ROW_GAP
        if card.lines
        else _box_height(len(empty), CELL_SIZE)
    )
    footer = _footer_height(card.footer, WIDTH)
    head = max(line_height(columns.head_size), line_height(HEAD_SIZE)) + 10
    height = top + head + rows_height + footer + PAD
    im = blank(WIDTH, height, theme.PANEL)
    _draw_header(im, card.title, card.subtitle)
    y = top
    draw_text(
        im,
        card.name_heading,
        name_x,
        y,
        columns.head_size,
        colour=theme.TEXT_MUTED,
        background=theme.PANEL,
    )
    _draw_headings(im, y, columns)
    y += head
    if not card.lines:
        _draw_row_box(im, y, False, rows_height)
        _centre_lines(im, empty, y, rows_height, theme.TEXT_MUTED)
    for line in card.lines:
        _draw_board_line(im, line, y, name_x, name_room, columns.rights)
        y += ROW_HEIGHT + ROW_GAP
    y = top + head + rows_height
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
            bold=True,
            colour=theme.GOLD if i == 0 and podium else theme.TEXT,
            background=theme.ROW,
            align="right",
        )


# -- player card ------------------------------------------------------------------------------

GAME_ROW_HEIGHT = 16 + line_height(NAME_SIZE, True) + 6 + line_height(CELL_SIZE, True) + 14
"""A game's box on the player card: its name on one line, its cells on the next."""


def draw_player_card(card: PlayerCardImage) -> Image.Image:
    """The player's card as a palette image (what :func:`render_player_card` encodes)."""
    for row in card.rows:
        if len(row) != len(card.headings) + 1:
            raise ValueError(f"a row needs a name and {len(card.headings)} cells: {row!r}")
    width = CARD_WIDTH
    right = width - PAD - 16
    columns = _columns(card.headings, [row[1:] for row in card.rows], right, right - PAD - 16)
    # the game names have their own line: their heading is drawn only where it fits
    game_heading = PAD + 16 + sprites.text_width(card.game_heading, columns.head_size, False)
    show_game_heading = not columns.rights or game_heading + CELL_GAP <= _heading_left(columns)
    top = _header_height(card.title, card.subtitle, width)
    head = max(line_height(columns.head_size), line_height(HEAD_SIZE)) + 10
    table = head + max(len(card.rows), 1) * (GAME_ROW_HEIGHT + ROW_GAP)
    section = line_height(SECTION_SIZE, True) + 12
    chart = section + CHART_HEIGHT + 20
    results = [_result_lines(result, width) for result in card.recent]
    recent = section + (
        sum(_box_height(len(lines), RESULT_SIZE) + ROW_GAP for lines in results) - ROW_GAP
        if results
        else RESULT_HEIGHT
    )
    footer = _footer_height(card.footer, width)
    height = top + table + 14 + chart + recent + footer + PAD
    im = blank(width, height, theme.PANEL)
    _draw_header(im, card.title, card.subtitle)

    y = top
    if show_game_heading:
        draw_text(
            im,
            card.game_heading,
            PAD + 16,
            y,
            columns.head_size,
            colour=theme.TEXT_MUTED,
            background=theme.PANEL,
        )
    _draw_headings(im, y, columns)
    y += head
    for row in card.rows:
        _draw_row_box(im, y, False, GAME_ROW_HEIGHT)
        name, size = sprites.fit_text(row[0], right - PAD - 16, NAME_SIZE, True, NAME_MIN_SIZE)
        draw_text(im, name, PAD + 16, y + 16, size, bold=True, background=theme.ROW)
        cells_y = y + 16 + line_height(NAME_SIZE, True) + 6
        for cell, cell_right in zip(row[1:], columns.rights, strict=True):
            draw_text(
                im,
                cell,
                cell_right,
                cells_y,
                CELL_SIZE,
                bold=True,
                background=theme.ROW,
                align="right",
            )
        y += GAME_ROW_HEIGHT + ROW_GAP
    if not card.rows:
        y += GAME_ROW_HEIGHT + ROW_GAP

    y += 14
    _section_title(im, card.trend_title, y)
    y += section
    _draw_trend(im, y, card.trend, card.trend_empty, card.number)
    y += CHART_HEIGHT + 20

    _section_title(im, card.recent_title, y)
    y += section
    for result, lines in zip(card.recent, results, strict=True):
        box = _box_height(len(lines), RESULT_SIZE)
        _draw_result(im, y, result, lines, box)
        y += box + ROW_GAP
    if not card.recent:
        y += RESULT_HEIGHT
    else:
        y -= ROW_GAP
    _draw_footer(im, card.footer, y)
    return im


def _draw_trend(
    im: Image.Image, y: int, trend: Sequence[float], empty: str, number: Callable[[float], str]
) -> None:
    x0, x1 = PAD, im.width - PAD
    draw_box(im, x0, y, x1 - x0, CHART_HEIGHT, radius=12, fill=theme.ROW, background=theme.PANEL)
    if len(trend) < 2:
        _centre_lines(
            im, _wrapped(empty, im.width - 4 * PAD, CELL_SIZE), y, CHART_HEIGHT, theme.TEXT_MUTED
        )
        return
    low, high = min(trend), max(trend)
    span = high - low or 1.0
    label_w = max(sprites.text_width(number(v), HEAD_SIZE, False) for v in (low, high)) + 20
    left, right = x0 + label_w + 10, x1 - 24
    top, bottom = y + 24, y + CHART_HEIGHT - 24
    for value, at in ((high, top), (low, bottom)):
        draw_text(
            im,
            number(value),
            left - 12,
            at - line_height(HEAD_SIZE) // 2,
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


def _result_lines(result: ResultLine, width: int) -> tuple[str, ...]:
    """A result's text wrapped beside its detail."""
    detail_w = sprites.text_width(result.detail, RESULT_SIZE, True) if result.detail else 0
    room = width - 2 * PAD - 40 - detail_w - 30
    return _wrapped(result.text, room, RESULT_SIZE)


def _draw_result(
    im: Image.Image, y: int, result: ResultLine, lines: Sequence[str], height: int
) -> None:
    draw_box(
        im,
        PAD,
        y,
        im.width - 2 * PAD,
        height,
        radius=10,
        fill=theme.ROW,
        background=theme.PANEL,
    )
    colour = OUTCOME_COLOURS.get(result.outcome, theme.TEXT_MUTED)
    draw_box(im, PAD + 10, y + 8, 8, height - 16, radius=4, fill=colour, background=theme.ROW)
    line_h = line_height(RESULT_SIZE)
    text_y = y + (height - len(lines) * line_h) // 2
    for n, text in enumerate(lines):
        draw_text(im, text, PAD + 32, text_y + n * line_h, RESULT_SIZE, background=theme.ROW)
    if result.detail:
        draw_text(
            im,
            result.detail,
            im.width - PAD - 16,
            y + (height - line_height(RESULT_SIZE, True)) // 2,
            RESULT_SIZE,
            bold=True,
            colour=colour,
            background=theme.ROW,
            align="right",
        )


# -- shared pieces ------------------------------------------------------------------------------


def _wrapped(text: str, width: int, size: int, bold: bool = False) -> tuple[str, ...]:
    return wrap_text(text, width, size, bold) if text else ()


def _box_height(lines: int, size: int) -> int:
    """A row box for ``lines`` lines of text at ``size``: at least one row tall."""
    return max(ROW_HEIGHT if size == CELL_SIZE else RESULT_HEIGHT, lines * line_height(size) + 16)


def _header_height(title: str, subtitle: str, width: int) -> int:
    height = PAD + line_height(TITLE_SIZE, True) + 8
    lines = _wrapped(subtitle, width - 2 * PAD, SUBTITLE_SIZE)
    if lines:
        height += len(lines) * line_height(SUBTITLE_SIZE) + 8
    return height + 12


def _draw_header(im: Image.Image, title: str, subtitle: str) -> None:
    text, size = sprites.fit_text(title, im.width - 2 * PAD, TITLE_SIZE, True, MIN_TEXT_SIZE)
    draw_text(im, text, PAD, PAD, size, bold=True, background=theme.PANEL)
    y = PAD + line_height(TITLE_SIZE, True) + 8
    for line in _wrapped(subtitle, im.width - 2 * PAD, SUBTITLE_SIZE):
        draw_text(im, line, PAD, y, SUBTITLE_SIZE, colour=theme.TEXT_MUTED, background=theme.PANEL)
        y += line_height(SUBTITLE_SIZE)


def _footer_height(footer: str, width: int) -> int:
    lines = _wrapped(footer, width - 2 * PAD, FOOTER_SIZE)
    return len(lines) * line_height(FOOTER_SIZE) + 18 if lines else 0


def _draw_footer(im: Image.Image, footer: str, y: int) -> None:
    y += 14
    for line in _wrapped(footer, im.width - 2 * PAD, FOOTER_SIZE):
        draw_text(im, line, PAD, y, FOOTER_SIZE, colour=theme.TEXT_MUTED, background=theme.PANEL)
        y += line_height(FOOTER_SIZE)


def _section_title(im: Image.Image, title: str, y: int) -> None:
    text, size = sprites.fit_text(title, im.width - 2 * PAD, SECTION_SIZE, True, MIN_TEXT_SIZE)
    draw_text(im, text, PAD, y, size, bold=True, colour=theme.GOLD, background=theme.PANEL)


def _draw_row_box(im: Image.Image, y: int, highlight: bool, height: int = ROW_HEIGHT) -> None:
    draw_box(
        im,
        PAD,
        y,
        im.width - 2 * PAD,
        height,
        radius=10,
        fill=theme.ROW,
        background=theme.PANEL,
        outline=theme.GOLD if highlight else None,
        outline_width=2 if highlight else 0,
    )


def _centre_lines(
    im: Image.Image, lines: Sequence[str], y: int, height: int, colour: Colour
) -> None:
    """``lines`` centred in the box from ``y``, ``height`` tall."""
    line_h = line_height(CELL_SIZE)
    top = y + (height - len(lines) * line_h) // 2
    for n, line in enumerate(lines):
        draw_text(
            im,
            line,
            im.width // 2,
            top + n * line_h,
            CELL_SIZE,
            colour=colour,
            background=theme.ROW,
            align="centre",
        )
