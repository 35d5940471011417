"""User-provided text in public messages: shown as typed, never as markup or a ping."""

from __future__ import annotations

from functools import lru_cache

import discord


@lru_cache(maxsize=4096)
def plain(text: str) -> str:
    """``text`` with Discord markdown and mentions escaped (``**x**`` stays ``**x**``).

    Cached: the same few names are escaped for every table, narration and hand.
    """
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))
