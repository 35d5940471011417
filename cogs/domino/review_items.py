"""The "Review" button of a finished match's table: ``domino:review:<game>`` (the service
finds the match the game ended in, and refuses a game with none)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from .items import DominoItem, button

if TYPE_CHECKING:
    from .cog import Domino


class ReviewButton(
    DominoItem[discord.ui.Button[Any]],
    template=r"domino:review:(?P<game_id>\d{1,19})",
):
    def __init__(self, game_id: int, label: str = "…") -> None:
        super().__init__(button(f"domino:review:{game_id}", label))
        self.game_id = game_id

    async def run(self, interaction: discord.Interaction, cog: Domino) -> None:
        await cog.on_review_button(interaction, self.game_id)


REVIEW_ITEMS = (ReviewButton,)
