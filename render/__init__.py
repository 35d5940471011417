"""Pictures of the game as PNG bytes: the board, one player's hand, the end of a deal.

Knows Pillow and the engine, never Discord. The public API::

    png = render_board(public_view(state), names=names, title="Deal 2")
    png = render_board(view, names=names, recent=[(seat, tile), ...])  # moves since a turn
    png = render_hand(hand_view(state, seat).hand, legal_tiles, top=rules.set)  # hand_keys
    png = render_summary(score_view(state), names)       # a finished deal and the match so far
    geometry = board_geometry(public_view(state).table, rules.layout)  # boxes only
    geometry = station_geometry(public_view(state))      # Mexican Train: boxes only

The board is drawn from the public view (``bot.engine.view.public_view``), so it
cannot show a hand or a hidden face-down tile; the hand image gets one seat's
tiles only. For Mexican Train (the view has a ``station``) ``render_board`` draws
the station instead (:mod:`render.station`): the engine, one row per train with
its owner's name and colour, markers, the double waiting to be satisfied. A
summary shows the deal's revealed hands and the score sheet of every deal so far,
from the match's public score (``bot.engine.view.ScoreView``: no deal in play).

Every word drawn comes from the caller (names, title) or from a :class:`Labels`
(English by default; ``Labels().translated(tr)`` for another language).
Rendering is CPU work: run it off the event loop (``asyncio.to_thread``).
"""

from .board import render_board
from .geometry import BoardGeometry, board_geometry
from .hand import hand_keys, render_hand
from .labels import ENGLISH, Labels
from .station import StationGeometry, station_geometry
from .summary import render_summary

__all__ = [
    "ENGLISH",
    "BoardGeometry",
    "Labels",
    "StationGeometry",
    "board_geometry",
    "hand_keys",
    "render_board",
    "render_hand",
    "render_summary",
    "station_geometry",
]
