"""``python -m bot playground``: the command line of the offline playground.

Its text is for the person at the command line, in English (what players read in
the page goes through ``bot.i18n``, like the real bot's).
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable
from pathlib import Path

from .app import DEFAULT_DATABASE, DEFAULT_PORT, PlaygroundOptions, run
from .world import CHANNEL_NAME, GUILD_NAME, PLAYERS


def parse_args(argv: list[str]) -> PlaygroundOptions:
    """The options of ``python -m bot playground [--port N] [--database PATH] [--no-browser]
    [--club-night]``."""
    names = ", ".join(shown for _, shown in PLAYERS)
    parser = argparse.ArgumentParser(
        prog="python -m bot playground",
        description=(
            f"Play the real bot offline: a simulated Discord server, {GUILD_NAME}, with "
            f"#{CHANNEL_NAME} and {names}, served on 127.0.0.1 and opened in your browser, "
            "where you switch 'Viewing as' to play each seat. Without a DISCORD_TOKEN, "
            "python -m bot starts this too and takes these options."
        ),
        epilog=(
            "LOG_LEVEL (environment or .env) sets the log level (default WARNING); no "
            "browser is opened in CI (CI set) or without a display. A --database that "
            "SQLite could not use, or a port that is taken, is one line on stderr and "
            "exit status 2."
        ),
    )
    parser.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        metavar="N",
        help=f"the local port of the page (default {DEFAULT_PORT}; 0 picks a free one)",
    )
    parser.add_argument(
        "--database",
        type=Path,
        default=DEFAULT_DATABASE,
        metavar="PATH",
        help=(
            "the SQLite file for its games and leaderboards, apart from the real bot's "
            f"(default {DEFAULT_DATABASE})"
        ),
    )
    parser.add_argument(
        "--no-browser", action="store_true", help="only print the address; open no browser"
    )
    parser.add_argument(
        "--club-night",
        action="store_true",
        help=(
            "open a club night on start: Alice referees a competition in the channel, "
            "the four players are checked in and two AI players fill the tables; start it "
            "as Alice with /domino competition start"
        ),
    )
    args = parser.parse_args(argv)
    if not 0 <= args.port <= 65535:
        parser.error(f"--port must be 0 to 65535, not {args.port}")
    return PlaygroundOptions(
        port=args.port,
        database=args.database,
        open_browser=not args.no_browser,
        club_night=args.club_night,
    )


def main(
    argv: list[str],
    log_level: str = "WARNING",
    check_database: Callable[[Path], str | None] | None = None,
) -> int:
    """Parse ``argv`` (after ``playground``), set up logging and serve; an exit code.

    ``check_database`` says why SQLite could not use a path (None: it can); a problem
    is one line on stderr before anything starts.
    """
    options = parse_args(argv)
    problem = None if check_database is None else check_database(options.database)
    if problem is not None:
        print(
            f"dominobot playground: --database {options.database} cannot be used: {problem}",
            file=sys.stderr,
        )
        return 2
    logging.basicConfig(level=log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # discord.py's connection chatter means nothing in a simulated world.
    logging.getLogger("discord").setLevel(logging.WARNING)
    return run(options)
