"""The select of ``/domino rules`` asked where no game is played: which game's rules.

Its ``custom_id`` is ``domino:rules`` (nothing else to carry, so it works after a
restart); its values are game codes (:data:`bot.engine.rules.GAMES`), which come back
from the client and are checked by the cog like any input.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.engine.rules import GAMES
from bot.i18n import N_, Translator

from .items import DominoItem, select, sent_view
from .texts import game_name

if TYPE_CHECKING:
    from .cog import Domino

RULES_SELECT = "domino:rules"
PICK_A_GAME = N_("Which game's rules would you like to read?")


class RulesSelect(DominoItem[discord.ui.Select[Any]], template=r"domino:rules"):
    """Shows the chosen game's rules in place of the message it is on."""

    def __init__(
        self, options: list[discord.SelectOption] | None = None, placeholder: str | None = None
    ) -> None:
        super().__init__(select(RULES_SELECT, options or [], placeholder))

    async def run(self, interaction: discord.Interaction, cog: Domino) -> None:
        values = self.item.values
        await cog.on_rules_choice(interaction, values[0] if values else "")


def rules_picker(tr: Translator, chosen: str | None = None) -> discord.ui.View:
    """The select of the five games (``chosen`` shown as selected)."""
    options = [
        discord.SelectOption(label=game_name(game, tr), value=game, default=game == chosen)
        for game in GAMES
    ]
    return sent_view(RulesSelect(options, tr("Choose a game")))


RULES_ITEMS = (RulesSelect,)
