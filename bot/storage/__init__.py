"""SQLite storage through aiosqlite: migrations and small repositories with typed rows.

    db = await Database.open("dominobot.db")
    game = await db.games.create(guild_id=..., channel_id=..., ..., now=now)
    game = await db.games.save(game.id, game.version, now=now, status="playing", state=doc)
    await db.close()

No SQL lives outside this package.
"""

from .database import Database
from .errors import ChannelBusyError, MigrationError, StaleGameError, StorageError
from .games import (
    ACTIVE_STATUSES,
    CLEARABLE,
    FINAL_STATUSES,
    STATUSES,
    Announced,
    GameRepository,
    GameRow,
    Status,
)
from .guilds import GuildRepository, GuildSettings
from .matches import (
    FinishedMatch,
    HistoryPage,
    MatchDeal,
    MatchRepository,
    MatchSeat,
    MatchSummary,
)
from .migrations import LATEST, MIGRATIONS, migrate
from .ratings import (
    ORDERS,
    BoardEntry,
    BoardPage,
    Counted,
    Ledger,
    PlayerCard,
    PlayerResult,
    Rating,
    RatingRepository,
    Season,
    Standing,
)

__all__ = [
    "ACTIVE_STATUSES",
    "CLEARABLE",
    "FINAL_STATUSES",
    "LATEST",
    "MIGRATIONS",
    "ORDERS",
    "STATUSES",
    "Announced",
    "BoardEntry",
    "BoardPage",
    "ChannelBusyError",
    "Counted",
    "Database",
    "FinishedMatch",
    "GameRepository",
    "GameRow",
    "GuildRepository",
    "GuildSettings",
    "HistoryPage",
    "Ledger",
    "MatchDeal",
    "MatchRepository",
    "MatchSeat",
    "MatchSummary",
    "MigrationError",
    "PlayerCard",
    "PlayerResult",
    "Rating",
    "RatingRepository",
    "Season",
    "StaleGameError",
    "Standing",
    "Status",
    "StorageError",
    "migrate",
]
