"""Settings from the environment (or ``.env``), as one frozen value."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
# A bot token is three base64url parts: the bot's id, a timestamp and an HMAC.
TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}$")


class SettingsError(Exception):
    """A setting is missing or malformed; the message is one line for the operator."""


@dataclass(frozen=True, slots=True)
class Settings:
    token: str
    database_path: Path
    dev_guild_id: int | None
    log_level: str
    log_payloads: bool = False
    """``LOG_PAYLOADS=1``: let discord.py log whole payloads at DEBUG (they hold hands)."""

    def __repr__(self) -> str:  # never print the token
        return (
            f"Settings(database_path={self.database_path!s}, "
            f"dev_guild_id={self.dev_guild_id}, log_level={self.log_level}, "
            f"log_payloads={self.log_payloads})"
        )

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        token = env.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise SettingsError(
                "DISCORD_TOKEN is not set: copy .env.example to .env and put the bot token there"
            )
        if not TOKEN_SHAPE.match(token):
            raise SettingsError(
                "DISCORD_TOKEN does not look like a bot token (three dot-separated parts); "
                "copy it again from the Discord developer portal"
            )
        guild = env.get("DEV_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise SettingsError(f"DEV_GUILD_ID must be a server id (digits), not {guild!r}")
        level = env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in LOG_LEVELS:
            raise SettingsError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}")
        payloads = env.get("LOG_PAYLOADS", "").strip().lower()
        if payloads not in ("", "0", "1", "true", "false", "yes", "no"):
            raise SettingsError(f"LOG_PAYLOADS must be 1 or 0, not {payloads!r}")
        path = env.get("DATABASE_PATH", "").strip() or "dominobot.sqlite3"
        return cls(
            token=token,
            database_path=Path(path),
            dev_guild_id=int(guild) if guild else None,
            log_level=level,
            log_payloads=payloads in ("1", "true", "yes"),
        )
