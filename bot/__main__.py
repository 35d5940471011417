"""``python -m bot``: start the Discord bot. ``python -m bot sync``: sync the slash commands.

Settings come from the environment or ``.env`` (see ``.env.example``). A missing
or malformed setting is one clear line, not a traceback. Without any
``DISCORD_TOKEN``, ``python -m bot`` starts the offline playground instead
(``python -m bot playground``, see ``bot/playground/``).
"""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

import discord
from dotenv import load_dotenv

from bot import logs
from bot.client import DominoBot
from bot.settings import LOG_LEVELS, Settings, SettingsError

log = logging.getLogger("bot")

USAGE = "usage: python -m bot [sync | playground [--port N] [--database PATH] [--no-browser]]"
Mode = Literal["bot", "sync", "playground"]


def choose_mode(args: list[str], environ: Mapping[str, str]) -> Mode | None:
    """What ``python -m bot ARGS`` does; None for arguments it does not understand.

    No arguments and no token at all: the playground. A token, even a malformed
    one, means the real bot (whose settings then say what is wrong with it).
    """
    if args[:1] == ["playground"]:
        return "playground"
    if args == ["sync"]:
        return "sync"
    if args:
        return None
    return "bot" if environ.get("DISCORD_TOKEN", "").strip() else "playground"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    load_dotenv(Path.cwd() / ".env")
    mode = choose_mode(args, os.environ)
    if mode is None:
        print(USAGE, file=sys.stderr)
        return 2
    if mode == "playground":
        if not args:
            print(
                "dominobot: DISCORD_TOKEN is not set, so this is the offline playground "
                "(put the token in .env to run the real bot)"
            )
        return playground(args[1:])
    try:
        settings = Settings.from_env()
    except SettingsError as e:
        print(f"dominobot: {e}", file=sys.stderr)
        return 2
    logs.configure(settings.log_level, payloads=settings.log_payloads)
    bot = DominoBot(database_path=settings.database_path, dev_guild_id=settings.dev_guild_id)
    try:
        if mode == "sync":
            asyncio.run(sync_commands(bot, settings.token))
        else:
            bot.run(settings.token, log_handler=None)
    except discord.LoginFailure:
        print(
            "dominobot: Discord refused the token; copy it again from the portal", file=sys.stderr
        )
        return 2
    except discord.PrivilegedIntentsRequired:
        print("dominobot: enable the required intents in the developer portal", file=sys.stderr)
        return 2
    return 0


def playground(args: list[str]) -> int:
    """Start the offline playground (SimCord is imported only here)."""
    if importlib.util.find_spec("simcord") is None:
        print(
            "dominobot: the playground needs SimCord: pip install -e '.[playground]' "
            "(make run does this)",
            file=sys.stderr,
        )
        return 2
    from bot.playground import main as playground_main

    level = os.environ.get("LOG_LEVEL", "").strip().upper()
    return playground_main(args, log_level=level if level in LOG_LEVELS else "WARNING")


async def sync_commands(bot: DominoBot, token: str) -> None:
    """Sync the slash commands globally, once (Discord takes up to an hour to show them)."""
    async with bot:
        await bot.login(token)
        commands = await bot.tree.sync()
        print(f"synced {len(commands)} commands globally")


if __name__ == "__main__":
    sys.exit(main())
