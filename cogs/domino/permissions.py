"""What the bot needs in a channel to run a game there, checked before opening one.

Discord tells every interaction what the bot may do in its channel
(``interaction.app_permissions``); a game opened where the bot cannot post would
take the channel and never show its table.
"""

from __future__ import annotations

import discord

from bot.i18n import N_, Translator

NAMES = {
    "view_channel": N_("View Channel"),
    "send_messages": N_("Send Messages"),
    "send_messages_in_threads": N_("Send Messages in Threads"),
    "create_public_threads": N_("Create Public Threads"),
    "embed_links": N_("Embed Links"),
    "attach_files": N_("Attach Files"),
}


def needed(*, in_thread: bool, new_thread: bool) -> tuple[str, ...]:
    """The permissions a game needs: in a thread, or opening one for the game."""
    base = ("view_channel", "embed_links", "attach_files")
    if in_thread:
        return (*base, "send_messages_in_threads")
    if new_thread:
        return (*base, "send_messages", "create_public_threads", "send_messages_in_threads")
    return (*base, "send_messages")


def missing(permissions: discord.Permissions, tr: Translator, needs: tuple[str, ...]) -> list[str]:
    """The names (translated) of the permissions in ``needs`` that ``permissions`` lack."""
    return [tr(NAMES[name]) for name in needs if not getattr(permissions, name)]
