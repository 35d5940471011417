"""Serve the playground: the real bot in the seeded world, shown by SimCord's preview."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import webbrowser
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import simcord

from bot.client import DominoBot

from .club import open_club_night
from .realtime import RealTimeClock
from .typed import accept_typed_commands
from .world import CHANNEL_NAME, GUILD_NAME, PLAYERS, World, running_world

DEFAULT_PORT = 8765
DEFAULT_DATABASE = Path("playground.sqlite3")


@dataclass(frozen=True, slots=True)
class PlaygroundOptions:
    """How to serve the playground (``python -m bot playground --help``)."""

    port: int = DEFAULT_PORT
    database: Path = DEFAULT_DATABASE
    open_browser: bool = True
    club_night: bool = False
    """Open a club night on start (:mod:`.club`): a competition, its players checked in."""


def in_ci(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether this runs in CI (``CI`` set to anything but empty, 0, false or no)."""
    return environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def should_open_browser(
    options: PlaygroundOptions,
    environ: Mapping[str, str] = os.environ,
    platform: str = sys.platform,
) -> bool:
    """Open a browser only when asked to, outside CI, where there is a screen."""
    if not options.open_browser or in_ci(environ):
        return False
    if platform.startswith("linux"):
        return bool(environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"))
    return True


def local_timezone(environ: Mapping[str, str] = os.environ) -> str:
    """The IANA name of this machine's time zone (for message times), else UTC."""
    candidates = [environ.get("TZ", "").lstrip(":")]
    with contextlib.suppress(OSError):
        candidates.append(str(Path("/etc/localtime").resolve()).partition("zoneinfo/")[2])
    for name in candidates:
        if name:
            try:
                ZoneInfo(name)
            except (ZoneInfoNotFoundError, ValueError):
                continue
            return name
    return "UTC"


async def show_game_in_progress(bot: DominoBot, world: World) -> None:
    """After a restart, post the channel's game again.

    The playground's world is new on every start, so the table message a saved game
    points at is not in it: the bot posts the table afresh, as ``/domino board`` does,
    but without anyone's command (the channel shows no made-up "used /domino board").
    """
    session = await bot.games.in_channel(world.channel.id)
    publisher = bot.games.publisher
    if session is None or publisher is None:
        return
    await publisher.repost(session)


async def serve(options: PlaygroundOptions) -> None:
    """Run the playground until the page's "End preview session" or cancellation."""
    bot = DominoBot(database_path=options.database)
    async with running_world(bot) as (env, world):
        clock = RealTimeClock(env)
        await clock.catch_up()
        await show_game_in_progress(bot, world)
        if options.club_night:
            await open_club_night(bot, world)
        preview = env.preview(
            world.channel,
            viewers=list(world.members),
            layout="channel",
            timezone=local_timezone(),
            port=options.port,
        )
        async with preview:
            clock.attach(preview)
            accept_typed_commands(preview)
            ticking = asyncio.create_task(clock.run())
            try:
                names = ", ".join(shown for _, shown in PLAYERS)
                print(f"Playground: {GUILD_NAME} #{CHANNEL_NAME} with {names}.")
                print(f"Games are saved in {options.database}.")
                print(f"Open {preview.url}")
                if options.club_night:
                    print("A club night is open: as Alice, type /domino competition start.")
                print("Switch 'Viewing as' to play each seat. Press Ctrl+C to stop.", flush=True)
                if should_open_browser(options):
                    await asyncio.to_thread(webbrowser.open, preview.url)
                await preview.wait_closed()
            finally:
                ticking.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await ticking
    print("Playground stopped.")


def run(options: PlaygroundOptions) -> int:
    """Serve until Ctrl+C (or SIGTERM, or the page's "End preview session"); an exit code."""
    try:
        asyncio.run(_serve_until_stopped(options))
    except (KeyboardInterrupt, asyncio.CancelledError):
        print("Playground stopped.")
    except simcord.SetupError as e:  # e.g. the port is taken
        hint = " (choose another with --port)" if "port" in str(e) else ""
        print(f"dominobot playground: {e}{hint}", file=sys.stderr)
        return 2
    return 0


async def _serve_until_stopped(options: PlaygroundOptions) -> None:
    main = asyncio.current_task()
    assert main is not None
    with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, main.cancel)
    await serve(options)
