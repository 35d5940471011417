"""The board image: valid, small, deterministic, and blind to hidden tiles."""

from __future__ import annotations

import io
import random
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
from render import sprites, theme
from render.board import draw_board, last_move_tiles, render_board
from render.geometry import board_geometry
from render.labels import Labels
from render.samples import full_deal, random_match

NAMES = ("Alice", "Bob", "Carol", "Dmitrijs Ozoliņš", "Eve", "Frank", "Grace", "Heidi")
LIMIT = 150 * 1024


def names_for(deal: Deal) -> tuple[str, ...]:
    return NAMES[: deal.rules.players]


def decode(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    im.load()
    assert im.format == "PNG"
    return im


def sample_deals() -> list[Deal]:
    deals = [
        full_deal(6, "line", 4),
        full_deal(6, "spinner", 2),
        full_deal(12, "line", 2),
        full_deal(12, "spinner", 4),
    ]
    for game, options in (
        ("block", {"players": 4, "teams": True}),
        ("allfives", {"players": 3}),
        ("latvian", {"players": 4}),
        ("draw", {"set": 12, "players": 8, "layout": "spinner"}),
        ("draw", {"set": 9, "players": 5}),
    ):
        deals.append(random_match(Rules.make(game, **options), seed=2).deal)
        deals.append(random_match(Rules.make(game, **options), seed=2, moves=3).deal)
    return deals


@pytest.mark.parametrize("deal", sample_deals(), ids=lambda d: f"{d.rules.game}")
def test_board_is_a_small_png_of_the_geometry_below_a_header(deal: Deal) -> None:
    data = render_board(deal, names=names_for(deal), title="Deal 1")
    assert len(data) <= LIMIT
    im = decode(data)
    g = board_geometry(deal.layout)
    assert im.width == g.width
    assert im.height > g.height
    assert im.mode == "P"
    assert im.width / im.height <= 16 / 9


def test_same_state_same_bytes() -> None:
    deal = random_match(Rules.make("allfives", players=4, teams=True), seed=9).deal
    first = render_board(deal, names=names_for(deal), totals=(35, 120))
    assert render_board(deal.copy(), names=names_for(deal), totals=(35, 120)) == first
    assert render_board(deal, names=names_for(deal), totals=(35, 125)) != first


def test_default_totals_are_the_deal_totals() -> None:
    rules = Rules.make("allfives", players=2)
    state = random_match(rules, seed=4, moves=12)
    names = names_for(state.deal)
    assert render_board(state.deal, names=names) == render_board(
        state.deal, names=names, totals=state.totals
    )


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
    deal = random_match(Rules.make("draw", players=3), seed=1, moves=5).deal
    twin = _swap_hidden_tile(deal)
    names = names_for(deal)
    assert render_board(twin, names=names) == render_board(deal, names=names)


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
    names = names_for(deal)
    shown = render_board(deal, names=names)
    for other in (tile(inner, inner), tile(inner, (inner + 3) % 7)):
        assert render_board(_with_closed_tile(deal, end, other), names=names) == shown


def test_last_move_is_lit() -> None:
    deal = random_match(Rules.make("block", players=2), seed=3, moves=6).deal
    fresh = last_move_tiles(deal)
    assert len(fresh) == 1
    im = draw_board(deal, names=names_for(deal))
    top = im.height - board_geometry(deal.layout).height
    lit = theme.index(theme.FACE_FRESH)
    for placed in board_geometry(deal.layout).tiles:
        b = placed.box
        crop = im.crop((b.x, top + b.y, b.right, top + b.bottom))
        has_lit_face = lit in {i for _, i in crop.getcolors(256) or []}
        assert has_lit_face == (placed.tile in fresh)


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
                assert last_move_tiles(state.deal) == frozenset(several[0].tiles)
                return
            state = play(state, rng.choice(moves))
    raise AssertionError("no move laid several doubles")


def test_words_come_from_the_labels() -> None:
    deal = random_match(Rules.make("allfives", players=2), seed=6, moves=8).deal
    names = names_for(deal)
    english = render_board(deal, names=names)
    latvian = Labels(west="rietumi", east="austrumi", boneyard="Kaudze", count="Summa")
    assert render_board(deal, names=names, labels=latvian) != english
    assert render_board(deal, names=names, labels=Labels()) == english


def test_wrong_names_or_totals_are_refused() -> None:
    deal = random_match(Rules.make("block", players=3), seed=1, moves=2).deal
    with pytest.raises(ValueError, match="names"):
        render_board(deal, names=("Alice", "Bob"))
    with pytest.raises(ValueError, match="totals"):
        render_board(deal, names=NAMES[:3], totals=(1, 2))


def test_empty_table_renders() -> None:
    rules = Rules.make("allfives", players=2)
    deal = new_match(rules, random.Random(1)).deal
    assert deal.layout.lead is None
    decode(render_board(deal, names=names_for(deal)))


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

    deal = random_match(Rules.make("allfives", players=2), seed=6, moves=8).deal
    with_dejavu = render_board(deal, names=names_for(deal))
    _clear_text_caches()
    monkeypatch.setattr(ImageFont, "truetype", missing)
    try:
        data = render_board(deal, names=names_for(deal))
        font = theme.font(20)
        assert not isinstance(font, ImageFont.FreeTypeFont) or font.getname()[0] != "DejaVu Sans"
    finally:
        monkeypatch.undo()
        _clear_text_caches()
    assert decode(data).size == decode(with_dejavu).size
    assert data != with_dejavu
