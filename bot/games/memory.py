"""The games this process holds, and reading a game: from memory, else the database.

The process owns its games: every active game of a server it serves lives here, by
id and by channel, and is read from here. A game read from the database is *adopted*
(kept, its turn timer and AI task set by the ``resume`` hook) when it is active, of a
server this process serves, and not held yet; a finished game is forgotten. Where
the publisher drew a game's table is kept apart, so that reading the game again
(after a stale save) keeps it.

Nothing here takes a game's lock or writes: the service's parts change a game under
its lock and hand the saved session to :meth:`Memory.adopt`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from bot.i18n import N_
from bot.storage import Database, GameRow

from .errors import GameError
from .session import LOBBY, PLAYING, Session


class Memory:
    """The active games by id and by channel, and where their tables were drawn."""

    def __init__(
        self,
        db: Database,
        *,
        shards: tuple[int, tuple[int, ...]] | None,
        resume: Callable[[Session], None],
    ) -> None:
        self.db = db
        self.shards = shards
        """``(count, ids)``: the shards whose servers' games this process runs (None: all)."""
        self.resume = resume
        """Sets an adopted game going: its turn timer, its AI seat's move."""
        self.games: dict[int, Session] = {}
        self.by_channel: dict[int, int] = {}
        self.tables: dict[int, int] = {}
        """Where the publisher drew each game's table (message ids)."""
        self.restored = asyncio.Event()
        """Set once every active game was read on start: a channel without a game in
        memory has none."""

    def __len__(self) -> int:
        return len(self.games)

    def __contains__(self, game_id: object) -> bool:
        return game_id in self.games

    # -- keeping ----------------------------------------------------------------------

    def adopt(self, session: Session) -> Session:
        """Keep an active game in memory (and forget a finished one)."""
        table = self.tables.get(session.id)
        if table is not None and table != session.table_message_id:
            session = session.with_(table_message_id=table)
        if session.active:
            self.games[session.id] = session
            self.by_channel[session.channel_id] = session.id
        else:
            self.forget(session.id)
        return session

    def forget(self, game_id: int) -> None:
        self.tables.pop(game_id, None)
        gone = self.games.pop(game_id, None)
        if gone is not None and self.by_channel.get(gone.channel_id) == game_id:
            del self.by_channel[gone.channel_id]

    def note_table(self, game_id: int, message_id: int) -> None:
        """Where the publisher drew the game's table (kept while the game is active)."""
        cached = self.games.get(game_id)
        if cached is not None:
            self.tables[game_id] = message_id
            self.games[game_id] = cached.with_(table_message_id=message_id)

    def serves(self, session: Session) -> bool:
        """Whether this process runs the game's server (its shards' servers, or all)."""
        if self.shards is None:
            return True
        count, ids = self.shards
        return (session.guild_id >> 22) % count in ids

    def load(self, row: GameRow) -> Session:
        """A game read from the database: adopted if active, of a server this process
        serves, and not in memory yet (a game of another shard, named by a button
        clicked elsewhere, is only read: its own process runs it)."""
        cached = self.games.get(row.id)
        if cached is not None:
            return cached
        session = Session.from_row(row)
        if not session.active or not self.serves(session):
            return session
        self.adopt(session)
        self.resume(session)
        return session

    # -- reading ----------------------------------------------------------------------

    async def get(self, game_id: int) -> Session | None:
        cached = self.games.get(game_id)
        if cached is not None:
            return cached
        if not 0 < game_id < 2**63:
            return None  # no such id in the database (and SQLite could not even ask)
        row = await self.db.games.get(game_id)
        return self.load(row) if row else None

    async def in_channel(self, channel_id: int) -> Session | None:
        """The channel's active game (from memory; from the database until restored)."""
        game_id = self.by_channel.get(channel_id)
        if game_id is not None:
            return self.games[game_id]
        if self.restored.is_set():
            return None
        row = await self.db.games.active_in_channel(channel_id)
        return self.load(row) if row else None

    async def latest_in_channel(self, channel_id: int) -> Session | None:
        """The channel's active game, else its most recent one."""
        active = await self.in_channel(channel_id)
        if active is not None:
            return active
        row = await self.db.games.latest_in_channel(channel_id)
        return self.load(row) if row else None

    async def require(self, game_id: int, status: str | None = None) -> Session:
        """The active game ``game_id`` (in ``status`` if given), or the refusal that
        says why not."""
        session = await self.get(game_id)
        if session is None:
            raise GameError(N_("There is no such game."))
        if not session.active:
            raise GameError(N_("This game is over."))
        if status == LOBBY and session.status != LOBBY:
            raise GameError(N_("The game has already started."))
        if status == PLAYING and session.status != PLAYING:
            raise GameError(N_("The game has not started yet."))
        return session
