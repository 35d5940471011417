"""Readable where Discord shows it: an embed image about 400 px wide.

Every bar is measured at that size: a length in the picture times 400 over the
picture's width. Each is checked on the geometry the renderer chose (the unit
times the share of it a pip or a numeral takes) over every move of random
games, and on the pixels of drawn boards and hands (the ink of a half, found
by its darkness).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from PIL import Image

from bot.engine.match import MatchState, new_match, play
from bot.engine.rules import Rules
from bot.engine.tiles import full_set, tile
from bot.engine.view import public_view
from render import sprites, theme
from render.board import draw_board, end_value_size, table_geometry
from render.geometry import UNITS, BoardGeometry, Box, PlacedTile
from render.hand import PAD, UNIT, draw_hand
from render.header import header_sizes
from render.samples import HAND_D12, full_match, random_match

SHOWN = 400
"""How wide Discord shows a board (an embed image)."""
PIP = 4.0
"""A double-6 pip at least this many pixels across, as shown, on a typical board (up
to :data:`TYPICAL` tiles: every 2-player deal, most of any other)."""
PIP_FLOOR = 3.5
"""And on every board, all 28 tiles included."""
TYPICAL = 20
NUMERAL = 10.0
"""A double-9/12 numeral at least this many pixels tall, as shown."""
NAMES = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi")

DOUBLE_6 = [
    ("block", {"players": 2}),
    ("block", {"players": 4, "teams": True}),
    ("block", {"players": 3, "layout": "spinner"}),
    ("draw", {"players": 4, "layout": "spinner"}),
    ("allfives", {"players": 2}),
    ("allfives", {"players": 3}),
    ("allfives", {"players": 4, "teams": True}),
    ("latvian", {"players": 4}),
]
BIGGER = [
    ("block", {"set": 9, "players": 4}),
    ("block", {"set": 9, "players": 6}),
    ("draw", {"set": 9, "players": 4, "layout": "spinner"}),
    ("block", {"set": 12, "players": 4}),
    ("block", {"set": 12, "players": 8}),
    ("draw", {"set": 12, "players": 2}),
    ("draw", {"set": 12, "players": 3, "layout": "spinner"}),
    ("draw", {"set": 12, "players": 6}),
]
SEEDS = range(12)


def every_board(game: str, options: dict[str, object]) -> Iterator[MatchState]:
    """The state after every move of a few random deals."""
    rules = Rules.make(game, **options)
    for seed in SEEDS:
        rng = random.Random(seed)
        state = new_match(rules, rng)
        while not state.deal.over:
            state = play(state, rng.choice(state.legal_moves()))
            yield state


def shown(length: float, width: int) -> float:
    """``length`` pixels of a picture ``width`` wide, as Discord shows it."""
    return length * SHOWN / width


# -- the geometry the renderer chose ------------------------------------------


@pytest.mark.parametrize(("game", "options"), DOUBLE_6, ids=lambda x: str(x))
def test_double_6_pips_are_4_px_across_on_typical_boards(
    game: str, options: dict[str, object]
) -> None:
    typical = 0
    for state in every_board(game, options):
        g = table_geometry(public_view(state))
        tiles = state.deal.layout.tile_count()
        pip = shown(sprites.pip_diameter(g.unit), g.width)
        assert pip >= PIP_FLOOR, (tiles, g.unit)
        if tiles <= TYPICAL:
            assert pip >= PIP, (tiles, g.unit)
            typical += 1
    assert typical > 50


@pytest.mark.parametrize("kind", ["line", "spinner"])
def test_double_6_pips_are_readable_with_every_tile_down(kind: str) -> None:
    g = table_geometry(public_view(full_match(6, kind, 4)))  # type: ignore[arg-type]
    assert shown(sprites.pip_diameter(g.unit), g.width) >= PIP_FLOOR


@pytest.mark.parametrize(("game", "options"), BIGGER, ids=lambda x: str(x))
def test_double_9_and_12_numerals_are_10_px_tall(game: str, options: dict[str, object]) -> None:
    biggest = 0
    for state in every_board(game, options):
        g = table_geometry(public_view(state))
        tiles = state.deal.layout.tile_count()
        assert shown(sprites.numeral_height(g.unit), g.width) >= NUMERAL, (tiles, g.unit, g.width)
        biggest = max(biggest, tiles)
    assert biggest > 26  # big boards are among them (these deals lay 28-85 tiles)


@pytest.mark.parametrize("kind", ["line", "spinner"])
@pytest.mark.parametrize("players", [2, 4])
def test_double_12_numerals_are_10_px_tall_with_every_tile_down(kind: str, players: int) -> None:
    """All 91 tiles (double-9 cannot be laid as one chain, see render.samples)."""
    state = full_match(12, kind, players)  # type: ignore[arg-type]
    g = table_geometry(public_view(state))
    assert len(g.tiles) == 91
    assert shown(sprites.numeral_height(g.unit), g.width) >= NUMERAL


def test_numerals_and_pips_take_their_share_of_a_half() -> None:
    """The bars are a property of the unit: the smallest units the boards above use."""
    assert shown(sprites.pip_diameter(40), 800) >= PIP
    assert shown(sprites.pip_diameter(38), 800) < PIP  # so a typical d6 board stays above
    assert shown(sprites.pip_diameter(34), 800) >= PIP_FLOOR
    assert shown(sprites.numeral_height(30), 800) >= NUMERAL  # the smallest unit
    assert shown(sprites.numeral_height(28), 800) < NUMERAL


def test_the_header_and_end_labels_read_at_400_px() -> None:
    for width in (800, 1100, 1400):
        z = header_sizes(width)
        assert shown(z.name, width) >= 11.5  # names, scores, the boneyard's number
        assert shown(z.score, width) >= 14
        assert shown(z.fact_value, width) >= 11.5
        assert shown(min(z.tiles, z.fact_label), width) >= 9.5  # tiles in hand, "Boneyard"
    for unit in UNITS[:-2]:  # a double-6 board's units
        assert shown(end_value_size(unit), 800) >= 10


# -- the pixels ---------------------------------------------------------------


def luminance(colour: tuple[int, int, int]) -> float:
    """WCAG relative luminance."""

    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def palette_colour(index: int) -> tuple[int, int, int]:
    return theme.PALETTE[index]


def ink_box(im: Image.Image, box: Box) -> Box | None:
    """The box around the dark pixels (pips, numerals) within ``box`` of a palette image."""
    crop = im.crop((box.x, box.y, box.right, box.bottom))
    dark = [luminance(c) < 0.2 for c in theme.PALETTE] + [False] * (256 - len(theme.PALETTE))
    mask = crop.point([255 if d else 0 for d in dark])
    found = mask.getbbox()
    if found is None:
        return None
    x1, y1, x2, y2 = found
    return Box(box.x + x1, box.y + y1, x2 - x1, y2 - y1)


def halves(placed: PlacedTile, unit: int, top: int, reach: float) -> Iterator[tuple[int, Box]]:
    """Each half of a face-up tile with its number: a box ``reach`` of the half's side
    around the half's middle, inside the tile's face (no edge, no corner)."""
    b = placed.box
    side = sprites.half_side(unit)
    r = round(side * reach)
    inset = sprites.face_inset(unit)  # each half runs from the face's edge to the divider
    if placed.vertical:
        near, far = (b.y + inset + b.y + b.h // 2) // 2, (b.y + b.h // 2 + b.bottom - inset) // 2
        middles = [(b.x + b.w // 2, near), (b.x + b.w // 2, far)]
    else:
        near, far = (b.x + inset + b.x + b.w // 2) // 2, (b.x + b.w // 2 + b.right - inset) // 2
        middles = [(near, b.y + b.h // 2), (far, b.y + b.h // 2)]
    for number, (cx, cy) in zip((placed.first, placed.second), middles, strict=True):
        assert number is not None
        yield number, Box(cx - r, top + cy - r, 2 * r, 2 * r)


def drawn(state: MatchState) -> tuple[Image.Image, BoardGeometry, int]:
    board = public_view(state)
    im = draw_board(board, names=NAMES[: state.rules.players])
    g = table_geometry(board)
    return im, g, im.height - g.height


def double_6_boards() -> list[MatchState]:
    return [
        random_match(Rules.make("block", players=4, teams=True), seed=4, moves=3),
        random_match(Rules.make("allfives", players=4, teams=True), seed=20),
        full_match(6, "spinner", 4),
    ]


@pytest.mark.parametrize("state", double_6_boards(), ids=lambda s: str(s.deal.layout.tile_count()))
def test_a_pip_on_the_drawn_board_is_4_px_across(state: MatchState) -> None:
    im, g, top = drawn(state)
    measured = []
    for placed in g.tiles:
        for number, box in halves(placed, g.unit, top, 0.15):
            if number in (1, 3, 5):  # the pip in the middle of its half, alone in the box
                ink = ink_box(im, box)
                assert ink is not None
                measured.append(min(ink.w, ink.h))
    assert measured
    bar = PIP if state.deal.layout.tile_count() <= TYPICAL else PIP_FLOOR
    assert shown(min(measured), im.width) >= bar
    assert abs(min(measured) - sprites.pip_diameter(g.unit)) <= 1.5


def double_12_boards() -> list[MatchState]:
    out = [full_match(12, "spinner", 4)]
    for game, options in BIGGER[3:]:
        rules = Rules.make(game, **options)
        state = random_match(rules, seed=3)
        moves = len(state.deal.history)
        for fraction in (1, 2, 3):
            out.append(random_match(rules, seed=3, moves=moves // fraction))
    return out


@pytest.mark.parametrize("state", double_12_boards(), ids=lambda s: str(s.deal.layout.tile_count()))
def test_a_numeral_on_the_drawn_board_is_10_px_tall(state: MatchState) -> None:
    im, g, top = drawn(state)
    heights = []
    for placed in g.tiles:
        if placed.tile is None:
            continue
        for number, box in halves(placed, g.unit, top, 0.45):
            ink = ink_box(im, box)
            if number == 0:
                continue  # a blank half: its faint frame is checked in test_render_shown
            assert ink is not None
            heights.append(ink.h)
    assert heights
    assert shown(min(heights), im.width) >= NUMERAL


# -- hands ---------------------------------------------------------------------

HAND_12 = HAND_D12


def hand_tile_boxes(count: int, per_row: int) -> Iterator[Box]:
    pitch_x = UNIT + 14
    pitch_y = 2 * UNIT + 34 + 14 + 6
    for i in range(count):
        yield Box(PAD + (i % per_row) * pitch_x, PAD + (i // per_row) * pitch_y, UNIT, 2 * UNIT)


def test_a_greyed_double_12_tile_keeps_its_contrast() -> None:
    legal = {tile(10, 10), tile(3, 12)}
    im = draw_hand(HAND_12, legal, top=12)
    assert im.width <= SHOWN  # twelve tiles: two rows of six, shown at full size
    dim_face = theme.index(theme.FACE_DIM)
    checked = 0
    for t, box in zip(HAND_12, hand_tile_boxes(len(HAND_12), 6), strict=True):
        if t in legal:
            continue
        inner = box.x + 8, box.y + 8, box.right - 8, box.bottom - 8
        counts = [(n, i) for n, i in im.crop(inner).getcolors(256) or [] if isinstance(i, int)]
        face = max(counts)[1]
        assert face == dim_face
        ink = min((i for _, i in counts), key=lambda i: luminance(palette_colour(i)))
        assert contrast(palette_colour(face), palette_colour(ink)) >= 3
        # and not just a fringe: the darkest colour is the ink's own, plenty of it
        assert palette_colour(ink) == theme.PIP_DIM
        assert sum(n for n, i in counts if i == ink) >= 40
        checked += 1
    assert checked == len(HAND_12) - len(legal)
    assert contrast(theme.FACE_DIM, theme.PIP_DIM) >= 4.5


@pytest.mark.parametrize("count", [5, 7, 10, 12, 16, 20])
def test_a_hand_reads_at_400_px(count: int) -> None:
    tiles = full_set(12)[-count:]
    im = draw_hand(tiles, set(tiles[:2]), top=12)
    scale = min(1.0, SHOWN / im.width)
    assert sprites.numeral_height(UNIT) * scale >= NUMERAL
    six = draw_hand(tuple(tile(a, 6) for a in range(7)), top=6)
    assert sprites.pip_diameter(UNIT) * min(1.0, SHOWN / six.width) >= PIP


def test_a_hand_of_a_big_set_shows_numerals_even_when_low() -> None:
    low = (tile(1, 2), tile(3, 4))
    assert draw_hand(low, top=12).tobytes() != draw_hand(low).tobytes()
    assert draw_hand(low, top=6).tobytes() == draw_hand(low).tobytes()
