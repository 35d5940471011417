"""The real game repository with saves that fail on demand, as a database outage makes
them fail (the service's tests and the SimCord ones)."""

from __future__ import annotations

from typing import Any

from bot.storage import Database, DatabaseUnavailableError, GameRepository, GameRow


class FlakyGames(GameRepository):
    """The real game repository, whose next saves fail as a database outage makes them
    fail: :meth:`fail` makes the next saves raise before they write, :meth:`lose` makes
    them write and then raise (the commit landed, its answer was lost). Put in place of
    the real one with ``db.games = FlakyGames(db)``."""

    def __init__(self, db: Database) -> None:
        super().__init__(db)
        self.failing = 0
        self.losing = 0
        self.failed = 0
        """Saves that raised so far."""

    def fail(self, saves: int) -> None:
        self.failing = saves

    def lose(self, saves: int) -> None:
        self.losing = saves

    async def update(self, game_id: int, expected_version: int, **kw: Any) -> int:
        self._before()
        version = await super().update(game_id, expected_version, **kw)
        self._after()
        return version

    async def finish(self, game_id: int, expected_version: int, **kw: Any) -> GameRow:
        self._before()
        row = await super().finish(game_id, expected_version, **kw)
        self._after()
        return row

    def _before(self) -> None:
        if self.failing:
            self.failing -= 1
            self.failed += 1
            raise DatabaseUnavailableError("the test's database is down", sent=False)

    def _after(self) -> None:
        if self.losing:
            self.losing -= 1
            self.failed += 1
            raise DatabaseUnavailableError("the test's database dropped the connection")
