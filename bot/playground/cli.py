"""``python -m bot playground``: the command line of the offline playground."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

from .app import DEFAULT_DATABASE, DEFAULT_PORT, PlaygroundOptions, run


def parse_args(argv: list[str]) -> PlaygroundOptions:
    """The options of ``python -m bot playground [--port N] [--database PATH] [--no-browser]``."""
    parser = argparse.ArgumentParser(
        prog="python -m bot playground",
        description="Play the real bot offline, in a simulated Discord served on 127.0.0.1.",
    )
    parser.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=f"the local port of the page (default {DEFAULT_PORT}; 0 picks a free one)",
    )
    parser.add_argument(
        "--database",
        type=Path,
        default=DEFAULT_DATABASE,
        help=f"the SQLite file for games and leaderboards (default {DEFAULT_DATABASE})",
    )
    parser.add_argument(
        "--no-browser", action="store_true", help="only print the address; open no browser"
    )
    args = parser.parse_args(argv)
    if not 0 <= args.port <= 65535:
        parser.error(f"--port must be 0 to 65535, not {args.port}")
    return PlaygroundOptions(
        port=args.port, database=args.database, open_browser=not args.no_browser
    )


def main(argv: list[str], log_level: str = "WARNING") -> int:
    """Parse ``argv`` (after ``playground``), set up logging and serve; an exit code."""
    options = parse_args(argv)
    logging.basicConfig(level=log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # discord.py's connection chatter means nothing in a simulated world.
    logging.getLogger("discord").setLevel(logging.WARNING)
    return run(options)
