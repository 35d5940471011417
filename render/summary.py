"""The end of a deal (and of a match): every hand revealed, the deal's score, the totals.

One card per side. Each seat gets a line with its name and pips (the side's
deal score and total on its first line) and, below it, its revealed hand across
the card's width: narrow enough to stay readable on a phone.

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
from .header import format_score, seat_colour
from .labels import ENGLISH, Labels

__all__ = ["draw_summary", "render_summary"]

WIDTH = 780
PAD = 20
TITLE_SIZE = 34
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
PIPS_W = 80
NUMBER_W = 100
TITLE_HEIGHT = 56
HEAD_HEIGHT = 32
FOOTER_HEIGHT = 60


@dataclass(frozen=True, slots=True)
class _Columns:
    """Where the number columns go: pips, then deal, total (and place)."""

    pips_right: int
    numbers_right: tuple[int, ...]
    headings: tuple[str, ...]
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

    One card per side: each seat's revealed hand and pips, the side's deal
    score and match total (and latvian place points once the session is
    over). Winners are outlined in gold; a finished match names its winners.
    ``title`` defaults to ``labels.deal_title`` and how the deal ended.
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
    rules = state.rules
    if len(names) != rules.players:
        raise ValueError(f"{rules.players} seats need {rules.players} names, not {len(names)}")
    results = state.results
    if not results:
        raise ValueError("no deal has finished yet")
    result = results[-1]
    if title is None:
        ended = labels.drawn if result.drawn else labels.deal_end(result.end)
        title = f"{labels.deal_title.format(number=len(results))} · {ended}"
    places = state.places
    headings = (labels.deal_score, labels.total) + ((labels.place,) if places is not None else ())
    right = WIDTH - PAD - CARD_PAD
    numbers_right = tuple(right - (len(headings) - 1 - i) * NUMBER_W for i in range(len(headings)))
    pips_right = numbers_right[0] - NUMBER_W
    per_line = (right - INDENT + MINI_GAP) // (2 * MINI + MINI_GAP)
    columns = _Columns(pips_right, numbers_right, headings, per_line, sprites.faces_for(rules.set))

    sides = rules.sides
    heights = [
        sum(columns.seat_height(len(result.hands[s])) for s in side) + 2 * CARD_PAD
        for side in sides
    ]
    footer = FOOTER_HEIGHT if state.over else 0
    height = PAD + TITLE_HEIGHT + HEAD_HEIGHT + sum(heights) + SIDE_GAP * len(sides) + footer + PAD
    im = blank(WIDTH, height, theme.PANEL)

    text, size = sprites.fit_text(title, WIDTH - 2 * PAD, TITLE_SIZE, True, 18)
    draw_text(im, text, PAD, PAD, size, bold=True, background=theme.PANEL)
    y = PAD + TITLE_HEIGHT
    _draw_headings(im, y, columns, labels)
    y += HEAD_HEIGHT

    totals = state.totals
    for index, side in enumerate(sides):
        numbers = [format_score(result.score[index]), format_score(totals[index])]
        if places is not None:
            numbers.append(format_score(places[index]))
        _draw_side(im, y, heights[index], side, result, names, numbers, rules.teams, columns)
        y += heights[index] + SIDE_GAP

    if state.over:
        winners = labels.name_joiner.join(names[s] for s in state.winners)
        template = labels.winner if len(state.winners) == 1 else labels.winners
        text, size = sprites.fit_text(
            template.format(names=winners), WIDTH - 2 * PAD, TITLE_SIZE, True, 18
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


def _draw_headings(im: Image.Image, y: int, columns: _Columns, labels: Labels) -> None:
    cells = [(labels.pips, columns.pips_right)]
    cells += list(zip(columns.headings, columns.numbers_right, strict=True))
    for text, x in cells:
        draw_text(
            im,
            text,
            x,
            y,
            HEAD_SIZE,
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
            for text, x in zip(numbers, columns.numbers_right, strict=True):
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
        room = columns.pips_right - PIPS_W - INDENT
        name, size = sprites.fit_text(names[seat], room, NAME_SIZE, True, 16)
        draw_text(im, name, INDENT, top, size, bold=True, background=theme.ROW)
        draw_text(
            im,
            str(result.pips[seat]),
            columns.pips_right,
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
