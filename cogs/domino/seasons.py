"""``/domino season close|list|settings|show``: thin glue over ``bot.stats.seasons``.

A mixin of the ``/domino`` GroupCog (``cog.Domino``), as the stats commands are: each
command asks :class:`bot.stats.SeasonService` (``bot.stats.seasons``), which checks every
option and who may, and puts the answer in words (:mod:`cogs.domino.season_texts`).
Closing asks first: an ephemeral question with **Close season N** / **Cancel** (the
buttons carry the season and when it was asked; the click checks Manage Server again).
A closed season's board is drawn as the live one is (``render.cards``), as a picture
with the page as text where it cannot be shown.

The buttons (:class:`~cogs.domino.items.DominoItem`\\ s) carry what a click needs in their
``custom_id``, so they keep working after a restart:
``domino:sc:<guild>:<season>:<asked at>`` / ``domino:sx:<guild>:<season>:<asked at>``
confirm or cancel closing that season (the service closes only that one, once);
``domino:sb:<guild>:<season>:<game>:<order>:<page>`` is a page of a closed season's board.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.i18n import Translator
from bot.stats import BoardPage, ClosedSeason

from .boards import Board, draw_board
from .items import DominoItem, button, paged, sent_view
from .origin import BOARDS_IN_A_SERVER, public_translator, server_of
from .replies import defer_public, only_logged, refusing
from .season_texts import close_question, closed_text, overview_embed, settings_text
from .texts import GAME_CHOICES, ORDER_CHOICES

if TYPE_CHECKING:
    from bot.client import DominoBot

    from .cog import Domino

Choice = app_commands.Choice

RATINGS_CHOICES: list[Choice[str]] = [
    Choice(name=locale_str("Carry ratings into the next season"), value="carry"),
    Choice(name=locale_str("Reset ratings each season"), value="reset"),
]
SCHEDULE_CHOICES: list[Choice[str]] = [
    Choice(name=locale_str("Off: close seasons by hand"), value="off"),
    Choice(name=locale_str("Weekly: Mondays 00:00 UTC"), value="weekly"),
    Choice(name=locale_str("Monthly: the 1st, 00:00 UTC"), value="monthly"),
]
PERIOD = "all"
"""A closed season's board is its whole season's."""


class SeasonCloseButton(
    DominoItem[discord.ui.Button[Any]],
    template=r"domino:(?P<action>sc|sx):(?P<guild_id>\d{1,20}):(?P<season>\d{1,9}):(?P<asked>\d{1,12})",
):
    def __init__(
        self, action: str, guild_id: int, season: int, asked: int, label: str = "…"
    ) -> None:
        style = discord.ButtonStyle.danger if action == "sc" else discord.ButtonStyle.secondary
        super().__init__(button(f"domino:{action}:{guild_id}:{season}:{asked}", label, style))
        self.action = action
        self.guild_id = guild_id
        self.season = season
        self.asked = asked

    async def run(self, interaction: discord.Interaction, cog: Domino) -> None:
        await cog.on_season_close_button(
            interaction, self.action, self.guild_id, self.season, self.asked
        )


class SeasonBoardButton(
    DominoItem[discord.ui.Button[Any]],
    template=(
        r"domino:sb:(?P<guild_id>\d{1,20}):(?P<season>\d{1,9}):(?P<game>[a-z]{1,12})"
        r":(?P<order>[a-z]{1,12}):(?P<page>\d{1,6})"
    ),
):
    def __init__(
        self,
        guild_id: int,
        season: int,
        game: str,
        order: str,
        page: int,
        label: str = "…",
        disabled: bool = False,
    ) -> None:
        custom_id = f"domino:sb:{guild_id}:{season}:{game}:{order}:{page}"
        super().__init__(button(custom_id, label, disabled=disabled))
        self.guild_id = guild_id
        self.season = season
        self.game = game
        self.order = order
        self.page = page

    async def run(self, interaction: discord.Interaction, cog: Domino) -> None:
        await cog.on_season_board_page(
            interaction, self.guild_id, self.season, self.game, self.order, self.page
        )


SEASON_ITEMS = (SeasonCloseButton, SeasonBoardButton)


def close_view(guild_id: int, season: int, asked: int, tr: Translator) -> discord.ui.View:
    """Confirm or cancel closing ``season``, asked for at ``asked`` (a timestamp)."""
    label = tr("Close season {number}", number=season)
    return sent_view(
        SeasonCloseButton("sc", guild_id, season, asked, label),
        SeasonCloseButton("sx", guild_id, season, asked, tr("Cancel")),
    )


def season_board_view(page: BoardPage, season: int, tr: Translator) -> discord.ui.View:
    make = partial(SeasonBoardButton, page.guild_id, season, page.game, page.order)
    return paged(sent_view(), page.page, page.pages, make, tr("◀ Previous"), tr("Next ▶"))


class SeasonCommands(commands.Cog):
    """The season commands, a base of the ``/domino`` GroupCog (``cog.Domino``)."""

    bot: DominoBot

    season = app_commands.Group(
        name="season", description=locale_str("Leaderboard seasons: close, list, settings, show")
    )

    # -- /domino season close --------------------------------------------------------------

    @season.command(
        name="close",
        description=locale_str("Close the season: archive its leaderboards (Manage Server)"),
    )
    @refusing
    async def season_close(self, interaction: discord.Interaction) -> None:
        guild_id = server_of(interaction, BOARDS_IN_A_SERVER)
        self.bot.stats.seasons.check_can_manage(bool(interaction.permissions.manage_guild))
        await interaction.response.defer(ephemeral=True)
        overview = await self.bot.stats.seasons.overview(guild_id)
        tr = Translator.for_locale(interaction.locale)
        number = overview.current.number
        asked = int(self.bot.stats.seasons.clock().timestamp())
        await interaction.followup.send(
            close_question(number, overview.settings, tr),
            view=close_view(guild_id, number, asked, tr),
            ephemeral=True,
        )

    async def on_season_close_button(
        self, interaction: discord.Interaction, action: str, guild_id: int, number: int, asked: int
    ) -> None:
        server_of(interaction, BOARDS_IN_A_SERVER, expected=guild_id)
        tr = Translator.for_locale(interaction.locale)
        if action == "sx":
            await interaction.response.edit_message(content=tr("Nothing was closed."), view=None)
            return
        await interaction.response.defer()
        closed = await self.bot.stats.seasons.close(
            guild_id,
            interaction.user.id,
            can_manage=bool(interaction.permissions.manage_guild),
            number=number,
            asked_at=datetime.fromtimestamp(asked, UTC),
        )
        await interaction.edit_original_response(
            content=tr(
                "Season {number} is closed and archived; season {next} has begun.",
                number=closed.number,
                next=closed.number + 1,
            ),
            view=None,
        )
        public = await public_translator(self.bot, interaction.guild_id)
        with only_logged("season %d closed; telling the channel failed", number):
            await interaction.followup.send(
                closed_text(closed, public), allowed_mentions=discord.AllowedMentions.none()
            )

    # -- /domino season list ---------------------------------------------------------------

    @season.command(
        name="list", description=locale_str("The current season, the settings, the closed seasons")
    )
    @refusing
    async def season_list(self, interaction: discord.Interaction) -> None:
        guild_id = server_of(interaction, BOARDS_IN_A_SERVER)
        await defer_public(interaction)
        overview = await self.bot.stats.seasons.overview(guild_id)
        tr = await public_translator(self.bot, interaction.guild_id)
        await interaction.followup.send(
            embed=overview_embed(overview, tr), allowed_mentions=discord.AllowedMentions.none()
        )

    # -- /domino season settings -----------------------------------------------------------

    @season.command(
        name="settings",
        description=locale_str("Carry or reset ratings, and a schedule (Manage Server)"),
    )
    @app_commands.describe(
        ratings=locale_str("Into the next season: carry ratings over, or begin anew"),
        schedule=locale_str("Close seasons by hand, weekly or monthly (UTC)"),
    )
    @app_commands.choices(ratings=RATINGS_CHOICES, schedule=SCHEDULE_CHOICES)
    @refusing
    async def season_settings(
        self,
        interaction: discord.Interaction,
        ratings: str | None = None,
        schedule: str | None = None,
    ) -> None:
        guild_id = server_of(interaction, BOARDS_IN_A_SERVER)
        await interaction.response.defer(ephemeral=True)
        overview = await self.bot.stats.seasons.set_settings(
            guild_id,
            can_manage=bool(interaction.permissions.manage_guild),
            ratings=ratings,
            schedule=schedule,
        )
        tr = Translator.for_locale(interaction.locale)
        await interaction.followup.send(
            settings_text(overview.settings, overview.next_close, tr), ephemeral=True
        )

    # -- /domino season show ---------------------------------------------------------------

    @season.command(name="show", description=locale_str("A closed season's leaderboard"))
    @app_commands.describe(
        number=locale_str("The season's number (see /domino season list)"),
        game=locale_str("Which game (default: the season's most played)"),
        order=locale_str("Rank by rating, or (latvian) by accumulated place points"),
    )
    @app_commands.choices(game=GAME_CHOICES, order=ORDER_CHOICES)
    @refusing
    async def season_show(
        self,
        interaction: discord.Interaction,
        number: app_commands.Range[int, 1, 999_999_999],
        game: str | None = None,
        order: str = "rating",
    ) -> None:
        guild_id = server_of(interaction, BOARDS_IN_A_SERVER)
        await defer_public(interaction)
        closed, page = await self.bot.stats.seasons.board(guild_id, number, game, order)
        await (await self._season_board(interaction, closed, page)).send(interaction)

    async def on_season_board_page(
        self,
        interaction: discord.Interaction,
        guild_id: int,
        number: int,
        game: str,
        order: str,
        page: int,
    ) -> None:
        server_of(interaction, BOARDS_IN_A_SERVER, expected=guild_id)
        await interaction.response.defer()
        closed, found = await self.bot.stats.seasons.board(guild_id, number, game, order, page)
        await (await self._season_board(interaction, closed, found)).show(interaction)

    async def _season_board(
        self, interaction: discord.Interaction, closed: ClosedSeason, page: BoardPage
    ) -> Board:
        tr = await public_translator(self.bot, interaction.guild_id)
        view = season_board_view(page, closed.number, tr)
        return await draw_board(page, tr, PERIOD, interaction.user.id, view, closed)
