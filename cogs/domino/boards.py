"""A leaderboard page as a message, the live board's (``stats.py``) and a closed
season's (``seasons.py``) alike: the picture (drawn by ``render.cards`` off the event
loop, sent as an attachment) with its buttons, the page as text where the picture
cannot be drawn or attached.
"""

from __future__ import annotations

import asyncio
import io
import logging
from dataclasses import dataclass

import discord

from bot.i18n import Translator
from bot.stats import BoardPage, ClosedSeason
from render.cards import render_leaderboard

from .stats_texts import board_alt, board_card, board_embed

log = logging.getLogger(__name__)

BOARD_FILE = "leaderboard.png"


@dataclass(frozen=True, slots=True)
class Board:
    """A leaderboard page in its two forms: the picture (None if it could not be drawn)
    and the text that stands in for it."""

    png: bytes | None
    alt: str
    text: discord.Embed
    view: discord.ui.View
    what: str
    """What the page is, for the log: "the leaderboard", "the season's board"."""

    def file(self) -> discord.File:
        assert self.png is not None
        return discord.File(io.BytesIO(self.png), filename=BOARD_FILE, description=self.alt)

    async def send(self, interaction: discord.Interaction) -> None:
        """Sent as the answer to a command (already deferred)."""
        if self.png is not None:
            try:
                await interaction.followup.send(file=self.file(), view=self.view)
                return
            except discord.HTTPException as error:
                log.warning("attaching %s failed (%s); sending it as text", self.what, error)
        await interaction.followup.send(embed=self.text, view=self.view)

    async def show(self, interaction: discord.Interaction) -> None:
        """Shown in place of the page a button was clicked on (already deferred)."""
        if self.png is not None:
            try:
                await interaction.edit_original_response(
                    embed=None, attachments=[self.file()], view=self.view
                )
                return
            except discord.HTTPException as error:
                log.warning("attaching %s failed (%s); showing it as text", self.what, error)
        await interaction.edit_original_response(embed=self.text, attachments=[], view=self.view)


async def draw_board(
    page: BoardPage,
    tr: Translator,
    period: str,
    user_id: int,
    view: discord.ui.View,
    closed: ClosedSeason | None = None,
) -> Board:
    """The page (of ``closed``, else the live board) as a picture and as text, the
    lines of ``user_id`` outlined."""
    what = "the leaderboard" if closed is None else "the season's board"
    card = board_card(page, tr, period, user_id, closed)
    try:
        png: bytes | None = await asyncio.to_thread(render_leaderboard, card)
    except Exception:
        log.exception("drawing %s failed; sending it as text", what)
        png = None
    return Board(
        png, board_alt(page, tr, period, closed), board_embed(page, tr, period, closed), view, what
    )
