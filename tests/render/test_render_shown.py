"""Every game's board as Discord shows it: the picture resized to 400 px wide.

Measured on the resized pixels (LANCZOS, as a browser scales it down): double-6 pips
at least 4 px across on typical boards, double-9/12 and Mexican Train numerals at
least 10 px tall; blank halves visibly marked; doubles across Mexican Train's trains;
a team's score shown once in the header; long AI names not cut; the badges of the
moves since a player's last turn on the right tiles, in their seats' colours.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from PIL import Image

from bot.engine.match import MatchState, new_match, play
from bot.engine.rules import Rules
from bot.engine.tiles import Tile, tile
from bot.engine.view import PlayerView, SeenPlay, public_view
from render import canvas, header, sprites, station, theme
from render.board import board_badges, draw_board, render_board, table_geometry
from render.geometry import Box
from render.header import header_height, seat_colour
from render.samples import mexican_late, random_match
from render.station import station_badges, station_geometry

SHOWN = 400
NAMES = ("Alice", "Bot 1 (AI, normal)", "Carol", "Bot 3 (AI, hard)", "Erin", "Frank", "Gus", "Hal")


def names_for(board: PlayerView) -> tuple[str, ...]:
    return NAMES[: board.rules.players]


def as_shown(im: Image.Image) -> tuple[Image.Image, float]:
    """The picture resized to 400 px wide (RGB), and the scale."""
    scale = SHOWN / im.width
    small = im.convert("RGB").resize((SHOWN, round(im.height * scale)), Image.Resampling.LANCZOS)
    return small, scale


def lum(c: tuple[int, int, int]) -> float:
    return (0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]) / 255


def ink(small: Image.Image, box: Box, scale: float, dark: float = 0.45) -> Box | None:
    """The box of the pixels darker than ``dark`` within ``box`` (full-size pixels),
    measured on the resized picture."""
    x1, y1 = round(box.x * scale), round(box.y * scale)
    x2, y2 = round(box.right * scale), round(box.bottom * scale)
    crop = small.crop((x1, y1, x2, y2))
    mask = crop.convert("L").point(lambda v: 255 if v < dark * 255 else 0)
    found = mask.getbbox()
    if found is None:
        return None
    a, b, c, d = found
    return Box(x1 + a, y1 + b, c - a, d - b)


@dataclass(frozen=True)
class Half:
    number: int
    box: Box
    """The half's face, inside the tile's edge (full-size pixels)."""


def halves(box: Box, first: int, second: int, unit: int, vertical: bool) -> Iterator[Half]:
    inset = sprites.face_inset(unit) + 1
    if vertical:
        mid = box.y + box.h // 2
        yield Half(
            first, Box(box.x + inset, box.y + inset, box.w - 2 * inset, mid - box.y - inset - 2)
        )
        yield Half(
            second, Box(box.x + inset, mid + 2, box.w - 2 * inset, box.bottom - mid - inset - 2)
        )
    else:
        mid = box.x + box.w // 2
        yield Half(
            first, Box(box.x + inset, box.y + inset, mid - box.x - inset - 2, box.h - 2 * inset)
        )
        yield Half(
            second, Box(mid + 2, box.y + inset, box.right - mid - inset - 2, box.h - 2 * inset)
        )


def centre(half: Box, share: float) -> Box:
    """A box ``share`` of the half's side around its middle."""
    side = min(half.w, half.h)
    r = max(1, round(side * share / 2))
    cx, cy = half.x + half.w // 2, half.y + half.h // 2
    return Box(cx - r, cy - r, 2 * r, 2 * r)


def board_halves(board: PlayerView, title: str | None = None) -> Iterator[tuple[Half, int]]:
    """Every face-up half of a drawn board (full-size pixels, header included), with the
    unit it is drawn at."""
    if board.station is not None:
        g = station_geometry(board, title=title)
        for row in g.rows:
            for car in row.cars:
                yield from (
                    (h, g.unit) for h in halves(car.box, car.first, car.second, g.unit, car.across)
                )
        return
    tg = table_geometry(board, title=title)
    top = header_height(
        board.rules.players,
        bool(title) or board.rules.draws or board.rules.scoring == "fives",
        tg.width,
        board.rules.teams,
    )
    for p in tg.tiles:
        if p.tile is None or p.first is None or p.second is None:
            continue
        b = Box(p.box.x, p.box.y + top, p.box.w, p.box.h)
        yield from ((h, tg.unit) for h in halves(b, p.first, p.second, tg.unit, p.vertical))


def latvian_face_down() -> MatchState:
    """A latvian deal in play with a face-down tile on the table."""
    rules = Rules.make("latvian", players=4)
    for seed in range(200):
        rng = random.Random(seed)
        state = new_match(rules, rng)
        while not state.deal.over:
            moves = state.legal_moves()
            closing = [m for m in moves if m.placements[0].closed and not m.tile.is_double]
            state = play(state, closing[0] if closing and rng.random() < 0.5 else rng.choice(moves))
            arms = state.deal.layout.arms
            if not state.deal.over and any(arm and arm[-1].closed for arm in arms):
                return state
    raise AssertionError("no face-down tile")  # pragma: no cover


def pip_boards() -> list[tuple[str, MatchState]]:
    return [
        ("block 2p", random_match(Rules.make("block", players=2), seed=3)),
        (
            "block 4p teams",
            random_match(Rules.make("block", players=4, teams=True), seed=1, moves=14),
        ),
        (
            "draw 4p spinner",
            random_match(Rules.make("draw", players=4, layout="spinner"), seed=2, moves=12),
        ),
        ("allfives 3p spinner", random_match(Rules.make("allfives", players=3), seed=2, moves=14)),
        ("latvian 4p face down", latvian_face_down()),
    ]


def numeral_boards() -> list[tuple[str, MatchState]]:
    return [
        ("block d9 4p", random_match(Rules.make("block", set=9, players=4), seed=2)),
        (
            "draw d12 3p spinner",
            random_match(Rules.make("draw", set=12, players=3, layout="spinner"), seed=3),
        ),
        ("block d12 8p", random_match(Rules.make("block", set=12, players=8), seed=2)),
        ("mexican 4p", mexican_late(4)),
        ("mexican 8p", mexican_late(8)),
    ]


@pytest.mark.parametrize(
    ("name", "state"), pip_boards(), ids=lambda x: x if isinstance(x, str) else ""
)
def test_double_6_pips_are_4_px_across_as_shown(name: str, state: MatchState) -> None:
    board = public_view(state)
    assert state.deal.layout.tile_count() <= 20  # typical boards
    im = draw_board(board, names=names_for(board), title="Deal 1")
    small, scale = as_shown(im)
    sizes = []
    for half, _ in board_halves(board, "Deal 1"):
        if half.number in (1, 3, 5):  # the pip in the middle of its half, alone
            found = ink(small, centre(half.box, 0.3), scale)
            assert found is not None, (name, half)
            sizes.append(max(found.w, found.h))
    assert sizes
    assert min(sizes) >= 4, (name, sizes)


@pytest.mark.parametrize(
    ("name", "state"), numeral_boards(), ids=lambda x: x if isinstance(x, str) else ""
)
def test_numerals_are_10_px_tall_as_shown(name: str, state: MatchState) -> None:
    board = public_view(state)
    im = draw_board(board, names=names_for(board), title="Deal 1")
    small, scale = as_shown(im)
    heights = []
    for half, _ in board_halves(board, "Deal 1"):
        if half.number:
            found = ink(small, half.box, scale)
            assert found is not None, (name, half)
            heights.append(found.h)
    assert len(heights) >= 10
    assert min(heights) >= 10, (name, sorted(heights)[:5])


def test_the_bars_can_fail() -> None:
    """The same measure on a picture drawn twice as wide (everything half the size as
    shown) finds the pips and numerals too small."""
    _, state = pip_boards()[1]
    board = public_view(state)
    im = draw_board(board, names=names_for(board), title="Deal 1")
    wide = Image.new("RGB", (2 * im.width, im.height), theme.FELT)
    wide.paste(im.convert("RGB"), (0, 0))
    small, scale = as_shown(wide)
    sizes = [
        max(f.w, f.h)
        for half, _ in board_halves(board, "Deal 1")
        if half.number in (1, 3, 5) and (f := ink(small, centre(half.box, 0.3), scale))
    ]
    assert sizes
    assert min(sizes) < 4


@pytest.mark.parametrize(
    ("name", "state"),
    pip_boards()[:2] + numeral_boards()[1:4],
    ids=lambda x: x if isinstance(x, str) else "",
)
def test_a_blank_half_is_marked_not_empty(name: str, state: MatchState) -> None:
    """A blank half shows a faint frame: something light-brown in its middle as shown
    (so the tile does not look half drawn), nothing as dark as a pip or numeral."""
    board = public_view(state)
    im = draw_board(board, names=names_for(board), title="Deal 1")
    small, scale = as_shown(im)
    face = lum(theme.FACE)
    blanks = 0
    for half, _ in board_halves(board, "Deal 1"):
        if half.number:
            continue
        b = half.box
        crop = small.crop(
            (
                round(b.x * scale),
                round(b.y * scale),
                round(b.right * scale),
                round(b.bottom * scale),
            )
        )
        lums = [lum(c) for _, c in crop.getcolors(4096) or []]
        assert min(lums) < face - 0.2, name  # a visible mark
        assert ink(small, b, scale, 0.2) is None, name  # but no ink like a number's
        blanks += 1
    assert blanks, name
    # without the mark the half would be plain face: the check would fail
    plain = Image.new("RGB", (40, 40), theme.FACE)
    assert min(lum(c) for _, c in plain.getcolors() or []) >= face - 0.01


def test_mexican_doubles_stand_across_their_train() -> None:
    board = public_view(mexican_late(8))
    g = station_geometry(board)
    doubles = [car for row in g.rows for car in row.cars if car.tile.is_double]
    assert doubles
    for car in doubles:
        assert car.across
        assert car.box.h == 2 * g.unit
        assert car.box.w == g.unit
    others = [car for row in g.rows for car in row.cars if not car.tile.is_double]
    assert all(not car.across for car in others)


# -- the header ---------------------------------------------------------------------


def recording(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    drawn: list[str] = []

    def draw_text(im: Image.Image, text: str, x: int, y: int, size: int, **kw: Any) -> int:
        if text:
            drawn.append(text)
        return canvas.draw_text(im, text, x, y, size, **kw)

    monkeypatch.setattr(header, "draw_text", draw_text)
    monkeypatch.setattr(station, "draw_text", draw_text)
    return drawn


def test_a_team_score_is_shown_once_per_team(monkeypatch: pytest.MonkeyPatch) -> None:
    state = random_match(Rules.make("allfives", players=4, teams=True), seed=9, moves=6)
    drawn = recording(monkeypatch)
    draw_board(public_view(state), names=NAMES[:4], totals=(35, 120))
    assert drawn.count("35") == 1
    assert drawn.count("120") == 1
    for name in ("Alice", "Carol"):
        assert name in drawn
    # one chip per team: the header is a single row of two
    assert header_height(4, True, 800, True) < header_height(4, True, 800) + 20
    drawn.clear()  # and a game without teams shows every seat's own score
    solo = random_match(Rules.make("allfives", players=4), seed=9, moves=6)
    draw_board(public_view(solo), names=NAMES[:4], totals=(35, 120, 35, 5))
    assert drawn.count("35") == 2


@pytest.mark.parametrize(
    "state",
    [
        random_match(Rules.make("block", players=4), seed=1, moves=4),
        random_match(Rules.make("block", players=4, teams=True), seed=1, moves=4),
        mexican_late(8),
    ],
    ids=["4 seats", "teams", "mexican 8"],
)
def test_long_ai_names_are_not_cut(monkeypatch: pytest.MonkeyPatch, state: MatchState) -> None:
    drawn = recording(monkeypatch)
    board = public_view(state)
    draw_board(board, names=names_for(board), title="Deal 1")
    assert not [t for t in drawn if t.endswith("…")]
    assert any(t.startswith("Bot 1") for t in drawn)
    assert any(t.startswith("Bot 3") for t in drawn)
    assert any("AI" in t for t in drawn)  # the header still says it is the AI


def test_split_name() -> None:
    assert header.split_name("Bot 1 (AI, normal)") == ("Bot 1", "AI, normal")
    assert header.split_name("Botti 1 (tekoäly, vaikea)") == ("Botti 1", "tekoäly, vaikea")
    assert header.split_name("Alice") == ("Alice", "")
    assert header.split_name("(x)") == ("(x)", "")
    assert header.short_note("AI, normal") == "AI"


# -- recent moves -----------------------------------------------------------------


def laid_since(state: MatchState, count: int) -> list[tuple[int, Tile]]:
    """The last ``count`` tiles laid face up, as (seat, tile), in order."""
    out = []
    for event in public_view(state).history:
        if isinstance(event, SeenPlay):
            out.extend((event.seat, p.tile) for p in event.placements if p.tile is not None)
    return out[-count:]


def seat_pixels(im: Image.Image, box: Box, colour: tuple[int, int, int]) -> int:
    crop = im.crop((box.x, box.y, box.right, box.bottom))
    index = theme.index(colour)
    return sum(n for n, i in crop.getcolors(65536) or [] if i == index)


@pytest.mark.parametrize(
    "state",
    [
        random_match(Rules.make("draw", players=4), seed=5, moves=10),
        random_match(Rules.make("allfives", players=4, teams=True), seed=2, moves=12),
        random_match(Rules.make("block", set=12, players=3, layout="spinner"), seed=3, moves=20),
        mexican_late(4),
    ],
    ids=["draw 4p", "allfives teams", "d12 spinner", "mexican 4p"],
)
def test_recent_moves_get_numbered_badges_on_their_tiles(state: MatchState) -> None:
    board = public_view(state)
    names = names_for(board)
    recent = laid_since(state, 3)
    assert len(recent) == 3
    stray = (recent[0][0], next(t for t in state.deal.hand(0)))  # in a hand, not on the table
    im = draw_board(board, names=names, recent=[*recent, stray])
    if board.station is not None:
        g = station_geometry(board)
        badges = station_badges(g, [*recent, stray])
        boxes = {car.tile: car.box for row in g.rows for car in row.cars}
    else:
        tg = table_geometry(board)
        top = im.height - tg.height
        badges = board_badges(tg, [*recent, stray], top)
        boxes = {p.tile: Box(p.box.x, p.box.y + top, p.box.w, p.box.h) for p in tg.tiles}
    assert [(b.number, b.seat, b.tile) for b in badges] == [
        (n, seat, t) for n, (seat, t) in enumerate(recent, start=1)
    ]  # numbered in order; the stray tile has none
    for badge in badges:
        assert badge.box.overlaps(boxes[badge.tile])  # on its own tile
        colour = seat_colour(badge.seat, board.rules.teams)
        assert seat_pixels(im, badge.box, colour) > badge.box.w  # drawn in the seat's colour
        assert shown_digits(badge.box.w) >= 8
    # the stray tile changes nothing; without badges the picture differs
    assert render_board(board, names=names, recent=[*recent, stray]) == render_board(
        board, names=names, recent=recent
    )
    assert render_board(board, names=names) != render_board(board, names=names, recent=recent)


def shown_digits(diameter: int) -> float:
    """How tall a badge's digits are as shown (drawn on an 800 px picture)."""
    from render.badges import DIGIT_SHARE

    return diameter * DIGIT_SHARE * SHOWN / 800


def test_a_face_down_tile_gets_no_badge() -> None:
    state = latvian_face_down()
    layout = state.deal.layout
    hidden = next(laid for arm in layout.arms for laid in arm if laid.closed)
    board = public_view(state)
    names = names_for(board)
    recent = [(0, hidden.tile)]
    assert board_badges(table_geometry(board), recent) == []
    assert render_board(board, names=names, recent=recent) == render_board(board, names=names)


def test_badges_are_readable_as_shown() -> None:
    state = random_match(Rules.make("draw", players=2), seed=5, moves=6)
    board = public_view(state)
    recent = laid_since(state, 2)
    im = draw_board(board, names=names_for(board), recent=recent)
    small, scale = as_shown(im)
    tg = table_geometry(board)
    top = im.height - tg.height
    for badge in board_badges(tg, recent, top):
        inner = Box(
            badge.box.x + badge.box.w // 4,
            badge.box.y + badge.box.h // 4,
            badge.box.w // 2,
            badge.box.h // 2,
        )
        digit = ink(small, inner, scale, 0.2)
        assert digit is not None
        assert digit.h >= 7  # the digit, as shown


def test_a_tile_not_on_the_table_is_skipped_silently() -> None:
    state = random_match(Rules.make("block", players=2), seed=1, moves=2)
    board = public_view(state)
    absent = [tile(a, b) for a in range(7) for b in range(a, 7)]
    on_table = {p.tile for p in table_geometry(board).tiles}
    absent = [t for t in absent if t not in on_table][:3]
    assert render_board(board, names=names_for(board), recent=[(1, t) for t in absent]) == (
        render_board(board, names=names_for(board))
    )
