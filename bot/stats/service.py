"""What the stats commands ask for, checked and answered from the repositories.

The cogs call these coroutines with plain ids; a refusal is a
:class:`~bot.games.errors.GameError` with a translatable message, shown as a
polite ephemeral reply. No SQL and no rating arithmetic here either: the reads
are :class:`bot.storage.LeaderboardRepository`'s and :class:`bot.storage.MatchRepository`'s,
the counting is :mod:`bot.stats.ledger`'s, the rating :mod:`bot.stats.rating`'s.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, Final

from bot.engine.rules import GAMES
from bot.games.errors import GameError
from bot.i18n import N_
from bot.storage import ORDERS, BoardPage, Database, HistoryPage, PlayerCard, Season

from .ledger import MatchLedger
from .rating import OpenSkillRater
from .seasons import SeasonService

log = logging.getLogger(__name__)

PERIODS: Final[dict[str, timedelta | None]] = {
    "all": None,
    "month": timedelta(days=30),
    "week": timedelta(days=7),
}
"""Leaderboard periods: all time (since the last reset), the last 30 days, the last 7 days."""
PAGE_SIZE: Final = 10
HISTORY_PAGE_SIZE: Final = 10
RESET_WINDOW: Final = timedelta(minutes=10)
"""How long a reset confirmation button stays good."""
DEFAULT_GAME: Final = "block"


def install(db: Database) -> MatchLedger:
    """Plug the leaderboard's rules, rated with openskill, into ``db``'s storage.

    Done once, by the bot's ``setup_hook``, before anything finishes a match:
    from then on every finished match is counted in the transaction that stores
    it, and :meth:`~bot.storage.LeaderboardRepository.recompute` can rebuild the tables.
    """
    ledger = MatchLedger(OpenSkillRater())
    db.leaderboards.ledger = ledger
    return ledger


class StatsService:
    """Leaderboards, player cards, match history, exports and resets for one bot."""

    def __init__(self, db: Database, *, clock: Callable[[], datetime]) -> None:
        self.db = db
        self.clock = clock
        self.seasons = SeasonService(db, clock=clock)
        """Closing seasons, their settings and archived boards (:mod:`bot.stats.seasons`)."""

    async def start(self) -> None:
        """Count the matches that wait to be counted (stored before the stats tables
        existed, or while no ledger was plugged in: :func:`install` comes first)."""
        replayed = await self.db.leaderboards.rebuild_if_pending()
        if replayed is not None:
            log.info("counted %d matches stored before the leaderboards existed", replayed)

    async def default_game(self, guild_id: int) -> str:
        """The server's most played game on its boards (block when nothing is counted)."""
        games = await self.db.leaderboards.games(guild_id)
        return games[0][0] if games else DEFAULT_GAME

    async def leaderboard(
        self,
        guild_id: int,
        game: str | None = None,
        period: str = "all",
        order: str = "rating",
        page: int = 0,
    ) -> BoardPage:
        if game is not None and game not in GAMES:
            raise GameError(N_("Choose a game: block, draw, allfives, latvian or mexican."))
        if period not in PERIODS:
            raise GameError(N_("The period is all, month or week."))
        if order not in ORDERS:
            raise GameError(N_("The leaderboard is ordered by rating or by places."))
        game = game or await self.default_game(guild_id)
        if order == "places" and game != "latvian":
            raise GameError(N_("Only Latvian sessions give place points."))
        span = PERIODS[period]
        since = None if span is None else self.clock() - span
        found = await self.db.leaderboards.leaderboard(
            guild_id, game, since=since, order=order, page=page, page_size=PAGE_SIZE
        )
        season = await self.db.seasons.current(guild_id)
        return replace(found, season=season.number)

    async def card(
        self, guild_id: int, user_id: int, name: str, game: str | None = None
    ) -> PlayerCard:
        if game is not None and game not in GAMES:
            raise GameError(N_("Choose a game: block, draw, allfives, latvian or mexican."))
        card = await self.db.leaderboards.card(guild_id, user_id, game=game)
        if card is None:
            raise GameError(N_("{name} has no counted matches on this server yet."), name=name)
        return card

    async def history(self, guild_id: int, page: int = 0) -> HistoryPage:
        return await self.db.matches.history(guild_id, page=page, page_size=HISTORY_PAGE_SIZE)

    async def export(self, guild_id: int, match_id: int) -> dict[str, Any]:
        """A finished match's record (public information: every hand is revealed at the end)."""
        record = await self.db.matches.record(guild_id, match_id)
        if record is None:
            raise GameError(N_("There is no such match on this server."))
        return record

    @staticmethod
    def check_can_reset(can_manage: bool) -> None:
        if not can_manage:
            raise GameError(N_("Only someone with Manage Server can reset the leaderboard."))

    async def reset(
        self, guild_id: int, user_id: int, *, can_manage: bool, asked_at: datetime
    ) -> Season:
        """Clear the server's leaderboard after a confirmation asked at ``asked_at``."""
        self.check_can_reset(can_manage)
        now = self.clock()
        if now - asked_at > RESET_WINDOW:
            raise GameError(
                N_("This confirmation has expired. Ask again with /domino reset-leaderboard.")
            )
        return await self.db.leaderboards.reset(guild_id, by=user_id, now=now)
