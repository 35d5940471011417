"""Typed moves whose tile, end, closed and train options say the same thing or different
things (issue 38): the same is let be, a disagreement is refused naming both sides."""

from __future__ import annotations

import pytest

from bot.engine import End, Tile
from bot.engine.trains import MEXICAN
from bot.games.errors import GameError
from bot.games.moves_text import parse_wanted, train_words
from bot.i18n import Translator

T = Tile.parse


def refusal(text: str, end: str | None = None, closed: bool | None = None, **kw: object) -> str:
    with pytest.raises(GameError) as refused:
        parse_wanted(text, end, closed, **kw)  # type: ignore[arg-type]
    return refused.value.text(Translator("en"))


def ends(text: str, end: str | None = None) -> list[End | None]:
    return [w.end for w in parse_wanted(text, end)]


def test_an_end_option_that_agrees_with_the_tile_s_own_end_is_let_be() -> None:
    assert ends("0-2 west", "west") == [End.WEST]
    assert ends("3-3 north 5-5 east", "north east") == [End.NORTH, End.EAST]
    assert ends("3-3 north 5-5", "north east") == [End.NORTH, End.EAST]


def test_an_end_option_fills_the_tiles_typed_without_an_end_in_order() -> None:
    assert ends("0-2", "east") == [End.EAST]
    assert ends("3-3 north 5-5", "east") == [End.NORTH, End.EAST]
    assert ends("3-3 5-5", "south") == [End.SOUTH, None]


def test_disagreeing_ends_are_named() -> None:
    assert refusal("0-2 west", "east") == (
        "You gave 0-2 two ends: west with the tile and east in the end option. "
        "Give one end (or the same one twice)."
    )
    assert refusal("3-3 north 5-5", "south east").startswith("You gave 3-3 two ends: north")
    assert refusal("0-2 west east") == "You gave 0-2 two ends, west and east: give one."


def test_too_many_ends_and_words_that_are_no_end() -> None:
    assert refusal("0-2", "east west") == (
        "There are more ends than tiles: give one end for each tile."
    )
    assert refusal("0-2 west", "west east") == (
        "There are more ends than tiles: give one end for each tile."
    )
    assert refusal("0-2", "up") == "up is not an end: say west, east, north or south."


def test_closed_typed_with_the_closed_option_off_is_named() -> None:
    assert [w.closed for w in parse_wanted("4-2 north closed", None, True)] == [True]
    assert refusal("4-2 north closed", None, False) == (
        "The tile option lays 4-2 face down, but the closed option is off: leave one of them out."
    )


def test_a_tile_no_set_has() -> None:
    assert refusal("13-13") == ("There is no 13-13 in any domino set: the biggest is double-12.")


def test_mexican_train_trains_named_twice() -> None:
    trains = train_words(0, ["Alice", "Bob"])
    [same] = parse_wanted("12-5 mexican", train_text="mexican", trains=trains)
    assert same.train == MEXICAN
    [option] = parse_wanted("12-5", train_text="bob", trains=trains)
    assert option.train == 1
    assert refusal("12-5 mexican", train_text="mine", trains=trains) == (
        "You named two trains: the Mexican train with the tile and your train in the "
        "train option. Name one (or the same one twice)."
    )
    assert refusal("12-5", "east", trains=trains).startswith(
        "Mexican Train lays tiles on trains, not on ends"
    )
