"""The bot: opens storage, loads the cogs, restores the games in play."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import discord
from discord.ext import commands

from bot import logs  # noqa: F401 - keeps payload loggers quiet from the start
from bot.discord_i18n import CatalogTranslator
from bot.engine.ai import choose_move
from bot.games.ai_runner import AiPlayer, AiRunner
from bot.games.service import GameService
from bot.games.settings import SettingsService
from bot.i18n import missing_catalogs
from bot.stats import install as install_leaderboard
from bot.storage import Database

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.domino",)


class DominoBot(commands.Bot):
    db: Database
    games: GameService

    def __init__(
        self,
        *,
        database_path: str | os.PathLike[str] = "dominobot.sqlite3",
        dev_guild_id: int | None = None,
        database_url: str | None = None,
        ai_player: AiPlayer = choose_move,
        ai_workers: int | None = None,
        clock: Callable[[], datetime] = discord.utils.utcnow,
        seed_source: Callable[[], int] | None = None,
    ) -> None:
        # Slash commands and components only: no message events (the bot would parse
        # every message in every channel, its own table edits included) and no
        # message cache. Guilds for channels, threads, permissions and locales.
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            # Nobody is pinged by a name or a text; the turn ping allows its one user.
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.database_path = Path(database_path)
        self.database_url = database_url  # PostgreSQL instead of the SQLite file
        self.dev_guild_id = dev_guild_id
        self.ai_player = ai_player
        self.ai_workers = ai_workers
        self.clock = clock
        self.seed_source = seed_source
        self.restoring: asyncio.Task[int] | None = None

    async def setup_hook(self) -> None:
        self.db = await Database.open(self.database_url or self.database_path)
        # The leaderboard's rules (bot.stats, pure) count every finished match inside
        # storage's finish transaction; wired here once, before any game can finish.
        install_leaderboard(self.db)
        self.ai = AiRunner(self.ai_player, workers=self.ai_workers)
        self.games = GameService(
            self.db,
            clock=self.clock,
            ai=self.ai,
            settings=SettingsService(self.db),
            seed_source=self.seed_source,
        )
        missing = missing_catalogs()
        if missing:
            log.warning("no compiled catalogs for %s (run `make catalogs`)", ", ".join(missing))
        # Command descriptions and choices in Finnish and Danish (before any sync).
        await self.tree.set_translator(CatalogTranslator())
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self.dev_guild_id is not None:
            guild = discord.Object(self.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
            log.info("commands synced to the development server %d", self.dev_guild_id)
        # Games come back in the background: interactions are answered meanwhile.
        self.restoring = asyncio.get_running_loop().create_task(self.games.restore())
        self.restoring.add_done_callback(_log_restore)

    async def close(self) -> None:
        await self.shutdown()
        await super().close()

    async def shutdown(self) -> None:
        """Stop the game tasks and close the database (also for tests that restart us)."""
        if self.restoring is not None:
            self.restoring.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.restoring
        cog = self.get_cog("Domino")
        if cog is not None:
            await cog.publisher.close()  # type: ignore[attr-defined]
        if hasattr(self, "games"):
            await self.games.close()
        if hasattr(self, "ai"):
            await self.ai.close()
        if hasattr(self, "db"):
            await self.db.close()


def _log_restore(task: asyncio.Task[int]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error(
            "restoring the games failed; they load when someone acts in them",
            exc_info=task.exception(),
        )
