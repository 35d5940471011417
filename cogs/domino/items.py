"""Buttons and selects that survive restarts: each ``custom_id`` carries the game id.

``domino:<action>:<game>`` for the table's buttons, and for a hand's moves
``domino:m:<game>:<turn token>:<move index>`` (a button) or
``domino:s:<game>:<turn token>:<page>`` (a select whose values are move indexes).
The turn token refuses clicks on a hand that is out of date.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Protocol

import discord

from .replies import reply_error

if TYPE_CHECKING:
    from collections.abc import Sequence


class Handler(Protocol):
    async def on_table_button(
        self, interaction: discord.Interaction, action: str, game_id: int
    ) -> None: ...

    async def on_move(
        self, interaction: discord.Interaction, game_id: int, token: str, index: int
    ) -> None: ...


def sent_view() -> discord.ui.View:
    """A view to send, never to keep (stopped before it is sent).

    Our buttons and selects are dynamic items, found by ``custom_id`` (also after a
    restart), so discord.py need not store the view: a stored view costs time on
    every later interaction, and a stopped one is sent without being stored.
    """
    view = discord.ui.View(timeout=None)
    view.stop()
    return view


def _handler(interaction: discord.Interaction) -> Handler:
    cog = interaction.client.get_cog("Domino")  # type: ignore[attr-defined]
    assert cog is not None
    return cog  # type: ignore[no-any-return]


class TableButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"domino:(?P<action>join|leave|addbot|start|hand):(?P<game>\d{1,19})",
):
    def __init__(
        self,
        game_id: int,
        action: str,
        label: str = "…",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                disabled=disabled,
                custom_id=f"domino:{action}:{game_id}",
            )
        )
        self.game_id = game_id
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TableButton:
        return cls(int(match["game"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await _handler(interaction).on_table_button(interaction, self.action, self.game_id)
        except Exception as error:
            await reply_error(interaction, error)


class MoveButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"domino:m:(?P<game>\d{1,19}):(?P<token>\d{1,4}\.\d{1,4}):(?P<index>\d{1,4})",
):
    def __init__(self, game_id: int, token: str, index: int, label: str = "…") -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=discord.ButtonStyle.primary,
                custom_id=f"domino:m:{game_id}:{token}:{index}",
            )
        )
        self.game_id = game_id
        self.token = token
        self.index = index

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> MoveButton:
        return cls(int(match["game"]), match["token"], int(match["index"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await _handler(interaction).on_move(interaction, self.game_id, self.token, self.index)
        except Exception as error:
            await reply_error(interaction, error)


class MoveSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"domino:s:(?P<game>\d{1,19}):(?P<token>\d{1,4}\.\d{1,4}):(?P<page>\d{1,2})",
):
    def __init__(
        self,
        game_id: int,
        token: str,
        page: int,
        options: Sequence[discord.SelectOption] = (),
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"domino:s:{game_id}:{token}:{page}",
                options=list(options) or [discord.SelectOption(label="…", value="0")],
                placeholder=placeholder,
            )
        )
        self.game_id = game_id
        self.token = token

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> MoveSelect:
        options = item.options if isinstance(item, discord.ui.Select) else []
        return cls(int(match["game"]), match["token"], int(match["page"]), options)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = self.item.values
        try:
            index = int(values[0]) if values and values[0].isdigit() and len(values[0]) < 5 else -1
            await _handler(interaction).on_move(interaction, self.game_id, self.token, index)
        except Exception as error:
            await reply_error(interaction, error)


DYNAMIC_ITEMS = (TableButton, MoveButton, MoveSelect)
