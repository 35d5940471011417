"""Playouts finish deals by legal moves, stop where asked, and learn only true voids."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.engine import Deal, Rules, deal_tiles, new_match, view
from bot.engine.ai import SearchSettings, rollout
from bot.engine.ai.evaluate import deal_value
from bot.engine.ai.knowledge import read_view
from bot.engine.ai.rollout import (
    DEFAULT_WEIGHTS,
    FIVES_WEIGHTS,
    TUNED,
    PlayoutWeights,
    best_move,
    game_key,
    playout,
    weights_for,
)
from bot.engine.ai.search import _Search

CONFIGS: list[dict[str, Any]] = [
    {"game": "block", "players": 4, "teams": True},
    {"game": "block", "players": 3, "layout": "spinner"},
    {"game": "draw", "players": 2},
    {"game": "draw", "players": 5, "set": 9},
    {"game": "allfives", "players": 4, "teams": True},
    {"game": "latvian", "players": 3},
]


def fresh(config: dict[str, Any], rng: random.Random) -> Deal:
    rules = Rules.make(**config)
    hands, stock = deal_tiles(rules, rng)
    return Deal.start(rules, hands, stock, leader=rng.randrange(rules.players))


class Checked(Deal):
    """A deal that checks every move a playout pushes against its legal moves."""

    __slots__ = ()

    def push(self, move):  # type: ignore[no-untyped-def]
        assert move in self.legal_moves()
        super().push(move)


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(map(str, c.values())))
def test_playouts_play_legal_moves_to_the_end_and_learn_true_voids(config: dict[str, Any]):
    rng = random.Random(str(config))
    for _ in range(20):
        deal = fresh(config, rng)
        deal.__class__ = Checked
        voids = [0] * deal.n
        moves = playout(deal, rng, epsilon=0.2, voids=voids)
        assert deal.end is not None
        assert moves >= 1
        for seat in range(deal.n):
            assert deal.hands[seat] & voids[seat] == 0
        side = deal.side_of[0]
        assert isinstance(deal_value(deal, side), float)


def test_a_playout_stops_at_the_tiles_asked():
    rng = random.Random(2)
    for _ in range(20):
        deal = fresh({"game": "block", "players": 4, "teams": True}, rng)
        playout(deal, rng, stop_tiles=12)
        assert deal.end is not None or sum(deal.hand_sizes()) <= 12
        if deal.end is None:
            assert sum(deal.hand_sizes()) == 12  # one tile a move: it stops right there


def test_a_playout_is_repeatable_from_a_seed():
    rng = random.Random(3)
    deal = fresh({"game": "allfives", "players": 3}, rng)
    a, b = deal.copy(), deal.copy()
    playout(a, random.Random(9))
    playout(b, random.Random(9))
    assert a.moves() == b.moves()
    assert a.result == b.result


def test_each_seat_has_its_own_chance_of_a_random_move():
    """Seat 0 never strays from the policy, seat 1 always rolls the dice: replayed move by
    move, seat 0 plays the policy's move at every choice and seat 1 often does not."""
    rules = Rules.make("block", players=2)
    weights = weights_for(rules)
    every = (1 << rules.tile_count) - 1
    strays = choices = 0
    for seed in range(30):
        rng = random.Random(seed)
        start = fresh({"game": "block", "players": 2}, rng)
        done = start.copy()
        playout(done, random.Random(seed), [0.0, 1.0], weights=weights)
        replay, voids = start.copy(), [0, 0]
        for move in done.moves():
            legal = replay.legal_moves()
            if len(legal) > 1:
                policy = best_move(replay, legal, weights, voids, every)
                if replay.turn == 0:
                    assert move == policy
                else:
                    choices += 1
                    strays += move != policy
            before = len(replay.history)
            replay.push(move)
            rollout._learn(replay, replay.history[before + 1 :], voids)
    assert choices > 20
    assert strays > choices // 4
    same = fresh({"game": "draw", "players": 3}, random.Random(4))
    a, b = same.copy(), same.copy()
    playout(a, random.Random(5), 0.3)
    playout(b, random.Random(5), [0.3, 0.3, 0.3])
    assert a.moves() == b.moves()


TUNED_GAMES: list[dict[str, Any]] = [
    {"game": "block", "players": 2},
    {"game": "block", "players": 4, "teams": True},
    {"game": "draw", "players": 3},
    {"game": "draw", "players": 2, "layout": "spinner"},
    {"game": "allfives", "players": 4, "teams": True},
    {"game": "allfives", "players": 2},
    {"game": "latvian", "players": 4},
]


def test_tuned_weights_are_for_games_we_play_and_positive():
    keys = {game_key(Rules.make(**config)) for config in TUNED_GAMES}
    assert set(TUNED) == keys
    for config in TUNED_GAMES:
        weights = weights_for(Rules.make(**config))
        assert weights is TUNED[game_key(Rules.make(**config))]
        assert all(w > 0 for w in weights[:-1])
        assert all(w > 0 for w in weights.seats)
    for config in (
        {"game": "block", "players": 3, "layout": "spinner"},
        {"game": "draw", "players": 2},
    ):
        rules = Rules.make(**config)
        assert game_key(rules) not in TUNED
        assert weights_for(rules) is DEFAULT_WEIGHTS
    assert weights_for(Rules.make("allfives", players=3)) is FIVES_WEIGHTS


def self_play(rules: Rules, deals: int, mine: PlayoutWeights, theirs: PlayoutWeights) -> float:
    """``mine`` on seats 0+2 then 1+3 of each deal, ``theirs`` on the others, no
    random moves: the mean value of ``mine``'s side."""
    total = 0.0
    for index in range(deals):
        hands, stock = deal_tiles(rules, random.Random(f"self-play/{index}"))
        for seats in ((0, 2), (1, 3)):
            deal = Deal.start(rules, hands, stock)
            voids = [0] * deal.n
            every = (1 << rules.tile_count) - 1
            while deal.end is None:
                moves = deal.legal_moves()
                weights = mine if deal.turn in seats else theirs
                deal.push(
                    moves[0] if len(moves) == 1 else best_move(deal, moves, weights, voids, every)
                )
            total += deal_value(deal, deal.side_of[seats[0]])
    return total / (2 * deals)


def test_the_tuned_block_team_playouts_beat_the_defaults_in_self_play():
    rules = Rules.make("block", players=4, teams=True)
    tuned = weights_for(rules)
    assert tuned is not DEFAULT_WEIGHTS
    assert self_play(rules, 300, tuned, DEFAULT_WEIGHTS) > 0.5


def test_each_seat_plays_out_with_its_own_weights():
    """Seat 0 plays the tuned latvian weights, the others the hand-set ones: replayed move
    by move, every choice is the policy of the weights of the seat that made it, and the
    two policies do differ (the tuned one lays face down far more often)."""
    config = {"game": "latvian", "players": 4}
    rules = Rules.make(**config)
    tuned = weights_for(rules)
    seats = [tuned, DEFAULT_WEIGHTS, DEFAULT_WEIGHTS, DEFAULT_WEIGHTS]
    every = (1 << rules.tile_count) - 1
    differ = 0
    for seed in range(40):
        start = fresh(config, random.Random(seed))
        done = start.copy()
        playout(done, random.Random(seed), 0.0, weights=seats)
        replay, voids = start.copy(), [0] * 4
        for move in done.moves():
            legal = replay.legal_moves()
            if len(legal) > 1:
                mine = best_move(replay, legal, seats[replay.turn], voids, every)
                assert move == mine
                other = tuned if replay.turn else DEFAULT_WEIGHTS
                differ += move != best_move(replay, legal, other, voids, every)
            before = len(replay.history)
            replay.push(move)
            rollout._learn(replay, replay.history[before + 1 :], voids)
    assert differ > 10


def test_their_tuned_chooses_the_other_sides_playout_weights():
    rules = Rules.make("latvian", players=4)
    state = new_match(rules, random.Random(2))
    know = read_view(view(state, state.turn))
    tuned = weights_for(rules)

    def weights(**settings: Any) -> list[PlayoutWeights]:
        return _Search(know, list(know.legal), SearchSettings(**settings)).weights

    me = state.turn
    mixed = [tuned if s == me else DEFAULT_WEIGHTS for s in range(4)]
    assert weights() == mixed  # THEIR_TUNED: 4-player latvian's measured default
    assert weights(their_tuned=False) == mixed
    assert weights(their_tuned=True) == [tuned] * 4
    assert weights(tuned=False, their_tuned=False) == [DEFAULT_WEIGHTS] * 4
    assert weights(tuned=False, their_tuned=True) == [
        DEFAULT_WEIGHTS if s == me else tuned for s in range(4)
    ]
    # elsewhere the other seats play out as the searching side does
    teams = Rules.make("block", players=4, teams=True)
    state = new_match(teams, random.Random(2))
    know = read_view(view(state, state.turn))
    plain = _Search(know, list(know.legal), SearchSettings()).weights
    assert plain == [weights_for(teams)] * 4
    assert (
        _Search(know, list(know.legal), SearchSettings(tuned=False)).weights
        == [DEFAULT_WEIGHTS] * 4
    )
