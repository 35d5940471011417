"""Rules as a validated value: defaults from RULES.md, clear errors naming the option."""

from __future__ import annotations

import pytest

from bot.engine import Rules, RulesError


@pytest.mark.parametrize(
    ("options", "option", "phrase"),
    [
        ({"game": "chess"}, "game", "unknown game 'chess'"),
        ({"game": "block", "players": 9}, "players", "2 to 4 players, not 9"),
        ({"game": "block", "set": 9, "players": 7}, "players", "2 to 6 players"),
        ({"game": "draw", "set": 7}, "set", "double-6, double-9 or double-12"),
        ({"game": "allfives", "set": 9}, "set", "double-6 only"),
        ({"game": "block", "players": 3, "teams": True}, "teams", "exactly 4 players, not 3"),
        ({"game": "latvian", "players": 4, "teams": True}, "teams", "without teams"),
        ({"game": "block", "hand": 15}, "hand", "need 30 tiles, but double-6 has only 28"),
        ({"game": "block", "hand": 0}, "hand", "at least 1 tile"),
        ({"game": "block", "scoring": "fives"}, "scoring", "points or single or penalty"),
        (
            {"game": "block", "players": 4, "teams": True, "scoring": "penalty"},
            "scoring",
            "without teams",
        ),
        ({"game": "allfives", "layout": "line"}, "layout", "spinner"),
        ({"game": "block", "layout": "hub"}, "layout", "line or spinner"),
        ({"game": "block", "target": 0}, "target", "between 1 and 1000"),
        ({"game": "block", "target": 1001}, "target", "between 1 and 1000"),
        ({"game": "block", "blocked_scoring": "mine"}, "blocked_scoring", "minus_own"),
        ({"game": "block", "deals": 3}, "deals", "latvian and Mexican Train only"),
        ({"game": "latvian", "deals": 0}, "deals", "1 to 100 deals"),
        ({"game": "block", "players": "two"}, "players", "whole number"),
        ({"game": "block", "speed": 3}, "speed", "unknown rules option"),
    ],
)
def test_impossible_rules_raise_a_value_error_naming_the_option(options, option, phrase):
    with pytest.raises(RulesError) as caught:
        Rules.from_dict(options)
    assert isinstance(caught.value, ValueError)
    assert caught.value.option == option
    assert phrase in str(caught.value)


@pytest.mark.parametrize(
    ("options", "hand", "target", "layout", "scoring"),
    [
        ({"game": "block"}, 7, 100, "line", "points"),
        ({"game": "block", "players": 3}, 5, 61, "line", "points"),
        ({"game": "block", "players": 4, "teams": True}, 7, 100, "line", "points"),
        ({"game": "draw", "set": 9, "players": 5}, 7, 61, "line", "points"),
        ({"game": "draw", "set": 12, "players": 8}, 8, 61, "line", "points"),
        ({"game": "draw", "set": 12, "players": 2}, 12, 100, "line", "points"),
        ({"game": "block", "players": 3, "scoring": "penalty"}, 5, 50, "line", "penalty"),
        ({"game": "block", "scoring": "single"}, 7, None, "line", "single"),
        ({"game": "allfives", "players": 3}, 7, 250, "spinner", "fives"),
        ({"game": "latvian", "players": 4}, 7, None, "hub", "places"),
    ],
)
def test_defaults_follow_rules_md(options, hand, target, layout, scoring):
    rules = Rules.from_dict(options)
    assert (rules.hand, rules.target, rules.layout, rules.scoring) == (
        hand,
        target,
        layout,
        scoring,
    )


def test_sides_are_teams_of_opposite_seats_or_single_players():
    assert Rules.make("block", players=4, teams=True).sides == ((0, 2), (1, 3))
    assert Rules.make("block", players=3).sides == ((0,), (1,), (2,))


def test_latvian_session_defaults_to_four_deals_unless_timed():
    assert Rules.make("latvian").deals == 4
    timed = Rules.make("latvian", time_limit=30)
    assert (timed.deals, timed.time_limit) == (None, 30)


def test_rules_round_trip_through_a_dict():
    rules = Rules.make("draw", set=9, players=5, layout="spinner", target=200)
    assert Rules.from_dict(rules.to_dict()) == rules
