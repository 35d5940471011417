"""The hand image: built from the given tiles only."""

from __future__ import annotations

import inspect
import io

import pytest
from PIL import Image

from bot.engine.moves import Move
from bot.engine.tiles import TILES, tile
from bot.engine.trains import MEXICAN
from bot.games.moves_text import describe
from bot.i18n import Translator
from render import sprites, theme
from render.canvas import blank
from render.hand import PAD, UNIT, draw_hand, hand_keys, render_hand, train_tops

HAND = (tile(0, 0), tile(1, 4), tile(2, 6), tile(5, 5), tile(3, 6), tile(6, 6))


def colours(im: Image.Image) -> set[int]:
    return {i for _, i in im.getcolors(256) or [] if isinstance(i, int)}


def test_takes_only_tiles_never_a_deal() -> None:
    parameters = inspect.signature(render_hand).parameters
    assert list(parameters) == ["tiles", "legal", "keys", "top", "tops"]
    assert parameters["top"].kind is inspect.Parameter.KEYWORD_ONLY  # the set: a number
    assert parameters["tops"].kind is inspect.Parameter.KEYWORD_ONLY  # numbers by tile


def test_different_hands_different_images() -> None:
    other = (tile(0, 1), *HAND[1:])
    assert render_hand(HAND) != render_hand(other)
    assert render_hand(HAND) == render_hand(tuple(HAND))


def test_png_small_and_sized_by_rows() -> None:
    one_row = Image.open(io.BytesIO(render_hand(HAND)))
    three_rows = Image.open(io.BytesIO(render_hand(TILES[:25])))
    assert one_row.format == three_rows.format == "PNG"
    assert three_rows.height > 2 * one_row.height
    assert len(render_hand(TILES[:91], set(TILES[:91]))) <= 150 * 1024


def test_playable_tiles_are_lit_and_keyed() -> None:
    legal = {tile(2, 6), tile(6, 6)}
    assert hand_keys(HAND, legal) == {tile(2, 6): "1", tile(6, 6): "2"}
    lit = draw_hand(HAND, legal)
    assert {theme.index(theme.GOLD), theme.index(theme.FACE_DIM)} <= colours(lit)
    plain = draw_hand(HAND)
    assert theme.index(theme.GOLD) not in colours(plain)
    assert theme.index(theme.FACE_DIM) not in colours(plain)
    assert render_hand(HAND, legal, keys={tile(2, 6): "X", tile(6, 6): "Y"}) != render_hand(
        HAND, legal
    )


def test_legal_tiles_must_be_in_the_hand() -> None:
    with pytest.raises(ValueError, match="not in the hand"):
        render_hand(HAND, {tile(1, 1)})


def test_empty_hand() -> None:
    assert Image.open(io.BytesIO(render_hand(()))).format == "PNG"


def upper_half(im: Image.Image, index: int, number: int, top: int = 12) -> bool:
    """Whether the hand's tile at ``index`` (one row) shows ``number`` on its upper half."""
    x, y = PAD + index * (UNIT + 14), PAD
    cell = im.crop((x, y, x + UNIT, y + UNIT))
    faces = sprites.faces_for(top)
    for style in ("face", "fresh", "dim"):
        sprite = sprites.tile_sprite(number, 0, True, UNIT, style, theme.FELT, faces)
        alone = blank(UNIT, 2 * UNIT)
        alone.paste(sprite.image, (0, 0), sprite.mask)
        if alone.crop((0, 0, UNIT, UNIT)).tobytes() == cell.tobytes():
            return True
    return False


def first_number(text: str) -> int:
    """The number a button's text writes first: ``1: 3-2 → Bob's train`` -> 3."""
    tile_text = text.split(": ", 1)[-1].split(" ", 1)[0]
    return int(tile_text.split("-")[0])


def test_a_hand_tile_shows_on_top_the_number_its_button_writes_first() -> None:
    """Block and draw buttons write a tile low first (``2-3``); Mexican Train writes the
    half that meets the train first (``3-2`` on a train ending in 3): the picture
    stands each tile the same way (checked on the real button text)."""
    hand = (tile(2, 3), tile(5, 12), tile(0, 7))
    tr = Translator()
    plain = draw_hand(hand, set(hand), top=12)
    for i, t in enumerate(hand):
        written = describe(Move.single(t, 1), tr)  # east: written as the tile is
        assert upper_half(plain, i, first_number(written))
    ends = [3, 12, 7, 9]  # seat 0's train ends in 3, seat 1's in 12, the Mexican train in 9
    ends[MEXICAN] = 7
    moves = [Move.on_train(tile(2, 3), 0), Move.on_train(tile(5, 12), 1)]
    moves.append(Move.on_train(tile(0, 7), MEXICAN))
    tops = train_tops(moves, ends)
    assert tops == {tile(2, 3): 3, tile(5, 12): 12, tile(0, 7): 7}
    im = draw_hand(hand, set(hand), top=12, tops=tops)
    for i, move in enumerate(moves):
        written = describe(move, tr, ["Ann", "Bob", "Cy"], 0, ends)
        number = first_number(written)
        assert upper_half(im, i, number), (written, i)
        assert not upper_half(plain, i, number)  # the default would disagree: a real check


def test_a_top_the_tile_does_not_have_is_refused() -> None:
    with pytest.raises(ValueError, match="no 4"):
        draw_hand((tile(2, 3),), tops={tile(2, 3): 4})
