"""A season's longer subtitle ("Season 12 · Last 30 days", a closed season's dates) keeps
the leaderboard picture within the height whose text Discord still shows at 10 px."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.i18n import Translator
from bot.storage import BoardEntry, BoardPage, ClosedSeason, Rating
from cogs.domino.stats_texts import board_card
from render import cards

NAME = "Ilze Bērziņa-Kalniņa von Longname"
CLOSED = ClosedSeason(
    1,
    12,
    datetime(2025, 9, 29, tzinfo=UTC),
    datetime(2025, 12, 31, tzinfo=UTC),
    None,
    0,
    9,
    "carry",
)


def page(season: int | None) -> BoardPage:
    entries = tuple(
        BoardEntry(i + 1, 100 + i, NAME, 1234, 600, 3, 10.0, 1250.5, Rating(30.0, 2.0, 24.37))
        for i in range(10)
    )
    return BoardPage(1, "latvian", None, "places", 0, 10, 1234, entries, season=season)


@pytest.mark.parametrize("language", ["en", "fi", "da", "lv"])
def test_season_boards_stay_within_the_height(language: str) -> None:
    tr = Translator(language)
    live = board_card(page(12), tr, "month", viewer=104)
    closed = board_card(page(None), tr, "all", viewer=104, closed=CLOSED)
    assert tr("Season {number}", number=12) in live.subtitle
    assert tr("Season {number} (closed)", number=12) in closed.subtitle
    for card in (live, closed):
        assert cards.draw_leaderboard(card).height <= cards.MAX_HEIGHT
