"""Settings from the environment (or ``.env``), as one frozen value.

:data:`SETTINGS` names every one, for ``python -m bot --help``; :func:`database_problem`
checks a database path before the bot logs in (or the playground starts), and
:func:`url_problem` the shape of a ``DATABASE_URL`` (whether its server answers is
``bot.storage.postgres.server_problem``'s question).
"""

from __future__ import annotations

import math
import os
import re
import sqlite3
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from bot.games.limits import GAMES_PER_SERVER, GAMES_PER_USER, Limits
from bot.storage.database import Timeouts
from bot.storage.urls import redacted, scrub

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
DEFAULT_DATABASE = "dominobot.sqlite3"
URL_SCHEMES = ("postgresql", "postgres")
URL_SHAPE = "postgresql://user:password@host:port/dbname"
SQLITE_HEADER = b"SQLite format 3\x00"
DEFAULT_CALLS_PER_S = 45.0
DISCORD_GLOBAL_LIMIT = 50
"""Counted REST calls a second Discord allows a bot token, all processes together."""

# A bot token is three base64url parts: the bot's id, a timestamp and an HMAC.
TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}$")


@dataclass(frozen=True, slots=True)
class Setting:
    """One environment variable (or ``.env`` key) the bot reads, for the help."""

    name: str
    default: str
    meaning: str


SETTINGS = (
    Setting(
        "DISCORD_TOKEN",
        "",
        "The bot's token from the Discord developer portal. Without one, `python -m bot` "
        "starts the offline playground.",
    ),
    Setting(
        "DATABASE_PATH",
        DEFAULT_DATABASE,
        "The SQLite file of games, match records, leaderboards and server settings, "
        "created if missing; its folder must exist and be writable.",
    ),
    Setting(
        "DATABASE_URL",
        "",
        f"A PostgreSQL database instead of the SQLite file: {URL_SHAPE} (on a unix "
        "socket: postgresql://user@/dbname?host=/run/postgresql; percent-encode @ / ? # "
        "in the user name and password). Several bot processes may share one. Its "
        "password is never shown. Without it, DATABASE_PATH.",
    ),
    Setting(
        "DATABASE_TIMEOUT",
        "10",
        "With DATABASE_URL: the seconds a statement may run on the PostgreSQL server "
        "(its statement_timeout; the bot gives up on a server that does not answer "
        "2 s later). A move whose save runs past it is refused (the database is "
        "unavailable, nothing done) instead of holding its game for as long as the "
        "server hangs.",
    ),
    Setting(
        "DATABASE_LOCK_TIMEOUT",
        "5",
        "With DATABASE_URL: the seconds a statement may wait for a lock another "
        "connection holds (lock_timeout); past it the move is refused the same way.",
    ),
    Setting(
        "SHARD_COUNT",
        "",
        "How many shards the bot runs as, in all its processes together (Discord puts "
        "each server on shard (server id >> 22) % SHARD_COUNT). Without it the bot is one "
        "process with no shards. Alone, this process runs every shard.",
    ),
    Setting(
        "SHARD_IDS",
        "",
        "The shards this process runs, e.g. 0-3 or 0,2,4 (of SHARD_COUNT, numbered from 0; "
        "needs SHARD_COUNT). It restores and plays only their servers' games; all "
        "processes share one database (DATABASE_URL; a SQLite file only on one machine). "
        "A second process on a shard waits, with one log line, until the first stops. "
        "The options --shards and --shard-count say the same.",
    ),
    Setting(
        "GLOBAL_CALLS_PER_S",
        "45",
        "Counted Discord REST calls a second for the whole bot token, every process "
        "together (Discord allows 50; table posts carried by players' interactions are not "
        "counted). Each process takes its shards' share (SHARD_IDS of SHARD_COUNT).",
    ),
    Setting(
        "GAMES_PER_USER",
        str(GAMES_PER_USER),
        "Open tables (in the lobby or in play) one player may hold at once, in all "
        "servers together; one more is refused politely.",
    ),
    Setting(
        "GAMES_PER_SERVER",
        str(GAMES_PER_SERVER),
        "Open tables one server may have at once; one more is refused politely.",
    ),
    Setting(
        "DEV_GUILD_ID",
        "",
        "A server id: the commands are synced to that server on every start (for development).",
    ),
    Setting(
        "LOG_LEVEL",
        "INFO",
        f"{', '.join(LOG_LEVELS)}. The playground logs at WARNING unless this is set.",
    ),
    Setting(
        "LOG_PAYLOADS",
        "0",
        "1 lets discord.py log whole payloads at DEBUG; they show players' hands, so only "
        "on a test server.",
    ),
)
"""Every setting :meth:`Settings.from_env` reads, in the order of ``.env.example``."""


class SettingsError(Exception):
    """A setting is missing or malformed; the message is one line for the operator."""


SHARD_ID_LIST = re.compile(r"^\d+(-\d+)?(,\d+(-\d+)?)*$")
MAX_SHARDS = 65536


@dataclass(frozen=True, slots=True)
class Shards:
    """The shards one process runs: ``ids`` of ``count`` (Discord's ``shard_count``)."""

    count: int
    ids: tuple[int, ...]

    def owns(self, guild_id: int) -> bool:
        """Whether this process serves the server ``guild_id``."""
        return shard_of(guild_id, self.count) in self.ids

    def __str__(self) -> str:
        return f"{format_ids(self.ids)} of {self.count}"


def shard_of(guild_id: int, count: int) -> int:
    """The shard Discord routes the server ``guild_id`` to, of ``count``."""
    return (guild_id >> 22) % count


def format_ids(ids: tuple[int, ...]) -> str:
    """``(0, 1, 2, 3, 6)`` as ``0-3,6``."""
    parts: list[str] = []
    start = prev = None
    for i in [*sorted(ids), None]:
        if i is not None and prev is not None and i == prev + 1:
            prev = i
            continue
        if start is not None:
            parts.append(str(start) if start == prev else f"{start}-{prev}")
        start = prev = i
    return ",".join(parts)


def parse_shards(
    count_text: str, ids_text: str, *, count_name: str = "SHARD_COUNT", ids_name: str = "SHARD_IDS"
) -> Shards | None:
    """The shards of ``SHARD_COUNT`` and ``SHARD_IDS`` (None: neither is set: no shards).

    Raises :class:`SettingsError` with one line naming the setting (or option) at fault.
    """
    count_text, ids_text = count_text.strip(), ids_text.strip().replace(" ", "")
    if not count_text:
        if ids_text:
            raise SettingsError(
                f"{ids_name} needs {count_name} too: the number of shards of the whole bot "
                f"(e.g. {ids_name} 0-3 with {count_name} 8)"
            )
        return None
    if (
        not (count_text.isascii() and count_text.isdigit())
        or not 1 <= int(count_text) <= MAX_SHARDS
    ):
        raise SettingsError(
            f"{count_name} must be a whole number of shards from 1 to {MAX_SHARDS}, "
            f"not {count_text!r}"
        )
    count = int(count_text)
    if not ids_text:
        return Shards(count, tuple(range(count)))
    if not (ids_text.isascii() and SHARD_ID_LIST.match(ids_text)):
        raise SettingsError(
            f"{ids_name} must be shard numbers and ranges such as 0-3 or 0,2,4, not {ids_text!r}"
        )
    ids: list[int] = []
    for part in ids_text.split(","):
        low, _, high = part.partition("-")
        first, last = int(low), int(high or low)
        if last < first:
            raise SettingsError(
                f"{ids_name} has a range that goes down ({part}); write {last}-{first}"
            )
        ids += range(first, last + 1)
    if outside := sorted({i for i in ids if i >= count}):
        raise SettingsError(
            f"{ids_name} names shard {outside[0]}, outside {count_name} {count} "
            f"(the shards are numbered 0 to {count - 1})"
        )
    if twice := sorted({i for i in ids if ids.count(i) > 1}):
        raise SettingsError(f"{ids_name} names shard {twice[0]} twice")
    return Shards(count, tuple(sorted(ids)))


@dataclass(frozen=True, slots=True)
class Settings:
    token: str
    database_path: Path
    dev_guild_id: int | None
    log_level: str
    log_payloads: bool = False
    """``LOG_PAYLOADS=1``: let discord.py log whole payloads at DEBUG (they hold hands)."""
    database_url: str | None = None
    """``DATABASE_URL``: PostgreSQL instead of the SQLite file at ``database_path``."""
    shards: Shards | None = None
    """``SHARD_COUNT`` and ``SHARD_IDS``: the shards this process runs (None: no shards)."""
    database_timeouts: Timeouts = field(default_factory=Timeouts)
    """``DATABASE_TIMEOUT`` and ``DATABASE_LOCK_TIMEOUT`` (PostgreSQL)."""
    global_calls_per_s: float = DEFAULT_CALLS_PER_S
    """``GLOBAL_CALLS_PER_S``: the token's counted calls a second, every process together."""
    limits: Limits = field(default_factory=Limits)
    """``GAMES_PER_USER`` and ``GAMES_PER_SERVER`` (:mod:`bot.games.limits`)."""

    @property
    def calls_per_second(self) -> float:
        """This process's share of the token's counted calls: its shards' share."""
        return process_share(self.global_calls_per_s, self.shards)

    def __repr__(self) -> str:  # never print the token, nor the database's password
        url = None if self.database_url is None else redacted(self.database_url)
        return (
            f"Settings(database_path={self.database_path!s}, database_url={url}, "
            f"dev_guild_id={self.dev_guild_id}, log_level={self.log_level}, "
            f"log_payloads={self.log_payloads}, shards={self.shards}, "
            f"global_calls_per_s={self.global_calls_per_s}, "
            f"database_timeouts={self.database_timeouts}, "
            f"games_per_user={self.limits.games_per_user}, "
            f"games_per_server={self.limits.games_per_server})"
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
        if guild and not (guild.isascii() and guild.isdigit()):
            raise SettingsError(f"DEV_GUILD_ID must be a server id (digits), not {guild!r}")
        level = env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in LOG_LEVELS:
            raise SettingsError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}")
        payloads = env.get("LOG_PAYLOADS", "").strip().lower()
        if payloads not in ("", "0", "1", "true", "false", "yes", "no"):
            raise SettingsError(f"LOG_PAYLOADS must be 1 or 0, not {payloads!r}")
        shards = parse_shards(env.get("SHARD_COUNT", ""), env.get("SHARD_IDS", ""))
        calls = number(
            env,
            "GLOBAL_CALLS_PER_S",
            DEFAULT_CALLS_PER_S,
            DISCORD_GLOBAL_LIMIT,
            "a number of calls a second",
            " (Discord's limit for a token)",
        )
        path = env.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE
        url = env.get("DATABASE_URL", "").strip() or None
        if url is not None and (problem := url_problem(url)) is not None:
            raise SettingsError(f"DATABASE_URL {problem}")
        return cls(
            token=token,
            database_path=Path(path),
            dev_guild_id=int(guild) if guild else None,
            log_level=level,
            log_payloads=payloads in ("1", "true", "yes"),
            database_url=url,
            shards=shards,
            global_calls_per_s=calls,
            database_timeouts=Timeouts(
                statement=number(env, "DATABASE_TIMEOUT", 10.0, MAX_TIMEOUT, SECONDS),
                lock=number(env, "DATABASE_LOCK_TIMEOUT", 5.0, MAX_TIMEOUT, SECONDS),
            ),
            limits=Limits(
                games_per_user=count(env, "GAMES_PER_USER", GAMES_PER_USER),
                games_per_server=count(env, "GAMES_PER_SERVER", GAMES_PER_SERVER),
            ),
        )


MAX_TIMEOUT = 3600.0
"""A timeout setting is seconds (a decimal point allowed), above 0 and at most an hour."""
SECONDS = "a number of seconds"


def number(
    env: Mapping[str, str], name: str, default: float, maximum: float, what: str, why: str = ""
) -> float:
    """A setting that is a number above 0 and at most ``maximum`` (empty: ``default``)."""
    text = env.get(name, "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value <= maximum:  # NaN fails this too
        raise SettingsError(
            f"{name} must be {what} above 0 and at most {maximum:.0f}{why}, not {text!r}"
        )
    return value


MAX_COUNT = 100_000


def count(env: Mapping[str, str], name: str, default: int) -> int:
    """A cap setting: a whole number from 1 to 100,000 (empty: the default)."""
    text = env.get(name, "").strip()
    if not text:
        return default
    if not (text.isascii() and text.isdigit() and 1 <= int(text) <= MAX_COUNT):
        raise SettingsError(f"{name} must be a whole number from 1 to {MAX_COUNT:,}, not {text!r}")
    return int(text)


def process_share(calls: float, shards: Shards | None) -> float:
    """One process's share of ``calls``: all of them without shards, else its shards'
    share of the shard count (processes are expected to run equal numbers of shards)."""
    if shards is None:
        return calls
    return calls * len(shards.ids) / shards.count


def url_problem(url: str) -> str | None:
    """What is wrong with the shape of a ``DATABASE_URL`` (None: nothing), in a few words.

    The password is never repeated, in any of the places a URL can hold it
    (``bot.storage.urls``). A URL the drivers would read differently (an ``@``, ``/``,
    ``?`` or ``#`` not percent-encoded in the user name or password: libpq and asyncpg
    would take part of the password for the host, the database or the query; a
    password that reads as a port, in a URL without a host) is refused. Whether the
    server answers is checked later.
    """
    scheme = url.partition("://")[0] if "://" in url else ""
    if scheme.lower() not in URL_SCHEMES:
        what = f"a {scheme}:// URL" if scheme.isascii() and scheme.isalnum() else "not a URL"
        return f"must be a PostgreSQL URL ({URL_SHAPE}), and this is {what}"
    if any(c.isspace() or not c.isprintable() for c in url):
        return "holds spaces or control characters; percent-encode them (%20)"
    shown = redacted(url)
    userinfo = url.partition("://")[2].rpartition("@")[0]
    if set(userinfo) & set("@/?#"):
        return (
            f"{shown} has an @, /, ? or # before its host that is not percent-encoded; "
            "write them as %40, %2F, %3F and %23 in the user name and password"
        )
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError as e:
        return f"{shown} is malformed ({scrub(str(e), url)})"
    if parts.fragment:
        return f"{shown} is malformed (a # in it; percent-encode it: %23)"
    return None


def database_problem(path: Path) -> str | None:
    """Why SQLite could not keep its database at ``path`` (None: it can), in a few words.

    Checked before the bot logs in: the folder must exist and take new files (SQLite's
    write-ahead log lives beside the database), and an existing file must be a
    writable SQLite database (an empty file becomes a new one). Leaves nothing behind.
    """
    if os.fspath(path) in ("", ":memory:"):
        return None
    folder = path.absolute().parent
    if path.is_dir():
        return "it is a folder, not a file"
    if not path.exists():
        if not folder.exists():
            return f"its folder {folder} does not exist"
        if not folder.is_dir():
            return f"{folder} is not a folder"
    elif not path.is_file():
        return "it is not a regular file"
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as e:
        return f"its folder {folder} is not writable ({e.strerror or e})"
    return _file_problem(path) if path.exists() else None


def _file_problem(path: Path) -> str | None:
    """What keeps an existing file from being the bot's SQLite database."""
    try:
        with path.open("r+b") as f:
            header = f.read(len(SQLITE_HEADER))
    except OSError as e:
        return f"it cannot be opened for writing ({e.strerror or e})"
    if not header:
        return None  # an empty file: SQLite makes it a new database
    if header != SQLITE_HEADER:
        return "it is not an SQLite database"
    try:  # read-write, so that closing removes the -wal and -shm files it may open
        conn = sqlite3.connect(f"{path.absolute().as_uri()}?mode=rw", uri=True)
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        finally:
            conn.close()
    except sqlite3.Error as e:
        return f"SQLite cannot read it ({e})"
    return None
