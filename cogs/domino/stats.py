"""``/domino leaderboard``, ``stats``, ``history`` and ``reset-leaderboard``: thin glue.

The commands are a mixin of the ``/domino`` GroupCog (``cog.Domino``). Each asks
:class:`bot.stats.StatsService` for typed data, puts it in words
(:mod:`cogs.domino.stats_texts`) and sends it with its buttons (the
:class:`~cogs.domino.items.DominoItem`\\ s below), in one form: a leaderboard page is a
picture (drawn by ``render.cards``, sent as an attachment, the page as text when the
picture cannot be drawn or attached); a player's stats and the history are text. Refusals and
failures are answered by the cog's one error handler (``Domino.cog_app_command_error``).

Each button's ``custom_id`` carries what the click needs, so it keeps working after a
restart:

- ``domino:lb:<guild>:<game>:<period>:<order>:<page>`` a leaderboard page,
- ``domino:hp:<guild>:<page>`` a history page, ``domino:hx:<guild>:<page>`` its
  export select (values are match ids),
- ``domino:rs:<guild>:<asked at>`` / ``domino:rc:<guild>:<asked at>`` confirm or
  cancel a leaderboard reset.
"""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from datetime import UTC, datetime
from functools import partial
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.competitions.archive import CompetitionArchive
from bot.games.errors import GameError
from bot.i18n import N_, Translator
from bot.stats import PERIODS, BoardPage, HistoryPage

from .boards import Board, draw_board
from .competition_archive import add_competitions_field
from .items import DominoItem, button, chosen_number, paged, select, sent_view
from .origin import BOARDS_IN_A_SERVER, display_name, public_translator, server_of
from .replies import defer_public, refusing
from .stats_texts import card_embed, history_embed, winners_text
from .texts import GAME_CHOICES, ORDER_CHOICES, PERIOD_CHOICES, game_name

if TYPE_CHECKING:
    from bot.client import DominoBot

    from .cog import Domino

# -- the buttons and selects ----------------------------------------------------------------------


class LeaderboardButton(
    DominoItem[discord.ui.Button[Any]],
    template=(
        r"domino:lb:(?P<guild_id>\d{1,20}):(?P<game>[a-z]{1,12}):(?P<period>[a-z]{1,12})"
        r":(?P<order>[a-z]{1,12}):(?P<page>\d{1,6})"
    ),
):
    def __init__(
        self,
        guild_id: int,
        game: str,
        period: str,
        order: str,
        page: int,
        label: str = "…",
        disabled: bool = False,
    ) -> None:
        custom_id = f"domino:lb:{guild_id}:{game}:{period}:{order}:{page}"
        super().__init__(button(custom_id, label, disabled=disabled))
        self.guild_id = guild_id
        self.game = game
        self.period = period
        self.order = order
        self.page = page

    async def run(self, interaction: discord.Interaction, cog: Domino) -> None:
        await cog.on_leaderboard_page(
            interaction, self.guild_id, self.game, self.period, self.order, self.page
        )


class HistoryButton(
    DominoItem[discord.ui.Button[Any]],
    template=r"domino:hp:(?P<guild_id>\d{1,20}):(?P<page>\d{1,6})",
):
    def __init__(self, guild_id: int, page: int, label: str = "…", disabled: bool = False) -> None:
        super().__init__(button(f"domino:hp:{guild_id}:{page}", label, disabled=disabled))
        self.guild_id = guild_id
        self.page = page

    async def run(self, interaction: discord.Interaction, cog: Domino) -> None:
        await cog.on_history_page(interaction, self.guild_id, self.page)


class ExportSelect(
    DominoItem[discord.ui.Select[Any]],
    template=r"domino:hx:(?P<guild_id>\d{1,20}):(?P<page>\d{1,6})",
):
    def __init__(
        self,
        guild_id: int,
        page: int,
        options: Sequence[discord.SelectOption] = (),
        placeholder: str | None = None,
    ) -> None:
        super().__init__(select(f"domino:hx:{guild_id}:{page}", options, placeholder))
        self.guild_id = guild_id

    async def run(self, interaction: discord.Interaction, cog: Domino) -> None:
        match_id = chosen_number(self.item, 18)
        await cog.on_export(interaction, self.guild_id, match_id or 0)


class ResetButton(
    DominoItem[discord.ui.Button[Any]],
    template=r"domino:(?P<action>rs|rc):(?P<guild_id>\d{1,20}):(?P<asked>\d{1,12})",
):
    def __init__(self, action: str, guild_id: int, asked: int, label: str = "…") -> None:
        style = discord.ButtonStyle.danger if action == "rs" else discord.ButtonStyle.secondary
        super().__init__(button(f"domino:{action}:{guild_id}:{asked}", label, style))
        self.action = action
        self.guild_id = guild_id
        self.asked = asked

    async def run(self, interaction: discord.Interaction, cog: Domino) -> None:
        await cog.on_reset_button(interaction, self.action, self.guild_id, self.asked)


STATS_ITEMS = (LeaderboardButton, HistoryButton, ExportSelect, ResetButton)


def board_view(page: BoardPage, period: str, tr: Translator) -> discord.ui.View:
    make = partial(LeaderboardButton, page.guild_id, page.game, period, page.order)
    return paged(sent_view(), page.page, page.pages, make, tr("◀ Previous"), tr("Next ▶"))


def history_view(page: HistoryPage, tr: Translator) -> discord.ui.View:
    view = sent_view()
    if page.entries:
        options = [
            discord.SelectOption(
                label=tr(
                    "#{id} · {game} · {date}",
                    id=m.id,
                    game=game_name(m.game, tr),
                    date=tr.date(m.finished_at),
                )[:100],
                description=winners_text(m, tr)[:100],
                value=str(m.id),
            )
            for m in page.entries
        ]
        view.add_item(
            ExportSelect(page.guild_id, page.page, options, tr("Download a match record (JSON)"))
        )
    make = partial(HistoryButton, page.guild_id)
    return paged(view, page.page, page.pages, make, tr("◀ Newer"), tr("Older ▶"))


def reset_view(guild_id: int, asked: int, tr: Translator) -> discord.ui.View:
    """Confirm or cancel a leaderboard reset asked for at ``asked`` (a timestamp)."""
    return sent_view(
        ResetButton("rs", guild_id, asked, tr("Reset the leaderboard")),
        ResetButton("rc", guild_id, asked, tr("Cancel")),
    )


# -- the commands -------------------------------------------------------------------------------


class StatsCommands(commands.Cog):
    """The stats commands, a base of the ``/domino`` GroupCog (``cog.Domino``): discord.py
    collects app commands along the MRO, and puts them in the group."""

    bot: DominoBot

    # -- /domino leaderboard -------------------------------------------------------------

    @app_commands.command(
        name="leaderboard", description=locale_str("The server's best players, by skill rating")
    )
    @app_commands.describe(
        game=locale_str("Which game (default: the server's most played)"),
        period=locale_str("All time, or only matches of the last 30 or 7 days"),
        order=locale_str("Rank by rating, or (latvian) by accumulated place points"),
    )
    @app_commands.choices(
        game=GAME_CHOICES,
        period=PERIOD_CHOICES,
        order=ORDER_CHOICES,
    )
    @refusing
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: str | None = None,
        period: str = "all",
        order: str = "rating",
    ) -> None:
        guild_id = server_of(interaction, BOARDS_IN_A_SERVER)
        await defer_public(interaction)
        page = await self.bot.stats.leaderboard(guild_id, game, period, order)
        await (await self._board(interaction, page, period)).send(interaction)

    async def on_leaderboard_page(
        self,
        interaction: discord.Interaction,
        guild_id: int,
        game: str,
        period: str,
        order: str,
        page: int,
    ) -> None:
        server_of(interaction, BOARDS_IN_A_SERVER, expected=guild_id)
        await interaction.response.defer()
        if period not in PERIODS:
            raise GameError(N_("The period is all, month or week."))
        found = await self.bot.stats.leaderboard(guild_id, game, period, order, page)
        await (await self._board(interaction, found, period)).show(interaction)

    async def _board(self, interaction: discord.Interaction, page: BoardPage, period: str) -> Board:
        tr = await public_translator(self.bot, interaction.guild_id)
        view = board_view(page, period, tr)
        return await draw_board(page, tr, period, interaction.user.id, view)

    # -- /domino stats -------------------------------------------------------------------

    @app_commands.command(
        name="stats", description=locale_str("A player's card: results, rating and its trend")
    )
    @app_commands.describe(
        user=locale_str("Whose card (default: yours)"),
        game=locale_str("The game of the rating trend (default: the most played)"),
    )
    @app_commands.choices(game=GAME_CHOICES)
    @refusing
    async def stats_card(
        self,
        interaction: discord.Interaction,
        user: discord.User | None = None,
        game: str | None = None,
    ) -> None:
        guild_id = server_of(interaction, BOARDS_IN_A_SERVER)
        await defer_public(interaction)
        target = user or interaction.user
        card = await self.bot.stats.card(guild_id, target.id, display_name(target), game)
        tr = await public_translator(self.bot, interaction.guild_id)
        guild_name = interaction.guild.name if interaction.guild else ""
        embed = card_embed(card, tr, guild_name)
        mine = await CompetitionArchive(self.bot.competitions.db).player(guild_id, target.id)
        await interaction.followup.send(embed=add_competitions_field(embed, mine, tr))

    # -- /domino history -----------------------------------------------------------------

    @app_commands.command(
        name="history", description=locale_str("Recent matches in this server, with their records")
    )
    @refusing
    async def history(self, interaction: discord.Interaction) -> None:
        guild_id = server_of(interaction, BOARDS_IN_A_SERVER)
        await defer_public(interaction)
        page = await self.bot.stats.history(guild_id)
        tr = await public_translator(self.bot, interaction.guild_id)
        embed = history_embed(page, tr, self.bot.stats.clock())
        await interaction.followup.send(embed=embed, view=history_view(page, tr))

    async def on_history_page(
        self, interaction: discord.Interaction, guild_id: int, page: int
    ) -> None:
        server_of(interaction, BOARDS_IN_A_SERVER, expected=guild_id)
        await interaction.response.defer()
        history = await self.bot.stats.history(guild_id, page)
        tr = await public_translator(self.bot, interaction.guild_id)
        embed = history_embed(history, tr, self.bot.stats.clock())
        await interaction.edit_original_response(embed=embed, view=history_view(history, tr))

    async def on_export(
        self, interaction: discord.Interaction, guild_id: int, match_id: int
    ) -> None:
        server_of(interaction, BOARDS_IN_A_SERVER, expected=guild_id)
        await interaction.response.defer(ephemeral=True, thinking=True)
        record = await self.bot.stats.export(guild_id, match_id)
        data = json.dumps(record, indent=1, ensure_ascii=False).encode()
        file = discord.File(io.BytesIO(data), filename=f"domino-match-{match_id}.json")
        tr = Translator.for_locale(interaction.locale)
        await interaction.followup.send(
            tr("The record of match #{id}.", id=match_id), file=file, ephemeral=True
        )

    # -- /domino reset-leaderboard --------------------------------------------------------

    @app_commands.command(
        name="reset-leaderboard",
        description=locale_str("Clear this server's ratings and leaderboards (Manage Server)"),
    )
    @refusing
    async def reset_leaderboard(self, interaction: discord.Interaction) -> None:
        guild_id = server_of(interaction, BOARDS_IN_A_SERVER)
        self.bot.stats.check_can_reset(bool(interaction.permissions.manage_guild))
        tr = Translator.for_locale(interaction.locale)
        asked = int(self.bot.stats.clock().timestamp())
        view = reset_view(guild_id, asked, tr)
        await interaction.response.send_message(
            tr(
                "This clears every rating and leaderboard of this server, for all games. "
                "The matches and their history stay; only matches finished from now on "
                "will count. Are you sure?"
            ),
            view=view,
            ephemeral=True,
        )

    async def on_reset_button(
        self, interaction: discord.Interaction, action: str, guild_id: int, asked: int
    ) -> None:
        server_of(interaction, BOARDS_IN_A_SERVER, expected=guild_id)
        tr = Translator.for_locale(interaction.locale)
        if action == "rc":
            await interaction.response.edit_message(content=tr("Nothing was reset."), view=None)
            return
        await interaction.response.defer()
        season = await self.bot.stats.reset(
            guild_id,
            interaction.user.id,
            can_manage=bool(interaction.permissions.manage_guild),
            asked_at=datetime.fromtimestamp(asked, UTC),
        )
        await interaction.edit_original_response(
            content=tr(
                "The leaderboard is reset. Matches finished from now on count; "
                "the history keeps every match (the last one before the reset is #{id}).",
                id=season.after_match_id,
            ),
            view=None,
        )
