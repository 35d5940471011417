"""The score sheet under a summary: the match so far, one line per side.

A club's score sheet turned on its side, so that it stays short however many deals
are played: a line per side (its colour, its name), a column per finished deal with
what the side scored in it (gold for the deal's winners), then the running total
(gold for the side in the lead, or the match's winners once it is over) and, once
a latvian session is over, each side's place. The first line heads the columns
(``Deal 1 2 3 … Total``; Mexican Train: ``Round``).

When the deals do not fit the width (a long match) the earliest ones are added up
in one column headed ``1–k``: the totals always count every deal, and the latest
deals keep a column each.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from bot.engine.match import MatchState
from bot.engine.view import ScoreView, score_view

from . import sprites, theme
from .canvas import Align, draw_box, draw_stripe, draw_text, line_height, right_edges
from .header import seat_colour
from .labels import ENGLISH, Labels
from .theme import Colour

__all__ = ["Score", "ScoreSheet", "as_score", "leading_sides", "score_sheet"]

SHEET_SIZE = 20
"""The sheet's text: 10 px when the summary is shown 400 px wide (its smallest)."""
SHEET_LINE = 8
"""Between two lines of the sheet."""
CELL_GAP = 12
"""The least room between two columns."""
NAME_MIN = 72
"""The names keep at least this much room when the columns are many (the seats above
show them whole, in the same colours)."""
HIGHER_WINS = frozenset({"points", "fives"})
"""Scorings whose highest total leads; the others (penalty, rounds, places) lead low."""

Score = ScoreView | MatchState
"""The match a summary shows: its public :class:`ScoreView` (what the cogs pass, from
the game's snapshot), or a state (tests, benchmarks), read at once through
:func:`~bot.engine.view.score_view`: a summary never reads a deal in play."""


def as_score(match: Score) -> ScoreView:
    """``match``'s public score."""
    return match if isinstance(match, ScoreView) else score_view(match)


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """The sheet as drawn: its columns, each side's line, and where everything goes."""

    heading: str
    """Over the side names (``Deal``; Mexican Train: ``Round``)."""
    labels: tuple[str, ...]
    """Each column's heading: a deal's number, ``1–k`` for the earliest deals added up,
    then ``Total`` (and ``Place``)."""
    names: tuple[tuple[str, int], ...]
    """Each side's name as it fits its room, and its size."""
    colours: tuple[Colour, ...]
    """Each side's colour (its first seat's)."""
    rounds: tuple[tuple[str, ...], ...]
    """Every finished deal: what each side scored in it (also the deals added up)."""
    round_winners: tuple[frozenset[int], ...]
    """Every finished deal: the sides that won it."""
    cells: tuple[tuple[str, ...], ...]
    """Each column's texts, one per side (deals, the earliest maybe added up, then the
    totals and places)."""
    gold: tuple[frozenset[int], ...]
    """Each column's sides drawn in gold."""
    bold: tuple[bool, ...]
    """Each column: drawn bold (the totals, the places)."""
    totals: tuple[str, ...]
    leaders: frozenset[int]
    """The sides with the best total (gold): the winners once the match is over."""
    carried: int
    """How many of the earliest deals share the first column (0: none)."""
    left: int
    """Where the names start."""
    rights: tuple[int, ...]
    """Each column's right edge (numbers are right-aligned)."""
    width: int
    """The sheet's box: from ``left - 24`` to ``left - 24 + width``."""

    @property
    def line(self) -> int:
        return line_height(SHEET_SIZE, True) + SHEET_LINE

    @property
    def height(self) -> int:
        """The box: a line of headings and one per side, with a padding of half a line."""
        return (1 + len(self.names)) * self.line + self.line // 2


def leading_sides(match: Score) -> frozenset[int]:
    """The sides drawn in gold in the totals: the match's winners once it is over, else
    the best total so far in the game's direction (none while every side has the same)."""
    score = as_score(match)
    sides = score.rules.sides
    if score.over:
        winners = set(score.winners)
        return frozenset(i for i, side in enumerate(sides) if winners & set(side))
    totals = score.totals
    if score.rules.scoring == "single" or len(set(totals)) < 2:
        return frozenset()
    best = max(totals) if score.rules.scoring in HIGHER_WINS else min(totals)
    return frozenset(i for i, t in enumerate(totals) if t == best)


def score_sheet(
    match: Score,
    names: Sequence[str],
    labels: Labels = ENGLISH,
    *,
    left: int = 40,
    right: int = 752,
) -> ScoreSheet:
    """The sheet of ``match``'s finished deals, its names starting at ``left`` and its
    last column ending at ``right`` (the summary's geometry by default)."""
    score = as_score(match)
    rules = score.rules
    sides = rules.sides
    results = score.results
    if not results:
        raise ValueError("no deal has finished yet")
    number = labels.number
    side_names = [labels.name_joiner.join(names[s] for s in side) for side in sides]
    rounds = tuple(tuple(number(v) for v in r.score) for r in results)
    seat_side = {seat: i for i, side in enumerate(sides) for seat in side}
    round_winners = tuple(frozenset(seat_side[s] for s in r.winners) for r in results)
    totals = tuple(number(t) for t in score.totals)
    leaders = leading_sides(score)
    tail: list[tuple[str, tuple[str, ...], frozenset[int]]] = [(labels.total, totals, leaders)]
    places = score.places
    if places is not None:
        tail.append((labels.place, tuple(_places(places, labels)), leaders))
    heading = labels.round_score if rules.game == "mexican" else labels.deal_score

    name_w = _column_width(heading, side_names) - CELL_GAP  # the names need no gap
    tail_w = [_column_width(label, cells) for label, cells, _ in tail]
    deal_w = [_column_width(str(n + 1), r) for n, r in enumerate(rounds)]

    def columns_width(carried: int) -> int:
        """The columns' width with the first ``carried`` deals added up in one."""
        carry = _column_width(_span(carried), _sums(score, carried, labels)) if carried else 0
        return carry + sum(deal_w[carried:]) + sum(tail_w)

    room = right - left
    carried = 0  # add up the earliest deals (two or more) until the names keep their room
    while room - columns_width(carried) < min(name_w, NAME_MIN):
        more = 2 if carried == 0 else carried + 1
        if more >= len(results):
            break
        carried = more
    name_room = max(NAME_MIN, min(name_w, room - columns_width(carried)))
    fitted = tuple(sprites.fit_text(n, name_room, SHEET_SIZE, True, SHEET_SIZE) for n in side_names)

    # Each column: its heading, a text a side, its sides in gold, bold, its width.
    columns: list[tuple[str, tuple[str, ...], frozenset[int], bool, int]] = []
    if carried:
        span, sums = _span(carried), _sums(score, carried, labels)
        columns.append((span, sums, frozenset(), False, _column_width(span, sums)))
    columns += [
        (str(n + 1), rounds[n], round_winners[n], False, deal_w[n])
        for n in range(carried, len(results))
    ]
    columns += [(*column, True, w) for column, w in zip(tail, tail_w, strict=True)]
    labels_, cells, gold, bold, widths = zip(*columns, strict=True)
    return ScoreSheet(
        heading=sprites.fit_text(heading, name_room, SHEET_SIZE, False, SHEET_SIZE)[0],
        labels=labels_,
        names=fitted,
        colours=tuple(seat_colour(side[0], rules.teams) for side in sides),
        rounds=rounds,
        round_winners=round_winners,
        cells=cells,
        gold=gold,
        bold=bold,
        totals=totals,
        leaders=leaders,
        carried=carried,
        left=left,
        rights=right_edges(right, widths),
        width=right - left + 24 + 12,
    )


def _column_width(label: str, cells: Sequence[str]) -> int:
    """As wide as the widest of ``label`` and the bold ``cells``, and a gap."""
    widest = sprites.widest(cells, SHEET_SIZE, True)
    return max(sprites.text_width(label, SHEET_SIZE, False), widest) + CELL_GAP


def _span(carried: int) -> str:
    return f"1–{carried}"


def _sums(score: ScoreView, deals: int, labels: Labels) -> tuple[str, ...]:
    """What each side scored in the first ``deals`` deals."""
    return tuple(labels.number(t) for t in score.totals_after(deals))


def _places(points: Sequence[float], labels: Labels) -> list[str]:
    """Each side's place (``1st``…) from latvian place points; tied sides share the better."""
    return [labels.ordinal(1 + sum(1 for q in points if q > p)) for p in points]


def draw_sheet(im: Image.Image, y: int, sheet: ScoreSheet) -> None:
    """Draw ``sheet`` with its box's top at ``y``."""
    box_left = sheet.left - 24
    draw_box(
        im,
        box_left,
        y,
        sheet.width,
        sheet.height,
        radius=12,
        fill=theme.ROW,
        background=theme.PANEL,
    )
    line = sheet.line
    top = y + line // 4
    text_dy = SHEET_LINE // 2
    headings: list[tuple[str, int, Align]] = [(sheet.heading, sheet.left, "left")]
    headings += [(h, right, "right") for h, right in zip(sheet.labels, sheet.rights, strict=True)]
    for heading, x, align in headings:
        draw_text(
            im,
            heading,
            x,
            top + text_dy,
            SHEET_SIZE,
            colour=theme.TEXT_MUTED,
            background=theme.ROW,
            align=align,
        )
    band_left, band_right = box_left + 6, box_left + sheet.width - 6
    for side, ((name, size), colour) in enumerate(zip(sheet.names, sheet.colours, strict=True)):
        row = top + (side + 1) * line
        shade = theme.CHIP if side % 2 == 0 else theme.ROW  # every other side on a band
        if shade != theme.ROW:
            im.paste(theme.index(shade), (band_left, row, band_right, row + line))
        draw_stripe(im, box_left + 8, row + 5, line - 10, colour, shade)
        name_dy = line_height(SHEET_SIZE, True) - line_height(size, True)
        draw_text(im, name, sheet.left, row + text_dy + name_dy, size, bold=True, background=shade)
        for column, right in enumerate(sheet.rights):
            draw_text(
                im,
                sheet.cells[column][side],
                right,
                row + text_dy,
                SHEET_SIZE,
                bold=sheet.bold[column],
                colour=theme.GOLD if side in sheet.gold[column] else theme.TEXT,
                background=shade,
                align="right",
            )
