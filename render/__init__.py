"""Pictures of the game as PNG bytes: the board, one player's hand, the end of a deal.

Knows Pillow and the engine, never Discord. The public API::

    png = render_board(deal, names=names, totals=state.totals, title="Deal 2")
    png = render_hand(deal.hand(seat), legal_tiles)      # keys: hand_keys(...)
    png = render_summary(state, names)
    geometry = board_geometry(deal.layout)               # boxes only, for tests

Every word drawn comes from the caller (names, title) or from a :class:`Labels`
(English by default; ``Labels().translated(tr)`` for another language).
Rendering is CPU work: run it off the event loop (``asyncio.to_thread``).
"""

from .board import render_board
from .geometry import BoardGeometry, board_geometry
from .hand import hand_keys, render_hand
from .labels import ENGLISH, Labels
from .summary import render_summary

__all__ = [
    "ENGLISH",
    "BoardGeometry",
    "Labels",
    "board_geometry",
    "hand_keys",
    "render_board",
    "render_hand",
    "render_summary",
]
