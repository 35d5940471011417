"""The bot: opens storage, loads the cogs, restores the games in play."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import discord
from discord.ext import commands

from bot import logs  # noqa: F401 - keeps payload loggers quiet from the start
from bot.competitions.service import CompetitionService
from bot.discord_i18n import CatalogTranslator
from bot.engine.ai import choose_move
from bot.games.ai_runner import AiPlayer, AiRunner
from bot.games.limits import Limits
from bot.games.service import GameService
from bot.games.settings import SettingsService
from bot.i18n import missing_catalogs
from bot.pacer import Pacer, paced, trace
from bot.puzzles import PuzzleService
from bot.review import ReviewService
from bot.settings import DEFAULT_CALLS_PER_S, Shards, format_ids, process_share, shard_of
from bot.stats import StatsService
from bot.stats import install as install_leaderboard
from bot.storage import Database, Timeouts
from bot.storage.owner import Ownership, take_ownership

log = logging.getLogger(__name__)
interactions_log = logging.getLogger("bot.interactions")

EXTENSIONS = ("cogs.domino",)


class DominoBot(commands.Bot):
    """The bot. With ``shards`` it is a :class:`ShardedDominoBot` (discord.py's
    ``AutoShardedBot`` on those shards only); without, one plain ``commands.Bot``."""

    db: Database
    games: GameService
    competitions: CompetitionService
    stats: StatsService
    reviews: ReviewService
    puzzles: PuzzleService

    def __new__(cls, *args: Any, shards: Shards | None = None, **kwargs: Any) -> DominoBot:
        if shards is not None and not issubclass(cls, commands.AutoShardedBot):
            if cls is not DominoBot:  # a subclass would lose itself: it must choose
                raise TypeError(f"{cls.__name__} with shards: subclass ShardedDominoBot")
            cls = ShardedDominoBot
        return super().__new__(cls)

    def __init__(
        self,
        *,
        shards: Shards | None = None,
        database_path: str | os.PathLike[str] = "dominobot.sqlite3",
        dev_guild_id: int | None = None,
        database_url: str | None = None,
        database_timeouts: Timeouts | None = None,
        ai_player: AiPlayer = choose_move,
        ai_workers: int | None = None,
        clock: Callable[[], datetime] = discord.utils.utcnow,
        seed_source: Callable[[], int] | None = None,
        calls_per_second: float | None = None,
        limits: Limits | None = None,
        owner: bool = True,
    ) -> None:
        # Slash commands and components only: no message events (the bot would parse
        # every message in every channel, its own table edits included) and no
        # message cache. Guilds for channels, threads, permissions and locales.
        intents = discord.Intents.none()
        intents.guilds = True
        sharding: dict[str, Any] = {}
        if shards is not None:
            sharding = {"shard_count": shards.count, "shard_ids": list(shards.ids)}
        if calls_per_second is None:
            calls_per_second = process_share(DEFAULT_CALLS_PER_S, shards)
        self.pacer = Pacer(calls_per_second)
        """This process's share of the token's counted REST calls (:mod:`bot.pacer`)."""
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            # Nobody is pinged by a name or a text; the turn ping allows its one user.
            allowed_mentions=discord.AllowedMentions.none(),
            http_trace=trace(self.pacer),  # global 429s slow the pacer down
            **sharding,
        )
        self.shards_served = shards
        """The shards this process runs (None: no shards, one process)."""
        self.database_path = Path(database_path)
        self.database_url = database_url  # PostgreSQL instead of the SQLite file
        self.database_timeouts = database_timeouts  # PostgreSQL's (None: the defaults)
        self.dev_guild_id = dev_guild_id
        self.ai_player = ai_player
        self.ai_workers = ai_workers
        self.clock = clock
        self.seed_source = seed_source
        self.limits = limits
        """Caps on open games and how often a table is posted again (None: the defaults)."""
        self.owner = owner
        """Whether this process runs its shards' games (timers, AI seats): it owns them
        (``bot.storage.owner``) and restores them. ``python -m bot sync`` does not."""
        self.ownership: Ownership | None = None
        self.stop_reason: str | None = None
        """Why the bot stopped by itself (it lost its shards to another process), else None."""
        self.stopping: asyncio.Task[None] | None = None
        self.restoring: asyncio.Task[int] | None = None

    async def setup_hook(self) -> None:
        # Every counted call (all of bot.http: interactions use their own routes) waits
        # its turn in the pacer.
        setattr(self.http, "request", paced(self.http.request, self.pacer))  # noqa: B010
        location = self.database_url or self.database_path
        shards = self.shards_served  # a process restores only its own shards' games
        served = None if shards is None else (shards.count, shards.ids)
        if self.owner:  # one owner per shard: wait here for another owner to stop
            self.ownership = await take_ownership(location, served, on_lost=self._lost_ownership)
        self.db = await Database.open(location, timeouts=self.database_timeouts)
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
            shards=served,
            limits=self.limits,
        )
        # Leaderboards, cards and history; first it counts the matches that wait to be
        # counted (stored before the stats tables existed, or without the ledger).
        self.competitions = CompetitionService(
            self.db, self.games, clock=self.clock, seed_source=self.seed_source
        )
        self.stats = StatsService(self.db, clock=self.clock)
        # The daily puzzle: each process posts its own shards' servers' puzzles.
        self.puzzles = PuzzleService(self.db, clock=self.clock, owns=self._serves)
        await self.stats.start()
        # Game reviews of finished matches: computed in the AI pool, stored.
        self.reviews = ReviewService(self.db, self.ai, clock=self.clock)
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
        if self.owner:
            self.restoring = asyncio.get_running_loop().create_task(self._restore())
            self.restoring.add_done_callback(_log_restore)
            self.stats.seasons.start_schedule()  # closes the seasons due by a schedule
        log.info("serving %s (host %s, pid %d)", self.serving(), socket.gethostname(), os.getpid())

    async def _restore(self) -> int:
        """The games, then the competitions whose tables they are (their results)."""
        restored = await self.games.restore()
        await self.competitions.restore()
        return restored

    def _serves(self, guild_id: int) -> bool:
        """Whether this process serves the server (its shard is one of ours)."""
        return self.shards_served is None or self.shards_served.owns(guild_id)

    def serving(self) -> str:
        """What this process serves, for the log: ``shards 0-3 of 8`` or ``every server``."""
        if self.shards_served is None:
            return "every server (no shards)"
        return f"shards {format_ids(self.shards_served.ids)} of {self.shards_served.count}"

    def shard_for(self, guild_id: int | None) -> tuple[int, int]:
        """``(shard id, shard count)`` of a server (or a DM: shard 0), as Discord routes it."""
        count = 1 if self.shards_served is None else self.shards_served.count
        return (0 if guild_id is None else shard_of(guild_id, count)), count

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """One log line per interaction: what, where, and which shard and process served it.

        Never an option's value nor a select's choice (they can name a player's tiles).
        Autocomplete (a request per keystroke) at DEBUG.
        """
        shard, count = self.shard_for(interaction.guild_id)
        typing = interaction.type is discord.InteractionType.autocomplete
        interactions_log.log(
            logging.DEBUG if typing else logging.INFO,
            "%s in guild %s channel %s by user %s: shard %d of %d, pid %d",
            _what(interaction),
            interaction.guild_id,
            interaction.channel_id,
            interaction.user.id,
            shard,
            count,
            os.getpid(),
        )

    def _lost_ownership(self, line: str) -> None:
        """Another process took this one's shards (``bot.storage.owner``): stop."""
        log.error(line)
        self.stop_reason = line
        self.stopping = asyncio.get_running_loop().create_task(self.close())

    async def close(self) -> None:
        await self.shutdown()
        await super().close()

    async def shutdown(self) -> None:
        """Stop the game tasks and close the database (also for tests that restart us)."""
        if self.restoring is not None:
            self.restoring.cancel()
            # a restore that failed was logged (_log_restore): the rest must still close
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.restoring
        cog = self.get_cog("Domino")
        if cog is not None:
            await cog.stop_scheduler()  # type: ignore[attr-defined]
            await cog.publisher.close()  # type: ignore[attr-defined]
        if hasattr(self, "competitions"):
            await self.competitions.close()
        if hasattr(self, "stats"):
            await self.stats.seasons.stop()
        if hasattr(self, "games"):
            await self.games.close()
        if hasattr(self, "ai"):
            await self.ai.close()
        if hasattr(self, "db"):
            await self.db.close()
        if self.ownership is not None:  # last: the next owner finds every save done
            await self.ownership.release()


class ShardedDominoBot(DominoBot, commands.AutoShardedBot):
    """The bot as discord.py's ``AutoShardedBot`` on the shards of ``SHARD_IDS`` only:
    made by ``DominoBot(shards=...)``."""


def _what(interaction: discord.Interaction) -> str:
    """An interaction as a log word: ``/domino new``, or a component's kind (``domino:m``)."""
    data: Any = interaction.data or {}
    if interaction.type in (
        discord.InteractionType.application_command,
        discord.InteractionType.autocomplete,
    ):
        words = [str(data.get("name", "?"))]
        options = data.get("options") or []
        while options and options[0].get("type") in (1, 2):  # subcommand (group)
            words.append(str(options[0].get("name")))
            options = options[0].get("options") or []
        what = "/" + " ".join(words)
        return what if interaction.type.value == 2 else f"autocomplete {what}"
    custom_id = str(data.get("custom_id", ""))
    kind = ":".join(custom_id.split(":")[:2]) or "?"
    return f"{interaction.type.name} {kind}"


def _log_restore(task: asyncio.Task[int]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error(
            "restoring the games failed; they load when someone acts in them",
            exc_info=task.exception(),
        )
