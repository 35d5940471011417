"""The bot: opens storage, loads the cogs, restores the games in play."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import discord
from discord.ext import commands

from bot.discord_i18n import CatalogTranslator
from bot.engine.ai import choose_move
from bot.games.service import AiPlayer, GameService
from bot.i18n import missing_catalogs
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
        ai_player: AiPlayer = choose_move,
        clock: Callable[[], datetime] = discord.utils.utcnow,
        seed_source: Callable[[], int] | None = None,
    ) -> None:
        intents = discord.Intents.default()
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None)
        self.database_path = Path(database_path)
        self.dev_guild_id = dev_guild_id
        self.ai_player = ai_player
        self.clock = clock
        self.seed_source = seed_source

    async def setup_hook(self) -> None:
        self.db = await Database.open(self.database_path)
        self.games = GameService(
            self.db, clock=self.clock, ai_player=self.ai_player, seed_source=self.seed_source
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
        await self.games.restore()

    async def close(self) -> None:
        await self.shutdown()
        await super().close()

    async def shutdown(self) -> None:
        """Stop the game tasks and close the database (also for tests that restart us)."""
        if hasattr(self, "games"):
            await self.games.close()
        if hasattr(self, "db"):
            await self.db.close()
