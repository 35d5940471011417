"""What an AI decision sends to a worker process and gets back survives pickling:
views, rules, tiles and moves compare equal, and tiles and moves come back as the
engine's shared instances with their hashes recomputed (a move's cached hash is
only valid in the process that computed it)."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

from bot.engine import End, Move, Placement, Rules, Tile, new_match, play, view
from bot.engine.ai import SearchSettings, choose_move


def roundtrip(value: Any) -> Any:
    return pickle.loads(pickle.dumps(value))


def test_tiles_come_back_as_the_shared_instances():
    for text in ("0-0", "3-5", "12-12"):
        tile = Tile.parse(text)
        back = roundtrip(tile)
        assert back is tile
        assert type(back) is Tile


@pytest.mark.parametrize(
    "move",
    [
        Move.single(Tile.parse("3-4"), End.EAST),
        Move.single(Tile.parse("2-2"), End.NORTH, closed=True),
        Move.lead(Tile.parse("6-6")),
        Move.lead(Tile.parse("4-6")),
    ],
    ids=str,
)
def test_interned_moves_come_back_as_the_shared_instances(move: Move):
    assert roundtrip(move) is move


def test_other_moves_come_back_equal_with_a_fresh_hash():
    lead = Move.lead(Tile.parse("4-6"), west=4)  # a lead turned round: not interned
    doubles = Move(
        (
            Placement(Tile.parse("2-2"), End.WEST, False),
            Placement(Tile.parse("5-5"), End.EAST, True),
        )
    )
    for move in (lead, doubles):
        data = pickle.dumps(move)
        assert b"_hash" not in data  # recomputed where it is unpickled
        back = pickle.loads(data)
        assert back == move
        assert hash(back) == hash(move)
        assert back in {move}


def test_views_rules_settings_and_rngs_survive_pickling():
    rules = Rules.make("allfives", players=4, teams=True)
    state = new_match(rules, random.Random(7))
    for _ in range(6):
        state = play(state, choose_move(view(state, state.deal.turn), "normal", random.Random(1)))
    seen = view(state, state.deal.turn)
    back = roundtrip(seen)
    assert back == seen
    assert back.rules == rules
    assert all(a is b for a, b in zip(back.hand, seen.hand, strict=True))
    assert set(back.legal_moves) == set(seen.legal_moves)
    settings = SearchSettings(work=1_000, seconds=5.0)
    assert roundtrip(settings) == settings
    rng = random.Random(3)
    rng.random()
    copy = roundtrip(rng)
    assert [copy.random() for _ in range(3)] == [rng.random() for _ in range(3)]
