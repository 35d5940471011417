"""Mexican Train moves as players type and read them: trains named in every language,
refusals that name the train as the player reads it (RULES.md#mexican-train)."""

from __future__ import annotations

import pytest

from bot.engine import Move, Rules
from bot.engine.mexican import TrainDeal
from bot.engine.tiles import Tile, mask_of
from bot.engine.trains import MEXICAN, Station
from bot.games.errors import GameError
from bot.games.moves_text import describe, move_key, parse_wanted, resolve, train_words
from bot.i18n import LANGUAGES, Translator

RULES = Rules.make("mexican", players=3)
NAMES = ["Alice", "Bob", "Carol Ann"]
T = Tile.parse


def position(markers=(False, False, False), double_on: int | None = None) -> TrainDeal:
    """Alice (seat 0) to move on a 12-12 station; Bob's train ends in 5 (after 12-5),
    Carol's in 3, the Mexican train in 7. With ``double_on``, a double waits on that
    train: 7-7 on the Mexican train, or 6-6 on Alice's (after 12-6)."""
    station = Station(12, 3)
    station.lay(T("5-12"), 1, 1)
    station.lay(T("3-12"), 2, 2)
    station.lay(T("7-12"), MEXICAN, 0)
    if double_on == MEXICAN:
        station.lay(T("7-7"), MEXICAN, 0)
    elif double_on == 0:
        station.lay(T("6-12"), 0, 0)
        station.lay(T("6-6"), 0, 0)
    station.markers = list(markers)
    hands = [
        mask_of([T("12-11"), T("5-6"), T("3-7"), T("1-7"), T("0-0")]),
        mask_of([T("2-2")]),
        mask_of([T("4-4")]),
    ]
    return TrainDeal.position(RULES, 1, station, hands, [T("9-9")], 0)


def typed(deal: TrainDeal, text: str, train: str | None = None) -> Move:
    wanted = parse_wanted(text, trains=train_words(0, NAMES), train_text=train)
    return resolve(deal, 0, wanted, NAMES)


def refusal(deal: TrainDeal, text: str, language: str = "en", train: str | None = None) -> str:
    with pytest.raises(GameError) as refused:
        typed(deal, text, train)
    return refused.value.text(Translator(language))


@pytest.mark.parametrize(
    ("text", "train"),
    [
        ("12-11 mine", 0),
        ("11-12 own", 0),
        ("12-11 my train", 0),
        ("1-7 mexican", MEXICAN),
        ("7-1 on the mexican train", MEXICAN),
        ("1-7 meksikolainen", MEXICAN),
        ("1-7 mexicansk", MEXICAN),
        ("1-7 meksikāņu", MEXICAN),
        ("12-11 oma", 0),
        ("12-11 min", 0),
        ("12-11 mans juna", 0),
        ("5-6 @Bob", 1),
        ("5-6 bob", 1),
        ("5-6 Bob's train", 1),
        ("5-6 #2", 1),
        ("3-7 carol ann", 2),
        ("3-7 @CarolAnn", 2),
    ],
)
def test_a_typed_train_names_the_train(text: str, train: int) -> None:
    deal = position(markers=(False, True, True))
    assert typed(deal, text).train == train


def test_the_train_option_names_the_train_when_the_text_does_not() -> None:
    deal = position(markers=(False, True, False))
    assert typed(deal, "5-6", train="#2").train == 1
    assert typed(deal, "1-7", train="mexican").train == MEXICAN
    assert typed(deal, "12-11").train == 0  # one train fits: no need to name it


def test_a_closed_train_is_refused_naming_its_owner_in_every_language() -> None:
    deal = position()
    assert refusal(deal, "5-6 bob").startswith(
        "That train is not open to you: Bob's train has no marker."
    )
    assert "pelaajan Bob juna" in refusal(deal, "5-6 bob", "fi")
    assert "Bobs tog" in refusal(deal, "5-6 bob", "da")
    assert "spēlētāja Bob vilciens" in refusal(deal, "5-6 bob", "lv")


def test_an_unsatisfied_double_is_refused_elsewhere() -> None:
    deal = position(double_on=MEXICAN)
    assert refusal(deal, "12-11 mine") == (
        "A double waits: 7-7 on the Mexican train must be satisfied first, "
        "with a tile that shows 7."
    )
    assert typed(deal, "1-7").train == MEXICAN  # the only legal lay: on the double
    mine = position(double_on=0)
    assert "6-6 on your train" in refusal(mine, "1-7 mexican")
    assert "6-6 (juna: oma junasi)" in refusal(mine, "1-7 mexican", "fi")
    assert typed(mine, "5-6").train == 0


def test_other_train_refusals() -> None:
    deal = position()
    assert refusal(deal, "5-6 mine") == "5-6 doesn't fit that train: your train ends in 12."
    assert refusal(deal, "0-0") == "0-0 doesn't fit any train open to you."
    assert refusal(deal, "12-11 east").startswith("In Mexican Train, say which train")
    assert refusal(deal, "12-11 dave").startswith("There is no train called dave")
    assert refusal(deal, "12-11 mine 5-6") == "Only one tile at a time in this game."
    assert refusal(deal, "12-11", train="#9").startswith("There is no train called")
    twice = train_words(0, ["Alice", "Bob", "bob"])
    with pytest.raises(GameError) as refused:
        parse_wanted("5-6 bob", trains=twice)
    assert "Several players are called bob" in refused.value.text(Translator("en"))


def test_a_tile_that_fits_two_trains_must_name_one() -> None:
    deal = position(markers=(False, False, True))
    text = refusal(deal, "3-7")
    assert text == "3-7 fits more than one train (Carol Ann's train, the Mexican train): say which."


def test_a_train_is_refused_outside_mexican_train() -> None:
    with pytest.raises(GameError) as refused:
        parse_wanted("6-4", train_text="mexican")
    assert refused.value.text(Translator("en")) == "Only Mexican Train lays tiles on trains."


def test_moves_in_words_and_as_typed() -> None:
    deal = position(markers=(False, True, False))
    words = {
        describe(m, Translator("en"), NAMES, 0, deal.station.ends): move_key(
            m, 0, deal.station.ends
        )
        for m in deal.legal_moves()
    }
    assert words["12-11 → your train"] == "12-11 mine"
    assert words["7-1 → Mexican train"] == "7-1 mexican"
    assert words["5-6 → Bob's train"] == "5-6 #2"
    for m in deal.legal_moves():  # every typed key reads back as its move
        assert typed(deal, move_key(m, 0, deal.station.ends)) == m
    for language in LANGUAGES:
        for m in deal.legal_moves():
            assert "{" not in describe(m, Translator(language), NAMES, 0)
