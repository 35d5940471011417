"""The board image: valid, small, deterministic, and blind to hidden tiles.

The board is drawn from the public view (``public_view(state)``), which holds no
hand and no hidden face-down tile; these tests also change what is hidden in the
state and check that not one byte of the image changes.
"""

from __future__ import annotations

import io
import random
from dataclasses import replace
from typing import Any

import pytest
from PIL import Image, ImageFont

from bot.engine.deal import Deal
from bot.engine.events import Played
from bot.engine.layout import Laid
from bot.engine.match import MatchState, new_match, play
from bot.engine.moves import End, Move, Placement
from bot.engine.rules import Rules
from bot.engine.tiles import Tile, tile
from bot.engine.view import PlayerView, public_view, view
from render import sprites, theme
from render.board import draw_board, last_move, render_board, table_geometry
from render.geometry import BoardGeometry
from render.header import header_height
from render.labels import Labels
from render.samples import full_match, random_match

NAMES = ("Alice", "Bob", "Carol", "Dmitrijs Ozoliņš", "Eve", "Frank", "Grace", "Heidi")
LIMIT = 150 * 1024


def names_for(state: MatchState) -> tuple[str, ...]:
    return NAMES[: state.rules.players]


def board(state: MatchState, **kwargs: Any) -> bytes:
    """The board image of ``state`` (from its public view), named ``NAMES``."""
    return render_board(public_view(state), names=names_for(state), **kwargs)


def geometry(state: MatchState, title: str | None = None) -> BoardGeometry:
    """The table's geometry as the board of ``state`` lays it out below its header."""
    return table_geometry(public_view(state), title=title)


def with_deal(state: MatchState, deal: Deal) -> MatchState:
    """``state`` with ``deal`` in place of the deal in play."""
    return replace(state, deals=(*state.deals[:-1], deal))


def decode(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    im.load()
    assert im.format == "PNG"
    return im


def sample_states() -> list[MatchState]:
    states = [
        full_match(6, "line", 4),
        full_match(6, "spinner", 2),
        full_match(12, "line", 2),
        full_match(12, "spinner", 4),
    ]
    for game, options in (
        ("block", {"players": 4, "teams": True}),
        ("allfives", {"players": 3}),
        ("latvian", {"players": 4}),
        ("draw", {"set": 12, "players": 8, "layout": "spinner"}),
        ("draw", {"set": 9, "players": 5}),
    ):
        states.append(random_match(Rules.make(game, **options), seed=2))
        states.append(random_match(Rules.make(game, **options), seed=2, moves=3))
    return states


@pytest.mark.parametrize("state", sample_states(), ids=lambda s: f"{s.rules.game}")
def test_board_is_a_small_png_of_the_geometry_below_a_header(state: MatchState) -> None:
    data = board(state, title="Deal 1")
    assert len(data) <= LIMIT
    im = decode(data)
    g = geometry(state, title="Deal 1")
    assert im.width == g.width
    assert im.height > g.height
    assert im.mode == "P"
    assert im.height <= im.width * 3 / 4  # no taller than 4:3: shown 400 wide by Discord
    assert im.height - g.height == header_height(
        state.rules.players, True, im.width, state.rules.teams
    )  # cropped: the header, then the table as tall as its tiles


def test_same_state_same_bytes() -> None:
    state = random_match(Rules.make("allfives", players=4, teams=True), seed=9)
    first = board(state, totals=(35, 120))
    assert board(with_deal(state, state.deal.copy()), totals=(35, 120)) == first
    assert board(state, totals=(35, 125)) != first


def test_default_totals_are_the_match_totals() -> None:
    rules = Rules.make("allfives", players=2)
    state = random_match(rules, seed=4, moves=12)
    assert board(state) == board(state, totals=state.totals)


def test_a_seats_view_is_refused() -> None:
    state = random_match(Rules.make("block", players=2), seed=1, moves=2)
    with pytest.raises(ValueError, match="public"):
        render_board(view(state, 0), names=names_for(state))


def _swap_hidden_tile(deal: Deal) -> Deal:
    """The same table, with a tile of the next seat's hand swapped for one in the boneyard."""
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
    assert twin.hand_sizes() == deal.hand_sizes()
    return twin


def test_hidden_hands_do_not_change_the_board() -> None:
    state = random_match(Rules.make("draw", players=3), seed=1, moves=5)
    twin = with_deal(state, _swap_hidden_tile(state.deal))
    assert public_view(twin) == public_view(state)
    assert board(twin) == board(state)


def _closed_tile_state() -> tuple[MatchState, End]:
    """A latvian deal whose last move laid a non-double face down."""
    rules = Rules.make("latvian", players=2)
    for seed in range(300):
        rng = random.Random(seed)
        state = new_match(rules, rng)
        while not state.deal.over:
            moves = state.legal_moves()
            closing = [m for m in moves if len(m.placements) == 1 and m.placements[0].closed]
            closing = [m for m in closing if not m.tile.is_double]
            if closing and state.deal.layout.tile_count() > 3:
                state = play(state, closing[0])
                if not state.deal.over:
                    end = closing[0].placements[0].end
                    assert end is not None
                    return state, end
                break
            state = play(state, rng.choice(moves))
    raise AssertionError("no game laid a tile face down")


def _with_closed_tile(deal: Deal, end: End, new: Tile) -> Deal:
    """The same deal, except that the face-down tile on ``end`` is ``new``."""
    twin = deal.copy()
    old = twin.layout.arms[end][-1]
    twin.layout.arms[end][-1] = Laid(new, old.inner, new.other(old.inner), True)
    twin.layout.values[end] = new.other(old.inner)
    index = max(i for i, e in enumerate(twin.history) if isinstance(e, Played))
    last = twin.history[index]
    assert isinstance(last, Played)
    assert last.move.placements[0].end == end
    twin.history[index] = last._replace(move=Move((Placement(new, end, True),)))
    return twin


def test_face_down_tiles_never_show() -> None:
    state, end = _closed_tile_state()
    deal = state.deal
    inner = deal.layout.arms[end][-1].inner
    shown = board(state)
    hidden = public_view(state)
    backs = [p for p in geometry(state).tiles if p.tile is None]
    assert backs
    assert all(p.closed and None in (p.first, p.second) for p in backs)  # the far half
    assert [p.tile for p in geometry(state).tiles if p.chain == end][-1] is None
    assert last_move(hidden).hidden_ends == {end}
    for other in (tile(inner, inner), tile(inner, (inner + 3) % 7)):
        twin = with_deal(state, _with_closed_tile(deal, end, other))
        assert public_view(twin) == hidden
        assert board(twin) == shown


def _lit(im: Image.Image, top: int, g: BoardGeometry, colour: tuple[int, int, int]) -> list[bool]:
    """For each tile of ``g``, whether ``colour`` shows in its box."""
    lit = theme.index(colour)
    out = []
    for placed in g.tiles:
        b = placed.box
        crop = im.crop((b.x, top + b.y, b.right, top + b.bottom))
        out.append(lit in {i for _, i in crop.getcolors(256) or []})
    return out


def test_last_move_is_lit() -> None:
    state = random_match(Rules.make("block", players=2), seed=3, moves=6)
    fresh = last_move(public_view(state))
    assert len(fresh.tiles) == 1
    assert not fresh.hidden_ends
    im = draw_board(public_view(state), names=names_for(state))
    g = geometry(state)
    lit = _lit(im, im.height - g.height, g, theme.FACE_FRESH)
    assert lit == [placed.tile in fresh.tiles for placed in g.tiles]


def test_a_hidden_face_down_tile_is_lit_as_a_back() -> None:
    state, end = _closed_tile_state()
    im = draw_board(public_view(state), names=names_for(state))
    g = geometry(state)
    lit = _lit(im, im.height - g.height, g, theme.EDGE_FRESH)
    assert lit == [placed.tile is None and placed.chain == end for placed in g.tiles]


def test_latvian_doubles_move_lights_every_tile() -> None:
    rules = Rules.make("latvian", players=2)
    for seed in range(300):
        rng = random.Random(seed)
        state = new_match(rules, rng)
        while not state.deal.over:
            moves = state.legal_moves()
            several = [m for m in moves if len(m.placements) > 1]
            if several:
                state = play(state, several[0])
                seen = last_move(view(state, state.deal.history[-1].seat))
                assert seen.tiles == frozenset(several[0].tiles)
                public = last_move(public_view(state))
                face_up = {p.tile for p in several[0].placements if not p.closed}
                face_down = {p.end for p in several[0].placements if p.closed}
                assert public.tiles == face_up
                assert public.hidden_ends == face_down
                return
            state = play(state, rng.choice(moves))
    raise AssertionError("no move laid several doubles")


def test_words_come_from_the_labels() -> None:
    state = random_match(Rules.make("allfives", players=2), seed=6, moves=8)
    english = board(state)
    latvian = Labels(west="rietumi", east="austrumi", boneyard="Kaudze", count="Summa")
    assert board(state, labels=latvian) != english
    assert board(state, labels=Labels()) == english


def test_wrong_names_or_totals_are_refused() -> None:
    seen: PlayerView = public_view(random_match(Rules.make("block", players=3), seed=1, moves=2))
    with pytest.raises(ValueError, match="names"):
        render_board(seen, names=("Alice", "Bob"))
    with pytest.raises(ValueError, match="totals"):
        render_board(seen, names=NAMES[:3], totals=(1, 2))


def test_empty_table_renders() -> None:
    state = new_match(Rules.make("allfives", players=2), random.Random(1))
    assert state.deal.layout.lead is None
    decode(board(state))


def _clear_text_caches() -> None:
    for cached in (
        theme.font,
        sprites.metrics,
        sprites.text_sprite,
        sprites.text_width,
        sprites.fit_text,
    ):
        cached.cache_clear()


def test_renders_without_dejavu(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine without DejaVu falls back to Pillow's own font."""

    real = ImageFont.truetype

    def missing(font: object, *args: Any, **kwargs: Any) -> ImageFont.FreeTypeFont:
        if isinstance(font, str):  # a font file to find on the system
            raise OSError("cannot open resource")
        return real(font, *args, **kwargs)  # type: ignore[arg-type]

    state = random_match(Rules.make("allfives", players=2), seed=6, moves=8)
    with_dejavu = board(state)
    _clear_text_caches()
    monkeypatch.setattr(ImageFont, "truetype", missing)
    try:
        data = board(state)
        font = theme.font(20)
        assert not isinstance(font, ImageFont.FreeTypeFont) or font.getname()[0] != "DejaVu Sans"
    finally:
        monkeypatch.undo()
        _clear_text_caches()
    assert decode(data).size == decode(with_dejavu).size
    assert data != with_dejavu


def _finished_with_face_down_tiles() -> tuple[MatchState, MatchState]:
    """A latvian deal that ended with tiles face down on the table, and the state before
    its last move."""
    rules = Rules.make("latvian", players=3)
    for seed in range(300):
        rng = random.Random(seed)
        state = new_match(rules, rng)
        before = state
        while not state.deal.over:
            moves = state.legal_moves()
            closing = [m for m in moves if any(p.closed for p in m.placements)]
            before = state
            state = play(state, closing[0] if closing and rng.random() < 0.3 else rng.choice(moves))
        if sum(laid.closed for arm in state.deal.layout.arms for laid in arm) >= 2:
            return before, state
    raise AssertionError("no deal ended with a tile face down")


def test_face_down_tiles_are_turned_up_when_the_deal_is_over() -> None:
    before, after = _finished_with_face_down_tiles()
    hidden = [p for p in geometry(before).tiles if p.closed]
    assert hidden
    assert all(p.tile is None for p in hidden)  # in play: backs
    shown = [p for p in geometry(after).tiles if p.closed]
    assert len(shown) >= len(hidden)
    assert all(p.tile is not None and None not in (p.first, p.second) for p in shown)

    im = draw_board(public_view(after), names=names_for(after))
    g = geometry(after)
    top = im.height - g.height
    fresh = last_move(public_view(after)).tiles
    checked = 0
    for placed in shown:
        if placed.tile in fresh:
            continue  # the last move is lit gold like any other
        checked += 1
        b = placed.box
        crop = im.crop((b.x, top + b.y, b.right, top + b.bottom))
        seen = {i for _, i in crop.getcolors(256) or []}
        assert theme.index(theme.BACK) in seen  # the edge of a tile laid face down
        assert theme.index(theme.BACK_LINE) not in seen  # not the back's pattern
        if placed.first or placed.second:
            assert theme.index(theme.PIP) in seen  # its numbers
    assert checked
    before_im = draw_board(public_view(before), names=names_for(before))
    assert before_im.tobytes() != im.tobytes()
