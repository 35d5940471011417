"""Settings and start-up: a missing or malformed setting is one clear line."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.settings import SQLITE_HEADER, Settings, SettingsError, database_problem
from bot.storage import Timeouts

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.abcdefghijklmnopqrstuvwxyz0123456789AB"


def test_settings_read_the_environment_with_defaults():
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN})
    assert settings.database_path == Path("dominobot.sqlite3")
    assert settings.dev_guild_id is None
    assert settings.log_level == "INFO"
    assert TOKEN not in repr(settings)
    full = Settings.from_env(
        {
            "DISCORD_TOKEN": TOKEN,
            "DATABASE_PATH": "x.db",
            "DEV_GUILD_ID": "42",
            "LOG_LEVEL": "debug",
            "LOG_PAYLOADS": "1",
        }
    )
    assert (full.database_path, full.dev_guild_id, full.log_level) == (Path("x.db"), 42, "DEBUG")
    assert full.log_payloads is True
    assert settings.log_payloads is False
    assert settings.database_url is None


def test_a_database_url_is_read_and_its_password_never_shown():
    url = "postgresql://bot:s3cr%40t@db.example:5432/dominobot?sslmode=require"
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": f"  {url} "})
    assert settings.database_url == url
    assert "s3cr" not in repr(settings)
    assert "postgresql://bot:***@db.example:5432/dominobot?sslmode=require" in repr(settings)
    # an @ not percent-encoded: asyncpg would read "s3cr" as the password, "t@db..." as
    # the host (tests/storage/test_storage_passwords.py has every form)
    with pytest.raises(SettingsError, match="%40") as refused:
        Settings.from_env({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": url.replace("%40", "@")})
    assert "s3cr" not in str(refused.value)
    socket = Settings.from_env({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": "postgres:///d?host=/run"})
    assert socket.database_url == "postgres:///d?host=/run"
    assert Settings.from_env({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": " "}).database_url is None


def test_database_timeouts_are_read_in_seconds():
    assert Settings.from_env({"DISCORD_TOKEN": TOKEN}).database_timeouts == Timeouts(10.0, 5.0)
    settings = Settings.from_env(
        {"DISCORD_TOKEN": TOKEN, "DATABASE_TIMEOUT": "2.5", "DATABASE_LOCK_TIMEOUT": " 1 "}
    )
    assert (settings.database_timeouts.statement, settings.database_timeouts.lock) == (2.5, 1.0)
    assert settings.database_timeouts.server_settings() == {
        "statement_timeout": "2500",
        "lock_timeout": "1000",
    }
    for bad in ("0", "-1", "ten", "nan", "inf", "7200"):
        with pytest.raises(SettingsError, match="DATABASE_LOCK_TIMEOUT must be a number"):
            Settings.from_env({"DISCORD_TOKEN": TOKEN, "DATABASE_LOCK_TIMEOUT": bad})


def test_the_counted_calls_a_second_are_shared_by_the_processes():
    assert Settings.from_env({"DISCORD_TOKEN": TOKEN}).calls_per_second == 45.0
    alone = Settings.from_env({"DISCORD_TOKEN": TOKEN, "GLOBAL_CALLS_PER_S": "40"})
    assert alone.calls_per_second == 40.0
    half = Settings.from_env(
        {"DISCORD_TOKEN": TOKEN, "SHARD_COUNT": "8", "SHARD_IDS": "0-3"}
    )  # this process runs half the shards: half the token's budget
    assert half.calls_per_second == 22.5
    for bad in ("0", "-5", "fifty", "nan", "51"):
        with pytest.raises(SettingsError, match="GLOBAL_CALLS_PER_S must be a number of calls"):
            Settings.from_env({"DISCORD_TOKEN": TOKEN, "GLOBAL_CALLS_PER_S": bad})


def test_the_caps_on_open_games_are_read_as_whole_numbers():
    defaults = Settings.from_env({"DISCORD_TOKEN": TOKEN}).limits
    assert (defaults.games_per_user, defaults.games_per_server) == (3, 50)
    settings = Settings.from_env(
        {"DISCORD_TOKEN": TOKEN, "GAMES_PER_USER": " 5 ", "GAMES_PER_SERVER": "200"}
    )
    assert (settings.limits.games_per_user, settings.limits.games_per_server) == (5, 200)
    assert "games_per_server=200" in repr(settings)
    for bad in ("0", "-1", "2.5", "ten", "\u00b2", "100001"):
        with pytest.raises(SettingsError, match="GAMES_PER_SERVER must be a whole number"):
            Settings.from_env({"DISCORD_TOKEN": TOKEN, "GAMES_PER_SERVER": bad})


@pytest.mark.parametrize(
    ("url", "phrase"),
    [
        ("mysql://bot:pw@db/x", "a mysql:// URL"),
        ("dominobot.sqlite3", "not a URL"),
        ("postgresql://bot:pw@db:99999/x", "malformed"),
        ("postgresql://bot:pw@db:five/x", "malformed"),
        ("postgresql://bot:p w@db/x", "spaces"),
        ("postgresql://bot:pw@db/x#y", "%23"),
    ],
)
def test_a_malformed_database_url_is_named_without_its_password(url, phrase):
    with pytest.raises(SettingsError, match=phrase) as info:
        Settings.from_env({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": url})
    assert str(info.value).startswith("DATABASE_URL ")
    assert "pw" not in str(info.value)
    assert "p w" not in str(info.value)


@pytest.mark.parametrize(
    ("env", "phrase"),
    [
        ({}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "hello"}, "does not look like a bot token"),
        ({"DISCORD_TOKEN": TOKEN, "DEV_GUILD_ID": "abc"}, "DEV_GUILD_ID"),
        ({"DISCORD_TOKEN": TOKEN, "DEV_GUILD_ID": "\u00b2"}, "DEV_GUILD_ID"),  # a digit, not 0-9
        ({"DISCORD_TOKEN": TOKEN, "LOG_LEVEL": "LOUD"}, "LOG_LEVEL"),
        ({"DISCORD_TOKEN": TOKEN, "LOG_PAYLOADS": "maybe"}, "LOG_PAYLOADS"),
    ],
)
def test_bad_settings_are_named(env, phrase):
    with pytest.raises(SettingsError, match=phrase):
        Settings.from_env(env)


# Without any token, `python -m bot` starts the playground (tests/playground); `sync`
# still needs one.
@pytest.mark.parametrize(("args", "token"), [([], "not-a-token"), (["sync"], "")])
def test_python_m_bot_says_one_clear_line_without_a_good_token(tmp_path, args, token):
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD")}
    env["DISCORD_TOKEN"] = token
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "DISCORD_TOKEN" in lines[0]


# A database path is checked before the bot logs in (tests/test_cli.py runs it).
def new_database(tmp: Path) -> Path:
    path = tmp / "games.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    return path


def file_with(name: str, content: bytes):
    def make(tmp: Path) -> Path:
        (tmp / name).write_bytes(content)
        return tmp / name

    return make


@pytest.mark.parametrize(
    ("make", "problem"),
    [
        (lambda tmp: tmp / "new.sqlite3", None),
        (lambda tmp: Path(":memory:"), None),
        (new_database, None),
        (file_with("empty.db", b""), None),  # SQLite makes it a new database
        (lambda tmp: tmp / "no" / "such" / "x.db", "its folder {tmp}/no/such does not exist"),
        (lambda tmp: tmp, "it is a folder, not a file"),
        (lambda tmp: file_with("f", b"x")(tmp) / "x.db", "{tmp}/f is not a folder"),
        (file_with("notes.db", b"my notes"), "it is not an SQLite database"),
        (
            file_with("bad.db", SQLITE_HEADER + b"\xff" * 200),
            "SQLite cannot read it (file is not a database)",
        ),
    ],
    ids=[
        "new",
        "memory",
        "existing",
        "empty",
        "no-folder",
        "folder",
        "file-as-folder",
        "not-sqlite",
        "broken",
    ],
)
def test_a_database_path_sqlite_could_not_use_is_named(tmp_path, make, problem):
    path = make(tmp_path)
    before = sorted(tmp_path.rglob("*"))
    expected = None if problem is None else problem.format(tmp=tmp_path)
    assert database_problem(path) == expected
    assert sorted(tmp_path.rglob("*")) == before  # the check leaves nothing behind


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere")
def test_an_unwritable_database_is_named(tmp_path):
    folder = tmp_path / "locked"
    folder.mkdir()
    path = new_database(folder)
    path.chmod(0o444)
    assert database_problem(path) == "it cannot be opened for writing (Permission denied)"
    path.chmod(0o644)
    folder.chmod(0o555)
    try:
        assert database_problem(folder / "new.db") == (
            f"its folder {folder} is not writable (Permission denied)"
        )
    finally:
        folder.chmod(0o755)


# -- shards --------------------------------------------------------------------------------


def test_shard_settings_are_read():
    from bot.settings import Shards

    assert Settings.from_env({"DISCORD_TOKEN": TOKEN}).shards is None
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN, "SHARD_COUNT": "8", "SHARD_IDS": "0-3"})
    assert settings.shards == Shards(8, (0, 1, 2, 3))
    assert "shards=0-3 of 8" in repr(settings)
    spread = Settings.from_env(
        {"DISCORD_TOKEN": TOKEN, "SHARD_COUNT": " 16 ", "SHARD_IDS": "5, 0-1,9-10"}
    )
    assert spread.shards == Shards(16, (0, 1, 5, 9, 10))
    assert str(spread.shards) == "0-1,5,9-10 of 16"
    alone = Settings.from_env({"DISCORD_TOKEN": TOKEN, "SHARD_COUNT": "2"})
    assert alone.shards == Shards(2, (0, 1))  # every shard in this one process


@pytest.mark.parametrize(
    ("count", "ids", "phrase"),
    [
        ("8", "8", "names shard 8, outside SHARD_COUNT 8 (the shards are numbered 0 to 7)"),
        ("8", "6-9", "names shard 8, outside SHARD_COUNT 8"),
        ("8", "0-", "must be shard numbers and ranges such as 0-3"),
        ("8", "0..3", "must be shard numbers and ranges"),
        ("8", "a", "must be shard numbers and ranges"),
        ("8", "-1", "must be shard numbers and ranges"),
        ("8", "3-1", "a range that goes down (3-1)"),
        ("8", "1,1", "names shard 1 twice"),
        ("", "0-3", "SHARD_IDS needs SHARD_COUNT too"),
        ("0", "", "SHARD_COUNT must be a whole number of shards from 1"),
        ("eight", "0", "SHARD_COUNT must be a whole number"),
        ("\u0038", "0", None),  # a plain "8": fine
        ("\u00b2", "0", "SHARD_COUNT must be a whole number"),  # a digit, not 0-9
    ],
)
def test_bad_shard_settings_are_one_line_each(count, ids, phrase):
    env = {"DISCORD_TOKEN": TOKEN, "SHARD_COUNT": count, "SHARD_IDS": ids}
    if phrase is None:
        assert Settings.from_env(env).shards is not None
        return
    with pytest.raises(SettingsError) as info:
        Settings.from_env(env)
    assert phrase in str(info.value)
    assert "\n" not in str(info.value)


def test_a_shard_is_the_one_discord_routes_a_server_to():
    from bot.settings import Shards, shard_of

    guild = 81384788765712384  # Discord's documented example: shard (id >> 22) % count
    assert shard_of(guild, 1) == 0
    assert shard_of(guild, 8) == (guild >> 22) % 8
    assert Shards(8, (shard_of(guild, 8),)).owns(guild)
    assert not Shards(8, tuple(i for i in range(8) if i != shard_of(guild, 8))).owns(guild)
