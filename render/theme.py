"""Colours, the shared palette and fonts.

Every image is a palette ("P") image over one fixed palette: cheap to encode
and small. Anti-aliased edges (pips, text, rounded corners) need in-between
shades, so the palette holds a short ramp between every pair of colours that
meet; sprites are drawn in RGB once, then mapped onto this palette.

Fonts: DejaVu Sans when the system has it (it covers Latvian and Cyrillic
letters), else Pillow's built-in font at the same size, so a machine without
DejaVu still renders (with fewer glyphs).
"""

from __future__ import annotations

import logging
from functools import cache
from itertools import product

from PIL import Image, ImageFont

log = logging.getLogger(__name__)

Colour = tuple[int, int, int]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

FELT: Colour = (22, 96, 60)
FELT_DARK: Colour = (15, 72, 44)
FACE: Colour = (248, 243, 228)
FACE_FRESH: Colour = (255, 226, 130)
FACE_DIM: Colour = (168, 174, 182)
EDGE: Colour = (84, 76, 62)
EDGE_FRESH: Colour = (200, 120, 0)
PIP: Colour = (26, 26, 30)
PIP_DIM: Colour = (58, 58, 62)
"""On ``FACE_DIM``: a WCAG contrast of 5, so a greyed tile's numbers still read."""
DIVIDER: Colour = (160, 148, 124)
BACK: Colour = (36, 52, 96)
BACK_LINE: Colour = (96, 118, 168)
GOLD: Colour = (246, 190, 40)
LABEL: Colour = (8, 40, 24)
LABEL_CLOSED: Colour = (118, 30, 36)
TEXT: Colour = (250, 250, 244)
TEXT_MUTED: Colour = (178, 196, 186)
INK: Colour = (24, 24, 24)
PANEL: Colour = (16, 30, 24)
CHIP: Colour = (32, 52, 44)
ROW: Colour = (26, 42, 36)

TEAM_COLOURS: tuple[Colour, ...] = ((72, 146, 232), (236, 102, 80))
SEAT_COLOURS: tuple[Colour, ...] = (
    (72, 146, 232),
    (236, 102, 80),
    (104, 196, 108),
    (182, 120, 222),
    (240, 170, 60),
    (64, 196, 196),
    (230, 110, 170),
    (170, 170, 170),
)

_BASE: tuple[Colour, ...] = (
    FELT,
    FELT_DARK,
    FACE,
    FACE_FRESH,
    FACE_DIM,
    EDGE,
    EDGE_FRESH,
    PIP,
    PIP_DIM,
    DIVIDER,
    BACK,
    BACK_LINE,
    GOLD,
    LABEL,
    LABEL_CLOSED,
    TEXT,
    TEXT_MUTED,
    INK,
    PANEL,
    CHIP,
    ROW,
    *TEAM_COLOURS,
    *SEAT_COLOURS,
)

# Colours that touch each other in some image and so need a ramp between them.
_RAMPS: tuple[tuple[Colour, Colour], ...] = (
    (FACE, PIP),
    (FACE_FRESH, PIP),
    (FACE_DIM, PIP_DIM),
    (FACE, EDGE),
    (FACE_FRESH, EDGE_FRESH),
    (FACE_DIM, EDGE),
    *product((FACE, FACE_FRESH, FACE_DIM), [DIVIDER]),
    (EDGE, FELT),
    (EDGE, FELT_DARK),
    (EDGE_FRESH, FELT),
    (FELT, FELT_DARK),
    (BACK, BACK_LINE),
    (BACK, EDGE),
    (BACK, EDGE_FRESH),
    (FACE, BACK),
    (BACK, FELT),
    *product((TEXT, TEXT_MUTED), (LABEL, LABEL_CLOSED)),
    (LABEL, FELT),
    (LABEL_CLOSED, FELT),
    *product((TEXT, TEXT_MUTED), (PANEL, CHIP, ROW)),
    *product([GOLD], (CHIP, PANEL, ROW)),
    (CHIP, PANEL),
    (ROW, PANEL),
    (INK, GOLD),
    (GOLD, FELT),
    (TEXT, FELT),
    *product([EDGE], (PANEL, ROW, CHIP)),
    *product([INK], (FELT, FACE, FACE_FRESH)),
)
_STEPS = 4


def _ramp(a: Colour, b: Colour) -> list[Colour]:
    def step(i: int, channel: int) -> int:
        return round(a[channel] + (b[channel] - a[channel]) * i / _STEPS)

    return [(step(i, 0), step(i, 1), step(i, 2)) for i in range(1, _STEPS)]


def _build_palette() -> tuple[Colour, ...]:
    colours: dict[Colour, None] = dict.fromkeys(_BASE)
    for a, b in _RAMPS:
        colours.update(dict.fromkeys(_ramp(a, b)))
    for seat_colour in (*TEAM_COLOURS, *SEAT_COLOURS):
        for background in (CHIP, ROW, INK):  # INK: a recent move's badge (render.badges)
            colours.update(dict.fromkeys(_ramp(seat_colour, background)))
    out = tuple(colours)
    if len(out) > 256:
        raise RuntimeError(f"the palette needs {len(out)} colours, more than 256")
    return out


PALETTE: tuple[Colour, ...] = _build_palette()
PALETTE_BYTES: bytes = bytes(channel for colour in PALETTE for channel in colour)
_INDEX: dict[Colour, int] = {colour: i for i, colour in enumerate(PALETTE)}


def index(colour: Colour) -> int:
    """The palette index of one of this module's colours."""
    return _INDEX[colour]


@cache
def palette_image() -> Image.Image:
    """A 1x1 image carrying the palette, for :meth:`PIL.Image.Image.quantize`."""
    im = Image.new("P", (1, 1))
    im.putpalette(PALETTE_BYTES)
    return im


def to_palette(im: Image.Image) -> Image.Image:
    """Map an RGB drawing onto the shared palette (nearest colour, no dithering)."""
    return im.convert("RGB").quantize(palette=palette_image(), dither=Image.Dither.NONE)


_FONT_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}


@cache
def font(size: int, bold: bool = False) -> Font:
    """A font at ``size`` pixels, loaded once."""
    try:
        return ImageFont.truetype(_FONT_FILES[bold], size)
    except OSError:
        log.info("DejaVu Sans not found; using Pillow's built-in font")
        return ImageFont.load_default(size=size)
