"""The tile tables the hot loops use agree with the tiles themselves."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.engine import full_set
from bot.engine.tiles import mask_of, mask_pips


@given(top=st.sampled_from((6, 9, 12)), data=st.data())
def test_mask_pips_is_the_sum_of_the_tiles_pips(top: int, data: st.DataObject):
    tiles = data.draw(st.lists(st.sampled_from(full_set(top)), unique=True))
    assert mask_pips(mask_of(tiles)) == sum(t.low + t.high for t in tiles)


def test_mask_pips_of_whole_sets():
    # double-6: 168 pips, double-9: 495, double-12: 1092 (each number appears n + 2 times)
    assert [mask_pips(mask_of(full_set(top))) for top in (6, 9, 12)] == [168, 495, 1092]
