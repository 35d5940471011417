"""The end of a deal (and of a match): every hand revealed, the deal's score, the totals.

A title says how the deal ended and a caption line who won it (or that nobody
did; a latvian summary adds that the lowest value wins). Then one card per side.
Each seat gets a line with its name and pips (the side's deal score, total and,
once a latvian session is over, its place on its first line) and, below it, its
revealed hand across the card's width: narrow enough to stay readable on a phone.

Every text is drawn at :data:`MIN_TEXT_SIZE` or larger: at least 10 px when the
picture is shown 400 px wide. The number columns are as wide as their widest
heading or number measured with the font, so headings in any language never
run into each other; the names get the room left.

Unlike the board, the summary takes the :class:`MatchState` itself: it is shown
once a deal is over, when every hand of that deal is revealed. It reads only
what is public by then: the rules, the finished deals' results (their revealed
hands and pips), the totals, the place points and the winners. It never reads
the deal in play (``state.deal``, its hands or the boneyard). The spectator view
would not do: it has no place points. The cog passes the state cut after the
deal to show (:func:`cogs.domino.table.summary_file`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from bot.engine.match import MatchState
from bot.engine.scoring import DealResult

from . import sprites, theme
from .canvas import blank, draw_box, draw_text, line_height, to_png
from .header import seat_colour
from .labels import ENGLISH, Labels
from .wrap import wrap_text

__all__ = ["SummaryTexts", "draw_summary", "render_summary", "summary_texts"]

WIDTH = 780
SHOWN_WIDTH = 400
"""How wide Discord shows the picture in an embed."""
MIN_TEXT_SIZE = -(-10 * WIDTH // SHOWN_WIDTH)
"""The smallest font size drawn: 10 px when the picture is shown 400 px wide."""
PAD = 20
TITLE_SIZE = 34
CAPTION_SIZE = 24
HEAD_SIZE = 22
NAME_SIZE = 30
NUMBER_SIZE = 30
MINI = 34
"""Unit of the revealed tiles (a tile is 2 units long): at 400 px wide a double-6
pip is 3 px across and a double-12 numeral 10 px tall."""
MINI_GAP = 6
LINE_GAP = 8
SIDE_GAP = 12
CARD_PAD = 10
INDENT = PAD + 32
"""Where names and hands start: right of the side's colour stripe."""
COLUMN_GAP = 28
"""The least room between two number columns (and between the names and the first)."""
NAME_ROOM = 200
"""The names keep at least this much room; headings shrink (to the minimum size) first."""
TITLE_GAP = 10
HEAD_GAP = 8
FOOTER_HEIGHT = 60


@dataclass(frozen=True, slots=True)
class SummaryTexts:
    """The sentences of a summary, as drawn: its title, caption lines and footer."""

    title: str
    captions: tuple[str, ...]
    """Who won the deal (or that nobody did); latvian: that the lowest value wins."""
    footer: str
    """Who won the match, once it is over; else empty."""


def summary_texts(
    state: MatchState,
    names: Sequence[str],
    *,
    title: str | None = None,
    labels: Labels = ENGLISH,
) -> SummaryTexts:
    """The sentences :func:`draw_summary` draws for the last finished deal of ``state``."""
    rules = state.rules
    if len(names) != rules.players:
        raise ValueError(f"{rules.players} seats need {rules.players} names, not {len(names)}")
    results = state.results
    if not results:
        raise ValueError("no deal has finished yet")
    result = results[-1]
    if title is None:
        title = f"{labels.deal_title.format(number=len(results))} · {labels.deal_end(result.end)}"
    if result.drawn:
        captions = [labels.deal_drawn]
    else:
        winners = labels.name_joiner.join(names[s] for s in result.winners)
        captions = [labels.deal_won.format(names=winners)]
    if rules.game == "latvian":
        captions.append(labels.lowest_wins)
    footer = ""
    if state.over:
        template = labels.winner if len(state.winners) == 1 else labels.winners
        footer = template.format(names=labels.name_joiner.join(names[s] for s in state.winners))
    return SummaryTexts(title, tuple(captions), footer)


@dataclass(frozen=True, slots=True)
class _Columns:
    """Where the number columns go: pips, then deal, total (and place)."""

    rights: tuple[int, ...]
    """The right edge of each column: pips, deal, total (, place)."""
    headings: tuple[str, ...]
    head_size: int
    name_room: int
    """How wide a name may be."""
    per_line: int
    """Revealed tiles per line."""
    faces: sprites.Faces
    """Pips or numerals, as the board of the set shows them."""

    def seat_height(self, tiles: int) -> int:
        lines = -(-tiles // self.per_line)
        hand = lines * (MINI + LINE_GAP) if lines else 0
        return line_height(NAME_SIZE, True) + LINE_GAP + hand


def render_summary(
    state: MatchState,
    names: Sequence[str],
    *,
    title: str | None = None,
    labels: Labels = ENGLISH,
) -> bytes:
    """The last finished deal of ``state`` as PNG bytes.

    A caption names the deal's winners (or says it is drawn). One card per side:
    each seat's revealed hand and pips, the side's deal score and match total
    (and latvian places once the session is over). Winners are outlined in gold;
    a finished match names its winners. ``title`` defaults to
    ``labels.deal_title`` and how the deal ended.
    """
    return to_png(draw_summary(state, names, title=title, labels=labels))


def draw_summary(
    state: MatchState,
    names: Sequence[str],
    *,
    title: str | None = None,
    labels: Labels = ENGLISH,
) -> Image.Image:
    """The summary as a palette image (what :func:`render_summary` encodes)."""
    texts = summary_texts(state, names, title=title, labels=labels)
    rules = state.rules
    result = state.results[-1]
    sides = rules.sides
    totals = state.totals
    places = _places(state.places, labels)
    rows: list[list[str]] = []  # per side: deal, total (, place)
    for index in range(len(sides)):
        row = [labels.number(result.score[index]), labels.number(totals[index])]
        if places is not None:
            row.append(places[index])
        rows.append(row)
    pips = [labels.number(p) for p in result.pips]
    columns = _columns(labels, rows, pips, rules.set, places is not None)

    title_text, title_size = sprites.fit_text(
        texts.title, WIDTH - 2 * PAD, TITLE_SIZE, True, MIN_TEXT_SIZE
    )
    caption_lines = [
        (line, n == 0)
        for n, caption in enumerate(texts.captions)
        for line in wrap_text(caption, WIDTH - 2 * PAD, CAPTION_SIZE, n == 0)
    ]
    caption_height = sum(line_height(CAPTION_SIZE, bold) for _, bold in caption_lines)
    heights = [
        sum(columns.seat_height(len(result.hands[s])) for s in side) + 2 * CARD_PAD
        for side in sides
    ]
    footer = FOOTER_HEIGHT if texts.footer else 0
    top = PAD + line_height(title_size, True) + TITLE_GAP + caption_height + TITLE_GAP
    head_height = line_height(columns.head_size) + HEAD_GAP
    height = top + head_height + sum(heights) + SIDE_GAP * len(sides) + footer + PAD
    im = blank(WIDTH, height, theme.PANEL)

    draw_text(im, title_text, PAD, PAD, title_size, bold=True, background=theme.PANEL)
    y = PAD + line_height(title_size, True) + TITLE_GAP
    for line, bold in caption_lines:
        colour = (theme.TEXT if result.drawn else theme.GOLD) if bold else theme.TEXT_MUTED
        draw_text(im, line, PAD, y, CAPTION_SIZE, bold=bold, colour=colour, background=theme.PANEL)
        y += line_height(CAPTION_SIZE, bold)
    y = top
    _draw_headings(im, y, columns)
    y += head_height

    for index, side in enumerate(sides):
        _draw_side(
            im, y, heights[index], side, result, names, rows[index], pips, rules.teams, columns
        )
        y += heights[index] + SIDE_GAP

    if texts.footer:
        text, size = sprites.fit_text(
            texts.footer, WIDTH - 2 * PAD, TITLE_SIZE, True, MIN_TEXT_SIZE
        )
        draw_text(
            im,
            text,
            WIDTH // 2,
            y + (FOOTER_HEIGHT - SIDE_GAP - line_height(size, True)) // 2,
            size,
            bold=True,
            colour=theme.GOLD,
            background=theme.PANEL,
            align="centre",
        )
    return im


def _places(points: Sequence[float] | None, labels: Labels) -> list[str] | None:
    """Each side's place (``1st``…) from latvian place points; tied sides share the better."""
    if points is None:
        return None
    return [labels.ordinal(1 + sum(1 for q in points if q > p)) for p in points]


def _columns(
    labels: Labels,
    rows: Sequence[Sequence[str]],
    pips: Sequence[str],
    top: int,
    placed: bool,
) -> _Columns:
    """The number columns, packed from the right, each as wide as its widest text.

    The headings shrink (down to :data:`MIN_TEXT_SIZE`) when the names would keep
    less than :data:`NAME_ROOM`; at the minimum a heading too wide is cut.
    """
    headings = (labels.pips, labels.deal_score, labels.total) + ((labels.place,) if placed else ())
    cells: list[list[str]] = [list(pips)]
    cells += [[row[i] for row in rows] for i in range(len(headings) - 1)]
    right_edge = WIDTH - PAD - CARD_PAD - 6
    room = right_edge - INDENT - NAME_ROOM - COLUMN_GAP * len(headings)
    numbers = [
        max(sprites.text_width(c, NUMBER_SIZE, i > 0) for c in column)
        for i, column in enumerate(cells)
    ]
    head_size = HEAD_SIZE
    while head_size > MIN_TEXT_SIZE and sum(_widths(headings, numbers, head_size)) > room:
        head_size -= 1
    widths = _widths(headings, numbers, head_size)
    if sum(widths) > room:  # at the minimum size: share the room, cut the headings
        share = (room - sum(numbers)) // len(headings)
        headings = tuple(
            sprites.fit_text(h, numbers[i] + max(share, 0), head_size, False, head_size)[0]
            for i, h in enumerate(headings)
        )
        widths = _widths(headings, numbers, head_size)
    rights: list[int] = []
    x = right_edge
    for width in reversed(widths):
        rights.append(x)
        x -= width + COLUMN_GAP
    rights.reverse()
    name_room = rights[0] - widths[0] - COLUMN_GAP - INDENT
    per_line = (right_edge + 6 - INDENT + MINI_GAP) // (2 * MINI + MINI_GAP)
    return _Columns(tuple(rights), headings, head_size, name_room, per_line, sprites.faces_for(top))


def _widths(headings: Sequence[str], numbers: Sequence[int], size: int) -> list[int]:
    return [
        max(sprites.text_width(h, size, False), n) for h, n in zip(headings, numbers, strict=True)
    ]


def _draw_headings(im: Image.Image, y: int, columns: _Columns) -> None:
    for text, x in zip(columns.headings, columns.rights, strict=True):
        draw_text(
            im,
            text,
            x,
            y,
            columns.head_size,
            colour=theme.TEXT_MUTED,
            background=theme.PANEL,
            align="right",
        )


def _draw_side(
    im: Image.Image,
    y: int,
    height: int,
    side: Sequence[int],
    result: DealResult,
    names: Sequence[str],
    numbers: Sequence[str],
    pips: Sequence[str],
    teams: bool,
    columns: _Columns,
) -> None:
    won = side[0] in result.winners
    draw_box(
        im,
        PAD,
        y,
        WIDTH - 2 * PAD,
        height,
        radius=12,
        fill=theme.ROW,
        background=theme.PANEL,
        outline=theme.GOLD if won else None,
        outline_width=3 if won else 0,
    )
    colour = seat_colour(side[0], teams)
    draw_box(im, PAD + 10, y + 12, 8, height - 24, radius=4, fill=colour, background=theme.ROW)
    name_line = line_height(NAME_SIZE, True)
    number_dy = (name_line - line_height(NUMBER_SIZE, True)) // 2
    top = y + CARD_PAD
    for n, seat in enumerate(side):
        if n == 0:  # the side's numbers go on its first line
            for text, x in zip(numbers, columns.rights[1:], strict=True):
                draw_text(
                    im,
                    text,
                    x,
                    top + number_dy,
                    NUMBER_SIZE,
                    bold=True,
                    colour=theme.GOLD if won else theme.TEXT,
                    background=theme.ROW,
                    align="right",
                )
        name, size = sprites.fit_text(
            names[seat], columns.name_room, NAME_SIZE, True, MIN_TEXT_SIZE
        )
        draw_text(im, name, INDENT, top, size, bold=True, background=theme.ROW)
        draw_text(
            im,
            pips[seat],
            columns.rights[0],
            top + number_dy,
            NUMBER_SIZE,
            colour=theme.TEXT_MUTED,
            background=theme.ROW,
            align="right",
        )
        tiles_top = top + name_line + LINE_GAP
        for i, t in enumerate(result.hands[seat]):
            sprite = sprites.tile_sprite(
                t.low, t.high, False, MINI, "face", theme.ROW, columns.faces
            )
            x = INDENT + (i % columns.per_line) * (2 * MINI + MINI_GAP)
            im.paste(
                sprite.image,
                (x, tiles_top + (i // columns.per_line) * (MINI + LINE_GAP)),
                sprite.mask,
            )
        top += columns.seat_height(len(result.hands[seat]))
