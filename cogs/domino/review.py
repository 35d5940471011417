"""``/domino review [match] [deal]`` and the finished table's Review button: thin glue.

The reply is private to the asker (an ephemeral answer of their own interaction): a
review is public information of a finished match, but it is written for the one who
asked, and a private reply fills no channel and costs no counted call. It is
acknowledged at once, says "Reviewing…" while the AI pool works (a few seconds; a stored
review comes back at once), then shows the picture (``render.review``) and a few lines.

The match is named by its number (``/domino history``) in an option called ``match``,
not ``game``: every ``game`` option of ``/domino`` offers the kinds of game
(tests/i18n/test_game_choices.py).
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.i18n import N_, Translator
from render.review import render_review

from .origin import server_of
from .replies import PLACEHOLDER, placeholder, refusing
from .review_texts import REVIEW_FILE, review_card, review_lines, review_title

if TYPE_CHECKING:
    from bot.client import DominoBot

log = logging.getLogger(__name__)

REVIEWS_IN_A_SERVER = N_("Reviews are of matches played in a server: ask in a server channel.")


class ReviewCommands(commands.Cog):
    """The review command, a base of the ``/domino`` GroupCog (``cog.Domino``)."""

    bot: DominoBot

    @app_commands.command(
        name="review",
        description=locale_str("Review a finished deal: each player's accuracy and mistakes"),
    )
    @app_commands.describe(
        match=locale_str("The match's number, as /domino history shows it (default: your last)"),
        deal=locale_str("Which deal of the match (default: the last)"),
    )
    @refusing
    async def review(
        self,
        interaction: discord.Interaction,
        match: app_commands.Range[int, 1, 10**15] | None = None,
        deal: app_commands.Range[int, 1, 10_000] | None = None,
    ) -> None:
        guild_id = server_of(interaction, REVIEWS_IN_A_SERVER)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self._answer(interaction, guild_id, match, deal)

    async def on_review_button(self, interaction: discord.Interaction, game_id: int) -> None:
        """The Review button of a finished match's table, clicked."""
        guild_id = server_of(interaction, REVIEWS_IN_A_SERVER)
        await interaction.response.defer(ephemeral=True, thinking=True)
        match_id = await self.bot.reviews.match_of_game(guild_id, game_id)
        await self._answer(interaction, guild_id, match_id, None)

    async def _answer(
        self,
        interaction: discord.Interaction,
        guild_id: int,
        match_id: int | None,
        deal: int | None,
    ) -> None:
        tr = Translator.for_locale(interaction.locale)
        await placeholder(interaction, tr("Reviewing… this takes a few seconds."))
        shown = await self.bot.reviews.review(guild_id, interaction.user.id, match_id, deal)
        text = review_lines(shown, tr)
        try:
            png: bytes | None = await asyncio.to_thread(render_review, review_card(shown, tr))
        except Exception:
            log.exception("drawing a review failed; sending its text")
            png = None
        interaction.extras.pop(PLACEHOLDER, None)
        if png is None:
            await interaction.edit_original_response(content=text)
            return
        file = discord.File(
            io.BytesIO(png), filename=REVIEW_FILE, description=review_title(shown, tr)[:1000]
        )
        await interaction.edit_original_response(content=text, attachments=[file])
