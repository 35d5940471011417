"""``/domino puzzle today``, ``stats`` and ``setup``, the posted puzzle and its answers.

Thin glue over :class:`bot.puzzles.PuzzleService`: the commands are a mixin of the
``/domino`` GroupCog (``cog.Domino``). A background task posts the puzzles that are
due (:meth:`PuzzleCommands.post_due_puzzles`, the service's ``post_due`` with this
cog's poster), sleeping until the next server's time of day (started anew when settings change)
and ending when no server has the puzzle on: an idle bot keeps no timer (one that woke every
few hours for nothing would make the playground, whose clock jumps from SimCord's start to
today, run it for every few hours in between before it can answer anyone).
Answers come by the move buttons (``domino:pz:<puzzle id>:<choice>``: the server's puzzle
of a day, by its row, and the choice's index; all a click needs, so they work after a
restart) and are told privately.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.engine.puzzle import Puzzle
from bot.games.errors import GameError
from bot.i18n import Translator
from bot.puzzles import DailyPuzzle
from render.puzzle import render_puzzle

from .items import DominoItem, button
from .origin import public_translator, server_of
from .permissions import missing
from .puzzle_texts import (
    CANT_POST,
    NOT_MANAGER,
    NOT_TEXT,
    answer_text,
    captions,
    image_title,
    move_label,
    post_text,
    seat_names,
    settings_text,
    stats_text,
)
from .replies import refusing

if TYPE_CHECKING:
    from bot.client import DominoBot

    from .cog import Domino

log = logging.getLogger(__name__)

PUZZLE_FILE = "puzzle.png"
POST_NEEDS = ("view_channel", "send_messages", "attach_files")
MAX_BUTTONS = 25
"""Discord's limit on a message's buttons (five rows of five)."""


class PuzzleButton(
    DominoItem[discord.ui.Button[Any]],
    template=r"domino:pz:(?P<puzzle_id>\d{1,18}):(?P<choice>\d{1,2})",
):
    def __init__(self, puzzle_id: int, choice: int, label: str = "…") -> None:
        super().__init__(button(f"domino:pz:{puzzle_id}:{choice}", label))
        self.puzzle_id = puzzle_id
        self.choice = choice

    async def run(self, interaction: discord.Interaction, cog: Domino) -> None:
        await cog.on_puzzle_answer(interaction, self.puzzle_id, self.choice)


PUZZLE_ITEMS = (PuzzleButton,)


class PuzzleCommands(commands.Cog):
    """The daily puzzle's commands, a base of the ``/domino`` GroupCog."""

    bot: DominoBot
    _scheduler: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        await super().cog_load()
        self._scheduler = asyncio.get_running_loop().create_task(self._schedule())

    async def cog_unload(self) -> None:
        await self.stop_scheduler()
        await super().cog_unload()

    async def stop_scheduler(self) -> None:
        """Stop posting puzzles (the bot's shutdown, before the database closes)."""
        task, self._scheduler = self._scheduler, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    # -- posting ------------------------------------------------------------------

    async def post_due_puzzles(self, now: datetime) -> list[DailyPuzzle]:
        """Post every puzzle due at ``now`` (the scheduler's step; tests call it)."""
        return await self.bot.puzzles.post_due(now, self._post)

    @property
    def scheduling(self) -> bool:
        """Whether the scheduler's task runs (it ends while no server has the puzzle on)."""
        return self._scheduler is not None and not self._scheduler.done()

    def restart_scheduler(self) -> None:
        """Look at the settings again now (they changed): a new scheduler task."""
        if self._scheduler is not None:
            self._scheduler.cancel()
        self._scheduler = asyncio.get_running_loop().create_task(self._schedule())

    async def _schedule(self) -> None:
        while True:
            try:
                now = self.bot.puzzles.clock()
                await self.post_due_puzzles(now)
                wake = await self.bot.puzzles.next_due(now)
                if wake is None:
                    return  # nothing to post: `setup` turning it on starts a new task
                wait = max(60.0, (wake - now).total_seconds())
            except Exception:
                log.exception("the daily puzzle's scheduler failed; trying again in a minute")
                wait = 60.0
            await asyncio.sleep(wait)  # a plain sleep: SimCord's virtual clock runs it

    async def _post(self, daily: DailyPuzzle, channel_id: int) -> int | None:
        tr = await public_translator(self.bot, daily.guild_id)
        message = await _message(daily, tr)
        channel = self.bot.get_partial_messageable(channel_id, guild_id=daily.guild_id)
        try:
            sent = await channel.send(**message)
        except discord.HTTPException as error:
            log.warning("the daily puzzle of server %d was not posted: %s", daily.guild_id, error)
            return None
        return sent.id

    # -- the commands -------------------------------------------------------------

    puzzle = app_commands.Group(
        name="puzzle", description=locale_str("The daily puzzle: find the best move")
    )

    @puzzle.command(name="today", description=locale_str("Today's puzzle, just for you"))
    @refusing
    async def puzzle_today(self, interaction: discord.Interaction) -> None:
        guild_id = server_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        daily = await self.bot.puzzles.today(guild_id)
        message = await _message(daily, Translator.for_locale(interaction.locale))
        await interaction.followup.send(ephemeral=True, **message)

    @puzzle.command(
        name="stats",
        description=locale_str("Your puzzles solved and streaks, and the server's best"),
    )
    @refusing
    async def puzzle_stats(self, interaction: discord.Interaction) -> None:
        guild_id = server_of(interaction)
        await interaction.response.defer(ephemeral=True)
        stats = await self.bot.puzzles.stats(guild_id, interaction.user.id)
        tr = Translator.for_locale(interaction.locale)
        await interaction.followup.send(
            stats_text(stats, tr), ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )

    @puzzle.command(
        name="setup", description=locale_str("Turn the daily puzzle on or off (Manage Server)")
    )
    @app_commands.describe(
        enabled=locale_str("On: a puzzle is posted every day"),
        channel=locale_str("Where it is posted"),
        time=locale_str("When, as HH:MM in UTC (for example 18:30)"),
    )
    @refusing
    async def puzzle_setup(
        self,
        interaction: discord.Interaction,
        enabled: bool,
        channel: discord.TextChannel | None = None,
        time: str | None = None,
    ) -> None:
        guild_id = server_of(interaction)
        await interaction.response.defer(ephemeral=True)
        if not interaction.permissions.manage_guild:
            raise GameError(NOT_MANAGER)
        tr = Translator.for_locale(interaction.locale)
        if channel is not None:
            if channel.guild.id != guild_id:
                raise GameError(NOT_TEXT)
            me = channel.guild.me
            lacking = [] if me is None else missing(channel.permissions_for(me), tr, POST_NEEDS)
            if lacking:
                raise GameError(
                    CANT_POST, channel=f"#{channel.name}", permissions=", ".join(lacking)
                )
        settings = await self.bot.puzzles.setup(
            guild_id,
            enabled=enabled,
            channel_id=None if channel is None else channel.id,
            time=time,
        )
        self.restart_scheduler()
        await interaction.followup.send(settings_text(settings, tr), ephemeral=True)

    # -- answers ------------------------------------------------------------------

    async def on_puzzle_answer(
        self, interaction: discord.Interaction, puzzle_id: int, choice: int
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        outcome = await self.bot.puzzles.answer(
            puzzle_id, guild_id=interaction.guild_id, user_id=interaction.user.id, choice=choice
        )
        tr = Translator.for_locale(interaction.locale)
        await interaction.followup.send(answer_text(outcome, tr), ephemeral=True)


async def _message(daily: DailyPuzzle, tr: Translator) -> dict[str, Any]:
    """The puzzle's message (posted, or the answer of ``/domino puzzle today``): its words,
    its picture (drawn off the event loop) and a button a choice."""
    png = await asyncio.to_thread(
        render_puzzle,
        daily.puzzle,
        names=seat_names(daily, tr),
        captions=captions(daily, tr),
        title=image_title(daily.puzzle, tr),
    )
    return {
        "content": post_text(daily, tr),
        "file": discord.File(io.BytesIO(png), filename=PUZZLE_FILE),
        "view": puzzle_view(daily.id, daily.puzzle, tr),
        "allowed_mentions": discord.AllowedMentions.none(),
    }


def puzzle_view(puzzle_id: int, puzzle: Puzzle, tr: Translator) -> discord.ui.View:
    """One button a choice (a persistent view: no timeout)."""
    view = discord.ui.View(timeout=None)
    for choice in range(min(len(puzzle.choices), MAX_BUTTONS)):
        view.add_item(PuzzleButton(puzzle_id, choice, move_label(puzzle, choice, tr)))
    return view
