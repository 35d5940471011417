"""Numbered badges on the tiles laid since a player last looked (``recent``).

The lead passes the (seat, tile) pairs laid since the viewer's last turn, in order;
each of those tiles that the picture shows face up gets a small round badge with its
number (1, 2, 3, ...) in its seat's colour (:func:`render.header.seat_colour`), on its
top-left corner, mostly over the felt. A tile that is not drawn (not on the
table, or face down and hidden) gets none: the badges come from the picture's own
boxes, which the public view made, so they cannot show anything it hides.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.engine.tiles import Tile

from . import theme
from .geometry import Box
from .sprites import Sprite, digit_share
from .theme import Colour

__all__ = ["Badge", "badge_diameter", "draw_badges", "place_badges"]

_SCALE = 4
DIGIT_SHARE = 0.56
"""A badge's digits are inked this share of its diameter tall."""


@dataclass(frozen=True, slots=True)
class Badge:
    """One numbered badge: which move (1 for the first), whose, and where."""

    number: int
    seat: int
    tile: Tile
    box: Box


def badge_diameter(unit: int) -> int:
    """How big a badge is on tiles of ``unit``: its digits are 8 px tall as Discord
    shows an 800 px picture (400 px wide) even on the smallest tiles."""
    return max(30, round(unit * 0.75))


def place_badges(
    recent: Sequence[tuple[int, Tile]], boxes: Iterable[tuple[Tile | None, Box]], unit: int
) -> list[Badge]:
    """The badges of ``recent`` on the tiles drawn in ``boxes`` (tile, box); a tile not
    among them (or hidden: ``None``) is skipped."""
    where = {tile: box for tile, box in boxes if tile is not None}
    size = badge_diameter(unit)
    out = []
    for number, (seat, tile) in enumerate(recent, start=1):
        box = where.get(tile)
        if box is None:
            continue
        # On the tile's top-left corner, three quarters of it over the felt: it hides
        # no more of the tile than its corner.
        shift = size // 8 - size // 2
        out.append(Badge(number, seat, tile, Box(box.x + shift, box.y + shift, size, size)))
    return out


def draw_badges(im: Image.Image, badges: Sequence[Badge], colours: Sequence[Colour]) -> None:
    """Paste each badge, filled with its seat's colour from ``colours`` (kept inside
    the picture)."""
    for badge in badges:
        sprite = badge_sprite(str(badge.number), badge.box.w, colours[badge.seat])
        x = min(max(0, badge.box.x), im.width - badge.box.w)
        y = min(max(0, badge.box.y), im.height - badge.box.h)
        im.paste(sprite.image, (x, y), sprite.mask)


@lru_cache(maxsize=256)
def badge_sprite(text: str, diameter: int, fill: Colour) -> Sprite:
    """A disc of ``fill`` with a dark rim and ``text`` in dark bold digits."""
    s = _SCALE
    side = diameter * s
    big = Image.new("RGB", (side, side), theme.INK)
    draw = ImageDraw.Draw(big)
    rim = max(s, round(side * 0.07))
    draw.ellipse((0, 0, side - 1, side - 1), fill=theme.INK)
    draw.ellipse((rim, rim, side - 1 - rim, side - 1 - rim), fill=fill)
    font = theme.font(round(side * DIGIT_SHARE / digit_share()), True)
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
    squeeze = len(text) > 1
    if squeeze:  # two digits: drawn apart and squeezed to fit the disc
        mask = Image.new("L", (int(right - left) + 2, int(bottom - top) + 2), 0)
        ImageDraw.Draw(mask).text((-left, -top), text, font=font, fill=255)
        w = min(mask.width, round(side * 0.7))
        mask = mask.resize((w, mask.height), Image.Resampling.BILINEAR)
        big.paste(theme.INK, ((side - w) // 2, (side - mask.height) // 2), mask)
    else:
        x = (side - (right - left)) / 2 - left
        y = (side - (bottom - top)) / 2 - top
        draw.text((x, y), text, font=font, fill=theme.INK)
    image = theme.to_palette(big.reduce(s))
    disc = Image.new("L", (side, side), 0)
    ImageDraw.Draw(disc).ellipse((0, 0, side - 1, side - 1), fill=255)
    mask = disc.reduce(s).point(lambda v: 255 if v >= 128 else 0).convert("1")
    return Sprite(image, mask)
