"""Per-guild settings: the ``guild_settings`` table behind :class:`GuildRepository`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .codec import from_row
from .sql import upsert

if TYPE_CHECKING:
    from .database import Database


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """Every setting of one guild, read at once (a guild without settings has the defaults)."""

    default_timer: int | None = None
    """The default turn timer in seconds, or None if not set."""
    language: str | None = None
    """The language code, or None if not set."""
    threads: bool = False
    """Whether each game is played in its own thread."""
    referee_role: int | None = None
    """The role whose members may referee competitions (besides server managers)."""


class GuildRepository:
    """A guild's default turn timer, language, threads and referee role; None means "not set"."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def settings(self, guild_id: int) -> GuildSettings:
        """All of the guild's settings in one query (to cache them together)."""
        row = await self._db.fetchone(
            "SELECT default_timer, language, threads, referee_role_id AS referee_role"
            " FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        return GuildSettings() if row is None else from_row(GuildSettings, row)

    async def default_timer(self, guild_id: int) -> int | None:
        """The guild's default turn timer in seconds, or None if not set."""
        return (await self.settings(guild_id)).default_timer

    async def set_default_timer(self, guild_id: int, seconds: int | None) -> None:
        """Set (or with None, unset) the guild's default turn timer."""
        if seconds is not None and seconds < 0:
            raise ValueError(f"a timer cannot be negative: {seconds}")
        await self._set(guild_id, "default_timer", seconds)

    async def language(self, guild_id: int) -> str | None:
        """The guild's language code, or None if not set."""
        return (await self.settings(guild_id)).language

    async def set_language(self, guild_id: int, language: str | None) -> None:
        """Set (or with None, unset) the guild's language."""
        await self._set(guild_id, "language", language)

    async def threads(self, guild_id: int) -> bool:
        """Whether the guild plays each game in its own thread (off unless set)."""
        return (await self.settings(guild_id)).threads

    async def set_threads(self, guild_id: int, on: bool) -> None:
        """Turn playing each game in its own thread on or off."""
        await self._set(guild_id, "threads", int(on))

    async def set_referee_role(self, guild_id: int, role_id: int | None) -> None:
        """Set (or with None, unset) the role whose members may referee competitions."""
        await self._set(guild_id, "referee_role_id", role_id)

    async def _set(self, guild_id: int, column: str, value: Any) -> None:
        # column is one of this module's literals, never caller input.
        async with self._db.transaction() as conn:
            await conn.execute(upsert("guild_settings", f"guild_id, {column}"), (guild_id, value))
