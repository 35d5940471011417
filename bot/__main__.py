"""``python -m bot``: start the Discord bot. ``python -m bot sync``: sync the slash commands.

Settings come from the environment or ``.env`` (see ``.env.example``). A missing
or malformed setting is one clear line, not a traceback.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path

import discord
from dotenv import load_dotenv

from bot.client import DominoBot
from bot.settings import Settings, SettingsError

log = logging.getLogger("bot")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args not in ([], ["sync"]):
        print("usage: python -m bot [sync]", file=sys.stderr)
        return 2
    load_dotenv(Path.cwd() / ".env")
    try:
        settings = Settings.from_env()
    except SettingsError as e:
        print(f"dominobot: {e}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    bot = DominoBot(database_path=settings.database_path, dev_guild_id=settings.dev_guild_id)
    try:
        if args == ["sync"]:
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


async def sync_commands(bot: DominoBot, token: str) -> None:
    """Sync the slash commands globally, once (Discord takes up to an hour to show them)."""
    async with bot:
        await bot.login(token)
        commands = await bot.tree.sync()
        print(f"synced {len(commands)} commands globally")


if __name__ == "__main__":
    sys.exit(main())
