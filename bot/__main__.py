"""``python -m bot``: start the Discord bot. ``python -m bot sync``: sync the slash commands.

Settings come from the environment or ``.env`` (see ``.env.example`` and
``python -m bot --help``). A missing or malformed setting, a database the bot could
not use (a SQLite file, or with ``DATABASE_URL`` a PostgreSQL server that is
unreachable or refuses the login), a token Discord refuses or a Discord it cannot
reach is one clear line on stderr and a non-zero exit, not a traceback. Without any
``DISCORD_TOKEN``, ``python -m bot`` starts the offline playground instead
(``python -m bot playground``, see ``bot/playground/``), and takes the playground's
options.

The text here is for the operator at the command line, in English; what players read
goes through ``bot.i18n``.
"""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import os
import sys
import textwrap
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Literal

import aiohttp
import discord
from dotenv import load_dotenv

from bot import logs
from bot.client import DominoBot
from bot.settings import (
    LOG_LEVELS,
    SETTINGS,
    Settings,
    SettingsError,
    database_problem,
    parse_shards,
)
from bot.storage import DatabaseUnavailableError, MigrationError
from bot.storage.urls import redacted

log = logging.getLogger("bot")

USAGE = "usage: python -m bot [-h] [--shards IDS --shard-count N] [sync | playground [OPTIONS]]"
SHARD_OPTIONS = {"--shards": "SHARD_IDS", "--shard-count": "SHARD_COUNT"}
"""The command line's shard options and the settings they stand for (they win over them)."""
Mode = Literal["bot", "sync", "playground"]
HELP_FLAGS = ("-h", "--help")

# Exit codes: a setting, an option, the token or the database is wrong (fix, then
# start again); Discord cannot be reached or is failing (starting again later may do).
EXIT_CONFIG = 2
EXIT_UNREACHABLE = 1

NAME_WIDTH = 20
"""The first column of ``--help``: mode and setting names."""
MODES = (
    (
        "(no mode)",
        "With DISCORD_TOKEN set: run the bot until Ctrl+C. Without any token: the "
        "offline playground, which then takes the playground's options too "
        "(python -m bot --port 9000; that is what `make run ARGS=...` runs).",
    ),
    (
        "--shards IDS",
        "With --shard-count N: run only these shards of N (e.g. --shards 0-3 "
        "--shard-count 8; the same as SHARD_IDS and SHARD_COUNT, which they override). "
        "Run one process per group of shards, all on one database.",
    ),
    (
        "sync",
        "Publish the slash commands globally, once, and exit (Discord may take up to "
        "an hour to show them; the bot never syncs globally on start). Needs "
        "DISCORD_TOKEN.",
    ),
    (
        "playground",
        "The real bot offline, in a simulated Discord served on 127.0.0.1 and opened in "
        "your browser, token or not: --port N, --database PATH, --no-browser, "
        "--club-night (see python -m bot playground --help). Needs the playground extra.",
    ),
)

SYNC_HELP = """\
usage: python -m bot sync [-h]

Publish the bot's slash commands globally, once, and exit. Discord can take up to an
hour to show them in every server. The bot itself never syncs globally: with
DEV_GUILD_ID set, it syncs to that one server on every start.

It reads the same settings as the bot (python -m bot --help) and starts up as the bot
does, then syncs and exits: DISCORD_TOKEN is required and DATABASE_PATH (or
DATABASE_URL) must be usable."""


def help_text() -> str:
    """``python -m bot --help``: the modes and every setting."""
    lines = [USAGE, "", "Dominobot, a Discord bot for playing dominoes.", "", "modes:"]
    lines += _entries(MODES)
    lines += [
        "",
        "settings (environment variables, or KEY=value lines in ./.env; the environment",
        "wins over .env; see .env.example):",
    ]
    lines += _entries(
        (s.name, f"{s.meaning} Default: {s.default}." if s.default else s.meaning) for s in SETTINGS
    )
    lines += [
        "",
        "A wrong setting or shard option, an unusable DATABASE_PATH or DATABASE_URL (checked",
        "before logging in) or a token Discord refuses exits with status 2, a Discord or a",
        "database server that cannot be reached with 1; each says what is wrong in one line",
        "on stderr.",
    ]
    return "\n".join(lines)


def _entries(entries: Iterable[tuple[str, str]]) -> list[str]:
    """Two columns: a name, and its text wrapped beside it."""
    out: list[str] = []
    for name, text in entries:
        wrapped = textwrap.wrap(text, width=80 - 2 - NAME_WIDTH)
        if len(name) >= NAME_WIDTH:  # a long name: its text starts on the next line
            out.append(f"  {name}")
            wrapped = ["", *wrapped]
        else:
            out.append(f"  {name:<{NAME_WIDTH}}{wrapped[0]}")
        out += [f"  {'':<{NAME_WIDTH}}{line}" for line in wrapped[1:]]
    return out


def choose_mode(args: list[str], environ: Mapping[str, str]) -> Mode | None:
    """What ``python -m bot ARGS`` does; None for arguments it does not understand.

    No arguments and no token at all: the playground (options alone, as ``make run
    ARGS="--port 9000"`` gives, too). A token, even a malformed one, means the real
    bot (whose settings then say what is wrong with it).
    """
    if args[:1] == ["playground"]:
        return "playground"
    if args == ["sync"]:
        return "sync"
    has_token = bool(environ.get("DISCORD_TOKEN", "").strip())
    if not args:
        return "bot" if has_token else "playground"
    if args[0].startswith("-") and not has_token:
        return "playground"
    return None


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] and args[0] in HELP_FLAGS:
        print(help_text())
        return 0
    if args[:1] == ["sync"] and args[1:2] and args[1] in HELP_FLAGS:
        print(SYNC_HELP)
        return 0
    load_dotenv(Path.cwd() / ".env")
    environ: Mapping[str, str] = os.environ
    if args[:1] != ["playground"] and any(a.split("=")[0] in SHARD_OPTIONS for a in args):
        try:
            shard_settings, args = shard_options(args)
            environ = {**os.environ, **shard_settings}
            if args not in ([], ["sync"]):
                return fail(unknown_arguments(args))
            names = {
                v: k if v in shard_settings or not environ.get(v, "").strip() else v
                for k, v in SHARD_OPTIONS.items()
            }
            # their faults named as the options (the settings would say SHARD_IDS)
            parse_shards(
                environ.get("SHARD_COUNT", ""),
                environ.get("SHARD_IDS", ""),
                count_name=names["SHARD_COUNT"],
                ids_name=names["SHARD_IDS"],
            )
        except SettingsError as e:
            return fail(str(e))
    mode = choose_mode(args, environ)
    if environ is not os.environ and mode == "playground":
        mode = "bot"  # shard options are for the bot (whose settings want a token)
    if mode is None:
        return fail(unknown_arguments(args))
    quiet_voice()
    if mode == "playground":
        if args[:1] != ["playground"]:
            print(
                "dominobot: DISCORD_TOKEN is not set, so this is the offline playground "
                "(put the token in .env to run the real bot)"
            )
            return playground(args)
        return playground(args[1:])
    try:
        settings = Settings.from_env(environ)
    except SettingsError as e:
        return fail(str(e))
    checked = check_database(settings)
    if checked is not None:
        return fail(*checked)
    logs.configure(settings.log_level, payloads=settings.log_payloads)
    bot = DominoBot(
        database_path=settings.database_path,
        database_url=settings.database_url,
        dev_guild_id=settings.dev_guild_id,
        shards=settings.shards if mode == "bot" else None,
        calls_per_second=settings.calls_per_second,
        database_timeouts=settings.database_timeouts,
        limits=settings.limits,
        owner=mode == "bot",  # `sync` runs no game: it neither owns nor restores any
    )
    return run(bot, settings.token, sync=mode == "sync")


def shard_options(args: list[str]) -> tuple[dict[str, str], list[str]]:
    """``--shards IDS`` and ``--shard-count N`` (or ``--shards=IDS``) out of ``args``:
    the settings they stand for, and the other arguments. A missing value or an
    option given twice is a :class:`SettingsError` (their values are checked later,
    with the settings, as ``--shards`` and ``--shard-count``)."""
    found: dict[str, str] = {}
    rest: list[str] = []
    i = 0
    while i < len(args):
        name, eq, value = args[i].partition("=")
        if name not in SHARD_OPTIONS:
            rest.append(args[i])
            i += 1
            continue
        if not eq:
            if i + 1 >= len(args) or args[i + 1].startswith("--"):
                raise SettingsError(f"{name} needs a value, e.g. --shards 0-3 --shard-count 8")
            value = args[i + 1]
            i += 1
        i += 1
        if SHARD_OPTIONS[name] in found:
            raise SettingsError(f"{name} is given twice")
        found[SHARD_OPTIONS[name]] = value
    return found, rest


def check_database(settings: Settings) -> tuple[str, int] | None:
    """The operator's line and exit code if the database cannot be used (None: it can).

    A SQLite path is checked on disk; a PostgreSQL server is asked once (a wrong
    password or a missing database exit with 2, a server that cannot be reached with 1).
    """
    setting = database_setting(settings)
    if settings.database_url is None:
        problem = database_problem(settings.database_path)
        return None if problem is None else (f"{setting} cannot be used: {problem}", EXIT_CONFIG)
    from bot.storage.postgres import server_problem

    answer = asyncio.run(server_problem(settings.database_url))
    if answer is None:
        return None
    reason, later = answer
    return f"{setting} cannot be used: {reason}", (EXIT_UNREACHABLE if later else EXIT_CONFIG)


def unknown_arguments(args: list[str]) -> str:
    """The one line for arguments ``python -m bot`` does not take."""
    if args[0].startswith("-"):  # the playground's options, with a token set
        joined = " ".join(args)
        return (
            f"{joined}: the bot takes no options (these are the playground's, and "
            f"DISCORD_TOKEN is set); for the playground: python -m bot playground {joined}"
        )
    return f"python -m bot does not take {' '.join(args)!r}; {USAGE} (--help explains)"


def quiet_voice() -> None:
    """No "PyNaCl/davey is not installed, voice will NOT be supported" warnings.

    The bot never joins a voice channel; discord.py warns once, when the first client is
    built, unless these flags are already down.
    """
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False


def run(bot: DominoBot, token: str, *, sync: bool = False) -> int:
    """Run the bot (or sync its commands) until it stops; an exit code.

    A failure :func:`failure` knows is one line on stderr; anything else is a bug
    and keeps its traceback.
    """
    try:
        if sync:
            asyncio.run(sync_commands(bot, token))
        else:
            bot.run(token, log_handler=None)  # Ctrl+C: discord.py closes and returns
    except KeyboardInterrupt:  # Ctrl+C during `sync`
        return 130
    except Exception as e:
        known = failure(e, database_setting(bot))
        if known is None:
            raise
        return fail(*known)
    if bot.stop_reason is not None:  # it lost its shards to another process
        return fail(bot.stop_reason, EXIT_UNREACHABLE)
    return 0


def fail(line: str, code: int = EXIT_CONFIG) -> int:
    """Say what is wrong in one line on stderr; the exit code."""
    print(f"dominobot: {line}", file=sys.stderr)
    return code


def database_setting(bot: DominoBot | Settings) -> str:
    """The setting that names the bot's database and its value, for a failure's line."""
    if bot.database_url is not None:
        return f"DATABASE_URL {redacted(bot.database_url)}"
    return f"DATABASE_PATH {bot.database_path}"


def failure(error: BaseException, database: str) -> tuple[str, int] | None:
    """The operator's line and exit code for a failure to start; None if it is a bug."""
    if isinstance(error, discord.LoginFailure):
        return (
            "Discord refused the token (401 Unauthorized); copy it again from the "
            "developer portal (Bot → Reset Token) into DISCORD_TOKEN",
            EXIT_CONFIG,
        )
    if isinstance(error, discord.PrivilegedIntentsRequired):
        return (
            "Discord refused the gateway intents; enable them for the bot in the developer portal",
            EXIT_CONFIG,
        )
    if isinstance(error, aiohttp.ClientError):
        where = f"({error or type(error).__name__})"
        if isinstance(error, aiohttp.ClientConnectorError):
            reason = error.os_error.strerror or str(error.os_error) or type(error).__name__
            where = f"at {error.host}:{error.port} ({reason})"
        return f"cannot reach Discord {where}; check the network connection", EXIT_UNREACHABLE
    if isinstance(error, discord.DiscordServerError):
        return f"Discord is failing (HTTP {error.status}); try again later", EXIT_UNREACHABLE
    if isinstance(error, discord.GatewayNotFound):
        return "cannot find Discord's gateway; try again later", EXIT_UNREACHABLE
    if isinstance(error, MigrationError):
        return f"{database} cannot be used: {error}", EXIT_CONFIG
    if isinstance(error, DatabaseUnavailableError):  # the server went away since the check
        return f"{database} cannot be used: {error}", EXIT_UNREACHABLE
    return None


def playground(args: list[str]) -> int:
    """Start the offline playground (SimCord is imported only here)."""
    if importlib.util.find_spec("simcord") is None:
        return fail(
            "the playground needs SimCord: pip install -e '.[playground]' (make run does this)"
        )
    from bot.playground import main as playground_main

    level = os.environ.get("LOG_LEVEL", "").strip().upper()
    return playground_main(
        args, log_level=level if level in LOG_LEVELS else "WARNING", check_database=database_problem
    )


async def sync_commands(bot: DominoBot, token: str) -> None:
    """Sync the slash commands globally, once (Discord takes up to an hour to show them)."""
    async with bot:
        await bot.login(token)
        commands = await bot.tree.sync()
        print(f"synced {len(commands)} commands globally")


if __name__ == "__main__":
    sys.exit(main())
