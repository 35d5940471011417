"""User-provided text in public messages: shown as typed, never as markup or a ping."""

from __future__ import annotations

import discord


def plain(text: str) -> str:
    """``text`` with Discord markdown and mentions escaped (``**x**`` stays ``**x**``)."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))
