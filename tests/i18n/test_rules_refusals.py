"""The engine's English RulesError never reaches a user: the bot says it in their language."""

from __future__ import annotations

import pytest

from bot.engine import Rules, RulesError
from bot.games.service import rules_refusal
from bot.i18n import Translator

FALLBACK = "These game options don't work together."

CASES = [
    ({"game": "block", "players": 5}, "This game takes 2 to 4 players on the double-6 set."),
    (
        {"game": "draw", "set": 12, "players": 9},
        "This game takes 2 to 8 players on the double-12 set.",
    ),
    ({"game": "allfives", "set": 9}, "All Fives and Latvian dominoes use the double-6 set only"),
    ({"game": "latvian", "players": 4, "teams": True}, "Latvian dominoes is played without teams."),
    ({"game": "block", "players": 3, "teams": True}, "Teams need exactly 4 players."),
    ({"game": "block", "players": 4, "teams": True, "scoring": "penalty"}, "Minus-point"),
    ({"game": "allfives", "scoring": "points"}, "This game has its own scoring"),
    ({"game": "latvian", "layout": "spinner"}, "This game has its own layout"),
    ({"game": "block", "target": 5000}, "The target is 1 to 1000 points."),
    ({"game": "draw", "deals": 3}, "Only Latvian dominoes and Mexican Train have a number"),
    ({"game": "latvian", "deals": 500}, "A Latvian session has 1 to 100 deals."),
    ({"game": "chess"}, "Choose a game"),
    ({"game": "mexican", "set": 6}, "Mexican Train is played on the double-12 or double-9 set."),
    ({"game": "mexican", "players": 9}, "This game takes 2 to 8 players on the double-12 set."),
    (
        {"game": "mexican", "set": 9, "players": 7},
        "This game takes 2 to 6 players on the double-9 set.",
    ),
    ({"game": "mexican", "players": 4, "teams": True}, "Mexican Train is played without teams."),
    ({"game": "mexican", "deals": 14}, "Mexican Train on double-12 has 1 to 13 rounds"),
    ({"game": "mexican", "set": 9, "deals": 11}, "Mexican Train on double-9 has 1 to 10 rounds"),
    ({"game": "mexican", "scoring": "points"}, "This game has its own scoring"),
    ({"game": "mexican", "layout": "line"}, "This game has its own layout"),
]


@pytest.mark.parametrize(("options", "english"), CASES)
def test_every_refused_option_has_its_own_translated_message(options, english):
    with pytest.raises(RulesError) as refused:
        Rules.from_dict(options)
    error = rules_refusal(refused.value, options)
    text = error.text(Translator("en"))
    assert text.startswith(english)
    assert refused.value.message not in text
    for language in ("fi", "da", "lv"):
        translated = error.text(Translator(language))
        assert translated != text, language
        assert "{" not in translated


def test_an_unforeseen_option_gets_the_general_message():
    error = rules_refusal(RulesError("time_travel", "no"), {"game": "block"})
    assert error.text(Translator("en")) == FALLBACK


def test_end_names_in_refusals_are_translated():
    from bot.engine import End
    from bot.games.errors import GameError
    from bot.i18n import N_

    closed = GameError(N_("The {end} end is closed."), end=End.NORTH)
    assert closed.text(Translator("en")) == "The north end is closed."
    assert closed.text(Translator("da")) == "Enden mod nord er lukket."
    both = GameError(
        N_("{tile} fits more than one end ({ends}): say which."),
        tile="6-4",
        ends=(End.WEST, End.EAST),
    )
    assert both.text(Translator("fi")) == "6-4 sopii useampaan päähän (länsi, itä): kerro mihin."
