"""Mexican Train's table (render/station.py): the station, one row per train.

Checked on the geometry the renderer chose (:func:`render.station.station_geometry`)
and on the drawn pixels: nothing overlaps, every train's cars are drawn in the order
they were laid, markers only on marked trains, the double that waits ringed, the last
tile lit, doubles across the train, no tile split between two lines, recent moves
badged, sizes readable where Discord shows the picture (about 400 px wide), and the
picture drawn from the public view only.
"""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from dataclasses import dataclass, replace
from itertools import combinations, pairwise
from typing import Any

import pytest
from PIL import Image

from bot.engine.deal import Deal
from bot.engine.match import MatchState, new_match, play
from bot.engine.rules import Rules
from bot.engine.tiles import PIPS
from bot.engine.trains import MEXICAN, Car
from bot.engine.view import PlayerView, StationView, TrainView, public_view, view
from render import canvas, header, sprites, station, theme
from render.board import draw_board, render_board
from render.canvas import to_png
from render.geometry import Box
from render.labels import Labels
from render.samples import _circuit, mexican_late, random_match
from render.station import (
    MAX_LINES,
    SHOWN,
    TOKEN,
    UNITS,
    StationGeometry,
    draw_station,
    last_tiles,
    station_geometry,
)

NAMES = ("Alice", "Bob", "Carol", "Dmitrijs Ozoliņš", "Erin", "Frank", "Grace", "Heidi")
LIMIT = 150 * 1024
NUMERAL = 10.0
"""A double-12 numeral at least this many pixels tall, as shown."""
TEXT = 10.0
"""Every word at least this many pixels (font size), as shown."""


def shown(length: float, width: int) -> float:
    """``length`` pixels of a picture ``width`` wide, as Discord shows it (400 px)."""
    return length * SHOWN / width


def names_for(board: PlayerView) -> tuple[str, ...]:
    return NAMES[: board.rules.players]


def decode(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    im.load()
    assert im.format == "PNG"
    return im


def every_board(players: int, seeds: range = range(3)) -> Iterator[PlayerView]:
    """The public view after every move of a few random rounds."""
    rules = Rules.make("mexican", players=players)
    for seed in seeds:
        rng = random.Random(seed)
        state = new_match(rules, rng)
        yield public_view(state)
        while not state.deal.over:
            state = play(state, rng.choice(state.legal_moves()))
            yield public_view(state)


def late(players: int) -> PlayerView:
    return public_view(mexican_late(players))


def long_trains() -> PlayerView:
    """Two players, a 60-car train and a 30-car one, the Mexican train empty: every
    tile of double-12 but the engine (no real round gets there)."""
    board = late(2)
    chain = _circuit(12)[1:]  # from 12 back to 12

    def cars(tiles: list[Any]) -> tuple[Car, ...]:
        out, inner = [], 12
        for t in tiles:
            outer = PIPS[t] - inner
            out.append(Car(t, inner, outer))
            inner = outer
        return tuple(out)

    first, second = cars(chain[:60]), cars(chain[60:][::-1])
    assert len(second) == 30
    trains = (
        TrainView(0, first, first[-1].outer, True),
        TrainView(1, second, second[-1].outer, False),
        TrainView(MEXICAN, (), 12, False),
    )
    assert board.station is not None
    return replace(board, station=StationView(12, trains, None))


def boxes(g: StationGeometry) -> Iterator[tuple[str, Box]]:
    """Every box drawn on the table: labels, names, markers, badges, cars, the station."""
    yield "station", g.station
    for row in g.rows:
        yield f"label {row.train}", row.label
        if row.more is not None:
            yield f"more {row.train}", row.more
        for car in row.cars:
            yield f"car {row.train}.{car.index}", car.box


SAMPLES = [late(2), late(4), late(8), long_trains()]
IDS = ["late 2p", "late 4p", "late 8p", "60 and 30 cars"]


# -- the geometry --------------------------------------------------------------------


@pytest.mark.parametrize("board", SAMPLES, ids=IDS)
def test_nothing_overlaps_and_everything_is_inside(board: PlayerView) -> None:
    g = station_geometry(board)
    found = list(boxes(g))
    for (a, box_a), (b, box_b) in combinations(found, 2):
        assert not box_a.overlaps(box_b), (a, b)
    for what, box in found:
        assert box.inside(g.width, g.height), what
        assert box.y >= g.top, what  # below the header
    assert g.engine.x >= g.station.x
    assert g.engine.right <= g.station.right
    assert g.engine.y >= g.station.y
    assert g.engine.bottom <= g.station.bottom
    for row in g.rows:
        assert row.name.x >= row.label.x
        assert row.name.right <= row.label.right
        if row.marker is not None:
            assert row.marker.x >= row.name.right  # the token never covers the name
            assert row.marker.right <= row.label.right
            assert row.marker.y >= row.label.y
            assert row.marker.bottom <= row.label.bottom
        for car in row.cars:  # a row's cars stay in its band
            assert row.box.y <= car.box.y
            assert car.box.bottom <= row.box.bottom
    for upper, lower in pairwise(g.rows):
        assert upper.box.bottom < lower.box.y
    if g.ring is not None:  # the ring stays off every other car
        for row in g.rows:
            for car in row.cars:
                ringed = g.ring.x < car.box.x and car.box.right < g.ring.right
                assert (ringed and g.ring.y < car.box.y) or not g.ring.overlaps(car.box)


@pytest.mark.parametrize("board", SAMPLES, ids=IDS)
def test_every_train_is_drawn_in_order(board: PlayerView) -> None:
    g = station_geometry(board)
    assert board.station is not None
    trains = board.station.trains
    assert [row.train for row in g.rows] == [t.train for t in trains]
    assert g.rows[-1].train == MEXICAN
    for row, train in zip(g.rows, trains, strict=True):
        count = len(train.cars)
        assert row.hidden + len(row.cars) == count
        assert [c.index for c in row.cars] == list(range(row.hidden, count))
        assert [c.tile for c in row.cars] == [car.tile for car in train.cars[row.hidden :]]
        for car, laid in zip(row.cars, train.cars[row.hidden :], strict=True):
            assert (car.first, car.second) == (laid.inner, laid.outer)
        for a, b in pairwise(row.cars):
            assert a.second == b.first  # the halves that touch match
            # reading order: on along the line, or down to the start of the next
            assert (a.line == b.line and a.box.right < b.box.x) or (
                b.line == a.line + 1 and b.box.y > row.tracks[a.line].y and b.box.x < a.box.x
            )
        for car in row.cars:  # a whole tile on its own line's band, never split
            track = row.tracks[car.line]
            assert track.y <= car.box.y
            assert car.box.bottom <= track.bottom
            assert track.x <= car.box.x
            assert car.box.right <= track.right
        if row.cars:
            assert row.cars[-1].second == train.end
        assert 1 <= row.lines <= MAX_LINES
        assert (row.more is not None) == (row.hidden > 0)


def test_real_trains_leave_from_the_engine() -> None:
    for players in (2, 4, 8):
        board = late(players)
        assert board.station is not None
        for row in station_geometry(board).rows:
            if row.cars and not row.hidden:
                assert row.cars[0].first == board.station.engine


def test_a_train_of_30_cars_fits_and_longer_ones_are_counted() -> None:
    board = long_trains()
    g = station_geometry(board)
    sixty, thirty, mexican = g.rows
    assert g.unit == UNITS[-1]
    assert thirty.hidden + len(thirty.cars) == 30
    assert len(thirty.cars) >= 3 * 8 - 1  # eight tiles a line at the smallest unit
    assert sixty.hidden > 0
    assert sixty.more is not None
    assert sixty.lines == MAX_LINES
    assert {c.line for c in sixty.cars} == set(range(MAX_LINES))  # every line is used
    last_line = [c for c in sixty.cars if c.line == MAX_LINES - 1]
    room = sixty.tracks[-1].right - last_line[-1].box.right
    assert room < 2 * g.unit + station.CAR_GAP  # full: one more car would need a fourth line
    assert sixty.more.x < sixty.cars[0].box.x
    assert sixty.cars[0].line == 0
    assert sixty.cars[-1].index == 59  # the last cars are the ones shown
    assert mexican.cars == ()
    assert mexican.lines == 1


def test_the_unit_steps_down_as_trains_grow_and_stays_readable() -> None:
    for players in (2, 4, 6, 8):
        units = [station_geometry(b).unit for b in every_board(players, range(1))]
        assert units[0] == UNITS[0]  # an empty station: the largest tiles
        assert all(a >= b for a, b in pairwise(units))  # never back up within a round
        assert min(units) >= UNITS[-1]


# -- sizes where Discord shows it ------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4, 8])
def test_numerals_are_10_px_tall_on_every_board(players: int) -> None:
    for board in every_board(players):
        g = station_geometry(board)
        assert shown(sprites.numeral_height(g.unit), g.width) >= NUMERAL, g.unit


def dark_ink(im: Image.Image, box: Box) -> Box | None:
    """The box around the numerals' ink (dark pixels) within ``box``."""
    crop = im.crop((box.x, box.y, box.right, box.bottom))
    dark = [sum(c) < 200 for c in theme.PALETTE] + [False] * (256 - len(theme.PALETTE))
    found = crop.point([255 if d else 0 for d in dark]).getbbox()
    if found is None:
        return None
    x1, y1, x2, y2 = found
    return Box(box.x + x1, box.y + y1, x2 - x1, y2 - y1)


def test_a_numeral_on_the_drawn_8_player_board_is_10_px_tall() -> None:
    board = late(8)
    g = station_geometry(board)
    im = draw_station(board, names=names_for(board))
    heights = []
    inset = sprites.face_inset(g.unit) + 2
    for row in g.rows:
        for car in row.cars:
            b = car.box
            halves = (
                Box(b.x + inset, b.y + inset, b.w // 2 - inset - 2, b.h - 2 * inset),
                Box(b.x + b.w // 2 + 2, b.y + inset, b.w // 2 - inset - 2, b.h - 2 * inset),
            )
            for number, half in zip((car.first, car.second), halves, strict=True):
                ink = dark_ink(im, half)
                if number == 0:
                    assert ink is None  # a blank half has no dark ink (a faint frame)
                else:
                    assert ink is not None
                    heights.append(ink.h)
    assert len(heights) > 100
    assert shown(min(heights), im.width) >= NUMERAL


@dataclass(frozen=True)
class Drawn:
    text: str
    size: int
    box: tuple[int, int, int, int]


def recording(monkeypatch: pytest.MonkeyPatch) -> list[Drawn]:
    """Record every text the station and its header draw from now on."""
    drawn: list[Drawn] = []

    def draw_text(im: Image.Image, text: str, x: int, y: int, size: int, **kw: Any) -> int:
        width = canvas.draw_text(im, text, x, y, size, **kw)
        align = kw.get("align", "left")
        left = x - width // 2 if align == "centre" else x - width if align == "right" else x
        if text:
            box = (left, y, left + width, y + canvas.line_height(size, kw.get("bold", False)))
            drawn.append(Drawn(text, size, box))
        return width

    monkeypatch.setattr(station, "draw_text", draw_text)
    monkeypatch.setattr(header, "draw_text", draw_text)
    return drawn


@pytest.mark.parametrize("board", SAMPLES, ids=IDS)
def test_every_word_reads_at_400_px_and_none_overlap(
    monkeypatch: pytest.MonkeyPatch, board: PlayerView
) -> None:
    drawn = recording(monkeypatch)
    im = draw_station(board, names=names_for(board), title="Round 1")
    texts = {d.text for d in drawn}
    assert "Mexican" in texts  # "Mexican train", on two lines
    assert any(name in texts for name in NAMES)
    for d in drawn:
        assert shown(d.size, im.width) >= TEXT, d
        assert Box(d.box[0], d.box[1], d.box[2] - d.box[0], d.box[3] - d.box[1]).inside(
            im.width, im.height
        ), d
    for a, b in combinations(drawn, 2):
        apart = (
            a.box[2] - 1 <= b.box[0]
            or b.box[2] - 1 <= a.box[0]
            or a.box[3] - 1 <= b.box[1]
            or b.box[3] - 1 <= a.box[1]
        )
        assert apart, (a, b)
    g = station_geometry(board, title="Round 1")
    assert {f"+{row.hidden}" for row in g.rows if row.hidden} <= texts  # the badges
    assert "Engine" in texts
    for row, train in zip(g.rows, board.station.trains if board.station else (), strict=True):
        name = "Mexican train" if train.train == MEXICAN else NAMES[train.train]
        row_texts = [d for d in drawn if d.box[1] >= row.label.y and d.box[3] <= row.label.bottom]
        label = [d for d in row_texts if d.box[0] >= row.name.x and d.box[2] <= row.name.right]
        if train.train == MEXICAN:
            assert " ".join(d.text for d in label) == name  # one or two lines, not cut
            continue
        assert len(label) == 1
        assert label[0].text == name or label[0].text.endswith("…")


def test_a_long_name_is_trimmed_at_the_smallest_size() -> None:
    board = late(4)
    long = ("Ilze Bērziņa-Kalniņa von Longname the Third", *NAMES[1:4])
    g = station_geometry(board)
    text, size = sprites.fit_text(long[0], g.rows[0].name.w, station.NAME_SIZE, True, 20)
    assert text.endswith("…")
    assert shown(size, g.width) >= TEXT
    decode(render_board(board, names=long))


# -- what is drawn -------------------------------------------------------------------


def colours_in(im: Image.Image, box: Box) -> set[int]:
    crop = im.crop((box.x, box.y, box.right, box.bottom))
    return {i for _, i in crop.getcolors(256) or [] if isinstance(i, int)}


@pytest.mark.parametrize("board", SAMPLES[:3], ids=IDS[:3])
def test_markers_are_drawn_on_marked_trains_only(board: PlayerView) -> None:
    assert board.station is not None
    g = station_geometry(board)
    im = draw_station(board, names=names_for(board))
    marked = [t.marker for t in board.station.trains]
    assert any(marked)
    assert not marked[-1]
    assert [row.marker is not None for row in g.rows] == marked
    gold = theme.index(theme.GOLD)
    ink = theme.index(theme.INK)
    for row, is_marked in zip(g.rows, marked, strict=True):
        spot = row.marker or Box(row.name.right, row.label.y + 6, TOKEN, TOKEN)
        seen = colours_in(im, spot)
        assert (gold in seen and ink in seen) == is_marked, row.train


@pytest.mark.parametrize("board", SAMPLES[:3], ids=IDS[:3])
def test_the_double_that_waits_is_ringed(board: PlayerView) -> None:
    assert board.station is not None
    waiting = board.station.unsatisfied
    assert waiting is not None
    g = station_geometry(board)
    row = next(r for r in g.rows if r.train == waiting)
    double = row.cars[-1]
    assert double.tile.is_double
    assert g.ring is not None
    assert g.ring.x < double.box.x
    assert double.box.right < g.ring.right
    assert g.ring.y < double.box.y
    assert double.box.bottom < g.ring.bottom
    im = draw_station(board, names=names_for(board))
    gold = theme.index(theme.GOLD)
    middle = g.ring.x + g.ring.w // 2
    assert im.getpixel((middle, g.ring.y + 1)) == gold  # its top edge
    assert im.getpixel((middle, g.ring.bottom - 2)) == gold  # its bottom edge
    # and nothing rings a station without a waiting double
    calm = replace(board, station=replace(board.station, unsatisfied=None))
    assert station_geometry(calm).ring is None
    assert draw_station(calm, names=names_for(board)).tobytes() != im.tobytes()


@pytest.mark.parametrize("board", SAMPLES[:3], ids=IDS[:3])
def test_the_last_tile_laid_is_lit(board: PlayerView) -> None:
    fresh = last_tiles(board)
    assert len(fresh) == 1
    g = station_geometry(board)
    im = draw_station(board, names=names_for(board))
    lit = theme.index(theme.FACE_FRESH)
    cars = [car for row in g.rows for car in row.cars]
    assert [lit in colours_in(im, c.box) for c in cars] == [c.tile in fresh for c in cars]


def test_the_mexican_train_is_labelled_by_the_labels() -> None:
    board = late(4)
    english = to_png(draw_station(board, names=names_for(board)))
    other = to_png(
        draw_station(board, names=names_for(board), labels=Labels(mexican_train="Meksikas"))
    )
    assert english != other
    engine = to_png(draw_station(board, names=names_for(board), labels=Labels(engine="Veturi")))
    assert engine != english


def test_the_seat_to_move_is_outlined() -> None:
    board = late(4)
    g = station_geometry(board)
    im = draw_station(board, names=names_for(board))
    gold = theme.index(theme.GOLD)
    for row in g.rows:
        edge = im.getpixel((row.label.x + row.label.w // 2, row.label.y + 1))
        assert (edge == gold) == (row.train == board.turn)


# -- the picture -----------------------------------------------------------------------


@pytest.mark.parametrize("board", SAMPLES, ids=IDS)
def test_the_board_of_a_station_is_a_small_png_of_its_geometry(board: PlayerView) -> None:
    data = render_board(board, names=names_for(board), title="Round 1")
    assert len(data) <= LIMIT
    im = decode(data)
    g = station_geometry(board, title="Round 1")
    assert im.size == (g.width, g.height)
    assert im.mode == "P"
    assert g.width == 2 * SHOWN
    assert g.height <= 1.2 * g.width  # 8 players, long trains: still about square
    drawn = draw_board(board, names=names_for(board), title="Round 1")
    assert drawn.tobytes() == draw_station(board, names=names_for(board), title="Round 1").tobytes()
    assert render_board(board, names=names_for(board), title="Round 1") == data


def test_an_empty_station_and_every_move_render() -> None:
    for board in every_board(3, range(1)):
        im = draw_station(board, names=names_for(board))
        assert im.width == 2 * SHOWN
    start = next(every_board(6, range(1)))
    assert start.station is not None
    assert not any(t.cars for t in start.station.trains)
    decode(render_board(start, names=names_for(start)))


def test_a_double_9_station_shows_numerals() -> None:
    state = random_match(Rules.make("mexican", set=9, players=6), seed=4, moves=30)
    board = public_view(state)
    assert board.station is not None
    assert board.station.engine == 9
    decode(render_board(board, names=names_for(board)))


def test_a_seats_view_is_refused() -> None:
    state = mexican_late(4)
    with pytest.raises(ValueError, match="public"):
        render_board(view(state, 0), names=NAMES[:4])
    with pytest.raises(ValueError, match="public"):
        draw_station(view(state, state.deal.turn), names=NAMES[:4])


def test_wrong_names_or_totals_are_refused() -> None:
    board = late(4)
    with pytest.raises(ValueError, match="names"):
        render_board(board, names=NAMES[:3])
    with pytest.raises(ValueError, match="totals"):
        render_board(board, names=NAMES[:4], totals=(1, 2))
    with pytest.raises(ValueError, match="station"):
        draw_station(public_view(random_match(Rules.make("block"), seed=1)), names=NAMES[:2])


def _swap_hidden_tile(deal: Deal) -> Deal:
    """The same table, a tile of the next seat's hand swapped with one in the boneyard."""
    twin = deal.copy()
    seat = (deal.turn + 1) % deal.n
    held = twin.hand(seat)[0]
    pool = twin.boneyard
    assert pool, "the test needs a boneyard"
    other = pool[-1]
    twin.hands[seat] = twin.hands[seat] & ~(1 << held) | (1 << other)
    stock = list(twin.stock)
    stock[stock.index(other)] = held
    twin.stock = tuple(stock)
    assert twin.hand(seat) != deal.hand(seat)
    return twin


def test_hidden_hands_do_not_change_the_picture() -> None:
    state = random_match(Rules.make("mexican", players=4), seed=2, moves=12)
    twin: MatchState = replace(state, deals=(*state.deals[:-1], _swap_hidden_tile(state.deal)))
    assert public_view(twin) == public_view(state)
    names = NAMES[:4]
    assert render_board(public_view(twin), names=names) == render_board(
        public_view(state), names=names
    )


def test_the_new_words_are_translated_with_the_rest() -> None:
    marked = Labels().translated(lambda text: f"«{text}»")
    assert marked.mexican_train == "«Mexican train»"
    assert marked.engine == "«Engine»"
    assert marked.round_title.format(number=2) == "«Round 2»"
    assert marked.round_won.format(names="Bob") == "«Bob won the round»"
    assert marked.mexican_lowest_wins.startswith("«Mexican Train:")


@pytest.mark.parametrize("long", ["Meksikolainen juna", "Meksikāņu vilciens"])
def test_a_long_mexican_train_label_takes_two_lines_and_is_not_cut(long: str) -> None:
    board = public_view(mexican_late(4))
    labels = replace(Labels(), mexican_train=long)
    row = station.station_geometry(board, labels=labels).rows[-1]
    assert row.train == MEXICAN
    lines = station.mexican_label(long, row.name.w)
    assert lines == tuple(long.split())
    assert row.name.h >= 2 * canvas.line_height(station.NAME_MIN_SIZE, True)
    assert row.label.h >= row.name.h
    # the English label is not cut either (two lines in the narrowest label)
    short = station.station_geometry(board).rows[-1]
    assert " ".join(station.mexican_label("Mexican train", short.name.w)) == "Mexican train"
    assert short.label.h >= 2 * canvas.line_height(station.NAME_MIN_SIZE, True)
