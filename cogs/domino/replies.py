"""Every refusal and failure becomes a polite ephemeral reply; nothing is lost."""

from __future__ import annotations

import logging

import discord

from bot.games.errors import GameError
from bot.i18n import Translator

from .markup import plain

log = logging.getLogger(__name__)

MESSAGE_LIMIT = 2000
"""Discord's limit on a message's text."""


PUBLIC_DEFER = "dominobot.public_defer"


async def defer_public(interaction: discord.Interaction) -> None:
    """Acknowledge a command whose answer is public ("thinking…" for everyone).

    A refusal must still be private: :func:`reply_error` then removes the public
    "thinking…" message and answers the user alone.
    """
    interaction.extras[PUBLIC_DEFER] = True
    await interaction.response.defer(thinking=True)


async def reply_error(interaction: discord.Interaction, error: BaseException) -> None:
    original = getattr(error, "original", error)
    tr = Translator.for_locale(interaction.locale)
    if isinstance(original, GameError):
        # fields may hold what users typed or named themselves: shown as typed
        fields = {k: plain(v) if isinstance(v, str) else v for k, v in original.fields.items()}
        text = GameError(original.message, **fields).text(tr)
    else:
        log.error("an interaction failed", exc_info=original)
        text = tr("Something went wrong on our side. The game is safe; please try again.")
    text = text[:MESSAGE_LIMIT]
    try:
        if interaction.response.is_done():
            if interaction.extras.pop(PUBLIC_DEFER, False):
                # Complete the public "thinking…" (followups edit it until then), answer
                # privately, then remove the public placeholder.
                await interaction.edit_original_response(content="…")
                await interaction.followup.send(text, ephemeral=True)
                await interaction.delete_original_response()
                return
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell the user about an error")
