"""A game review as one picture: each seat's accuracy, a chart of the deal, and the
three biggest mistakes, each drawn as its position (the board, the player's hand with
the move played and the better one lit).

Everything drawn comes from a :class:`ReviewCard` (the caller's words, already
translated, and the positions of a finished deal: ``bot.engine.review.Position``), so
nothing here can show a tile the deal's record does not.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from bot.engine.moves import Move
from bot.engine.tiles import Tile
from bot.engine.view import PlayerView

from . import theme
from .board import draw_board
from .canvas import draw_box, draw_stripe, draw_text, line_height, to_png
from .hand import draw_hand
from .header import seat_colour
from .labels import ENGLISH, Labels
from .sprites import fit_text, text_width
from .theme import Colour

__all__ = ["MistakePicture", "ReviewCard", "SeatLine", "draw_review", "render_review"]

WIDTH = 1000
PAD = 24
TITLE = 30
TEXT = 20
SMALL = 16
CHART_HEIGHT = 150
BOARD_BOX = (600, 330)
"""The most room a mistake's board takes (scaled down to fit)."""
HAND_BOX = (WIDTH - 3 * PAD - BOARD_BOX[0], 330)


@dataclass(frozen=True, slots=True)
class SeatLine:
    """One seat's line: its name and its accuracy (as the caller writes it)."""

    seat: int
    name: str
    accuracy: str


@dataclass(frozen=True, slots=True)
class MistakePicture:
    """One mistake: a heading, a caption, and the position before it."""

    heading: str
    caption: str
    board: PlayerView
    """A spectator's view of the position (``bot.engine.review.Position.board``)."""
    hand: tuple[Tile, ...]
    played: Move
    better: Move
    played_key: str
    """The word under the tile played (and under the better one's, ``better_key``)."""
    better_key: str


@dataclass(frozen=True, slots=True)
class ReviewCard:
    title: str
    subtitle: str
    names: tuple[str, ...]
    teams: bool
    seats: tuple[SeatLine, ...]
    chart_title: str
    chart: tuple[tuple[int, float, float], ...]
    """Per move: (seat, known cost, open cost)."""
    mistakes: tuple[MistakePicture, ...]
    no_mistakes: str
    """Said where the mistakes would be when there are none."""
    footer: str
    labels: Labels = ENGLISH


def render_review(card: ReviewCard) -> bytes:
    """The review as PNG bytes."""
    return to_png(draw_review(card))


def draw_review(card: ReviewCard) -> Image.Image:
    """The review as an RGB image (what :func:`render_review` encodes)."""
    parts = [_head(card), _chart(card), *(_mistake(card, m) for m in card.mistakes)]
    if not card.mistakes:
        parts.append(_text_band([card.no_mistakes], TEXT))
    if card.footer:
        parts.append(
            _text_band(_wrap(card.footer, SMALL, WIDTH - 2 * PAD), SMALL, theme.TEXT_MUTED)
        )
    im = _canvas(sum(p.height for p in parts))
    y = 0
    for p in parts:
        im.paste(p, (0, y))
        y += p.height
    return im


def _canvas(height: int, colour: Colour = theme.FELT) -> Image.Image:
    return Image.new("RGB", (WIDTH, height), colour)


def _head(card: ReviewCard) -> Image.Image:
    rows = -(-len(card.seats) // 4)
    chip_h = 2 * line_height(TEXT) + 16
    height = PAD + line_height(TITLE, True) + 6 + line_height(TEXT) + 12 + rows * (chip_h + 8) + 4
    im = _canvas(height, theme.PANEL)
    y = PAD
    draw_text(im, card.title, PAD, y, TITLE, bold=True, background=theme.PANEL)
    y += line_height(TITLE, True) + 6
    draw_text(im, card.subtitle, PAD, y, TEXT, colour=theme.TEXT_MUTED, background=theme.PANEL)
    y += line_height(TEXT) + 12
    chip_w = (WIDTH - 2 * PAD - 3 * 8) // 4
    for i, line in enumerate(card.seats):
        x = PAD + (i % 4) * (chip_w + 8)
        top = y + (i // 4) * (chip_h + 8)
        colour = seat_colour(line.seat, card.teams)
        draw_box(im, x, top, chip_w, chip_h, radius=10, fill=theme.CHIP, background=theme.PANEL)
        draw_stripe(im, x, top, chip_h, colour, theme.CHIP, 8)
        name = fit_text(line.name, chip_w - 24, TEXT, False, TEXT)[0]
        draw_text(im, name, x + 16, top + 6, TEXT, background=theme.CHIP)
        draw_text(
            im,
            line.accuracy,
            x + 16,
            top + 8 + line_height(TEXT),
            TEXT,
            bold=True,
            colour=theme.GOLD,
            background=theme.CHIP,
        )
    return im


def _chart(card: ReviewCard) -> Image.Image:
    """Bars, one a move: its known cost in the mover's colour, a tick at its open cost."""
    label_h = line_height(SMALL)
    im = _canvas(PAD + label_h + 8 + CHART_HEIGHT + 12)
    draw_text(
        im, card.chart_title, PAD, PAD // 2, SMALL, colour=theme.TEXT_MUTED, background=theme.FELT
    )
    top = PAD // 2 + label_h + 8
    base = top + CHART_HEIGHT
    inner = WIDTH - 2 * PAD
    draw_box(
        im,
        PAD - 6,
        top - 6,
        inner + 12,
        CHART_HEIGHT + 12,
        radius=8,
        fill=theme.FELT_DARK,
        background=theme.FELT,
    )
    series = card.chart
    if not series:
        return im
    high = max(max(k, o) for _, k, o in series) or 1.0
    step = inner / len(series)
    bar = max(2, int(step * 0.7))
    pixels = im.load()
    assert pixels is not None
    for i, (seat, known, opened) in enumerate(series):
        x0 = PAD + int(i * step + (step - bar) / 2)
        colour = seat_colour(seat, card.teams)
        h = round((CHART_HEIGHT - 4) * known / high)
        for x in range(x0, x0 + bar):
            pixels[x, base - 1] = colour  # every move shows, a costless one as a line
            for y in range(base - h, base):
                pixels[x, y] = colour
        if opened > 0:
            y = base - round((CHART_HEIGHT - 4) * opened / high)
            for x in range(x0 - 1, x0 + bar + 1):
                for dy in (0, 1):
                    pixels[x, max(top, y - dy)] = theme.TEXT
    return im


def _mistake(card: ReviewCard, m: MistakePicture) -> Image.Image:
    heading_h = line_height(TEXT, True)
    caption = _wrap(m.caption, SMALL, WIDTH - 2 * PAD)
    caption_h = len(caption) * (line_height(SMALL) + 2)
    board = _fit(draw_board(m.board, names=card.names, labels=card.labels), BOARD_BOX)
    lit = frozenset(m.played.tiles) | frozenset(m.better.tiles)
    keys = dict.fromkeys(m.better.tiles, m.better_key)
    keys.update(dict.fromkeys(m.played.tiles, m.played_key))  # the same tile: "played"
    hand = _fit(
        draw_hand(m.hand, lit & frozenset(m.hand), keys=keys, top=m.board.rules.set), HAND_BOX
    )
    body = max(board.height, hand.height)
    im = _canvas(PAD + heading_h + 4 + caption_h + 8 + body + 4)
    y = PAD
    draw_text(im, m.heading, PAD, y, TEXT, bold=True, colour=theme.GOLD, background=theme.FELT)
    y += heading_h + 4
    for line in caption:
        draw_text(im, line, PAD, y, SMALL, background=theme.FELT)
        y += line_height(SMALL) + 2
    y += 8
    im.paste(board, (PAD, y))
    im.paste(hand, (2 * PAD + BOARD_BOX[0], y))
    return im


def _text_band(lines: Sequence[str], size: int, colour: Colour = theme.TEXT) -> Image.Image:
    im = _canvas(PAD + len(lines) * (line_height(size) + 2) + 4)
    y = PAD // 2
    for line in lines:
        draw_text(im, line, PAD, y, size, colour=colour, background=theme.FELT)
        y += line_height(size) + 2
    return im


def _fit(im: Image.Image, box: tuple[int, int]) -> Image.Image:
    """``im`` in RGB, scaled down (never up) to fit ``box``."""
    im = im.convert("RGB")
    scale = min(1.0, box[0] / im.width, box[1] / im.height)
    if scale >= 1.0:
        return im
    size = (max(1, int(im.width * scale)), max(1, int(im.height * scale)))
    return im.resize(size, Image.Resampling.LANCZOS)


def _wrap(text: str, size: int, width: int) -> list[str]:
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            trial = f"{line} {word}" if line else word
            if line and text_width(trial, size, False) > width:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return lines
