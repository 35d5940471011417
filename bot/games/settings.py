"""Server settings: the default turn timer, the language of public messages, threads,
the role that may referee competitions.

Read once per server and kept in memory (every table update asks for the
language); a change is written to the database first, then to the cache.
"""

from __future__ import annotations

from bot.i18n import LANGUAGES, N_
from bot.storage import Database, GuildSettings

from .errors import GameError

TIMER_RANGE = (10, 3600)
"""A turn timer is 0 (off) or this many seconds."""


def check_timer(seconds: int) -> int:
    """``seconds`` if it is a valid turn timer, else the polite refusal."""
    if seconds == 0 or TIMER_RANGE[0] <= seconds <= TIMER_RANGE[1]:
        return seconds
    raise GameError(
        N_("The timer is 0 (off) or {low} to {high} seconds."),
        low=TIMER_RANGE[0],
        high=TIMER_RANGE[1],
    )


class SettingsService:
    """Each server's settings, cached; changes need Manage Server."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._cache: dict[int, GuildSettings] = {}

    async def get(self, guild_id: int) -> GuildSettings:
        cached = self._cache.get(guild_id)
        if cached is None:
            cached = self._cache[guild_id] = await self._db.guilds.settings(guild_id)
        return cached

    async def set_timer(self, guild_id: int, seconds: int, *, can_manage: bool) -> None:
        _require_manager(can_manage)
        check_timer(seconds)
        await self._db.guilds.set_default_timer(guild_id, seconds or None)
        self._cache.pop(guild_id, None)

    async def set_language(self, guild_id: int, language: str | None, *, can_manage: bool) -> None:
        """``language`` None follows the server's Discord language."""
        _require_manager(can_manage)
        if language is not None and language not in LANGUAGES:
            raise GameError(N_("That language is not available."))
        await self._db.guilds.set_language(guild_id, language)
        self._cache.pop(guild_id, None)

    async def set_referee_role(
        self, guild_id: int, role_id: int | None, *, can_manage: bool
    ) -> None:
        """The role whose members may referee competitions (None: server managers only)."""
        _require_manager(can_manage)
        await self._db.guilds.set_referee_role(guild_id, role_id)
        self._cache.pop(guild_id, None)

    async def set_threads(self, guild_id: int, on: bool, *, can_manage: bool) -> None:
        _require_manager(can_manage)
        await self._db.guilds.set_threads(guild_id, on)
        self._cache.pop(guild_id, None)


def _require_manager(can_manage: bool) -> None:
    if not can_manage:
        raise GameError(N_("Only someone with Manage Server can change the settings."))
