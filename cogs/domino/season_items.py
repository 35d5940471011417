"""The season messages' buttons (:class:`~cogs.domino.items.DominoItem`\\ s).

Each ``custom_id`` carries what the click needs, so it keeps working after a restart:

- ``domino:sc:<guild>:<season>:<asked at>`` / ``domino:sx:<guild>:<season>:<asked at>``
  confirm or cancel closing that season (the service closes only that one, once);
- ``domino:sb:<guild>:<season>:<game>:<order>:<page>`` a page of a closed season's board.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import Translator
from bot.stats import BoardPage

from .items import DominoItem, button, paged, sent_view

if TYPE_CHECKING:
    from .cog import Domino


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
