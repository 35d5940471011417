"""The end of a deal (and of a match), compact: one small picture that carries the match.

What a player wants after a deal, in one picture as short as it can be:

- the title says the deal (``Deal 3 · Blocked``; Mexican Train: ``Round 3 · …``) and,
  on the same line when it fits, who won it (or that nobody did);
- a line per seat: its colour, name, the tiles left in its hand (revealed, as the
  record has them) and their pips; a side's points for the deal on its first line.
  The sides that won the deal are outlined in gold. Five to eight players (Mexican
  Train) go two abreast;
- the score sheet (:mod:`render.summary_sheet`): every deal so far, a line per side,
  the running totals (and a latvian session's places once it is over). So the
  latest summary shows the whole match, and the earlier ones may be folded away;
- a latvian or Mexican Train summary adds that the lowest value wins; a finished
  match names its winners.

A single-deal match that is over has no sheet: its deal is the whole match.

Every text is drawn at :data:`MIN_TEXT_SIZE` or larger: at least 10 px when the
picture is shown 400 px wide (Discord shows an attachment 400–550 px wide), and the
picture stays short: a 4-player deal with its sheet is about 290 px tall at 450 px wide.

The summary is drawn from a :class:`~bot.engine.view.ScoreView`, the match's public
score: it is shown once a deal is over, when every hand of that deal is revealed, and
holds only what is public by then: the rules, the finished deals' results (their
revealed hands and pips), the totals, the place points and the winners; nothing of a
deal in play. The cog passes the score as it stood after the deal to show (the game's
snapshot, :meth:`bot.games.snapshot.MatchSnapshot.summary`); a :class:`MatchState`
(tests, benchmarks) is read through :func:`~bot.engine.view.score_view` first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from bot.engine.scoring import DealResult
from bot.engine.view import ScoreView

from . import sprites, theme
from .canvas import (
    ascent,
    blank,
    draw_box,
    draw_stripe,
    draw_text,
    line_height,
    right_edges,
    to_png,
)
from .header import seat_colour
from .labels import ENGLISH, Labels
from .summary_sheet import Score, ScoreSheet, as_score, draw_sheet, leading_sides, score_sheet
from .wrap import wrap_text

__all__ = [
    "Score",
    "ScoreSheet",
    "SummaryTexts",
    "draw_summary",
    "leading_sides",
    "render_summary",
    "score_sheet",
    "summary_texts",
]

WIDTH = 780
SHOWN_WIDTH = 400
"""The narrowest Discord shows the picture (an attachment: 400–550 px)."""
MIN_TEXT_SIZE = -(-10 * WIDTH // SHOWN_WIDTH)
"""The smallest font size drawn: 10 px when the picture is shown 400 px wide."""
PAD = 16
TITLE_SIZE = 30
CAPTION_SIZE = 24
HEAD_SIZE = MIN_TEXT_SIZE
NAME_SIZE = 24
NUMBER_SIZE = 24
NOTE_SIZE = MIN_TEXT_SIZE
MINI = 30
"""Unit of the revealed tiles (a tile is 2 units long): shown 400 px wide, a double-12
numeral is 10 px tall and a double-6 pip 2.7 px across."""
MINI_GAP = 4
LINE_GAP = 4
"""Between two lines of a hand's tiles, and two seats of a side."""
ROW_PAD = 6
"""Above and below the seats in a side's box."""
SIDE_GAP = 6
GAP = 10
"""Between the parts: heading, seats, sheet, notes."""
INDENT = PAD + 24
"""Where names start: right of the side's colour stripe."""
RIGHT = WIDTH - PAD - 12
"""Where the last number column ends."""
COLUMN_GAP = 16
NAME_ROOM = 190
"""The most a name takes before the hand beside it."""
NAME_ROOM_ABREAST = 110
"""The same, when the sides go two abreast."""
ONE_COLUMN = 4
"""The most sides stacked in one column; more go two abreast."""


@dataclass(frozen=True, slots=True)
class SummaryTexts:
    """The sentences of a summary, as drawn: its title, caption lines and footer."""

    title: str
    captions: tuple[str, ...]
    """Who won the deal (or that nobody did); latvian and Mexican Train: that the
    lowest value wins."""
    footer: str
    """Who won the match, once it is over; else empty."""


def summary_texts(
    match: Score, names: Sequence[str], *, title: str | None = None, labels: Labels = ENGLISH
) -> SummaryTexts:
    """The sentences :func:`draw_summary` draws for the last finished deal of ``match``."""
    score = as_score(match)
    rules = score.rules
    if len(names) != rules.players:
        raise ValueError(f"{rules.players} seats need {rules.players} names, not {len(names)}")
    results = score.results
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
    if score.over:
        template = labels.winner if len(score.winners) == 1 else labels.winners
        footer = template.format(names=labels.name_joiner.join(names[s] for s in score.winners))
    return SummaryTexts(title, tuple(captions), footer)


def render_summary(
    match: Score, names: Sequence[str], *, title: str | None = None, labels: Labels = ENGLISH
) -> bytes:
    """The last finished deal of ``match`` and the match so far, as PNG bytes.

    ``title`` defaults to ``labels.deal_title`` (Mexican Train: ``round_title``) and
    how the deal ended.
    """
    return to_png(draw_summary(match, names, title=title, labels=labels))


def draw_summary(
    match: Score, names: Sequence[str], *, title: str | None = None, labels: Labels = ENGLISH
) -> Image.Image:
    """The summary as a palette image (what :func:`render_summary` encodes)."""
    score = as_score(match)
    texts = summary_texts(score, names, title=title, labels=labels)
    heading = _Heading.of(texts, score.results[-1].drawn)
    seats = _Seats.of(score, names, labels)
    sheet = None
    if not (len(score.results) == 1 and score.over and score.places is None):
        sheet = score_sheet(score, names, labels, left=INDENT, right=RIGHT)
    notes = [line for caption in texts.captions[1:] for line in _wrapped(caption, NOTE_SIZE, False)]
    footer = sprites.fit_text(texts.footer, WIDTH - 2 * PAD, TITLE_SIZE, True, MIN_TEXT_SIZE)

    height = PAD + heading.height + seats.height
    if sheet is not None:
        height += GAP + sheet.height
    if notes:
        height += GAP + len(notes) * line_height(NOTE_SIZE)
    if texts.footer:
        height += GAP + line_height(footer[1], True)
    height += PAD
    im = blank(WIDTH, height, theme.PANEL)

    y = PAD
    heading.draw(im, y)
    y += heading.height
    seats.draw(im, y)
    y += seats.height
    if sheet is not None:
        y += GAP
        draw_sheet(im, y, sheet)
        y += sheet.height
    if notes:
        y += GAP
        for line in notes:
            draw_text(im, line, PAD, y, NOTE_SIZE, colour=theme.TEXT_MUTED, background=theme.PANEL)
            y += line_height(NOTE_SIZE)
    if texts.footer:
        y += GAP
        text, size = footer
        draw_text(
            im,
            text,
            WIDTH // 2,
            y,
            size,
            bold=True,
            colour=theme.GOLD,
            background=theme.PANEL,
            align="centre",
        )
    return im


def _wrapped(text: str, size: int, bold: bool) -> tuple[str, ...]:
    return wrap_text(text, WIDTH - 2 * PAD, size, bold) if text else ()


@dataclass(frozen=True, slots=True)
class _Heading:
    """The title and, beside it when it fits (else under it), who won the deal."""

    title: str
    title_size: int
    caption: tuple[str, ...]
    """Who won the deal: one line beside the title, or the lines under it."""
    beside: bool
    drawn: bool

    @classmethod
    def of(cls, texts: SummaryTexts, drawn: bool) -> _Heading:
        room = WIDTH - 2 * PAD
        title, size = sprites.fit_text(texts.title, room, TITLE_SIZE, True, MIN_TEXT_SIZE)
        caption = texts.captions[0] if texts.captions else ""
        used = sprites.text_width(title, size, True) + 2 * COLUMN_GAP
        if caption and used + sprites.text_width(caption, CAPTION_SIZE, True) <= room:
            return cls(title, size, (caption,), True, drawn)
        return cls(title, size, _wrapped(caption, CAPTION_SIZE, True), False, drawn)

    @property
    def height(self) -> int:
        """From the top of the title to what comes under the heading."""
        below = 0 if self.beside else len(self.caption) * line_height(CAPTION_SIZE, True)
        return line_height(self.title_size, True) + below + GAP

    def draw(self, im: Image.Image, y: int) -> None:
        draw_text(im, self.title, PAD, y, self.title_size, bold=True, background=theme.PANEL)
        colour = theme.TEXT if self.drawn else theme.GOLD
        if self.beside:  # on the title's baseline, at the right
            dy = ascent(self.title_size, True) - ascent(CAPTION_SIZE, True)
            draw_text(
                im,
                self.caption[0],
                WIDTH - PAD,
                y + dy,
                CAPTION_SIZE,
                bold=True,
                colour=colour,
                background=theme.PANEL,
                align="right",
            )
            return
        y += line_height(self.title_size, True)
        for line in self.caption:
            draw_text(
                im, line, PAD, y, CAPTION_SIZE, bold=True, colour=colour, background=theme.PANEL
            )
            y += line_height(CAPTION_SIZE, True)


@dataclass(frozen=True, slots=True)
class _Seats:
    """The column headings and a box per side: a line per seat with its revealed hand.

    Up to four sides stack in one column; more (Mexican Train's 5–8 players) go two
    abreast, so that the picture stays short enough to read when Discord fits it in
    its box.
    """

    score: ScoreView
    names: tuple[tuple[str, int], ...]
    """Each seat's name as it fits, and its size."""
    pips: tuple[str, ...]
    """Each seat's pips left."""
    scores: tuple[str, ...]
    """Each side's points for the deal (Mexican Train: none, the pips are the score)."""
    headings: tuple[str, ...]
    columns: int
    """Side boxes abreast: 1 or 2."""
    box_width: int
    rights: tuple[int, ...]
    """The right edges of the pips column (and the deal's), in the first column."""
    hand_left: int
    per_line: int

    @classmethod
    def of(cls, score: ScoreView, names: Sequence[str], labels: Labels) -> _Seats:
        result = score.results[-1]
        pips = tuple(labels.number(p) for p in result.pips)
        mexican = score.rules.game == "mexican"
        scores = () if mexican else tuple(labels.number(v) for v in result.score)
        numbers = [(labels.pips, pips, False)]
        if not mexican:
            numbers.append((labels.deal_score, scores, True))
        widths = [
            max(sprites.text_width(h, HEAD_SIZE, False), sprites.widest(cells, NUMBER_SIZE, bold))
            for h, cells, bold in numbers
        ]
        columns = 2 if len(score.rules.sides) > ONE_COLUMN else 1
        box_width = (WIDTH - 2 * PAD - (columns - 1) * SIDE_GAP) // columns
        rights = right_edges(PAD + box_width - 12, widths, COLUMN_GAP)
        numbers_left = rights[0] - widths[0]
        widest = sprites.widest(names, NAME_SIZE, True)
        name_room = min(NAME_ROOM if columns == 1 else NAME_ROOM_ABREAST, widest)
        fitted = tuple(
            sprites.fit_text(n, name_room, NAME_SIZE, True, MIN_TEXT_SIZE) for n in names
        )
        headings = tuple(h for h, _, _ in numbers)
        hand_left = INDENT + name_room + COLUMN_GAP
        tile = 2 * MINI + MINI_GAP
        per_line = max(1, (numbers_left - COLUMN_GAP - hand_left + MINI_GAP) // tile)
        return cls(
            score, fitted, pips, scores, headings, columns, box_width, rights, hand_left, per_line
        )

    @property
    def result(self) -> DealResult:
        return self.score.results[-1]

    def seat_height(self, seat: int) -> int:
        lines = max(1, -(-len(self.result.hands[seat]) // self.per_line))
        return max(line_height(NAME_SIZE, True), lines * MINI + (lines - 1) * LINE_GAP)

    def side_height(self, side: Sequence[int]) -> int:
        seats = sum(self.seat_height(s) for s in side) + (len(side) - 1) * LINE_GAP
        return seats + 2 * ROW_PAD

    def row_heights(self) -> list[int]:
        """Each row of side boxes: as tall as its tallest."""
        sides = self.score.rules.sides
        return [
            max(self.side_height(s) for s in sides[i : i + self.columns])
            for i in range(0, len(sides), self.columns)
        ]

    @property
    def head(self) -> int:
        return line_height(HEAD_SIZE) + 4

    @property
    def height(self) -> int:
        return self.head + sum(h + SIDE_GAP for h in self.row_heights()) - SIDE_GAP

    def draw(self, im: Image.Image, y: int) -> None:
        for column in range(self.columns):
            dx = column * (self.box_width + SIDE_GAP)
            for heading, right in zip(self.headings, self.rights, strict=True):
                draw_text(
                    im,
                    heading,
                    right + dx,
                    y,
                    HEAD_SIZE,
                    colour=theme.TEXT_MUTED,
                    background=theme.PANEL,
                    align="right",
                )
        y += self.head
        rules = self.score.rules
        rows = self.row_heights()
        for index, side in enumerate(rules.sides):
            row, column = divmod(index, self.columns)
            top = y + sum(rows[:row]) + row * SIDE_GAP
            dx = column * (self.box_width + SIDE_GAP)
            height = rows[row]
            won = side[0] in self.result.winners
            draw_box(
                im,
                PAD + dx,
                top,
                self.box_width,
                height,
                radius=10,
                fill=theme.ROW,
                background=theme.PANEL,
                gold=3 if won else 0,
            )
            colour = seat_colour(side[0], rules.teams)
            draw_stripe(im, PAD + dx + 8, top + 8, height - 16, colour, theme.ROW)
            top += ROW_PAD
            for n, seat in enumerate(side):
                score = self.scores[index] if self.scores and n == 0 else None
                self._draw_seat(im, top, dx, seat, score, won)
                top += self.seat_height(seat) + LINE_GAP

    def _draw_seat(
        self, im: Image.Image, top: int, dx: int, seat: int, score: str | None, won: bool
    ) -> None:
        line = line_height(NAME_SIZE, True)
        first = max(line, MINI)  # the first line: name, first tiles and numbers, centred
        text_top = top + (first - line) // 2
        name, size = self.names[seat]
        baseline = text_top + ascent(NAME_SIZE, True)
        draw_text(
            im,
            name,
            INDENT + dx,
            baseline - ascent(size, True),
            size,
            bold=True,
            background=theme.ROW,
        )
        number_top = baseline - ascent(NUMBER_SIZE, True)
        draw_text(
            im,
            self.pips[seat],
            self.rights[0] + dx,
            number_top,
            NUMBER_SIZE,
            colour=theme.TEXT_MUTED,
            background=theme.ROW,
            align="right",
        )
        if score is not None:
            draw_text(
                im,
                score,
                self.rights[1] + dx,
                number_top,
                NUMBER_SIZE,
                bold=True,
                colour=theme.GOLD if won else theme.TEXT,
                background=theme.ROW,
                align="right",
            )
        tiles_top = top + (first - MINI) // 2
        faces = sprites.faces_for(self.score.rules.set)
        for i, t in enumerate(self.result.hands[seat]):
            row, column = divmod(i, self.per_line)
            sprite = sprites.tile_sprite(t.low, t.high, False, MINI, "face", theme.ROW, faces)
            x = self.hand_left + dx + column * (2 * MINI + MINI_GAP)
            im.paste(sprite.image, (x, tiles_top + row * (MINI + LINE_GAP)), sprite.mask)
