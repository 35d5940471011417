"""Every refusal and failure becomes a polite ephemeral reply; nothing is lost."""

from __future__ import annotations

import logging

import discord

from bot.games.errors import GameError
from bot.i18n import Translator

log = logging.getLogger(__name__)


async def reply_error(interaction: discord.Interaction, error: BaseException) -> None:
    original = getattr(error, "original", error)
    tr = Translator.for_locale(interaction.locale)
    if isinstance(original, GameError):
        text = original.text(tr)
    else:
        log.error("an interaction failed", exc_info=original)
        text = tr("Something went wrong on our side. The game is safe; please try again.")
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell the user about an error")
