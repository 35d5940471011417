"""Who an interaction comes from and where: the name a user is seated and shown under,
the server it was sent in (refused politely in a direct message), and the language of
that server's public messages."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.games.errors import GameError
from bot.i18n import N_, Translator

if TYPE_CHECKING:
    from bot.client import DominoBot

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


async def public_translator(bot: DominoBot, guild_id: int | None) -> Translator:
    """The language of public messages (tables, turns, summaries, leaderboards), one rule
    everywhere: the server's chosen language (``/domino settings language``), else the
    server's Discord locale, else English. Ephemeral replies use the clicking user's own
    locale instead (``Translator.for_locale``)."""
    if guild_id is None:
        return Translator()
    settings = await bot.games.settings.get(guild_id)
    if settings.language:
        return Translator(settings.language)
    guild = bot.get_guild(guild_id)
    return Translator.for_locale(guild.preferred_locale if guild else None)
