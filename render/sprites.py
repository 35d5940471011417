"""Pre-rendered pieces, drawn once and cached: tiles, text, rounded boxes.

Each sprite is drawn in RGB at 4x size, scaled down (anti-aliasing) and mapped
onto the shared palette, so pasting it onto a palette canvas costs a copy.
Tiles come with a mask (rounded corners, shadow); text and boxes are opaque
over the flat colour they are made for.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Literal, NamedTuple

from PIL import Image, ImageDraw

from . import theme
from .theme import Colour

__all__ = [
    "Faces",
    "Sprite",
    "Style",
    "box_sprite",
    "faces_for",
    "fit_text",
    "numeral_height",
    "pip_diameter",
    "text_sprite",
    "tile_sprite",
]

Style = Literal["face", "fresh", "dim", "revealed", "back", "fresh_back"]
"""``fresh``: laid by the last move; ``dim``: in a hand, not playable now;
``revealed``: laid face down, turned up now that the deal is over; ``*back``: face down."""

Faces = Literal["pips", "numerals"]
"""How a half shows its number: pips (double-6), or a numeral (double-9 and double-12,
whose 7-12 pips are a speckle at the size Discord shows a board)."""


def faces_for(top: int) -> Faces:
    """Pips for a double-6 set, numerals for the bigger sets."""
    return "pips" if top <= 6 else "numerals"


_SCALE = 4

# Pip centres on a half of a vertical tile, as fractions of the half's side.
_C3 = (0.22, 0.5, 0.78)
_X4 = (0.22, 0.5, 0.78)
_Y4 = (0.19, 0.397, 0.603, 0.81)
_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    0: (),
    1: ((0.5, 0.5),),
    2: ((0.76, 0.24), (0.24, 0.76)),
    3: ((0.76, 0.24), (0.5, 0.5), (0.24, 0.76)),
    4: ((0.26, 0.26), (0.74, 0.26), (0.26, 0.74), (0.74, 0.74)),
    5: ((0.24, 0.24), (0.76, 0.24), (0.5, 0.5), (0.24, 0.76), (0.76, 0.76)),
    6: tuple((x, y) for x in (0.27, 0.73) for y in (0.19, 0.5, 0.81)),
    7: (*((x, y) for x in (0.25, 0.75) for y in _C3), (0.5, 0.5)),
    8: tuple((x, y) for x in _C3 for y in _C3 if (x, y) != (0.5, 0.5)),
    9: tuple((x, y) for x in _C3 for y in _C3),
    10: (*((x, y) for x in (_X4[0], _X4[2]) for y in _Y4), (0.5, 0.3), (0.5, 0.7)),
    11: (*((x, y) for x in (_X4[0], _X4[2]) for y in _Y4), (0.5, 0.19), (0.5, 0.5), (0.5, 0.81)),
    12: tuple((x, y) for x in _X4 for y in _Y4),
}


class Sprite(NamedTuple):
    image: Image.Image
    """Palette image of the whole cell."""
    mask: Image.Image
    """Mode "1": where the tile (and its shadow) covers the cell."""


class _TileColours(NamedTuple):
    face: Colour
    edge: Colour
    pip: Colour
    edge_width: float


_STYLES: dict[str, _TileColours] = {
    "face": _TileColours(theme.FACE, theme.EDGE, theme.PIP, 1 / 28),
    "fresh": _TileColours(theme.FACE_FRESH, theme.EDGE_FRESH, theme.PIP, 1 / 12),
    "dim": _TileColours(theme.FACE_DIM, theme.EDGE, theme.PIP_DIM, 1 / 28),
    "revealed": _TileColours(theme.FACE, theme.BACK, theme.PIP, 1 / 12),
    "back": _TileColours(theme.BACK, theme.EDGE, theme.BACK_LINE, 1 / 28),
    "fresh_back": _TileColours(theme.BACK, theme.EDGE_FRESH, theme.BACK_LINE, 1 / 12),
}


def _gap(unit: int) -> int:
    """Felt between a tile's cell and its face, on each side: two tiles that touch
    show a clear line of felt between them (2 px as Discord shows a board)."""
    return max(2, round(unit * 0.07))


def _shadow(unit: int) -> int:
    """How far a tile's shadow falls (down and right): a thin one, so it does not fill
    the felt between two tiles."""
    return max(1, round(unit * 0.025))


def _edge(unit: int, style: Style) -> int:
    return max(1, round(unit * _STYLES[style].edge_width))


def face_inset(unit: int) -> int:
    """From a tile's cell to the inside of its (plain) face, on each side, in pixels."""
    return _gap(unit) + _edge(unit, "face")


def half_side(unit: int) -> float:
    """The side of the square a half's pips or numeral are laid out in, in pixels: the
    inside of a plain tile's half (a lit tile's thicker edge does not shrink them)."""
    inner = unit - 2 * _gap(unit) - 2 * _edge(unit, "face")
    return min(float(inner), (2 * unit - 2 * _gap(unit) - 2 * _edge(unit, "face")) / 2)


PIP_RADIUS = 0.13
"""Pip radius for 0-6, as a share of the half's side (bigger than 7-12's, which crowd):
4 px across as Discord shows a typical board (400 px wide)."""
PIP_RADIUS_CROWDED = 0.068
NUMERAL_HEIGHT = 0.9
"""A numeral's digits are this share of the half's side tall: 10 px tall as Discord
shows a board (400 px wide) even at its smallest unit (30 px in 800)."""
NUMERAL_SQUEEZE = 0.58
"""Two-digit numerals are drawn this much narrower, so 10-12 fit a half at full height."""


def pip_diameter(unit: int) -> float:
    """How wide a pip of 0-6 is drawn at ``unit``, in pixels (before anti-aliasing)."""
    return 2 * PIP_RADIUS * (half_side(unit) - 1 / _SCALE)


@lru_cache(maxsize=4096)
def tile_sprite(
    first: int,
    second: int,
    vertical: bool,
    unit: int,
    style: Style = "face",
    background: Colour = theme.FELT,
    faces: Faces = "pips",
) -> Sprite:
    """A tile filling a cell of 1x2 units (``vertical``) or 2x1 units.

    ``first`` is the number on the top (vertical) or left half; face-down
    styles ignore both numbers. ``faces`` draws the numbers as pips or numerals.
    """
    cell_w, cell_h = (unit, 2 * unit) if vertical else (2 * unit, unit)
    s = _SCALE
    gap = _gap(unit)
    shadow = _shadow(unit)
    face_box = (gap * s, gap * s, (cell_w - gap) * s - 1, (cell_h - gap) * s - 1)
    shadow_box = tuple(v + shadow * s for v in face_box)
    radius = max(2, round(unit * 0.14)) * s
    colours = _STYLES[style]
    edge = _edge(unit, style) * s

    big = Image.new("RGB", (cell_w * s, cell_h * s), background)
    draw = ImageDraw.Draw(big)
    shadow_colour = theme.FELT_DARK if background == theme.FELT else theme.PANEL
    draw.rounded_rectangle(shadow_box, radius, fill=shadow_colour)
    draw.rounded_rectangle(face_box, radius, fill=colours.edge)
    inner = (face_box[0] + edge, face_box[1] + edge, face_box[2] - edge, face_box[3] - edge)
    draw.rounded_rectangle(inner, max(1, radius - edge), fill=colours.face)
    if style in ("back", "fresh_back"):
        _draw_back(draw, inner, unit * s)
    else:
        side = round(half_side(unit) * s) - 1  # as a plain tile's: a lit edge does not shrink it
        # Numerals fill their halves: a darker divider keeps "12|10" from reading "1210".
        divider = colours.edge if faces == "numerals" else theme.DIVIDER
        _draw_face(
            big, inner, vertical, (first, second), unit * s, side, colours.pip, faces, divider
        )
    image = theme.to_palette(big.reduce(s))

    mask_big = Image.new("L", big.size, 0)
    mask_draw = ImageDraw.Draw(mask_big)
    mask_draw.rounded_rectangle(shadow_box, radius, fill=255)
    mask_draw.rounded_rectangle(face_box, radius, fill=255)
    mask = mask_big.reduce(s).point(lambda v: 255 if v >= 128 else 0).convert("1")
    return Sprite(image, mask)


def _draw_face(
    big: Image.Image,
    inner: tuple[int, int, int, int],
    vertical: bool,
    numbers: tuple[int, int],
    unit: int,
    side: int,
    pip: Colour,
    faces: Faces,
    divider: Colour,
) -> None:
    """Pips or numerals laid out in a square of ``side`` in the middle of each half."""
    draw = ImageDraw.Draw(big)
    x0, y0, x1, y1 = (float(v) for v in inner)
    w, h = x1 - x0, y1 - y0
    line = max(1, round(unit / 24))
    inset = round(unit * 0.14)
    if vertical:
        mid = y0 + h / 2
        draw.line((x0 + inset, mid, x1 - inset, mid), fill=divider, width=line)
        halves = ((x0, y0, w, h / 2), (x0, mid, w, h / 2))
    else:
        mid = x0 + w / 2
        draw.line((mid, y0 + inset, mid, y1 - inset), fill=divider, width=line)
        halves = ((x0, y0, w / 2, h), (mid, y0, w / 2, h))
    for number, (hx, hy, hw, hh) in zip(numbers, halves, strict=True):
        if number == 0:  # a blank: a faint frame, so the half reads as empty, not missing
            _draw_blank(draw, hx + hw / 2, hy + hh / 2, side, unit)
            continue
        if faces == "numerals":
            mask = _numeral_mask(number, side)
            # Start on a whole pixel of the reduced sprite: every row of ink but
            # the last is then solid, not two half-tones.
            left = round((hx + (hw - mask.width) / 2) / _SCALE) * _SCALE
            top = round((hy + (hh - mask.height) / 2) / _SCALE) * _SCALE
            big.paste(pip, (left, top, left + mask.width, top + mask.height), mask)
            continue
        radius = side * (PIP_RADIUS if number <= 6 else PIP_RADIUS_CROWDED)
        for fx, fy in _PIPS[number]:
            if not vertical:
                fx, fy = fy, fx
            cx = hx + (hw - side) / 2 + fx * side
            cy = hy + (hh - side) / 2 + fy * side
            draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=pip)


BLANK_FRAME = 0.5
"""A blank half shows a faint square frame this share of the half's side across."""


def _draw_blank(draw: ImageDraw.ImageDraw, cx: float, cy: float, side: int, unit: int) -> None:
    """The mark of a blank half: a thin square frame in the divider's colour."""
    r = side * BLANK_FRAME / 2
    width = max(_SCALE, round(unit / 22))
    draw.rounded_rectangle(
        (cx - r, cy - r, cx + r, cy + r), round(r / 3), outline=theme.DIVIDER, width=width
    )


@lru_cache(maxsize=512)
def _numeral_mask(number: int, side: int) -> Image.Image:
    """``number`` in bold digits ``NUMERAL_HEIGHT`` of ``side`` tall, cropped to its ink.

    Drawn at the sprite's 4x scale; two digits are squeezed to fit the half.
    """
    target = NUMERAL_HEIGHT * side
    text = str(number)
    size = max(4, round(target / digit_share()))
    font = theme.font(size, True)
    left, top, right, bottom = font.getbbox(text)
    mask = Image.new("L", (int(right - left) + 4, int(bottom - top) + 4), 0)
    ImageDraw.Draw(mask).text((2 - left, 2 - top), text, font=font, fill=255)
    ink = mask.getbbox()
    if ink is not None:
        mask = mask.crop(ink)
    if len(text) > 1:
        squeezed = max(1, round(mask.width * NUMERAL_SQUEEZE))
        mask = mask.resize((squeezed, mask.height), Image.Resampling.BILINEAR)
    return mask


@lru_cache(maxsize=1)
def digit_share() -> float:
    """How tall flat-topped digits are inked in bold, as a share of the font size (0.73
    for DejaVu; round ones overshoot a little)."""
    font = theme.font(100, True)
    mask = Image.new("L", (400, 200), 0)
    ImageDraw.Draw(mask).text((10, 10), "1457", font=font, fill=255)
    ink = mask.getbbox()
    return (ink[3] - ink[1]) / 100 if ink else 0.75


def numeral_height(unit: int) -> int:
    """How tall the shortest numeral (1-12) is drawn at ``unit``, in whole pixels of ink."""
    side = round(half_side(unit) * _SCALE) - 1  # as tile_sprite lays it out
    shortest = min(_numeral_mask(n, side).height for n in range(1, 13))
    return shortest // _SCALE


def _draw_back(draw: ImageDraw.ImageDraw, inner: tuple[int, int, int, int], unit: int) -> None:
    x0, y0, x1, y1 = inner
    inset = round(unit * 0.12)
    width = max(1, round(unit / 20))
    draw.rounded_rectangle(
        (x0 + inset, y0 + inset, x1 - inset, y1 - inset),
        round(unit * 0.08),
        outline=theme.BACK_LINE,
        width=width,
    )
    cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, unit * 0.12
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=theme.BACK_LINE)


@lru_cache(maxsize=2048)
def text_sprite(text: str, size: int, bold: bool, colour: Colour, background: Colour) -> Sprite:
    """``text`` as tall as the font's line (ascent + descent), its edges blended into
    ``background``; the mask covers the letters only."""
    font = theme.font(size, bold)
    left, _, right, _ = font.getbbox(text)
    ascent, descent = metrics(size, bold)
    box = (max(1, int(right - left)), ascent + descent)
    big = Image.new("RGB", box, background)
    ImageDraw.Draw(big).text((-left, 0), text, font=font, fill=colour)
    mask = Image.new("L", box, 0)
    ImageDraw.Draw(mask).text((-left, 0), text, font=font, fill=255)
    return Sprite(theme.to_palette(big), mask.point(lambda v: 255 if v else 0).convert("1"))


@lru_cache(maxsize=64)
def metrics(size: int, bold: bool) -> tuple[int, int]:
    """The font's ascent and descent at ``size``: a text sprite is their sum tall."""
    font = theme.font(size, bold)
    if hasattr(font, "getmetrics"):
        ascent, descent = font.getmetrics()
        return int(ascent), int(descent)
    return size, 0  # pragma: no cover - bitmap fonts only


@lru_cache(maxsize=4096)
def text_width(text: str, size: int, bold: bool) -> int:
    left, _, right, _ = theme.font(size, bold).getbbox(text)
    return int(right - left)


def widest(texts: Iterable[str], size: int, bold: bool) -> int:
    """The width of the widest of ``texts`` (0 for none)."""
    return max((text_width(t, size, bold) for t in texts), default=0)


@lru_cache(maxsize=1024)
def fit_text(text: str, width: int, size: int, bold: bool, min_size: int) -> tuple[str, int]:
    """The largest size from ``size`` down to ``min_size`` at which ``text`` fits ``width``.

    At ``min_size`` a text still too wide is cut and ends with an ellipsis.
    """
    for s in range(size, min_size - 1, -1):
        if text_width(text, s, bold) <= width:
            return text, s
    cut = text
    while cut and text_width(cut + "…", min_size, bold) > width:
        cut = cut[:-1]
    return (cut + "…" if cut else ""), min_size


@lru_cache(maxsize=512)
def box_sprite(
    width: int,
    height: int,
    radius: int,
    fill: Colour,
    background: Colour,
    outline: Colour | None = None,
    outline_width: int = 0,
) -> Image.Image:
    """A rounded rectangle on a ``background`` rectangle of the same size."""
    s = _SCALE
    big = Image.new("RGB", (width * s, height * s), background)
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, width * s - 1, height * s - 1),
        radius * s,
        fill=fill,
        outline=outline,
        width=outline_width * s,
    )
    return theme.to_palette(big.reduce(s))
