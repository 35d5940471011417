"""The daily puzzle's picture: the board, every hand (the deal is over) and who moves.

A puzzle is a moment of a finished deal, so its hands are no secret: each is drawn
under the board with its seat's name, the mover's first, marked, its playable tiles
lit. Every word comes from the caller: ``title`` (the game and "find the best move"),
the ``names`` and the ``captions`` under which each hand is drawn.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from bot.engine.puzzle import Puzzle
from bot.engine.view import public_view

from . import sprites, theme
from .board import draw_board
from .canvas import blank, draw_text, line_height, to_png
from .hand import draw_hand
from .header import seat_colour

__all__ = ["draw_puzzle", "render_puzzle"]

PAD = 16
CAPTION = 22


def render_puzzle(
    puzzle: Puzzle, *, names: Sequence[str], captions: Sequence[str], title: str
) -> bytes:
    """The puzzle as PNG bytes (what :func:`draw_puzzle` draws)."""
    return to_png(draw_puzzle(puzzle, names=names, captions=captions, title=title))


def draw_puzzle(
    puzzle: Puzzle, *, names: Sequence[str], captions: Sequence[str], title: str
) -> Image.Image:
    """The board of the puzzle's position with ``title``, then each seat's hand under its
    caption (``captions``: one a seat; the mover's drawn first, in gold)."""
    players = puzzle.rules.players
    if len(captions) != players:
        raise ValueError(f"{players} seats need {players} captions, not {len(captions)}")
    state = puzzle.position()
    deal = state.deal
    board = draw_board(public_view(state), names=names, title=title)
    legal = {t for c in puzzle.choices for m in (c.move, *c.also) for t in m.tiles}
    order = [puzzle.seat] + [s for s in range(players) if s != puzzle.seat]
    hands: list[tuple[int, Image.Image]] = []
    for seat in order:
        tiles = deal.hand(seat)
        lit = legal if seat == puzzle.seat else frozenset()
        hands.append((seat, draw_hand(tiles, lit, keys={}, top=puzzle.rules.set)))
    caption_h = line_height(CAPTION, True)
    widest = sprites.widest(captions, CAPTION, True)
    cell_w = max(widest, *(im.width for _, im in hands)) + 2 * PAD
    width = max(board.width, cell_w + PAD)
    columns = max(1, min(len(hands), (width - PAD) // cell_w))
    rows = [hands[i : i + columns] for i in range(0, len(hands), columns)]
    row_heights = [caption_h + max(im.height for _, im in row) + PAD for row in rows]
    canvas = blank(width, board.height + sum(row_heights) + PAD)
    canvas.paste(board, ((width - board.width) // 2, 0))
    y = board.height + PAD
    for row, row_height in zip(rows, row_heights, strict=True):
        for column, (seat, im) in enumerate(row):
            x = PAD + column * cell_w
            colour = theme.GOLD if seat == puzzle.seat else seat_colour(seat, puzzle.rules.teams)
            draw_text(
                canvas,
                captions[seat],
                x,
                y,
                CAPTION,
                bold=True,
                colour=colour,
                background=theme.FELT,
            )
            canvas.paste(im, (x, y + caption_h))
        y += row_height
    return canvas
