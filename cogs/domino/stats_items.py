"""The stats messages' buttons and selects (:class:`~cogs.domino.items.DominoItem`\\ s).

Each ``custom_id`` carries what the click needs, so it keeps working after a restart:

- ``domino:lb:<guild>:<game>:<period>:<order>:<page>`` a leaderboard page,
- ``domino:hp:<guild>:<page>`` a history page, ``domino:hx:<guild>:<page>`` its
  export select (values are match ids),
- ``domino:rs:<guild>:<asked at>`` / ``domino:rc:<guild>:<asked at>`` confirm or
  cancel a leaderboard reset.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import Translator
from bot.stats import BoardPage, HistoryPage

from .items import DominoItem, button, chosen_number, paged, select, sent_view
from .stats_texts import winners_text
from .texts import game_name

if TYPE_CHECKING:
    from .cog import Domino


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
