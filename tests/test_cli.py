"""The command line: ``python -m bot --help``, and each failure to start as one clear line.

The failures are real: the bot logs in over real HTTPS to a local stand-in for
Discord's API (a TLS server on 127.0.0.1 that answers 401, as Discord does to a token
it refuses), or to a port nobody listens on; the subprocess runs meet whatever network
this machine has (none here: the name discord.com does not resolve).
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import socket
import ssl
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import aiohttp
import discord
import pytest
from aiohttp.abc import AbstractResolver, ResolveResult

import bot.__main__ as entry
from bot.client import DominoBot
from bot.settings import SETTINGS
from bot.storage import DatabaseUnavailableError

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.abcdefghijklmnopqrstuvwxyz0123456789AB"
LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ (DEBUG|INFO) discord\.client: ")
"""discord.py's "logging in" line (bot/logs.py holds discord.client at INFO)."""
REFUSED = "Discord refused the token"
UNREACHABLE = "cannot reach Discord"


def run_bot(*args: str, cwd: Path, **environ: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot ARGS`` in ``cwd`` (no .env there), with only these settings."""
    env = {k: v for k, v in os.environ.items() if k not in {s.name for s in SETTINGS}}
    env.update(environ)
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def the_line(stderr: str) -> str:
    """The one line a failure printed (log lines aside); fails on a traceback or more."""
    assert "Traceback" not in stderr
    lines = [line for line in stderr.splitlines() if line.strip() and not LOG_LINE.match(line)]
    assert len(lines) == 1, stderr
    return lines[0]


# -- help ---------------------------------------------------------------------------


def settings_read() -> set[str]:
    """The keys bot/settings.py reads from the environment (``env.get("KEY", ...)``)."""
    tree = ast.parse((ROOT / "bot" / "settings.py").read_text(encoding="utf-8"))
    return {
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "env"
        and node.args
        and isinstance(node.args[0], ast.Constant)
    }


def test_help_explains_the_modes_and_every_setting(tmp_path):
    done = run_bot("--help", cwd=tmp_path)
    assert done.returncode == 0
    assert done.stderr == ""
    text = done.stdout
    for mode in ("sync", "playground", "DISCORD_TOKEN set"):
        assert mode in text
    env_example = (ROOT / ".env.example").read_text(encoding="utf-8")
    keys = set(re.findall(r"^([A-Z_]+)=", env_example, re.MULTILINE))
    named = {s.name for s in SETTINGS}
    assert settings_read() <= named
    assert keys <= named
    assert {"DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID", "LOG_LEVEL", "LOG_PAYLOADS"} <= named
    for name in named:
        assert re.search(rf"^  {name}( |$)", text, re.MULTILINE), name
    assert "dominobot.sqlite3" in text  # the defaults
    assert max(len(line) for line in text.splitlines()) <= 100
    assert run_bot("-h", cwd=tmp_path).stdout == text


def test_each_mode_has_its_help(tmp_path):
    sync = run_bot("sync", "--help", cwd=tmp_path)
    assert sync.returncode == 0
    assert "globally" in sync.stdout
    assert "DISCORD_TOKEN" in sync.stdout
    playground = run_bot("playground", "--help", cwd=tmp_path)
    assert playground.returncode == 0
    for option in ("--port", "--database", "--no-browser", "LOG_LEVEL"):
        assert option in playground.stdout


def test_help_needs_no_settings(tmp_path):
    (tmp_path / ".env").write_text("LOG_LEVEL=LOUD\n")
    done = run_bot("--help", cwd=tmp_path, DISCORD_TOKEN="not-a-token")
    assert done.returncode == 0
    assert "usage: python -m bot" in done.stdout


# -- the database, checked before logging in ------------------------------------------


def not_sqlite(tmp_path: Path) -> Path:
    path = tmp_path / "notes.txt"
    path.write_text("these are not the games you are looking for\n")
    return path


@pytest.mark.parametrize(
    ("database", "phrase"),
    [
        (lambda tmp: tmp / "missing" / "games.sqlite3", "folder"),
        (lambda tmp: tmp, "it is a folder"),
        (not_sqlite, "not an SQLite database"),
    ],
    ids=["missing-folder", "a-folder", "not-sqlite"],
)
def test_an_unusable_database_path_is_one_line_before_login(tmp_path, database, phrase):
    path = database(tmp_path)
    done = run_bot(cwd=tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(path), LOG_LEVEL="DEBUG")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1  # nothing logged: no login was tried
    line = the_line(done.stderr)
    assert line.startswith(f"dominobot: DATABASE_PATH {path} cannot be used: ")
    assert phrase in line
    assert not (tmp_path / "missing").exists()


def test_sync_checks_the_database_too(tmp_path):
    done = run_bot("sync", cwd=tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(tmp_path))
    assert done.returncode == 2
    assert "DATABASE_PATH" in the_line(done.stderr)


# -- logging in -------------------------------------------------------------------------


def test_without_discord_the_bot_says_so_in_one_line(tmp_path):
    """No network here: the name does not resolve (with one, Discord refuses the token)."""
    done = run_bot(cwd=tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_PATH="games.sqlite3")
    line = the_line(done.stderr)
    if UNREACHABLE in line:
        assert done.returncode == 1
        assert line.startswith("dominobot: cannot reach Discord at discord.com:443 (")
        assert line.endswith("); check the network connection")
    else:
        assert done.returncode == 2
        assert REFUSED in line
    for voice in ("PyNaCl", "davey", "voice"):
        assert voice not in done.stderr


@pytest.fixture(scope="module")
def certificate(tmp_path_factory) -> tuple[Path, Path]:
    """A throwaway self-signed certificate for the stand-in (the client does not verify)."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("no openssl to make the stand-in's certificate")
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    options = "req -x509 -nodes -days 2 -subj /CN=discord.com -newkey ec"
    options += " -pkeyopt ec_paramgen_curve:prime256v1"
    subprocess.run(
        [openssl, *options.split(), "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
        timeout=30,
    )
    return cert, key


class RefusingDiscord(BaseHTTPRequestHandler):
    """Discord's API as a refused token meets it: 401 for every request."""

    requests: list[str] = []  # noqa: RUF012 - shared by the server's handlers, on purpose

    def do_GET(self) -> None:
        self.requests.append(f"GET {self.path} {self.headers.get('Authorization', '')}")
        body = json.dumps({"message": "401: Unauthorized", "code": 0}).encode()
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # quiet
        pass


@pytest.fixture
def refusing_discord(certificate) -> Iterator[tuple[int, list[str]]]:
    """A TLS server on 127.0.0.1 answering 401; its port and the requests it saw."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), RefusingDiscord)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(*map(str, certificate))
    server.socket = context.wrap_socket(server.socket, server_side=True)
    RefusingDiscord.requests = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1], RefusingDiscord.requests
    finally:
        server.shutdown()
        server.server_close()


class ToLocalhost(AbstractResolver):
    """Resolves every name (discord.com) to 127.0.0.1 at one port."""

    def __init__(self, port: int) -> None:
        self.port = port

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        return [
            ResolveResult(
                hostname=host,
                host="127.0.0.1",
                port=self.port,
                family=socket.AF_INET,
                proto=0,
                flags=socket.AI_NUMERICHOST,
            )
        ]

    async def close(self) -> None:
        pass


class LocalBot(DominoBot):
    """The real bot, its HTTP connections sent to 127.0.0.1:port (discord.py's
    ``connector``, which DominoBot does not take: set before the login makes the session)."""

    def __init__(self, port: int, database: Path) -> None:
        super().__init__(database_path=database)
        self.port = port

    async def login(self, token: str) -> None:
        self.http.connector = aiohttp.TCPConnector(resolver=ToLocalhost(self.port), ssl=False)
        await super().login(token)


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize("sync", [False, True], ids=["bot", "sync"])
def test_a_refused_token_is_one_line(refusing_discord, tmp_path, capsys, sync):
    port, requests = refusing_discord
    entry.quiet_voice()
    code = entry.run(LocalBot(port, tmp_path / "games.sqlite3"), TOKEN, sync=sync)
    assert code == 2
    assert requests == [f"GET /api/v10/users/@me Bot {TOKEN}"]
    out, err = capsys.readouterr()
    assert err.splitlines() == [
        "dominobot: Discord refused the token (401 Unauthorized); copy it again from the "
        "developer portal (Bot → Reset Token) into DISCORD_TOKEN"
    ]
    assert out == ""
    assert not (tmp_path / "games.sqlite3").exists()  # the database opens after login


def test_an_unreachable_discord_is_one_line(tmp_path, capsys):
    entry.quiet_voice()
    code = entry.run(LocalBot(closed_port(), tmp_path / "games.sqlite3"), TOKEN)
    assert code == 1
    err = capsys.readouterr().err
    assert the_line(err).startswith("dominobot: cannot reach Discord at discord.com:443 (")
    assert "check the network connection" in err


def test_only_known_failures_lose_their_traceback():
    assert entry.failure(RuntimeError("a bug"), Path("x")) is None
    assert entry.failure(KeyError("a bug"), Path("x")) is None
    line, code = entry.failure(discord.LoginFailure("Improper token has been passed."), Path("x"))
    assert (REFUSED in line, code) == (True, 2)
    with pytest.raises(RuntimeError):  # a bug keeps its traceback
        entry.run(Crashing(), TOKEN)


class Crashing(DominoBot):
    def run(self, *args: object, **kwargs: object) -> None:  # type: ignore[override]
        raise RuntimeError("a bug")


def test_a_bot_that_lost_its_shards_exits_1_with_its_line(capsys):
    """tests/e2e/test_owner.py shows a bot losing its shard; this is how it ends."""
    assert entry.run(Overtaken(), TOKEN) == 1
    assert capsys.readouterr().err == f"dominobot: {Overtaken.LINE}\n"


class Overtaken(DominoBot):
    LINE = "lost shard 0 of 2 of the database x to another process"

    def run(self, *args: object, **kwargs: object) -> None:  # type: ignore[override]
        self.stop_reason = self.LINE  # as _lost_ownership leaves it, then closed


# -- options ----------------------------------------------------------------------------


def test_playground_options_without_a_token_start_the_playground(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # no .env
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    started = []
    monkeypatch.setattr(entry, "playground", lambda args: started.append(args) or 0)
    assert entry.main(["--port", "9000"]) == 0
    assert started == [["--port", "9000"]]


def test_playground_options_with_a_token_are_one_line(tmp_path):
    done = run_bot("--port", "9000", cwd=tmp_path, DISCORD_TOKEN=TOKEN)
    assert done.returncode == 2
    line = the_line(done.stderr)
    assert "python -m bot playground --port 9000" in line


def test_unknown_arguments_are_one_line(tmp_path):
    done = run_bot("play", cwd=tmp_path)
    assert done.returncode == 2
    assert "--help" in the_line(done.stderr)


# -- make -------------------------------------------------------------------------------


def make_dry_run(target: str, *args: str) -> str:
    """What ``make -n -B TARGET`` would run (-B: as from nothing, every stamp missing)."""
    if shutil.which("make") is None:
        pytest.skip("no make")
    done = subprocess.run(
        ["make", "-n", "-B", "--no-print-directory", "-C", str(ROOT), target, *args],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return done.stdout


def test_make_run_installs_only_what_running_needs_and_passes_args():
    commands = make_dry_run("run", "ARGS=--port 9000 --no-browser")
    installs = [line for line in commands.splitlines() if "pip install" in line]
    assert installs[-1].endswith("-e '.[playground,catalogs]'")
    assert "dev" not in commands
    assert commands.splitlines()[-1].endswith("-m bot --port 9000 --no-browser")


def test_make_test_installs_the_dev_tools():
    commands = make_dry_run("test")
    assert "-e '.[playground,catalogs]'" in commands
    assert "-e '.[dev,playground]'" in commands
    assert "pytest" in commands


# -- a PostgreSQL DATABASE_URL, checked before logging in -----------------------------------


@pytest.mark.parametrize(
    ("url", "phrase"),
    [
        ("mysql://bot:pw@db/dominobot", "must be a PostgreSQL URL"),
        ("postgresql://bot:pw@db:port/dominobot", "malformed"),
        ("postgresql://bot:pw@db/domino bot", "spaces"),
    ],
    ids=["not-postgresql", "bad-port", "a-space"],
)
def test_a_malformed_database_url_is_one_line(tmp_path, url, phrase):
    done = run_bot(cwd=tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_URL=url, LOG_LEVEL="DEBUG")
    assert done.returncode == 2
    line = the_line(done.stderr)
    assert line.startswith("dominobot: DATABASE_URL ")
    assert phrase in line
    assert ":pw@" not in done.stderr  # the password is never printed


def test_an_unreachable_database_server_is_one_line_and_exit_1(tmp_path):
    url = f"postgresql://dominobot:s3cret@/dominobot?host={tmp_path}"  # no server there
    done = run_bot(cwd=tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_URL=url, LOG_LEVEL="DEBUG")
    assert done.returncode == 1
    line = the_line(done.stderr)
    assert line.startswith("dominobot: DATABASE_URL postgresql://dominobot:***@/dominobot")
    assert "cannot reach the server" in line
    assert "s3cret" not in done.stderr
    assert done.stderr.count("\n") == 1  # nothing logged: no login was tried


def test_a_wrong_password_or_a_missing_database_is_one_line_and_exit_2(tmp_path, postgres):
    wrong = postgres.url("postgres", password="not-the-password")
    done = run_bot(cwd=tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_URL=wrong)
    assert done.returncode == 2
    line = the_line(done.stderr)
    assert "refused the login" in line
    assert "password authentication failed" in line
    assert "not-the-password" not in done.stderr

    missing = postgres.url("no_such_database")
    done = run_bot(cwd=tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_URL=missing)
    assert done.returncode == 2
    assert "no such database" in the_line(done.stderr)


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://bot@/dominobot?host={folder}&password=Tr0ub4dor",  # no server there
        "postgresql://bot@/dominobot?host={folder}&pass%77ord=Tr0ub4dor",
        "postgres://bot:Tr0ub4dor",  # no host: the password reads as a port
        "postgresql://bot:Tr0ub?4dor@db/dominobot",  # a ? not percent-encoded
        "host=db user=bot password=Tr0ub4dor",  # libpq's key=value words
    ],
    ids=["query", "encoded-key", "no-host", "unencoded-question-mark", "key-value"],
)
def test_stderr_never_shows_the_password_in_any_form(tmp_path, url):
    """tests/storage/test_storage_passwords.py has every form; these reach stderr."""
    done = run_bot(cwd=tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_URL=url.format(folder=tmp_path))
    assert done.returncode in (1, 2)
    assert the_line(done.stderr).startswith("dominobot: DATABASE_URL ")
    for secret in ("Tr0ub4dor", "Tr0ub", "4dor"):
        assert secret not in done.stderr + done.stdout


def test_a_database_that_goes_away_after_the_check_is_one_line():
    line, code = entry.failure(
        DatabaseUnavailableError("the database at postgresql://x:***@/d is unavailable: gone"),
        "DATABASE_URL postgresql://x:***@/d",
    )
    assert code == 1
    assert line.startswith("DATABASE_URL postgresql://x:***@/d cannot be used: ")


# -- shards ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "environ", "phrase"),
    [
        (["--shards", "8", "--shard-count", "8"], {}, "--shards names shard 8, outside"),
        (["--shards", "0-3"], {}, "--shards needs --shard-count too"),
        (["--shards=3-", "--shard-count=8"], {}, "--shards must be shard numbers and ranges"),
        (["--shard-count", "8", "--shards"], {}, "--shards needs a value"),
        (["--shards", "1", "--shards", "2", "--shard-count", "4"], {}, "given twice"),
        (["--shards", "0", "--shard-count", "many"], {}, "--shard-count must be a whole"),
        ([], {"SHARD_IDS": "0-3"}, "SHARD_IDS needs SHARD_COUNT too"),
        ([], {"SHARD_IDS": "4", "SHARD_COUNT": "4"}, "SHARD_IDS names shard 4, outside"),
        ([], {"SHARD_IDS": "0-1-2", "SHARD_COUNT": "4"}, "SHARD_IDS must be shard numbers"),
        (["--shards", "5"], {"SHARD_COUNT": "4"}, "--shards names shard 5, outside SHARD_COUNT"),
        (["--shards", "0", "--shard-count", "2", "play"], {}, "does not take 'play'"),
    ],
    ids=[
        "outside",
        "ids-without-count",
        "malformed",
        "no-value",
        "twice",
        "bad-count",
        "env-ids-without-count",
        "env-outside",
        "env-malformed",
        "option-outside-env-count",
        "unknown-argument",
    ],
)
def test_bad_shards_are_one_line_and_exit_2(tmp_path, args, environ, phrase):
    done = run_bot(*args, cwd=tmp_path, DISCORD_TOKEN=TOKEN, **environ)
    assert done.returncode == 2
    line = the_line(done.stderr)
    assert line.startswith("dominobot: ")
    assert phrase in line
    assert not (tmp_path / "dominobot.sqlite3").exists()  # refused before anything opened


def test_shard_options_make_an_auto_sharded_bot_of_those_shards(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    for setting in SETTINGS:
        monkeypatch.delenv(setting.name, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("SHARD_COUNT", "2")  # the option wins
    made = []
    monkeypatch.setattr(entry, "run", lambda bot, token, sync=False: made.append(bot) or 0)
    monkeypatch.setattr(entry.logs, "configure", lambda *a, **k: None)
    assert entry.main(["--shards", "2-3", "--shard-count", "8"]) == 0
    (bot,) = made
    assert isinstance(bot, discord.AutoShardedClient)
    assert isinstance(bot, DominoBot)
    assert (bot.shard_count, bot.shard_ids) == (8, [2, 3])
    assert bot.serving() == "shards 2-3 of 8"

    made.clear()
    monkeypatch.delenv("SHARD_COUNT")
    assert entry.main([]) == 0  # no shard settings: the plain bot, as before
    (plain,) = made
    assert not isinstance(plain, discord.AutoShardedClient)
    assert plain.shard_count is None
    assert plain.serving() == "every server (no shards)"


def test_help_names_the_shard_options(tmp_path):
    text = run_bot("--help", cwd=tmp_path).stdout
    assert "--shards IDS" in text
    assert "--shard-count" in text
