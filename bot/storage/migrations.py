"""Numbered schema migrations: SQLite's and PostgreSQL's, side by side.

Migration ``N`` is ``MIGRATIONS[N - 1]`` (SQLite) and ``PG_MIGRATIONS[N - 1]``
(PostgreSQL): SQL scripts without transaction control that build the same
tables, columns, keys and indexes (``tests/storage/test_storage_dialects.py``
compares the two schemas). To change the schema, append a script to both; never
edit one that has shipped.

SQLite tracks the version in ``PRAGMA user_version``: :func:`migrate` runs each
pending migration in its own transaction together with the bump, so a failing
migration leaves the schema and the version as they were; it reads the version inside
that transaction, under the write lock, so processes that open a new file together
migrate it once. PostgreSQL keeps it in
the table ``dominobot_schema``, under a lock, so that processes starting together
migrate once (``bot.storage.postgres.migrate_pg``).

The PostgreSQL scripts differ only where the dialects do: Discord ids are
``BIGINT`` (SQLite's INTEGER holds 64 bits), floats ``DOUBLE PRECISION`` (SQLite's
REAL is 8 bytes), ids an identity column, timestamps ``TEXT COLLATE "C"`` (ISO-8601
text, compared byte by byte as SQLite does), JSON stays ``TEXT`` as in SQLite, and
orders by a nullable rating say ``NULLS LAST`` (SQLite's default for DESC). A script
that only creates and alters tables and indexes is written once, for SQLite, and
:func:`_postgresql` makes PostgreSQL's from it by those rules; what moves data (3's
count of deals posted, filled into one script for both; 4's move, after its new tables)
is written for each dialect.
"""

from __future__ import annotations

import logging
import re
import sqlite3
from collections.abc import Sequence
from typing import Final

import aiosqlite

from .errors import MigrationError
from .sql import SqliteConnection, execute, rollback

log = logging.getLogger(__name__)

_V1 = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    creator_id INTEGER NOT NULL,
    status TEXT NOT NULL
        CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled', 'abandoned')),
    rules TEXT NOT NULL,
    seats TEXT NOT NULL,
    state TEXT,
    seed INTEGER NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    table_message_id INTEGER,
    timer INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    turn_started_at TEXT
);
CREATE UNIQUE INDEX games_one_active_per_channel
    ON games(channel_id) WHERE status IN ('lobby', 'playing');
CREATE INDEX games_guild_status ON games(guild_id, status);

CREATE TABLE guild_settings (
    guild_id INTEGER PRIMARY KEY,
    default_timer INTEGER,
    language TEXT
);

CREATE TABLE matches (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL UNIQUE REFERENCES games(id),
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    game TEXT NOT NULL,
    finished_at TEXT NOT NULL,
    deals INTEGER NOT NULL,
    record TEXT NOT NULL
);
CREATE INDEX matches_guild_finished ON matches(guild_id, finished_at);

CREATE TABLE match_seats (
    match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    user_id INTEGER,
    ai_level TEXT,
    name TEXT NOT NULL,
    side INTEGER NOT NULL,
    total REAL NOT NULL,
    won INTEGER NOT NULL,
    place REAL,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX match_seats_user ON match_seats(user_id);

CREATE TABLE match_deals (
    match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    deal INTEGER NOT NULL,
    end_kind TEXT NOT NULL,
    winners TEXT NOT NULL,
    score TEXT NOT NULL,
    PRIMARY KEY (match_id, deal)
);
"""

# 2: standings, ratings and per-player results for leaderboards and stats (docs/LEADERBOARDS.md).
# Everything here is derived from matches/match_seats and can be rebuilt from them
# (LeaderboardRepository.recompute); stats_rebuild asks for that rebuild when matches
# were stored before these tables existed.
_V2 = """
CREATE TABLE leaderboard_seasons (
    guild_id INTEGER PRIMARY KEY,
    after_match_id INTEGER NOT NULL,
    reset_at TEXT NOT NULL,
    reset_by INTEGER NOT NULL
);

CREATE TABLE standings (
    guild_id INTEGER NOT NULL,
    game TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    matches INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    draws INTEGER NOT NULL,
    points REAL NOT NULL,
    place_points REAL NOT NULL,
    streak INTEGER NOT NULL,
    best_streak INTEGER NOT NULL,
    rated INTEGER NOT NULL,
    mu REAL,
    sigma REAL,
    ordinal REAL,
    last_match_id INTEGER NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
) WITHOUT ROWID;
CREATE INDEX standings_by_rating
    ON standings(guild_id, game, ordinal DESC, wins DESC, matches DESC, user_id);
CREATE INDEX standings_by_places
    ON standings(guild_id, game, place_points DESC, ordinal DESC, wins DESC, user_id);
CREATE INDEX standings_user ON standings(guild_id, user_id);

CREATE TABLE player_results (
    match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    guild_id INTEGER NOT NULL,
    game TEXT NOT NULL,
    user_id INTEGER NOT NULL,
    finished_at TEXT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('win', 'draw', 'loss')),
    rank INTEGER NOT NULL,
    sides INTEGER NOT NULL,
    points REAL NOT NULL,
    place REAL,
    ordinal_before REAL,
    mu REAL,
    sigma REAL,
    ordinal REAL,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX player_results_period
    ON player_results(guild_id, game, finished_at, user_id, outcome, points, place);
CREATE INDEX player_results_user ON player_results(guild_id, user_id, match_id);

CREATE TABLE stats_rebuild (pending INTEGER NOT NULL);
INSERT INTO stats_rebuild (pending) SELECT 1 WHERE EXISTS (SELECT 1 FROM matches);
"""

# 3: what Discord was last shown of each game, the threads setting, the record stored once.
# Existing games count as announced up to their version, with every finished deal's
# summary posted (a match's deal count; a game in play has dealt its current deal after
# every finished one), so an upgrade announces nothing old again. A finished game's
# record moves to its match alone: games.state is cleared where it is the same text as
# matches.record, and reads take the state from the match (GAME_COLUMNS in games.py).
# Two indexes: active games by id (restoring in chunks), a channel's games by id.
# {before}, {deals_posted} and {after}: where the dialects differ (PostgreSQL's, _PG_V3).
_V3_SCRIPT = """
ALTER TABLE games ADD COLUMN announced_version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN announced_deals INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN ping_message_id INTEGER;
ALTER TABLE games ADD COLUMN ping_turn TEXT;
{before}UPDATE games SET
    announced_version = version,
    announced_deals = coalesce(
        (SELECT m.deals FROM matches m WHERE m.game_id = games.id),
        {deals_posted}
    );
{after}UPDATE games SET state = NULL
    WHERE state = (SELECT m.record FROM matches m WHERE m.game_id = games.id);
CREATE INDEX games_active ON games(id) WHERE status IN ('lobby', 'playing');
CREATE INDEX games_channel ON games(channel_id, id);

ALTER TABLE guild_settings ADD COLUMN threads INTEGER NOT NULL DEFAULT 0;
"""
_V3 = _V3_SCRIPT.format(
    before="",
    deals_posted="""CASE WHEN json_valid(state) THEN
            CASE WHEN json_type(state, '$.deals') = 'array'
                THEN max(json_array_length(state, '$.deals') - 1, 0) ELSE 0 END
        ELSE 0 END""",
    after="",
)

# 4: the record of a game in play is kept in pieces, so that saving a move costs the same
# at deal 100 as at deal 1 (GameRepository.update's log): games.record_head holds the
# record without its deals (format, rules, seats; "time_up": true when its last deal has
# it), game_deals each deal as dealt (its entry without moves), game_moves its moves, a
# save's worth per row (first_move: how many the deal had before). Games being played
# move their record there (one row of moves per deal); games.state is then NULL. A state
# that is not a record with deals (it never replayed) stays where it is.
_V4_TABLES = """
ALTER TABLE games ADD COLUMN record_head TEXT;
CREATE TABLE game_deals (
    game_id INTEGER NOT NULL REFERENCES games(id),
    deal INTEGER NOT NULL,
    dealt TEXT NOT NULL,
    PRIMARY KEY (game_id, deal)
) WITHOUT ROWID;
CREATE TABLE game_moves (
    game_id INTEGER NOT NULL REFERENCES games(id),
    deal INTEGER NOT NULL,
    first_move INTEGER NOT NULL,
    moves TEXT NOT NULL,
    PRIMARY KEY (game_id, deal, first_move)
) WITHOUT ROWID;

"""
_V4 = (
    _V4_TABLES
    + """CREATE TEMP TABLE dominobot_logged AS
    SELECT id, state FROM games
    WHERE status = 'playing' AND CASE WHEN json_valid(state) THEN
        json_type(state) = 'object' AND json_type(state, '$.deals') = 'array'
        AND json_array_length(state, '$.deals') > 0
        AND NOT EXISTS (
            SELECT 1 FROM json_each(state, '$.deals') d
            WHERE d.type <> 'object' OR coalesce(json_type(d.value, '$.moves'), '') <> 'array'
        )
    ELSE 0 END;
INSERT INTO game_deals (game_id, deal, dealt)
    SELECT l.id, d.key + 1, json_remove(d.value, '$.moves', '$.time_up')
    FROM dominobot_logged l, json_each(l.state, '$.deals') d;
INSERT INTO game_moves (game_id, deal, first_move, moves)
    SELECT l.id, d.key + 1, 0, json_extract(d.value, '$.moves')
    FROM dominobot_logged l, json_each(l.state, '$.deals') d
    WHERE json_array_length(d.value, '$.moves') > 0;
UPDATE games SET
    record_head = CASE WHEN json_type(state, '$.deals[#-1].time_up') = 'true'
        THEN json_set(json_remove(state, '$.deals'), '$.time_up', json('true'))
        ELSE json_remove(state, '$.deals') END,
    state = NULL
    WHERE id IN (SELECT id FROM dominobot_logged);
DROP TABLE dominobot_logged;
"""
)

# 5: when a game ended (games.ended_at, set by its final save), indexed for the ended
# games a restart must still announce (GameRepository.unannounced: a crash between a
# match's final save and its announcement). Of the games that ended before, only those
# Discord was never shown the end of get it (their last change's time): nothing else
# reads it. The index is on a column a move's save never changes (PostgreSQL keeps
# those updates HOT).
_V5 = """
ALTER TABLE games ADD COLUMN ended_at TEXT;
UPDATE games SET ended_at = updated_at
    WHERE status NOT IN ('lobby', 'playing') AND announced_version < version;
CREATE INDEX games_ended ON games(ended_at) WHERE ended_at IS NOT NULL;
"""

# 6: club competitions (issue 41): one row a competition, its whole state as JSON (the
# value bot.competitions.competition saves), like a game's; at most one open competition
# a channel.
_V6 = """
CREATE TABLE competitions (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    referee_id INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('checkin', 'playing', 'finished', 'cancelled')),
    state TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    message_id INTEGER,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX competitions_one_open_per_channel
    ON competitions(channel_id) WHERE status IN ('checkin', 'playing');
CREATE INDEX competitions_guild_status ON competitions(guild_id, status);
"""

# 7: leaderboard seasons (issue 41, point 4; docs/LEADERBOARDS.md, "Seasons"). The
# current season stays the server's leaderboard_seasons row, which gains its number and
# where its ratings' replay starts (NULL: where the season starts, ratings reset; an
# earlier match id when they were carried in). A closed season keeps its span and, per
# game and order, its ranking as it was shown (JSON), so it reads the same after ratings
# move. season_settings: carry or reset ratings into the next season, and the schedule.
_V7 = """
ALTER TABLE leaderboard_seasons ADD COLUMN number INTEGER NOT NULL DEFAULT 1;
ALTER TABLE leaderboard_seasons ADD COLUMN ratings_after INTEGER;

CREATE TABLE season_settings (
    guild_id INTEGER PRIMARY KEY,
    ratings TEXT NOT NULL DEFAULT 'reset' CHECK (ratings IN ('carry', 'reset')),
    schedule TEXT NOT NULL DEFAULT 'off' CHECK (schedule IN ('off', 'weekly', 'monthly')),
    schedule_from TEXT
);
CREATE INDEX season_settings_scheduled ON season_settings(guild_id) WHERE schedule <> 'off';

CREATE TABLE seasons (
    guild_id INTEGER NOT NULL,
    number INTEGER NOT NULL,
    started_at TEXT,
    ended_at TEXT NOT NULL,
    closed_by INTEGER,
    after_match_id INTEGER NOT NULL,
    until_match_id INTEGER NOT NULL,
    next_ratings TEXT NOT NULL CHECK (next_ratings IN ('carry', 'reset')),
    PRIMARY KEY (guild_id, number)
);

CREATE TABLE season_boards (
    guild_id INTEGER NOT NULL,
    season INTEGER NOT NULL,
    game TEXT NOT NULL,
    board_order TEXT NOT NULL,
    players INTEGER NOT NULL,
    entries TEXT NOT NULL,
    PRIMARY KEY (guild_id, season, game, board_order)
);
"""

# 8: game reviews (issue 40): one row a review of a finished match's deal, its whole value
# as JSON (bot.engine.review's DealReview), keyed by the review's version too, so a new
# way of reviewing computes afresh and the old rows are simply never read again.
_V8 = """
CREATE TABLE reviews (
    match_id INTEGER NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    deal INTEGER NOT NULL,
    version INTEGER NOT NULL,
    review TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (match_id, deal, version)
);
"""

# 9: the daily puzzle (issue 40): a server's puzzle settings (on or off, the channel, the
# minute of the day, UTC), the server's puzzle of each day (the puzzle as JSON, where and
# whether it was posted; a position used once a server: its key), and the answers (one a
# user a puzzle: the primary key), from which the streaks are computed.
_V9 = """
CREATE TABLE puzzle_settings (
    guild_id INTEGER PRIMARY KEY,
    enabled INTEGER NOT NULL,
    channel_id INTEGER,
    minute INTEGER NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE puzzles (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    day TEXT NOT NULL,
    puzzle_key TEXT NOT NULL,
    puzzle TEXT NOT NULL,
    channel_id INTEGER,
    message_id INTEGER,
    created_at TEXT NOT NULL,
    UNIQUE (guild_id, day),
    UNIQUE (guild_id, puzzle_key)
);
CREATE TABLE puzzle_answers (
    puzzle_id INTEGER NOT NULL REFERENCES puzzles(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    choice INTEGER NOT NULL,
    correct INTEGER NOT NULL,
    answered_at TEXT NOT NULL,
    PRIMARY KEY (puzzle_id, user_id)
);
CREATE INDEX puzzle_answers_user ON puzzle_answers(user_id);
"""


# 10: the role whose members may referee competitions, besides server managers (issue 41).
_V10 = """
ALTER TABLE guild_settings ADD COLUMN referee_role_id INTEGER;
"""

MIGRATIONS: tuple[str, ...] = (_V1, _V2, _V3, _V4, _V5, _V6, _V7, _V8, _V9, _V10)
"""Every migration in order; the schema version is the number applied."""

LATEST = len(MIGRATIONS)

_BIGINTS: Final = frozenset({"id", "seed", "reset_by", "ratings_after", "closed_by"})
"""INTEGER columns that are BIGINT in PostgreSQL, besides every ``..._id`` (Discord ids,
row ids)."""
_TIMESTAMPS: Final = frozenset({"day", "schedule_from"})
"""TEXT columns compared as ISO-8601 text, besides every ``..._at``."""
_COLUMN = re.compile(r"^(\s*(?:ALTER TABLE \w+ ADD COLUMN )?)(\w+) (INTEGER|REAL|TEXT)\b", re.M)


def _postgresql(script: str) -> str:
    """The PostgreSQL script of a SQLite script that only creates and alters tables and
    indexes: its types as the dialects differ (see the module), ``WITHOUT ROWID``
    dropped, and orders by a rating with ``NULLS LAST``."""

    def column(match: re.Match[str]) -> str:
        start, name, kind = match.groups()
        if kind == "INTEGER" and (name in _BIGINTS or name.endswith("_id")):
            kind = "BIGINT"
        elif kind == "REAL":
            kind = "DOUBLE PRECISION"
        elif kind == "TEXT" and (name in _TIMESTAMPS or name.endswith("_at")):
            kind = 'TEXT COLLATE "C"'
        return f"{start}{name} {kind}"

    identity = " id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"
    script = _COLUMN.sub(column, script.replace(" id INTEGER PRIMARY KEY,", identity))
    script = script.replace(") WITHOUT ROWID;", ");")
    return script.replace("ordinal DESC,", "ordinal DESC NULLS LAST,")


# The same backfill as SQLite's _V3; a state that is not JSON counts no deal (the
# function, temporary, catches the cast's error as SQLite's json_valid does).
_PG_V3 = _postgresql(_V3_SCRIPT).format(
    before="""CREATE FUNCTION pg_temp.dominobot_deals_posted(state TEXT) RETURNS INTEGER
LANGUAGE plpgsql AS $$
BEGIN
    IF json_typeof(state::json -> 'deals') = 'array' THEN
        RETURN greatest(json_array_length(state::json -> 'deals') - 1, 0);
    END IF;
    RETURN 0;
EXCEPTION WHEN others THEN
    RETURN 0;
END
$$;
""",
    deals_posted="pg_temp.dominobot_deals_posted(state)",
    after="DROP FUNCTION pg_temp.dominobot_deals_posted(TEXT);\n",
)

# The same move as SQLite's _V4. The pieces are cut with json (not jsonb), which keeps
# each object's keys in their order: dominobot_without drops keys and keeps the rest.
_PG_V4 = (
    _postgresql(_V4_TABLES)
    + """CREATE FUNCTION pg_temp.dominobot_record(state TEXT) RETURNS json
LANGUAGE plpgsql AS $$
DECLARE
    doc json;
BEGIN
    doc := state::json;
    IF json_typeof(doc) = 'object' AND json_typeof(doc -> 'deals') = 'array'
        AND json_array_length(doc -> 'deals') > 0
        AND NOT EXISTS (
            SELECT 1 FROM json_array_elements(doc -> 'deals') d
            WHERE json_typeof(d) <> 'object'
                OR coalesce(json_typeof(d -> 'moves'), '') <> 'array'
        )
    THEN
        RETURN doc;
    END IF;
    RETURN NULL;
EXCEPTION WHEN others THEN
    RETURN NULL;
END
$$;
CREATE FUNCTION pg_temp.dominobot_without(doc json, extra json, VARIADIC keys TEXT[])
RETURNS json LANGUAGE sql AS $$
    SELECT coalesce(json_object_agg(k, v ORDER BY n), '{}'::json) FROM (
        SELECT e.key, e.value, e.n
            FROM json_each(doc) WITH ORDINALITY AS e(key, value, n)
            WHERE e.key <> ALL (keys)
        UNION ALL
        SELECT e.key, e.value, 1000000 + e.n
            FROM json_each(extra) WITH ORDINALITY AS e(key, value, n)
    ) AS kept(k, v, n)
$$;
CREATE TEMP TABLE dominobot_logged AS
    SELECT id, pg_temp.dominobot_record(state) AS doc FROM games WHERE status = 'playing';
DELETE FROM dominobot_logged WHERE doc IS NULL;
INSERT INTO game_deals (game_id, deal, dealt)
    SELECT l.id, d.n, pg_temp.dominobot_without(d.deal, '{}', 'moves', 'time_up')::text
    FROM dominobot_logged l,
        json_array_elements(l.doc -> 'deals') WITH ORDINALITY AS d(deal, n);
INSERT INTO game_moves (game_id, deal, first_move, moves)
    SELECT l.id, d.n, 0, (d.deal -> 'moves')::text
    FROM dominobot_logged l,
        json_array_elements(l.doc -> 'deals') WITH ORDINALITY AS d(deal, n)
    WHERE json_array_length(d.deal -> 'moves') > 0;
UPDATE games SET
    record_head = pg_temp.dominobot_without(
        l.doc,
        CASE WHEN json_typeof(l.doc -> 'deals' -> -1 -> 'time_up') = 'boolean'
            AND (l.doc -> 'deals' -> -1 ->> 'time_up') = 'true'
            THEN '{"time_up": true}'::json ELSE '{}'::json END,
        'deals'
    )::text,
    state = NULL
    FROM dominobot_logged l WHERE games.id = l.id;
DROP TABLE dominobot_logged;
DROP FUNCTION pg_temp.dominobot_without(json, json, TEXT[]);
DROP FUNCTION pg_temp.dominobot_record(TEXT);
"""
)

PG_MIGRATIONS: tuple[str, ...] = (
    _postgresql(_V1),
    _postgresql(_V2),
    _PG_V3,
    _PG_V4,
    _V5,  # the same: its new column is TEXT without the collation
    *map(_postgresql, (_V6, _V7, _V8, _V9, _V10)),
)
"""PostgreSQL's migrations, one for each of :data:`MIGRATIONS`."""


async def user_version(conn: aiosqlite.Connection) -> int:
    """The schema version recorded in the database file."""
    return await SqliteConnection(conn).fetchint("PRAGMA user_version")


async def migrate(
    conn: aiosqlite.Connection, target: int | None = None, *, migrations: Sequence[str] = MIGRATIONS
) -> int:
    """Apply the pending migrations up to ``target`` (default: the latest); return the version.

    ``conn`` must not be inside a transaction. Each migration runs in its own
    ``BEGIN IMMEDIATE ... COMMIT`` with its ``user_version`` bump, and the version is
    read inside that transaction, after the write lock is taken: a process that opens
    the file while another migrates it waits for the lock (the connection's busy
    timeout), then finds the work done instead of doing it again. Raises
    :class:`MigrationError` for a downgrade, an unknown target, a database newer
    than ``migrations`` or a failing migration (whose changes are rolled back).
    """
    latest, goal = len(migrations), goal_of(target, migrations)
    while True:
        try:
            await execute(conn, "BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:  # another writer held it past the timeout
            raise MigrationError(f"cannot lock the database to migrate it: {exc}") from exc
        try:
            current = await user_version(conn)
            check_versions(current, goal, latest)
            if current == goal:
                await execute(conn, "COMMIT")
                return goal
            number = current + 1
            try:
                for statement in statements(migrations[number - 1]):
                    await execute(conn, statement)
            except sqlite3.Error as exc:
                raise MigrationError(f"migration {number} failed: {exc}") from exc
            await execute(conn, f"PRAGMA user_version = {number}")
            await execute(conn, "COMMIT")
        except BaseException:
            await rollback(conn)
            raise
        log.info("applied schema migration %d", number)


def goal_of(target: int | None, migrations: Sequence[str]) -> int:
    """The version to migrate to: ``target``, or the latest of ``migrations``."""
    goal = len(migrations) if target is None else target
    if not 0 <= goal <= len(migrations):
        raise MigrationError(f"no schema version {goal}: versions run from 0 to {len(migrations)}")
    return goal


def check_versions(current: int, goal: int, latest: int) -> None:
    """Raise :class:`MigrationError` if a database at ``current`` cannot be brought to
    ``goal`` with migrations up to ``latest`` (newer than known, or a downgrade)."""
    if current > latest:
        raise MigrationError(
            f"the database has schema version {current}, newer than the latest known ({latest})"
        )
    if goal < current:
        raise MigrationError(f"cannot downgrade the schema from version {current} to {goal}")


def statements(script: str) -> list[str]:
    """The statements of an SQL script, one by one (semicolons in literals and trigger
    bodies kept: a statement ends where SQLite says it is complete). A script cannot
    run whole inside an open transaction: Python's ``executescript`` commits first."""
    out: list[str] = []
    pending = ""
    for piece in script.split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            if pending.strip(" \t\n;"):
                out.append(pending.strip())
            pending = ""
    if pending.strip(" \t\n;"):
        out.append(pending.strip().removesuffix(";"))
    return out
