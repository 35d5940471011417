"""The hand image: built from the given tiles only."""

from __future__ import annotations

import inspect
import io

import pytest
from PIL import Image

from bot.engine.tiles import TILES, tile
from render import theme
from render.hand import draw_hand, hand_keys, render_hand

HAND = (tile(0, 0), tile(1, 4), tile(2, 6), tile(5, 5), tile(3, 6), tile(6, 6))


def colours(im: Image.Image) -> set[int]:
    return {i for _, i in im.getcolors(256) or [] if isinstance(i, int)}


def test_takes_only_tiles_never_a_deal() -> None:
    parameters = inspect.signature(render_hand).parameters
    assert list(parameters) == ["tiles", "legal", "keys", "top"]
    assert parameters["top"].kind is inspect.Parameter.KEYWORD_ONLY  # the set: a number


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
    assert hand_keys(HAND, legal, "letters") == {tile(2, 6): "A", tile(6, 6): "B"}
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


def test_too_many_for_letters() -> None:
    with pytest.raises(ValueError, match="26"):
        hand_keys(TILES[:27], set(TILES[:27]), "letters")


def test_empty_hand() -> None:
    assert Image.open(io.BytesIO(render_hand(()))).format == "PNG"
