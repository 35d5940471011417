"""Buttons and selects that survive restarts: each ``custom_id`` carries the game id.

Every one is a :class:`DominoItem`: its callback asks the cog to act, and a refusal
or a failure becomes a polite ephemeral reply (:func:`~cogs.domino.replies.reply_error`).

``domino:<action>:<game>`` for the table's buttons, and for a hand's moves
``domino:m:<game>:<turn token>:<move index>`` (a button) or
``domino:s:<game>:<turn token>:<page>`` (a select whose values are move indexes).
The service refuses a turn token that is out of date. ``domino:end:<game>:<user>``
confirms ``/domino end`` of a match in progress (only for the user who asked);
``domino:quit:<game>:<user>`` and ``domino:stay:<game>:<user>`` answer the last human's
``/domino leave`` of a match (leaving ends it), likewise only for the user who asked.
``domino:rematch:<game>`` accepts a rematch of the finished game (the service checks
who may, and whether the offer still stands); ``domino:review:<game>`` reviews it (the
service finds the match the game ended in, and refuses a game with none).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

import discord

from .carriers import carrying
from .replies import reply_error

if TYPE_CHECKING:
    from bot.client import DominoBot

    from .cog import Domino

ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any], covariant=True)

NO_MATCH = r"(?!)"
"""The base class's own template: it is never registered, and matches nothing."""


class DominoItem(discord.ui.DynamicItem[ItemT], template=NO_MATCH):
    """A button or select of ours. A subclass names its ``template``'s groups as its
    constructor's parameters (``from_custom_id`` builds it from a click) and acts in
    :meth:`run`; refusals and failures are answered here."""

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """The item a clicked ``custom_id`` names: ``cls`` called with the template's groups
        by name (a group of digits as a number), a select with its options."""
        fields: dict[str, Any] = {
            name: int(value) if value.isdigit() else value
            for name, value in match.groupdict().items()
        }
        if isinstance(item, discord.ui.Select):
            fields["options"] = item.options
        return cls(**fields)

    async def callback(self, interaction: discord.Interaction) -> None:
        async with carrying(interaction):
            try:
                cog = cast("DominoBot", interaction.client).get_cog("Domino")
                assert cog is not None
                await self.run(interaction, cast("Domino", cog))
            except Exception as error:
                await reply_error(interaction, error)

    async def run(self, interaction: discord.Interaction, cog: Domino) -> None:
        raise NotImplementedError


def button(
    custom_id: str,
    label: str = "…",
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    disabled: bool = False,
) -> discord.ui.Button[Any]:
    return discord.ui.Button(label=label[:80], style=style, disabled=disabled, custom_id=custom_id)


def select(
    custom_id: str, options: Sequence[discord.SelectOption], placeholder: str | None
) -> discord.ui.Select[Any]:
    """A select of numbered choices (a placeholder option when rebuilt from a click)."""
    return discord.ui.Select(
        custom_id=custom_id,
        options=list(options) or [discord.SelectOption(label="…", value="0")],
        placeholder=placeholder,
    )


def chosen_number(item: discord.ui.Select[Any], digits: int) -> int | None:
    """The chosen value as a number of at most ``digits`` digits (None for anything else:
    values come back from the client and are checked like any input)."""
    values = item.values
    text = values[0] if values else ""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= digits else None


def sent_view(*items: discord.ui.Item[Any]) -> discord.ui.View:
    """A view of ``items`` to send, never to keep (stopped before it is sent).

    Our buttons and selects are dynamic items, found by ``custom_id`` (also after a
    restart), so discord.py need not store the view: a stored view costs time on
    every later interaction, and a stopped one is sent without being stored.
    """
    view = discord.ui.View(timeout=None)
    view.stop()
    for item in items:
        view.add_item(item)
    return view


def paged(
    view: discord.ui.View,
    page: int,
    pages: int,
    make: Callable[[int, str, bool], discord.ui.Item[Any]],
    back: str,
    forward: str,
) -> discord.ui.View:
    """``view`` with the back / forward pair of a paged message: ``make(page, label,
    disabled)`` is one of its buttons; back is off on the first page, forward on the last."""
    first, last = page == 0, page >= pages - 1
    view.add_item(make(max(page - 1, 0), back, first))
    view.add_item(make(page + 1, forward, last))
    return view


class TableButton(
    DominoItem[discord.ui.Button[Any]],
    template=r"domino:(?P<action>join|leave|addbot|start|hand):(?P<game_id>\d{1,19})",
):
    def __init__(
        self,
        game_id: int,
        action: str,
        label: str = "…",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
    ) -> None:
        super().__init__(button(f"domino:{action}:{game_id}", label, style, disabled))
        self.game_id = game_id
        self.action = action

    async def run(self, interaction: discord.Interaction, cog: Domino) -> None:
        await cog.on_table_button(interaction, self.action, self.game_id)


class MoveButton(
    DominoItem[discord.ui.Button[Any]],
    template=r"domino:m:(?P<game_id>\d{1,19}):(?P<token>\d{1,4}\.\d{1,4}):(?P<index>\d{1,4})",
):
    def __init__(self, game_id: int, token: str, index: int, label: str = "…") -> None:
        custom_id = f"domino:m:{game_id}:{token}:{index}"
        super().__init__(button(custom_id, label, discord.ButtonStyle.primary))
        self.game_id = game_id
        self.token = token
        self.index = index

    async def run(self, interaction: discord.Interaction, cog: Domino) -> None:
        await cog.on_move(interaction, self.game_id, self.token, self.index)


class MoveSelect(
    DominoItem[discord.ui.Select[Any]],
    template=r"domino:s:(?P<game_id>\d{1,19}):(?P<token>\d{1,4}\.\d{1,4}):(?P<page>\d{1,2})",
):
    def __init__(
        self,
        game_id: int,
        token: str,
        page: int,
        options: Sequence[discord.SelectOption] = (),
        placeholder: str | None = None,
    ) -> None:
        super().__init__(select(f"domino:s:{game_id}:{token}:{page}", options, placeholder))
        self.game_id = game_id
        self.token = token

    async def run(self, interaction: discord.Interaction, cog: Domino) -> None:
        index = chosen_number(self.item, 4)
        await cog.on_move(interaction, self.game_id, self.token, -1 if index is None else index)


class EndButton(
    DominoItem[discord.ui.Button[Any]],
    template=r"domino:end:(?P<game_id>\d{1,19}):(?P<user_id>\d{1,20})",
):
    """The "End the game" button: confirms ``/domino end`` of a match in progress."""

    def __init__(self, game_id: int, user_id: int, label: str = "…") -> None:
        custom_id = f"domino:end:{game_id}:{user_id}"
        super().__init__(button(custom_id, label, discord.ButtonStyle.danger))
        self.game_id = game_id
        self.user_id = user_id

    async def run(self, interaction: discord.Interaction, cog: Domino) -> None:
        await cog.on_end_button(interaction, self.game_id, self.user_id)


class LeaveChoice(
    DominoItem[discord.ui.Button[Any]],
    template=r"domino:(?P<choice>quit|stay):(?P<game_id>\d{1,19}):(?P<user_id>\d{1,20})",
):
    """The answer of the last human at a match to "leaving ends the game": leave and end
    it (``quit``), or keep playing (``stay``); only for the user who asked."""

    def __init__(self, game_id: int, user_id: int, quit: bool, label: str = "…") -> None:
        choice = "quit" if quit else "stay"
        style = discord.ButtonStyle.danger if quit else discord.ButtonStyle.secondary
        super().__init__(button(f"domino:{choice}:{game_id}:{user_id}", label, style))
        self.game_id = game_id
        self.user_id = user_id
        self.quit = quit

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["game_id"]), int(match["user_id"]), match["choice"] == "quit")

    async def run(self, interaction: discord.Interaction, cog: Domino) -> None:
        await cog.on_leave_choice(interaction, self.game_id, self.user_id, quit=self.quit)


class RematchButton(
    DominoItem[discord.ui.Button[Any]],
    template=r"domino:rematch:(?P<game_id>\d{1,19})",
):
    """The "Rematch" button of a finished match's table."""

    def __init__(self, game_id: int, label: str = "…") -> None:
        super().__init__(button(f"domino:rematch:{game_id}", label, discord.ButtonStyle.success))
        self.game_id = game_id

    async def run(self, interaction: discord.Interaction, cog: Domino) -> None:
        await cog.on_rematch(interaction, self.game_id)


class ReviewButton(
    DominoItem[discord.ui.Button[Any]],
    template=r"domino:review:(?P<game_id>\d{1,19})",
):
    """The "Review" button of a finished match's table."""

    def __init__(self, game_id: int, label: str = "…") -> None:
        super().__init__(button(f"domino:review:{game_id}", label))
        self.game_id = game_id

    async def run(self, interaction: discord.Interaction, cog: Domino) -> None:
        await cog.on_review_button(interaction, self.game_id)


DYNAMIC_ITEMS = (
    TableButton,
    MoveButton,
    MoveSelect,
    EndButton,
    LeaveChoice,
    RematchButton,
    ReviewButton,
)
