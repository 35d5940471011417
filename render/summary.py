"""The end of a deal (and of a match): every hand revealed, the deal's score, the totals.

A title says how the deal ended and a caption line who won it (or that nobody
did; a latvian summary adds that the lowest value wins). Then one card per side.
Each seat gets a line with its name and pips (the side's deal score, total and,
once a latvian session is over, its place on its first line) and, below it, its
revealed hand across the card's width: narrow enough to stay readable on a phone.

Mexican Train (:func:`_draw_mexican`) is titled by its round ("Round 3 · Blocked"),
says who won the round and that the lowest total wins, and gives each player one
line: name, revealed hand and pips (what the round scores them). Under them the
score sheet (:func:`score_sheet`): a line per round played (up to 13 on double-12),
a column per player, the totals under a rule, the lowest in gold.

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

__all__ = [
    "ScoreSheet",
    "SummaryTexts",
    "draw_summary",
    "render_summary",
    "score_sheet",
    "summary_texts",
]

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
SHEET_SIZE = 22
"""The score sheet's text (Mexican Train): 11 px as shown."""
SHEET_LINE = 4
"""Between two lines of the score sheet."""
SHEET_BAR = 5
"""The height of the seat's colour under its name, atop the sheet."""
HAND_NAME_ROOM = 220
"""Mexican Train: the most a name takes before the hand beside it."""


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
    mexican = rules.game == "mexican"
    if title is None:
        heading = labels.round_title if mexican else labels.deal_title
        title = f"{heading.format(number=len(results))} · {labels.deal_end(result.end)}"
    if result.drawn:
        captions = [labels.round_drawn if mexican else labels.deal_drawn]
    else:
        winners = labels.name_joiner.join(names[s] for s in result.winners)
        won = labels.round_won if mexican else labels.deal_won
        captions = [won.format(names=winners)]
    if rules.game == "latvian":
        captions.append(labels.lowest_wins)
    if mexican:
        captions.append(labels.mexican_lowest_wins)
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
    if state.rules.game == "mexican":
        return _draw_mexican(state, names, texts, labels)
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

    heading = _Heading.of(texts, result.drawn)
    heights = [
        sum(columns.seat_height(len(result.hands[s])) for s in side) + 2 * CARD_PAD
        for side in sides
    ]
    footer = FOOTER_HEIGHT if texts.footer else 0
    top = heading.height
    head_height = line_height(columns.head_size) + HEAD_GAP
    height = top + head_height + sum(heights) + SIDE_GAP * len(sides) + footer + PAD
    im = blank(WIDTH, height, theme.PANEL)

    heading.draw(im)
    y = top
    _draw_headings(im, y, columns)
    y += head_height

    for index, side in enumerate(sides):
        _draw_side(
            im, y, heights[index], side, result, names, rows[index], pips, rules.teams, columns
        )
        y += heights[index] + SIDE_GAP
    _draw_footer(im, y, texts.footer)
    return im


@dataclass(frozen=True, slots=True)
class _Heading:
    """The title and the caption lines, fitted and wrapped."""

    title: str
    title_size: int
    captions: tuple[tuple[str, bool], ...]
    """Each line, and whether it is bold (the first caption: who won)."""
    drawn: bool

    @classmethod
    def of(cls, texts: SummaryTexts, drawn: bool) -> _Heading:
        title, size = sprites.fit_text(
            texts.title, WIDTH - 2 * PAD, TITLE_SIZE, True, MIN_TEXT_SIZE
        )
        lines = tuple(
            (line, n == 0)
            for n, caption in enumerate(texts.captions)
            for line in wrap_text(caption, WIDTH - 2 * PAD, CAPTION_SIZE, n == 0)
        )
        return cls(title, size, lines, drawn)

    @property
    def height(self) -> int:
        """From the picture's top to what comes under the captions."""
        captions = sum(line_height(CAPTION_SIZE, bold) for _, bold in self.captions)
        return PAD + line_height(self.title_size, True) + TITLE_GAP + captions + TITLE_GAP

    def draw(self, im: Image.Image) -> None:
        draw_text(im, self.title, PAD, PAD, self.title_size, bold=True, background=theme.PANEL)
        y = PAD + line_height(self.title_size, True) + TITLE_GAP
        for line, bold in self.captions:
            colour = (theme.TEXT if self.drawn else theme.GOLD) if bold else theme.TEXT_MUTED
            draw_text(
                im, line, PAD, y, CAPTION_SIZE, bold=bold, colour=colour, background=theme.PANEL
            )
            y += line_height(CAPTION_SIZE, bold)


def _draw_footer(im: Image.Image, y: int, footer: str) -> None:
    """Who won the match, centred in the :data:`FOOTER_HEIGHT` under ``y`` (if anybody)."""
    if not footer:
        return
    text, size = sprites.fit_text(footer, WIDTH - 2 * PAD, TITLE_SIZE, True, MIN_TEXT_SIZE)
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


# -- Mexican Train ------------------------------------------------------------


def _draw_mexican(
    state: MatchState, names: Sequence[str], texts: SummaryTexts, labels: Labels
) -> Image.Image:
    """Mexican Train's summary: a line per player (name, revealed hand, pips: what the
    round scored them), then the score sheet of every round so far and the totals."""
    result = state.results[-1]
    heading = _Heading.of(texts, result.drawn)
    faces = sprites.faces_for(state.rules.set)
    pips = [labels.number(p) for p in result.pips]
    right_edge = WIDTH - PAD - CARD_PAD - 6
    pips_w = max(sprites.text_width(p, NUMBER_SIZE, True) for p in pips)
    pips_heading, head_size = sprites.fit_text(
        labels.pips, NAME_ROOM, HEAD_SIZE, False, MIN_TEXT_SIZE
    )
    pips_w = max(pips_w, sprites.text_width(pips_heading, head_size, False))
    widest = max(sprites.text_width(n, NAME_SIZE, True) for n in names)
    name_room = min(HAND_NAME_ROOM, widest)
    hand_left = INDENT + name_room + COLUMN_GAP
    hand_right = right_edge - pips_w - COLUMN_GAP
    per_line = max(1, (hand_right - hand_left + MINI_GAP) // (2 * MINI + MINI_GAP))
    name_line = line_height(NAME_SIZE, True)
    first_line = max(name_line, MINI)

    def card_height(tiles: int) -> int:
        lines = max(1, -(-tiles // per_line))
        return 2 * CARD_PAD + max(first_line, lines * MINI + (lines - 1) * LINE_GAP)

    heights = [card_height(len(hand)) for hand in result.hands]
    sheet = score_sheet(state, names, labels)
    head_height = line_height(head_size) + HEAD_GAP
    footer = FOOTER_HEIGHT if texts.footer else 0
    height = (
        heading.height
        + head_height
        + sum(heights)
        + SIDE_GAP * len(heights)
        + sheet.height
        + SIDE_GAP
        + footer
        + PAD
    )
    im = blank(WIDTH, height, theme.PANEL)
    heading.draw(im)
    y = heading.height
    draw_text(
        im,
        pips_heading,
        right_edge,
        y,
        head_size,
        colour=theme.TEXT_MUTED,
        background=theme.PANEL,
        align="right",
    )
    y += head_height
    for seat, card in enumerate(heights):
        won = seat in result.winners
        draw_box(
            im,
            PAD,
            y,
            WIDTH - 2 * PAD,
            card,
            radius=12,
            fill=theme.ROW,
            background=theme.PANEL,
            outline=theme.GOLD if won else None,
            outline_width=3 if won else 0,
        )
        colour = seat_colour(seat, False)
        draw_box(im, PAD + 10, y + 12, 8, card - 24, radius=4, fill=colour, background=theme.ROW)
        top = y + CARD_PAD
        name, size = sprites.fit_text(names[seat], name_room, NAME_SIZE, True, MIN_TEXT_SIZE)
        text_top = top + (first_line - name_line) // 2
        draw_text(
            im,
            name,
            INDENT,
            text_top + name_line - line_height(size, True),
            size,
            bold=True,
            background=theme.ROW,
        )
        draw_text(
            im,
            pips[seat],
            right_edge,
            text_top + (name_line - line_height(NUMBER_SIZE, True)) // 2,
            NUMBER_SIZE,
            bold=True,
            colour=theme.GOLD if won else theme.TEXT,
            background=theme.ROW,
            align="right",
        )
        tiles_top = top + (first_line - MINI) // 2
        for i, t in enumerate(result.hands[seat]):
            line, column = divmod(i, per_line)
            sprite = sprites.tile_sprite(t.low, t.high, False, MINI, "face", theme.ROW, faces)
            im.paste(
                sprite.image,
                (hand_left + column * (2 * MINI + MINI_GAP), tiles_top + line * (MINI + LINE_GAP)),
                sprite.mask,
            )
        y += card + SIDE_GAP
    _draw_sheet(im, y, sheet)
    y += sheet.height + SIDE_GAP
    _draw_footer(im, y, texts.footer)
    return im


# The score sheet.


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """Mexican Train's score sheet as drawn: one line per round played, one column per
    player, and the totals (lowest wins) under a rule."""

    heading: str
    """Over the rounds' numbers (``Round``)."""
    total: str
    """Before the totals (``Total``)."""
    names: tuple[tuple[str, int], ...]
    """Each player's name as it fits its column, and its size."""
    rounds: tuple[tuple[str, ...], ...]
    """For each round played, what each player scored (their pips left)."""
    round_winners: tuple[frozenset[int], ...]
    totals: tuple[str, ...]
    leaders: frozenset[int]
    """The players with the lowest total (gold: lowest wins)."""
    left: int
    """Where the round numbers start."""
    first_width: int
    """How wide the first column (round numbers, ``Total``) is."""
    column_width: int
    """How wide each player's column is."""

    @property
    def line(self) -> int:
        return line_height(SHEET_SIZE, True) + SHEET_LINE

    @property
    def head(self) -> int:
        return line_height(SHEET_SIZE, True) + SHEET_BAR + 2 * SHEET_LINE

    @property
    def height(self) -> int:
        rule = 2 * SHEET_LINE
        return 2 * CARD_PAD + self.head + len(self.rounds) * self.line + rule + self.line

    def column(self, seat: int) -> tuple[int, int]:
        """The left edge and width of ``seat``'s column."""
        x = self.left + self.first_width + seat * self.column_width
        return x, self.column_width


def score_sheet(state: MatchState, names: Sequence[str], labels: Labels = ENGLISH) -> ScoreSheet:
    """The score sheet of ``state``'s finished rounds (Mexican Train: no teams)."""
    results = state.results
    players = state.rules.players
    left = PAD + CARD_PAD + 8
    right = WIDTH - PAD - CARD_PAD - 6
    heading, total = labels.round_score, labels.total
    widest = max(
        sprites.text_width(heading, SHEET_SIZE, False),
        sprites.text_width(total, SHEET_SIZE, True),
        sprites.text_width(str(len(results)), SHEET_SIZE, False),
    )
    first_width = min(widest, (right - left) // (players + 2)) + COLUMN_GAP
    heading, _ = sprites.fit_text(heading, first_width - COLUMN_GAP, SHEET_SIZE, False, SHEET_SIZE)
    total, _ = sprites.fit_text(total, first_width - COLUMN_GAP, SHEET_SIZE, True, SHEET_SIZE)
    column_width = (right - left - first_width) // players
    fitted = tuple(
        sprites.fit_text(name, column_width - 8, SHEET_SIZE, True, MIN_TEXT_SIZE) for name in names
    )
    totals = state.totals
    low = min(totals)
    return ScoreSheet(
        heading=heading,
        total=total,
        names=fitted,
        rounds=tuple(tuple(labels.number(v) for v in r.score) for r in results),
        round_winners=tuple(frozenset(r.winners) for r in results),
        totals=tuple(labels.number(t) for t in totals),
        leaders=frozenset(i for i, t in enumerate(totals) if t == low),
        left=left,
        first_width=first_width,
        column_width=column_width,
    )


def _draw_sheet(im: Image.Image, y: int, sheet: ScoreSheet) -> None:
    draw_box(
        im, PAD, y, WIDTH - 2 * PAD, sheet.height, radius=12, fill=theme.ROW, background=theme.PANEL
    )
    top = y + CARD_PAD
    draw_text(
        im,
        sheet.heading,
        sheet.left,
        top,
        SHEET_SIZE,
        colour=theme.TEXT_MUTED,
        background=theme.ROW,
    )
    for seat, (name, size) in enumerate(sheet.names):
        x, w = sheet.column(seat)
        centre = x + w // 2
        draw_text(
            im,
            name,
            centre,
            top + line_height(SHEET_SIZE, True) - line_height(size, True),
            size,
            bold=True,
            background=theme.ROW,
            align="centre",
        )
        bar_w = max(8, min(w - 12, sprites.text_width(name, size, True)))
        draw_box(
            im,
            centre - bar_w // 2,
            top + line_height(SHEET_SIZE, True) + SHEET_LINE // 2,
            bar_w,
            SHEET_BAR,
            radius=2,
            fill=seat_colour(seat, False),
            background=theme.ROW,
        )
    row_top = top + sheet.head
    text_dy = SHEET_LINE // 2
    band_left = PAD + CARD_PAD // 2
    band_right = WIDTH - PAD - CARD_PAD // 2
    for number, (scores, winners) in enumerate(
        zip(sheet.rounds, sheet.round_winners, strict=True), start=1
    ):
        shade = theme.CHIP if number % 2 else theme.ROW  # every other round on a band
        if shade != theme.ROW:
            im.paste(theme.index(shade), (band_left, row_top, band_right, row_top + sheet.line))
        draw_text(
            im,
            str(number),
            sheet.left,
            row_top + text_dy,
            SHEET_SIZE,
            colour=theme.TEXT_MUTED,
            background=shade,
        )
        for seat, score in enumerate(scores):
            x, w = sheet.column(seat)
            draw_text(
                im,
                score,
                x + w // 2,
                row_top + text_dy,
                SHEET_SIZE,
                colour=theme.GOLD if seat in winners else theme.TEXT,
                background=shade,
                align="centre",
            )
        row_top += sheet.line
    rule_y = row_top + SHEET_LINE - 1
    im.paste(theme.index(theme.TEXT_MUTED), (band_left, rule_y, band_right, rule_y + 2))
    row_top += 2 * SHEET_LINE
    draw_text(
        im, sheet.total, sheet.left, row_top + text_dy, SHEET_SIZE, bold=True, background=theme.ROW
    )
    for seat, total in enumerate(sheet.totals):
        x, w = sheet.column(seat)
        draw_text(
            im,
            total,
            x + w // 2,
            row_top + text_dy,
            SHEET_SIZE,
            bold=True,
            colour=theme.GOLD if seat in sheet.leaders else theme.TEXT,
            background=theme.ROW,
            align="centre",
        )
