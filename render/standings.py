"""A competition's standings as a picture (issue 41): a leaderboard card of its own kind.

Plain values in, PNG bytes out, drawn by :mod:`render.cards` (its theme, fonts, columns
and bars: every text 10 px or more at Discord's 400 px preview, a picture of
:data:`LINES_A_PICTURE` players within the desktop's box). Every word and number comes
from the caller, translated and formatted; this module spells nothing.

The columns: the player's rank and name, then the caller's columns (place points, the
tie-break columns, rounds played), then one column a round (its place points). When a
long competition's rounds do not all fit, the latest rounds are shown.

    png = render_standings(StandingsCard(title="Round 2 of 3", subtitle=..., ...))
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from . import cards
from .canvas import to_png

__all__ = ["LINES_A_PICTURE", "StandingLine", "StandingsCard", "draw_standings", "render_standings"]

LINES_A_PICTURE = 10
"""The most players one picture shows (as a leaderboard page: it stays readable)."""


@dataclass(frozen=True, slots=True)
class StandingLine:
    """One player: rank (shared ranks repeat), name, the formatted cells."""

    rank: int
    name: str
    cells: tuple[str, ...]
    """One per :attr:`StandingsCard.headings`: place points, tie-breaks, rounds played."""
    per_round: tuple[str, ...]
    """Place points in each round so far (a dash where the player had no table)."""
    highlight: bool = False


@dataclass(frozen=True, slots=True)
class StandingsCard:
    """A competition's standings: every word already translated, every number formatted."""

    title: str
    """"Round 2 of 3" or "Final standings"."""
    subtitle: str
    name_heading: str
    headings: tuple[str, ...]
    round_headings: tuple[str, ...]
    """One a round ("R1", "R2", …), as many as each line's :attr:`StandingLine.per_round`."""
    lines: tuple[StandingLine, ...]
    footer: str = ""
    """The tie rule, in words."""
    page: str = ""
    empty: str = ""


def render_standings(card: StandingsCard) -> bytes:
    """The standings as PNG bytes."""
    return to_png(draw_standings(card))


def draw_standings(card: StandingsCard) -> Image.Image:
    """The standings as a palette image (what :func:`render_standings` encodes)."""
    return cards.draw_leaderboard(board_of(card))


def board_of(card: StandingsCard) -> cards.BoardCard:
    """The leaderboard card that draws ``card``: its rounds, as many as fit."""
    rounds = len(card.round_headings)
    for line in card.lines:
        if len(line.per_round) != rounds:
            raise ValueError(f"{line.name!r} has {len(line.per_round)} rounds for {rounds}")
    first = rounds - rounds_that_fit(card)  # the first round shown
    return cards.BoardCard(
        title=card.title,
        subtitle=card.subtitle,
        name_heading=card.name_heading,
        headings=(*card.headings, *card.round_headings[first:]),
        lines=tuple(
            cards.BoardLine(
                line.rank, line.name, (*line.cells, *line.per_round[first:]), line.highlight
            )
            for line in card.lines
        ),
        footer=card.footer,
        empty=card.empty,
        page=card.page,
    )


def rounds_that_fit(card: StandingsCard) -> int:
    """How many of the latest rounds' columns fit beside the names, headings whole."""
    room = cards.columns_room(card.name_heading)
    rounds = len(card.round_headings)
    for shown in range(rounds, 0, -1):
        headings = (*card.headings, *card.round_headings[rounds - shown :])
        rows = [(*line.cells, *line.per_round[rounds - shown :]) for line in card.lines]
        if cards.columns_width(headings, rows) <= room:
            return shown
    return 0
