"""The offline playground: the real bot in a simulated Discord, in a local web page.

``python -m bot playground`` (or ``python -m bot`` without a token) seeds a server
with a ``#dominoes`` channel and four players, starts the real bot against SimCord
(the ``playground`` extra: ``simcord[preview]``), keeps its clock in real time and
serves SimCord's preview page on 127.0.0.1, where one person plays every seat by
switching "viewing as". Games go to their own SQLite file.

Only ``bot/__main__.py`` imports this package, and only when the playground is
asked for: the real bot never needs SimCord.
"""

from __future__ import annotations

from .app import PlaygroundOptions, serve
from .cli import main, parse_args
from .world import World, running_world, seed_world

__all__ = [
    "PlaygroundOptions",
    "World",
    "main",
    "parse_args",
    "running_world",
    "seed_world",
    "serve",
]
