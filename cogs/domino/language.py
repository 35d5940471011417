"""The language of public messages (tables, turns, summaries, leaderboards).

One rule everywhere: the server's chosen language (``/domino settings
language``), else the server's Discord locale, else English. Ephemeral replies
use the clicking user's own locale instead (``Translator.for_locale``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.i18n import Translator

if TYPE_CHECKING:
    from bot.client import DominoBot


async def public_translator(bot: DominoBot, guild_id: int | None) -> Translator:
    if guild_id is None:
        return Translator()
    settings = await bot.games.settings.get(guild_id)
    if settings.language:
        return Translator(settings.language)
    guild = bot.get_guild(guild_id)
    return Translator.for_locale(guild.preferred_locale if guild else None)
