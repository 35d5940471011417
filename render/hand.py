"""One player's hand, for their eyes only (an ephemeral reply).

:func:`render_hand` takes the player's tiles and nothing else, so it cannot
show anybody else's. Playable tiles are lit and carry a key ("1", "2"…) that
the buttons under the message can repeat; the rest are dimmed.

Each tile stands with the number its move buttons write first on top: the low one,
as a tile is written (``2-3``), unless ``tops`` says otherwise (Mexican Train writes
the half that meets the train first, ``3-2`` on a train ending in 3:
:func:`train_tops`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from PIL import Image

from bot.engine.moves import Move
from bot.engine.tiles import Tile

from . import sprites, theme
from .canvas import blank, draw_box, draw_text, line_height, to_png

__all__ = ["draw_hand", "hand_keys", "hand_rows", "render_hand", "train_tops"]

UNIT = 44
PAD = 18
GAP = 14
PER_ROW = 10
KEY_HEIGHT = 34
KEY_WIDTH = 40
KEY_SIZE = 24


def hand_keys(tiles: Sequence[Tile], legal: Collection[Tile]) -> dict[Tile, str]:
    """The key of each playable tile, in hand order: ``1, 2, 3…``.

    The bot's buttons should use the same keys; this is what :func:`render_hand`
    draws by default.
    """
    playable = [t for t in tiles if t in legal]
    return {t: str(i + 1) for i, t in enumerate(playable)}


def train_tops(moves: Sequence[Move], ends: Sequence[int]) -> dict[Tile, int]:
    """Mexican Train: the number to draw on top of each tile of ``moves`` (in the order
    their buttons are shown), as its first button writes it: the half that meets its
    train's end (``ends``: the station's ends, by train; ``bot.games.moves_text``)."""
    tops: dict[Tile, int] = {}
    for move in moves:
        for p in move.placements:
            if p.train is None or p.tile in tops or not -len(ends) <= p.train < len(ends):
                continue
            if p.tile.has(ends[p.train]):
                tops[p.tile] = ends[p.train]
    return tops


def render_hand(
    tiles: Sequence[Tile],
    legal: Collection[Tile] = frozenset(),
    *,
    keys: Mapping[Tile, str] | None = None,
    top: int | None = None,
    tops: Mapping[Tile, int] | None = None,
) -> bytes:
    """A hand as PNG bytes: the tiles standing in rows of equal length (at most 10).

    Tiles in ``legal`` are lit and labelled with ``keys`` (default
    :func:`hand_keys`); when ``legal`` is not empty the others are dimmed.
    ``top`` is the set's top number (``rules.set``): double-9 and double-12
    hands show numerals, as their boards do. Without it, a hand holding a
    number above 6 shows numerals. ``tops``: the number drawn on the upper half
    of a tile, where its buttons write that one first (:func:`train_tops`); any
    other tile shows its low number on top, as ``2-3`` is written.
    """
    return to_png(draw_hand(tiles, legal, keys=keys, top=top, tops=tops))


def hand_rows(count: int) -> list[int]:
    """How many tiles each row holds: as few rows as fit ``PER_ROW``, equally long."""
    rows = max(1, -(-count // PER_ROW))
    per_row = -(-count // rows) if count else 0
    return [min(per_row, count - i * per_row) for i in range(rows)]


def draw_hand(
    tiles: Sequence[Tile],
    legal: Collection[Tile] = frozenset(),
    *,
    keys: Mapping[Tile, str] | None = None,
    top: int | None = None,
    tops: Mapping[Tile, int] | None = None,
) -> Image.Image:
    """The hand as a palette image (what :func:`render_hand` encodes)."""
    stray = [str(t) for t in legal if t not in tiles]
    if stray:
        raise ValueError(f"legal tiles not in the hand: {', '.join(stray)}")
    if keys is None:
        keys = hand_keys(tiles, legal)
    if top is None:
        top = max((t.high for t in tiles), default=6)
    faces = sprites.faces_for(top)
    rows = hand_rows(len(tiles))
    per_row = max(1, rows[0])  # the columns (one for an empty hand)
    pitch_x = UNIT + GAP
    pitch_y = 2 * UNIT + KEY_HEIGHT + GAP + 6
    width = 2 * PAD + per_row * pitch_x - GAP
    height = 2 * PAD + len(rows) * pitch_y - GAP
    im = blank(width, height)
    for i, t in enumerate(tiles):
        x = PAD + (i % per_row) * pitch_x
        y = PAD + (i // per_row) * pitch_y
        playable = t in legal
        style: sprites.Style = "fresh" if playable else ("dim" if legal else "face")
        upper = tops.get(t, t.low) if tops else t.low
        if not t.has(upper):
            raise ValueError(f"{t} has no {upper} to show on top")
        lower = t.other(upper)
        sprite = sprites.tile_sprite(upper, lower, True, UNIT, style, theme.FELT, faces)
        im.paste(sprite.image, (x, y), sprite.mask)
        key = keys.get(t)
        if key:
            key_y = y + 2 * UNIT + 6
            text, size = sprites.fit_text(key, KEY_WIDTH + GAP - 8, KEY_SIZE, True, 12)
            key_w = max(KEY_WIDTH, sprites.text_width(text, size, True) + 16)
            key_x = x + (UNIT - key_w) // 2
            draw_box(
                im,
                key_x,
                key_y,
                key_w,
                KEY_HEIGHT,
                radius=KEY_HEIGHT // 2,
                fill=theme.GOLD,
                background=theme.FELT,
            )
            line = line_height(size, True)
            draw_text(
                im,
                text,
                key_x + key_w // 2,
                key_y + (KEY_HEIGHT - line) // 2,
                size,
                bold=True,
                colour=theme.INK,
                background=theme.GOLD,
                align="centre",
            )
    return im
