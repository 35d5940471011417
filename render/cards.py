"""The leaderboard card: a page of a server's leaderboard, as PNG bytes.

Plain data in, a picture out: every word and every formatted number comes from
the caller (already translated), so this module spells nothing itself. The card
is drawn on the shared palette like the other images.

Discord shows the card as an attachment: 400 px wide on a phone, and on the desktop
fitted in a 550 × 350 px box. Every text is drawn at :data:`MIN_TEXT_SIZE` or larger,
at least 10 px when the card is 400 px wide, and a page of 10 players stays short
enough (:data:`MAX_HEIGHT`) that the desktop's box does not shrink it further.
Columns are as wide as their widest heading or cell, measured with the font, so
headings in any language never run into each other; long sentences (subtitle,
footer) wrap instead of shrinking.

    png = render_leaderboard(BoardCard(title=..., subtitle=..., page="page 1 of 3",
                                       name_heading=..., headings=(...),
                                       lines=(BoardLine(1, "Ann", (...)),)))
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from . import sprites, theme
from .canvas import Align, blank, draw_box, draw_text, line_height, right_edges, to_png
from .wrap import wrap_text

__all__ = ["BoardCard", "BoardLine", "draw_leaderboard", "render_leaderboard"]

WIDTH = 1000
SHOWN_WIDTH = 400
"""The narrowest Discord shows the card (a phone)."""
SHOWN_BOX = (550, 350)
"""The box Discord's desktop client fits an attachment in."""
MIN_TEXT_SIZE = -(-10 * WIDTH // SHOWN_WIDTH)
"""The smallest font size drawn: 10 px when the card is shown 400 px wide (25 at 1000)."""
MAX_HEIGHT = SHOWN_BOX[1] * MIN_TEXT_SIZE // 10
"""The tallest a page of 10 players is: fitted in the desktop's box, its smallest text is
still 10 px (875 px at 1000 wide)."""
PAD = 24
TITLE_SIZE = 38
SUBTITLE_SIZE = 26
HEAD_SIZE = 25
CELL_SIZE = 28
NAME_SIZE = 30
NAME_MIN_SIZE = MIN_TEXT_SIZE
ROW_HEIGHT = 48
ROW_GAP = 4
CELL_GAP = 26
POSITION_W = 64
NAME_ROOM = 200
"""A leaderboard's names keep at least this much room; headings shrink first."""
FOOTER_SIZE = 25
TEXT_SIZES = (
    TITLE_SIZE,
    SUBTITLE_SIZE,
    HEAD_SIZE,
    CELL_SIZE,
    NAME_SIZE,
    NAME_MIN_SIZE,
    FOOTER_SIZE,
)
"""Every font size the card draws (headings may shrink, never below the minimum)."""
NAME_X = PAD + POSITION_W
"""Where the names start, right of the positions."""
RIGHT = WIDTH - PAD - 16
"""Where the last column ends."""
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
    """The period, the order, how many players (wrapped when long)."""
    name_heading: str
    headings: tuple[str, ...]
    """One per cell column, drawn right-aligned."""
    lines: tuple[BoardLine, ...]
    footer: str = ""
    """The notes under the lines (what the rating is)."""
    empty: str = ""
    """Shown when there are no lines."""
    page: str = ""
    """Which page this is (``page 1 of 3``): at the right of the subtitle's last line, or
    on a line of its own when it does not fit there."""


def render_leaderboard(card: BoardCard) -> bytes:
    """A leaderboard page as PNG bytes."""
    return to_png(draw_leaderboard(card))


@dataclass(frozen=True, slots=True)
class _Columns:
    """Right-aligned cell columns packed from the right: their edges, headings and size."""

    rights: tuple[int, ...]
    widths: tuple[int, ...]
    headings: tuple[str, ...]
    head_size: int


def _columns(
    headings: Sequence[str], rows: Sequence[Sequence[str]], right: int, room: int
) -> _Columns:
    """Columns ending at ``right``, each as wide as its widest heading or cell.

    When they would take more than ``room``, the headings shrink, down to
    :data:`MIN_TEXT_SIZE`; at the minimum a heading still too wide is cut. Two
    columns are always :data:`CELL_GAP` apart, so headings never touch.
    """
    cells = [
        sprites.widest([row[i] for row in rows], CELL_SIZE, True) for i in range(len(headings))
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
    return _Columns(right_edges(right, final, CELL_GAP), tuple(final), texts, size)


def columns_room(name_heading: str) -> int:
    """How wide the columns may be: the names keep :data:`NAME_ROOM` (or their heading's width)."""
    name_room = max(NAME_ROOM, sprites.text_width(name_heading, HEAD_SIZE, False))
    return RIGHT - NAME_X - name_room - CELL_GAP


def columns_width(headings: Sequence[str], rows: Sequence[Sequence[str]]) -> int:
    """The columns' width with every heading at its full size, gaps included."""
    widths = _columns(headings, rows, 0, sys.maxsize).widths
    return sum(widths) + CELL_GAP * max(len(widths) - 1, 0)


def draw_leaderboard(card: BoardCard) -> Image.Image:
    """The leaderboard page as a palette image (what :func:`render_leaderboard` encodes)."""
    for line in card.lines:
        if len(line.cells) != len(card.headings):
            raise ValueError(
                f"line {line.position} has {len(line.cells)} cells for "
                f"{len(card.headings)} headings"
            )
    columns = _columns(
        card.headings, [line.cells for line in card.lines], RIGHT, columns_room(card.name_heading)
    )
    left = columns.rights[0] - columns.widths[0] if columns.rights else RIGHT  # the columns'
    name_room = left - CELL_GAP - NAME_X
    header = _Header.of(card, WIDTH)
    top = header.height
    empty = wrap_text(card.empty, WIDTH - 4 * PAD, CELL_SIZE, False)
    rows_height = (
        len(card.lines) * (ROW_HEIGHT + ROW_GAP) - ROW_GAP
        if card.lines
        else max(ROW_HEIGHT, len(empty) * line_height(CELL_SIZE) + 14)  # at least a row tall
    )
    footer = wrap_text(card.footer, WIDTH - 2 * PAD, FOOTER_SIZE, False)
    footer_h = len(footer) * line_height(FOOTER_SIZE) + 18 if footer else 0
    head = max(line_height(columns.head_size), line_height(HEAD_SIZE)) + 10
    height = top + head + rows_height + footer_h + PAD
    im = blank(WIDTH, height, theme.PANEL)
    header.draw(im)
    y = top
    headings: list[tuple[str, int, Align]] = [(card.name_heading, NAME_X, "left")]
    headings += [
        (h, right, "right") for h, right in zip(columns.headings, columns.rights, strict=True)
    ]
    for heading, x, align in headings:
        draw_text(
            im,
            heading,
            x,
            y,
            columns.head_size,
            colour=theme.TEXT_MUTED,
            background=theme.PANEL,
            align=align,
        )
    y += head
    if not card.lines:  # the empty text, centred in a row box
        _draw_row_box(im, y, False, rows_height)
        line_h = line_height(CELL_SIZE)
        middle = y + (rows_height - len(empty) * line_h) // 2
        for n, text in enumerate(empty):
            draw_text(
                im,
                text,
                WIDTH // 2,
                middle + n * line_h,
                CELL_SIZE,
                colour=theme.TEXT_MUTED,
                background=theme.ROW,
                align="centre",
            )
    for line in card.lines:
        _draw_board_line(im, line, y, name_room, columns.rights)
        y += ROW_HEIGHT + ROW_GAP
    y = top + head + rows_height + 14
    for text in footer:
        draw_text(im, text, PAD, y, FOOTER_SIZE, colour=theme.TEXT_MUTED, background=theme.PANEL)
        y += line_height(FOOTER_SIZE)
    return im


def _draw_board_line(
    im: Image.Image, line: BoardLine, y: int, name_room: int, rights: Sequence[int]
) -> None:
    _draw_row_box(im, y, line.highlight)
    podium = line.position <= PODIUM
    cell_dy = (ROW_HEIGHT - line_height(CELL_SIZE, True)) // 2
    draw_text(
        im,
        str(line.position),
        NAME_X - 18,
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
        NAME_X,
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


@dataclass(frozen=True, slots=True)
class _Header:
    """The title, the subtitle's lines, and where the page line goes."""

    title: str
    title_size: int
    subtitle: tuple[str, ...]
    page: str
    page_beside: bool
    """The page line at the right of the subtitle's last line (else on its own line)."""

    @classmethod
    def of(cls, card: BoardCard, width: int) -> _Header:
        room = width - 2 * PAD
        title, size = sprites.fit_text(card.title, room, TITLE_SIZE, True, MIN_TEXT_SIZE)
        lines = wrap_text(card.subtitle, room, SUBTITLE_SIZE, False)
        page, beside = card.page, False
        if page:
            page = sprites.fit_text(page, room, SUBTITLE_SIZE, False, SUBTITLE_SIZE)[0]
            last = sprites.text_width(lines[-1], SUBTITLE_SIZE, False) if lines else 0
            width = sprites.text_width(page, SUBTITLE_SIZE, False)
            beside = bool(lines) and last + 2 * CELL_GAP + width <= room
        return cls(title, size, lines, page, beside)

    @property
    def lines(self) -> int:
        """The subtitle's lines, the page's included."""
        return len(self.subtitle) + (1 if self.page and not self.page_beside else 0)

    @property
    def height(self) -> int:
        height = PAD + line_height(TITLE_SIZE, True) + 6
        if self.lines:
            height += self.lines * line_height(SUBTITLE_SIZE) + 6
        return height + 8

    def draw(self, im: Image.Image) -> None:
        draw_text(im, self.title, PAD, PAD, self.title_size, bold=True, background=theme.PANEL)
        y = PAD + line_height(TITLE_SIZE, True) + 6
        for line in self.subtitle:
            draw_text(
                im, line, PAD, y, SUBTITLE_SIZE, colour=theme.TEXT_MUTED, background=theme.PANEL
            )
            y += line_height(SUBTITLE_SIZE)
        if not self.page:
            return
        if self.page_beside:
            y -= line_height(SUBTITLE_SIZE)
        draw_text(
            im,
            self.page,
            im.width - PAD,
            y,
            SUBTITLE_SIZE,
            colour=theme.TEXT_MUTED,
            background=theme.PANEL,
            align="right",
        )


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
        gold=2 if highlight else 0,
    )
