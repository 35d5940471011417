"""SQLite storage through aiosqlite: migrations and small repositories with typed rows.

    db = await Database.open("dominobot.db")
    game = await db.games.create(guild_id=..., channel_id=..., ..., now=now)
    game = await db.games.save(game.id, game.version, now=now, status="playing", state=doc)
    await db.close()

No SQL lives outside this package.
"""

from .database import Database
from .errors import ChannelBusyError, MigrationError, StaleGameError, StorageError
from .games import ACTIVE_STATUSES, CLEARABLE, FINAL_STATUSES, STATUSES, GameRepository, GameRow
from .guilds import GuildRepository
from .matches import FinishedMatch, MatchDeal, MatchRepository, MatchRow, MatchSeat
from .migrations import LATEST, MIGRATIONS, migrate

__all__ = [
    "ACTIVE_STATUSES",
    "CLEARABLE",
    "FINAL_STATUSES",
    "LATEST",
    "MIGRATIONS",
    "STATUSES",
    "ChannelBusyError",
    "Database",
    "FinishedMatch",
    "GameRepository",
    "GameRow",
    "GuildRepository",
    "MatchDeal",
    "MatchRepository",
    "MatchRow",
    "MatchSeat",
    "MigrationError",
    "StaleGameError",
    "StorageError",
    "migrate",
]
