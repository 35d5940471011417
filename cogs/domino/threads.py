"""A game's own thread: opened on a message in the channel that links to it (a table
opened with threads on, a competition's table)."""

from __future__ import annotations

import contextlib
import logging

import discord

from bot.games.errors import GameError
from bot.i18n import N_

log = logging.getLogger(__name__)

NEEDS_TEXT = N_("A competition needs a text channel where I can open a thread for each table.")


async def open_thread(
    channel: discord.TextChannel,
    content: str,
    title: str,
    mentions: discord.AllowedMentions,
    refusal: str,
) -> discord.Thread:
    """A thread named ``title`` on a new message ``content`` in ``channel``. Where Discord
    refuses either, the message is deleted again and ``refusal`` (a message id, marked
    with ``N_``) is raised as a :class:`GameError`."""
    starter: discord.Message | None = None
    try:
        starter = await channel.send(content, allowed_mentions=mentions)
        return await starter.create_thread(name=title[:100], auto_archive_duration=1440)
    except discord.HTTPException:
        log.warning("could not open a thread in channel %d", channel.id, exc_info=True)
        if starter is not None:
            with contextlib.suppress(discord.HTTPException):
                await starter.delete()
        raise GameError(refusal) from None
