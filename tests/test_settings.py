"""Settings and start-up: a missing or malformed setting is one clear line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.settings import Settings, SettingsError

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
        }
    )
    assert (full.database_path, full.dev_guild_id, full.log_level) == (Path("x.db"), 42, "DEBUG")


@pytest.mark.parametrize(
    ("env", "phrase"),
    [
        ({}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "hello"}, "does not look like a bot token"),
        ({"DISCORD_TOKEN": TOKEN, "DEV_GUILD_ID": "abc"}, "DEV_GUILD_ID"),
        ({"DISCORD_TOKEN": TOKEN, "LOG_LEVEL": "LOUD"}, "LOG_LEVEL"),
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
