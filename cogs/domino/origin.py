"""Who an interaction comes from and where: the name a user is seated and shown under,
and the server it was sent in (refused politely in a direct message)."""

from __future__ import annotations

import discord

from bot.games.errors import GameError
from bot.i18n import N_

PLAYED_IN_A_SERVER = N_("Dominoes are played in a server channel.")
BOARDS_IN_A_SERVER = N_("Leaderboards belong to a server: ask in a server channel.")


def display_name(user: discord.abc.User) -> str:
    """The user's name in the server (their nickname), else their account's."""
    return getattr(user, "display_name", None) or user.name


def server_of(
    interaction: discord.Interaction,
    outside: str = PLAYED_IN_A_SERVER,
    *,
    expected: int | None = None,
) -> int:
    """The id of the server the interaction was sent in: refused with ``outside`` (a
    translatable message) outside any server, and when a button of server ``expected``
    was clicked in another."""
    guild_id = interaction.guild_id
    if guild_id is None:
        raise GameError(outside)
    if expected is not None and expected != guild_id:
        raise GameError(N_("This message belongs to another server."))
    return guild_id
