"""``/domino about``: which version, shard and process answered, for operators.

Ephemeral, in the asker's language. It says the bot's version and this server's shard
(Discord's ``(server id >> 22) % shard count``) to anyone; to the server's managers
(Manage Server) also the process (host and pid), the storage backend by name only
(never a path, a URL or a password) and how many games this process holds in play:
a host name and a pid tell an attacker about the machine, and are for operators.
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass
from importlib import metadata
from typing import TYPE_CHECKING

from bot.i18n import N_, Translator

if TYPE_CHECKING:
    from bot.client import DominoBot

BACKENDS = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}
"""Storage dialects by their product names (not translated)."""

TITLE = N_("Dominobot {version}")
SHARDED = N_("This server is on shard {shard} of {count} (numbered from 0).")
UNSHARDED = N_("The bot runs as one process, without shards.")
PROCESS = N_("Answered by process {pid} on host {host}.")
STORAGE = N_("Storage: {backend}.")


@dataclass(frozen=True, slots=True)
class About:
    version: str
    shard: int
    shard_count: int
    sharded: bool
    host: str
    pid: int
    backend: str
    games: int


def version() -> str:
    try:
        return metadata.version("dominobot")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "(not installed)"


def about(bot: DominoBot, guild_id: int | None) -> About:
    """The facts, read from this process (nothing from the database)."""
    shard, count = bot.shard_for(guild_id)
    dialect = bot.db.dialect.name
    return About(
        version=version(),
        shard=shard,
        shard_count=count,
        sharded=bot.shards_served is not None,
        host=socket.gethostname(),
        pid=os.getpid(),
        backend=BACKENDS.get(dialect, dialect),
        games=bot.games.in_play(),
    )


def about_text(facts: About, tr: Translator, *, manager: bool) -> str:
    """The answer: one line each; the process, the storage and the games only for a
    ``manager`` (Manage Server)."""
    lines = [
        f"**{tr(TITLE, version=facts.version)}**",
        tr(SHARDED if facts.sharded else UNSHARDED, shard=facts.shard, count=facts.shard_count),
    ]
    if not manager:
        return "\n".join(lines)
    lines.append(tr(PROCESS, pid=facts.pid, host=facts.host))
    lines.append(tr(STORAGE, backend=facts.backend))
    lines.append(
        tr.plural(
            "This process has {n} game in play.", "This process has {n} games in play.", facts.games
        )
    )
    return "\n".join(lines)
