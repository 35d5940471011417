"""Choosing the playground: ``python -m bot`` without a token, and its options."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

import bot.__main__ as entry
from bot.playground.app import PlaygroundOptions, local_timezone, should_open_browser
from bot.playground.cli import parse_args

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.abcdefghijklmnopqrstuvwxyz0123456789AB"


@pytest.mark.parametrize(
    ("args", "environ", "mode"),
    [
        ([], {}, "playground"),
        ([], {"DISCORD_TOKEN": "  "}, "playground"),
        ([], {"DISCORD_TOKEN": TOKEN}, "bot"),
        ([], {"DISCORD_TOKEN": "not-a-token"}, "bot"),  # the bot's settings name the fault
        (["sync"], {}, "sync"),
        (["playground"], {"DISCORD_TOKEN": TOKEN}, "playground"),
        (["playground", "--port", "9000"], {}, "playground"),
        (["--port", "9000"], {}, "playground"),  # make run ARGS="--port 9000"
        (["--port", "9000"], {"DISCORD_TOKEN": TOKEN}, None),  # the bot takes no options
        (["play"], {}, None),
        (["sync", "now"], {"DISCORD_TOKEN": TOKEN}, None),
    ],
)
def test_python_m_bot_chooses_the_playground_only_without_a_token(args, environ, mode):
    assert entry.choose_mode(args, environ) == mode


def test_no_token_says_so_and_starts_the_playground(monkeypatch, tmp_path, capsys):
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    started = []
    monkeypatch.setattr(entry, "playground", lambda args: started.append(args) or 0)
    assert entry.main([]) == 0
    assert entry.main(["playground", "--no-browser"]) == 0
    assert started == [[], ["--no-browser"]]
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1
    assert "DISCORD_TOKEN is not set" in out[0]
    assert "playground" in out[0]


def test_the_options_have_defaults_and_flags():
    assert parse_args([]) == PlaygroundOptions(
        port=8765, database=Path("playground.sqlite3"), open_browser=True
    )
    options = parse_args(["--port", "0", "--database", "x.db", "--no-browser"])
    assert options == PlaygroundOptions(port=0, database=Path("x.db"), open_browser=False)
    with pytest.raises(SystemExit):
        parse_args(["--port", "70000"])


@pytest.mark.parametrize(
    ("open_browser", "environ", "platform", "expected"),
    [
        (True, {"DISPLAY": ":0"}, "linux", True),
        (True, {"WAYLAND_DISPLAY": "wayland-0"}, "linux", True),
        (True, {}, "linux", False),  # headless
        (True, {"DISPLAY": ":0", "CI": "true"}, "linux", False),
        (True, {"DISPLAY": ":0", "CI": "false"}, "linux", True),
        (False, {"DISPLAY": ":0"}, "linux", False),  # --no-browser
        (True, {}, "darwin", True),
        (True, {}, "win32", True),
    ],
)
def test_a_browser_opens_only_where_there_is_a_screen(open_browser, environ, platform, expected):
    options = PlaygroundOptions(open_browser=open_browser)
    assert should_open_browser(options, environ, platform) is expected


def test_message_times_follow_the_machines_time_zone():
    assert local_timezone({"TZ": "Europe/Helsinki"}) == "Europe/Helsinki"
    assert local_timezone({"TZ": ":Europe/Riga"}) == "Europe/Riga"
    assert local_timezone({"TZ": "Not/AZone"}) in {"UTC", local_timezone({})}


def test_the_real_bot_never_imports_simcord():
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(ROOT)
    code = "import sys, bot.__main__; print('simcord' in sys.modules)"
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "False"


def test_only_the_entry_point_knows_the_playground_and_simcord():
    offenders = []
    for folder in ("bot", "cogs", "render"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if relative.startswith("bot/playground/") or relative == "bot/__main__.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = (
                    [a.name for a in node.names]
                    if isinstance(node, ast.Import)
                    else [node.module or ""]
                    if isinstance(node, ast.ImportFrom)
                    else []
                )
                if any(
                    n.split(".")[0] == "simcord" or n.startswith("bot.playground") for n in names
                ):
                    offenders.append(relative)
    assert offenders == []


@pytest.mark.parametrize(
    ("name", "content", "phrase"),
    [
        ("missing/games.sqlite3", None, "does not exist"),
        ("notes.txt", b"not a database", "not an SQLite database"),
    ],
)
def test_a_database_the_playground_could_not_open_is_one_line(tmp_path, name, content, phrase):
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "DISCORD_TOKEN")}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-m", "bot", "playground", "--database", str(path), "--no-browser"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"dominobot playground: --database {path} cannot be used: ")
    assert phrase in lines[0]
    assert done.stdout == ""  # nothing started
