"""Games: the ``games`` table behind :class:`GameRepository`, with optimistic versions.

Every save names the version it read; the row changes only if that is still the
current version, and each save bumps it. A lost race raises
:class:`StaleGameError` instead of overwriting someone else's save.

A game in play keeps its record (``docs/RECORD.md``) in pieces, so that saving a move
costs the same at deal 100 as at deal 1: each save appends only what is new
(:class:`RecordAppend`: the deals dealt and the moves played since the last save, one
row each per table, ``game_deals`` and ``game_moves``) and rewrites the small
``record_head`` (the record without its deals) only when it changes. Reads put the
pieces back together (:func:`bot.engine.record.joined_record`): every :class:`GameRow`
has the whole record in ``state``, the same document the old whole-record saves stored.

A finished game's record is stored once, as its match's ``matches.record``: the
game row's ``state`` column is NULL then, and every read of a game (through
:data:`GAME_COLUMNS`) takes the state from the match when the column is NULL. A game
that ends keeps no pieces: :meth:`GameRepository.finish` stores its whole record (in the
match, or in ``state`` for a game that ends without one) and drops them.

``announced_version`` and ``announced_deals`` say what Discord was last shown of
the game (the version its table shows, how many finished deals' summaries were
posted); they move only forward, through :meth:`GameRepository.set_announced`,
and never bump the version.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Final

from bot.engine.record import joined_record

from .codec import from_row, json_list, json_object, to_json, to_text
from .errors import ChannelBusyError, IntegrityError, StaleGameError, StorageError
from .matches import FinishedMatch, insert_match
from .sql import Dialect, Insert, Reader, Row

if TYPE_CHECKING:
    from .database import Database

log = logging.getLogger(__name__)


class Status(StrEnum):
    """A game's status: what the ``games.status`` column holds, the one definition of
    the names (``bot.games`` and the cogs use it through ``bot.games.session``)."""

    LOBBY = "lobby"
    """Seats are being taken."""
    PLAYING = "playing"
    FINISHED = "finished"
    """The match was played to its end."""
    CANCELLED = "cancelled"
    """Ended before its end: by its creator or a manager, everyone left, or no table."""
    ABANDONED = "abandoned"
    """Ended by the idle limit."""


STATUSES: Final = frozenset(Status)
ACTIVE_STATUSES: Final = frozenset({Status.LOBBY, Status.PLAYING})
FINAL_STATUSES: Final = STATUSES - ACTIVE_STATUSES
CLEARABLE: Final = frozenset({"state", "record_head", "table_message_id", "turn_started_at"})
"""The nullable columns :meth:`GameRepository.save` can set back to NULL."""

_ACTIVE_SQL = f"status IN ({', '.join(repr(str(s)) for s in sorted(ACTIVE_STATUSES))})"

# Columns of the VALUES rows: id, version, deals, table message, ping given, ping id, turn
# (both dialects name a VALUES list's columns column1, column2, ...).
_ANNOUNCED_SQL = (
    "UPDATE games SET announced_version = {greatest}(announced_version, m.column2),"
    " announced_deals = {greatest}(announced_deals, m.column3),"
    " table_message_id = coalesce(m.column4, table_message_id),"
    " ping_message_id = CASE WHEN m.column5 THEN m.column6 ELSE ping_message_id END,"
    " ping_turn = CASE WHEN m.column5 THEN m.column7 ELSE ping_turn END"
    " FROM (VALUES {rows}) AS m WHERE games.id = m.column1"
)
_ANNOUNCED_TYPES = ("bigint", "integer", "integer", "bigint", "boolean", "bigint", "text")
_MARKS_PER_STATEMENT = 500


def _announced_sql(dialect: Dialect, count: int) -> str:
    """The batch UPDATE for ``count`` marks (PostgreSQL types the VALUES' placeholders)."""
    sqlite = dialect.name == "sqlite"
    row = "(" + ", ".join("?" if sqlite else f"?::{t}" for t in _ANNOUNCED_TYPES) + ")"
    return _ANNOUNCED_SQL.format(greatest=dialect.greatest, rows=", ".join([row] * count))


@dataclass(frozen=True, slots=True)
class Announced:
    """What Discord shows of a game: its table at ``version``, ``deals`` summaries
    posted, the table message (None: unchanged) and the turn ping as ``(message id,
    turn)`` (None: unchanged; ``(None, None)``: no ping up)."""

    game_id: int
    version: int
    deals: int
    table_message_id: int | None = None
    ping: tuple[int | None, str | None] | None = None

    def then(self, later: Announced) -> Announced:
        """Both marks in order, as one (the later one's messages win where given)."""
        return Announced(
            self.game_id,
            max(self.version, later.version),
            max(self.deals, later.deals),
            later.table_message_id or self.table_message_id,
            later.ping if later.ping is not None else self.ping,
        )


GAME_COLUMNS: Final = (
    "id, guild_id, channel_id, creator_id, status, rules, seats,"
    " coalesce(state, (SELECT record FROM matches WHERE matches.game_id = games.id)) AS state,"
    " seed, version, table_message_id, timer, created_at, updated_at, turn_started_at,"
    " announced_version, announced_deals, ping_message_id, ping_turn, record_head"
)
"""The columns of a :class:`GameRow`, for ``SELECT ... FROM games`` and ``RETURNING``
(with ``record_head``: a NULL state with a head is a record in pieces, see :func:`read_games`)."""

_DEALS_SQL = (
    "SELECT game_id, deal, dealt FROM game_deals WHERE game_id IN ({ids}) ORDER BY game_id, deal"
)
_MOVES_SQL = (
    "SELECT game_id, deal, first_move, moves FROM game_moves WHERE game_id IN ({ids})"
    " ORDER BY game_id, deal, first_move"
)
_IDS_PER_STATEMENT = 500
_DEALS = ("game_deals", ("game_id", "deal", "dealt"), ("bigint", "integer", "text"))
_MOVES = (
    "game_moves",
    ("game_id", "deal", "first_move", "moves"),
    ("bigint", "integer", "integer", "text"),
)


@dataclass(frozen=True, slots=True)
class RecordAppend:
    """What one save adds to the record of a game in play, in pieces (see the module).

    ``bot.engine.record`` makes them: ``head`` is :func:`~bot.engine.record.record_head`,
    ``deals`` and ``moves`` are a :func:`~bot.engine.record.record_gain`.
    """

    head: Mapping[str, Any] | None = None
    """The record without its deals, when it is new or changed (else None: kept)."""
    deals: Sequence[tuple[int, Mapping[str, Any]]] = ()
    """The deals dealt since the last save: (number from 1, its entry without moves)."""
    moves: Sequence[tuple[int, int, Sequence[Mapping[str, Any]]]] = ()
    """The moves played since the last save, per deal: (the deal's number, how many moves
    it had before them, their entries)."""

    def inserts(self, game_id: int) -> list[Insert]:
        """The rows this save adds (none when no deal was dealt and no move played)."""
        inserts = []
        if self.deals:
            rows = [(game_id, n, to_json(dict(entry))) for n, entry in self.deals]
            inserts.append(Insert(*_DEALS, rows))
        if self.moves:
            played = [
                (game_id, n, first, to_json([dict(m) for m in entries]))
                for n, first, entries in self.moves
            ]
            inserts.append(Insert(*_MOVES, played))
        return inserts


@dataclass(frozen=True, slots=True)
class GameRow:
    """One stored game, JSON columns decoded and timestamps timezone-aware (UTC)."""

    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    status: str
    rules: dict[str, Any]
    seats: list[dict[str, Any]]
    state: dict[str, Any] | None
    seed: int
    version: int
    table_message_id: int | None
    timer: int
    created_at: datetime
    updated_at: datetime
    turn_started_at: datetime | None
    announced_version: int
    """The version the game's table in Discord shows."""
    announced_deals: int
    """How many finished deals' summaries were posted."""
    ping_message_id: int | None
    """The "it's your turn" message in Discord, if one is up."""
    ping_turn: str | None
    """The turn that ping is for (the service's turn token)."""

    @property
    def active(self) -> bool:
        """Whether the game is in the lobby or being played."""
        return self.status in ACTIVE_STATUSES


def game_from_row(row: Row, record: dict[str, Any] | None = None) -> GameRow:
    """A :class:`GameRow` from a row of :data:`GAME_COLUMNS` (``record``: its state, when
    it is kept in pieces, put back together)."""
    state = row["state"]
    return from_row(
        GameRow,
        row,
        rules=json_object(row["rules"], "games.rules"),
        seats=json_list(row["seats"], "games.seats"),
        state=record if state is None else json_object(state, "games.state"),
    )


def _in_pieces(row: Row) -> bool:
    return row["state"] is None and row["record_head"] is not None


async def read_games(reader: Reader, rows: Sequence[Row]) -> list[GameRow]:
    """The games of ``rows`` (of :data:`GAME_COLUMNS`), their records in pieces read
    through ``reader`` and put back together (see the module)."""
    heads = {int(row["id"]): str(row["record_head"]) for row in rows if _in_pieces(row)}
    records = await _records(reader, heads) if heads else {}
    return [game_from_row(row, records.get(int(row["id"]))) for row in rows]


async def _records(reader: Reader, heads: Mapping[int, str]) -> dict[int, dict[str, Any]]:
    """The records of these games (id -> its ``record_head``) from their pieces."""
    dealt: dict[int, dict[int, dict[str, Any]]] = {game: {} for game in heads}
    moves: dict[int, dict[int, list[Any]]] = {game: {} for game in heads}
    ids = list(heads)
    for start in range(0, len(ids), _IDS_PER_STATEMENT):
        chunk = ids[start : start + _IDS_PER_STATEMENT]
        marks = ", ".join("?" * len(chunk))
        for row in await reader.fetchall(_DEALS_SQL.format(ids=marks), chunk):
            dealt[row[0]][row[1]] = json_object(row[2], "game_deals.dealt")
        for row in await reader.fetchall(_MOVES_SQL.format(ids=marks), chunk):
            game, deal, first = row[0], row[1], row[2]
            so_far = moves[game].setdefault(deal, [])
            if first != len(so_far):
                raise StorageError(
                    f"game {game}: deal {deal}'s moves from {first} follow {len(so_far)} moves"
                )
            so_far += json_list(row[3], "game_moves.moves")
    records = {}
    for game, head in heads.items():
        deals = dealt[game]
        if sorted(deals) != list(range(1, len(deals) + 1)) or not set(moves[game]) <= set(deals):
            raise StorageError(f"game {game}: its deals {sorted(deals)} are not 1 to {len(deals)}")
        pieces = [(deals[n], moves[game].get(n, ())) for n in range(1, len(deals) + 1)]
        records[game] = joined_record(json_object(head, "games.record_head"), pieces)
    return records


def _shards_sql(shards: tuple[int, Collection[int]] | None) -> str:
    """`` AND`` the servers of these shards (both dialects: ``>>`` and ``%`` on bigints).

    The numbers are checked integers, written into the statement: one plan per process.
    """
    if shards is None:
        return ""
    count, ids = shards
    count = int(count)
    if count < 1:
        raise ValueError(f"a shard count is at least 1, not {count}")
    wanted = sorted({int(i) for i in ids})
    if not wanted or not all(0 <= i < count for i in wanted):
        raise ValueError(f"shard ids {wanted} are not some of 0..{count - 1}")
    if len(wanted) == count:
        return ""  # every shard: every game
    listed = ", ".join(str(i) for i in wanted)
    return f" AND (guild_id >> 22) % {count} IN ({listed})"


@contextmanager
def _channel_busy(message: str, channel_id: int | None = None) -> Iterator[None]:
    """A second active game in a channel as :class:`ChannelBusyError` (``message``)."""
    try:
        yield
    except IntegrityError as exc:
        # SQLite names the column, PostgreSQL the unique index.
        constraint = exc.constraint
        if "games.channel_id" in constraint or constraint == "games_one_active_per_channel":
            raise ChannelBusyError(message, channel_id=channel_id) from exc
        raise


def _check_status(status: str, allowed: Collection[str] = STATUSES) -> None:
    if status not in allowed:
        raise ValueError(f"game status {status!r} is not one of {sorted(allowed)}")


class GameRepository:
    """Create, read and save games."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        rules: Mapping[str, Any],
        seats: Sequence[Mapping[str, Any]],
        seed: int,
        timer: int,
        now: datetime,
    ) -> GameRow:
        """A new game in the lobby at version 0.

        Raises :class:`ChannelBusyError` if the channel already has a lobby or
        playing game.
        """
        stamp = to_text(now)
        busy = f"channel {channel_id} already has an active game"
        with _channel_busy(busy, channel_id):
            [row] = await self._db.write(
                "INSERT INTO games (guild_id, channel_id, creator_id, status, rules, seats,"
                " state, seed, version, table_message_id, timer, created_at, updated_at,"
                " turn_started_at)"
                " VALUES (?, ?, ?, ?, ?, ?, NULL, ?, 0, NULL, ?, ?, ?, NULL)"
                f" RETURNING {GAME_COLUMNS}",
                (
                    guild_id,
                    channel_id,
                    creator_id,
                    Status.LOBBY.value,
                    to_json(dict(rules)),
                    to_json([dict(s) for s in seats]),
                    seed,
                    timer,
                    stamp,
                    stamp,
                ),
            )
        game = game_from_row(row)
        log.debug("created game %d in channel %d", game.id, channel_id)
        return game

    async def get(self, game_id: int) -> GameRow | None:
        """The game with this id, or None."""
        sql = f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?"
        return next(iter(await self._read(sql, (game_id,))), None)

    async def _read(self, sql: str, params: Sequence[Any] = ()) -> list[GameRow]:
        """The games a query of :data:`GAME_COLUMNS` finds, each with its whole record.

        Records in pieces are read in one snapshot with their rows (the query is run
        again there), so that a save landing meanwhile cannot mix two moments.
        """
        rows = await self._db.fetchall(sql, params)
        if not any(_in_pieces(row) for row in rows):
            return [game_from_row(row) for row in rows]
        async with self._db.snapshot() as conn:
            return await read_games(conn, await conn.fetchall(sql, params))

    async def set_table_message(self, game_id: int, message_id: int | None) -> None:
        """Remember the game's table message. Presentation only: the version stays."""
        await self._db.write(
            "UPDATE games SET table_message_id = ? WHERE id = ?", (message_id, game_id)
        )

    async def set_announced(
        self,
        game_id: int,
        *,
        version: int,
        deals: int,
        table_message_id: int | None = None,
        ping: tuple[int | None, str | None] | None = None,
    ) -> None:
        """Remember what Discord shows of one game (see :class:`Announced`)."""
        await self.set_announced_many([Announced(game_id, version, deals, table_message_id, ping)])

    async def set_announced_many(self, marks: Sequence[Announced]) -> None:
        """Remember what Discord shows of these games, one statement per 500 games.

        Presentation only: neither the version nor ``updated_at`` moves. Never goes
        back: each count keeps the larger of the stored and the given value.
        """
        for start in range(0, len(marks), _MARKS_PER_STATEMENT):
            chunk = marks[start : start + _MARKS_PER_STATEMENT]
            params: list[Any] = []
            for m in chunk:
                ping_id, ping_turn = m.ping if m.ping is not None else (None, None)
                params += [m.game_id, m.version, m.deals, m.table_message_id]
                params += [m.ping is not None, ping_id, ping_turn]
            await self._db.write(_announced_sql(self._db.dialect, len(chunk)), params)

    async def unannounced(
        self,
        *,
        ended_since: datetime | None = None,
        shards: tuple[int, Collection[int]] | None = None,
    ) -> list[GameRow]:
        """Active games whose last change Discord has not been shown yet, by id; with
        ``ended_since``, also the games that ended since then (their final save) and
        whose end it has not been shown (a crash between the two). ``shards``: only
        those servers' games (as :meth:`active`)."""
        where = f"announced_version < version{_shards_sql(shards)}"
        sql = f"SELECT {GAME_COLUMNS} FROM games WHERE {_ACTIVE_SQL} AND {where}"
        params: tuple[str, ...] = ()
        if ended_since is not None:
            # Two selects, each on its own index (active games; ended_at).
            sql += (
                f" UNION ALL SELECT {GAME_COLUMNS} FROM games"
                f" WHERE ended_at >= ? AND NOT {_ACTIVE_SQL} AND {where}"
            )
            params = (to_text(ended_since),)
        return await self._read(f"{sql} ORDER BY id", params)

    async def count_open(self, *, guild_id: int, creator_id: int) -> tuple[int, int]:
        """How many games in the lobby or being played the server has, and how many of
        them (in any server) the user holds as their creator."""
        [row] = await self._db.fetchall(
            f"SELECT (SELECT count(*) FROM games WHERE guild_id = ? AND {_ACTIVE_SQL}),"
            f" (SELECT count(*) FROM games WHERE creator_id = ? AND {_ACTIVE_SQL})",
            (guild_id, creator_id),
        )
        return int(row[0]), int(row[1])

    async def active_in_channel(self, channel_id: int) -> GameRow | None:
        """The channel's game in the lobby or being played, or None."""
        sql = f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? AND {_ACTIVE_SQL}"
        return next(iter(await self._read(sql, (channel_id,))), None)

    async def latest_in_channel(self, channel_id: int) -> GameRow | None:
        """The channel's most recent game of any status (highest id), or None."""
        sql = f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1"
        return next(iter(await self._read(sql, (channel_id,))), None)

    async def active(
        self,
        after_id: int = 0,
        limit: int | None = None,
        *,
        shards: tuple[int, Collection[int]] | None = None,
    ) -> list[GameRow]:
        """The games in the lobby or being played, by id (to resume after a restart).

        Only ids above ``after_id``, at most ``limit`` of them (default: all): pass
        the last id of a chunk to get the next one. ``shards=(count, ids)``: only the
        games of servers on those shards (Discord's ``(guild_id >> 22) % count``), the
        ones a process running those shards serves.
        """
        if limit is not None and limit <= 0:
            return []
        where = _shards_sql(shards)
        sql = f"SELECT {GAME_COLUMNS} FROM games WHERE {_ACTIVE_SQL}{where} AND id > ? ORDER BY id"
        params: tuple[int, ...] = (after_id,)
        if limit is not None:
            sql += " LIMIT ?"
            params = (after_id, limit)
        return await self._read(sql, params)

    async def save(
        self,
        game_id: int,
        expected_version: int,
        *,
        now: datetime,
        status: str | None = None,
        creator_id: int | None = None,
        rules: Mapping[str, Any] | None = None,
        seats: Sequence[Mapping[str, Any]] | None = None,
        state: Mapping[str, Any] | None = None,
        log: RecordAppend | None = None,
        table_message_id: int | None = None,
        timer: int | None = None,
        turn_started_at: datetime | None = None,
        clear: Collection[str] = (),
    ) -> GameRow:
        """Change the given (non-None) fields if the game is still at ``expected_version``.

        Bumps the version and sets ``updated_at`` to ``now``; returns the new row.
        ``state`` is a whole record, stored as it is (it wins over pieces); ``log``
        appends to the record in pieces of a game in play (see the module).
        ``clear`` names nullable columns to set to NULL (any of :data:`CLEARABLE`).
        Raises :class:`StaleGameError` if the game is not at ``expected_version``
        (or does not exist): then nothing was written. :class:`ChannelBusyError` if
        the new status would make a second active game in the channel.
        """
        fields = _fields(
            status=status,
            creator_id=creator_id,
            rules=rules,
            seats=seats,
            state=state,
            record_head=log.head if log is not None else None,
            table_message_id=table_message_id,
            timer=timer,
            turn_started_at=turn_started_at,
            clear=clear,
        )
        row = await self._write(game_id, expected_version, now, fields, GAME_COLUMNS, log)
        [game] = await read_games(self._db, [row])
        return game

    async def update(
        self,
        game_id: int,
        expected_version: int,
        *,
        now: datetime,
        log: RecordAppend | None = None,
        **changes: Any,
    ) -> int:
        """:meth:`save`, returning only the new version: nothing is read back or parsed
        (the caller holds the state it saved). The hot path of every move: with a
        ``log``, one statement (or one call on SQLite's writer thread) whose cost does
        not grow with the match."""
        fields = _fields(**changes, record_head=log.head if log is not None else None)
        row = await self._write(game_id, expected_version, now, fields, "version", log)
        return int(row[0])

    async def _write(
        self,
        game_id: int,
        expected_version: int,
        now: datetime,
        fields: Mapping[str, Any],
        returning: str,
        log: RecordAppend | None = None,
    ) -> Row:
        """The versioned UPDATE as one statement (one round trip under the writer lock),
        and the rows ``log`` adds only if it took: all of it or nothing."""
        sql, params = _update_sql(game_id, expected_version, now, fields, returning)
        inserts = log.inserts(game_id) if log is not None else []
        with _channel_busy(
            f"game {game_id} cannot become active: its channel has another active game"
        ):
            if inserts:
                rows = await self._db.write_guarded(sql, params, inserts)
            else:
                rows = await self._db.write(sql, params)
        if rows:
            return rows[0]
        raise await _stale(self._db, game_id, expected_version)

    async def finish(
        self,
        game_id: int,
        expected_version: int,
        *,
        now: datetime,
        status: str,
        state: Mapping[str, Any],
        seats: Sequence[Mapping[str, Any]],
        match: FinishedMatch | None,
    ) -> GameRow:
        """The game's final save and, if ``match`` is given, its match, in one transaction.

        ``status`` must be final (finished, cancelled or abandoned). Either the
        game row, the match, its seats and its deals, and the leaderboard rows its
        ledger counts (:meth:`LeaderboardRepository.count`), all land, or nothing does. The
        match is counted under its server's lock (:meth:`~.sql.Connection.lock`), taken
        before the match gets its id: processes that share a PostgreSQL database count
        one server's matches one at a time, in the order of their ids.
        With a match, the record is stored once, in the match: ``state`` is not
        stored and the game's state reads back as ``match.record`` (the caller
        passes the same document). Raises :class:`StaleGameError` as :meth:`save`
        does, and :class:`StorageError` if the match cannot be stored (e.g. a
        duplicate seat).
        """
        _check_status(status, FINAL_STATUSES)
        if match is None:
            fields = _fields(
                status=status, seats=seats, state=state, ended_at=now, clear={"record_head"}
            )
        else:
            fields = _fields(
                status=status, seats=seats, ended_at=now, clear={"state", "record_head"}
            )
        try:
            async with self._db.transaction() as conn:  # the task's writes join it
                row = await self._write(game_id, expected_version, now, fields, GAME_COLUMNS)
                [game] = await read_games(conn, [row])
                for table in ("game_moves", "game_deals"):  # the whole record is stored now
                    await conn.execute(f"DELETE FROM {table} WHERE game_id = ?", (game_id,))
                if match is not None:
                    await conn.lock(game.guild_id)
                    stored = await insert_match(conn, game, match)
                    # standings, results and ratings move in the same transaction
                    await self._db.leaderboards.count(conn, game.guild_id, stored)
                    log.info("recorded match %d of game %d", stored.id, game_id)
                    # read again: its state is now the match's record
                    sql = f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?"
                    [game] = await read_games(conn, await conn.fetchall(sql, (game_id,)))
        except IntegrityError as exc:
            raise StorageError(f"could not record the match of game {game_id}: {exc}") from exc
        return game


def _object(value: Mapping[str, Any]) -> str:
    return to_json(dict(value))


_SAVED: Final[dict[str, Callable[[Any], Any] | None]] = {
    "status": None,
    "creator_id": None,
    "rules": _object,
    "seats": lambda seats: to_json([dict(s) for s in seats]),
    "state": _object,
    "record_head": _object,
    "table_message_id": None,
    "timer": None,
    "turn_started_at": to_text,
    "ended_at": to_text,
}
"""The columns a save may set, and how each one's value is encoded (None: as it is)."""


def _fields(*, clear: Collection[str] = (), **given: Any) -> dict[str, Any]:
    """Column -> encoded value for the given (non-None) fields of a save."""
    fields: dict[str, Any] = {}
    for column, value in given.items():
        if column not in _SAVED:
            raise TypeError(f"a save has no field {column!r}")
        if value is None:
            continue
        if column == "status":
            _check_status(value)
        encode = _SAVED[column]
        fields[column] = value if encode is None else encode(value)
    for column in clear:
        if column not in CLEARABLE:
            raise ValueError(f"cannot clear {column!r}: only {sorted(CLEARABLE)}")
        if column in fields:
            raise ValueError(f"{column!r} is both given and cleared")
        fields[column] = None
    return fields


def _update_sql(
    game_id: int, expected_version: int, now: datetime, fields: Mapping[str, Any], returning: str
) -> tuple[str, tuple[Any, ...]]:
    # Column names come from _fields only, never from callers.
    assignments = "".join(f", {column} = ?" for column in fields)
    sql = (
        f"UPDATE games SET version = version + 1, updated_at = ?{assignments}"
        f" WHERE id = ? AND version = ? RETURNING {returning}"
    )
    return sql, (to_text(now), *fields.values(), game_id, expected_version)


async def _stale(reader: Reader, game_id: int, expected_version: int) -> StaleGameError:
    """The error of a save that found the game at another version (read now), or gone."""
    rows = await reader.fetchall("SELECT version FROM games WHERE id = ?", (game_id,))
    actual = int(rows[0][0]) if rows else None
    what = "does not exist" if actual is None else f"is at version {actual}"
    return StaleGameError(
        f"game {game_id} {what}, not {expected_version}",
        game_id=game_id,
        expected_version=expected_version,
        actual_version=actual,
    )
