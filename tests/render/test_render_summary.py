"""The end-of-deal summary and the labels it draws."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.engine.match import MatchState, new_match, next_deal
from bot.engine.moves import End
from bot.engine.rules import Rules
from bot.i18n import Translator
from cogs.domino.texts import image_labels
from render import summary
from render.labels import ENGLISH, Labels
from render.samples import finished_match
from render.summary import draw_summary, render_summary, summary_texts

NAMES = ("Alice", "Bob", "Carol", "Dave")


finished = finished_match


@pytest.mark.parametrize(
    "rules",
    [
        Rules.make("block", players=2, scoring="single"),
        Rules.make("draw", players=4, teams=True),
        Rules.make("draw", set=12, players=3, scoring="penalty"),
        Rules.make("allfives", players=3),
        Rules.make("latvian", players=4, deals=2),
    ],
    ids=lambda r: r.game,
)
def test_summary_is_a_small_deterministic_png(rules: Rules) -> None:
    state = finished(rules, seed=5, deals=2)
    names = NAMES[: rules.players]
    data = render_summary(state, names)
    assert len(data) <= 150 * 1024
    im = Image.open(io.BytesIO(data))
    assert im.format == "PNG"
    assert im.width <= 800  # narrow, so its text stays big on a phone
    assert render_summary(state, names) == data


def test_a_finished_match_names_its_winners() -> None:
    rules = Rules.make("block", players=2, scoring="single")
    over = finished(rules, seed=1)
    assert over.over
    on = draw_summary(over, NAMES[:2])
    off = draw_summary(over, NAMES[:2], labels=Labels(winner="", winners=""))
    assert on.tobytes() != off.tobytes()


def test_summary_needs_a_finished_deal() -> None:
    state = new_match(Rules.make("block", players=2), random.Random(1))
    with pytest.raises(ValueError, match="no deal"):
        render_summary(state, NAMES[:2])
    with pytest.raises(ValueError, match="names"):
        render_summary(finished(Rules.make("block", players=2), 1), NAMES[:3])


def test_summary_never_reads_the_deal_in_play() -> None:
    """It draws finished deals only: whatever the next deal dealt, the picture is the same."""
    rules = Rules.make("draw", players=3)
    state = finished(rules, seed=2)
    assert not state.over
    shown = render_summary(state, NAMES[:3])
    for seed in (1, 2):
        dealt = next_deal(state, random.Random(seed))
        assert render_summary(dealt, NAMES[:3]) == shown


def test_labels_name_ends_and_deal_ends() -> None:
    assert [ENGLISH.end_name(e) for e in End] == ["west", "east", "north", "south"]
    assert ENGLISH.deal_end("blocked") == "Blocked"
    marked = ENGLISH.translated(lambda text: f"«{text}»")
    assert marked.end_name(End.NORTH) == "«north»"
    assert marked.deal_title.format(number=3) == "«Deal 3»"


def deal_ending(rules: Rules, end: str, *, drawn: bool = False) -> MatchState:
    """The first seeded random deal of ``rules`` that ended ``end`` (drawn or won)."""
    for seed in range(2000):
        state = finished(rules, seed)
        result = state.results[-1]
        if result.end == end and result.drawn == drawn:
            return state
    raise AssertionError(f"no {end} deal in 2000 seeds")


@pytest.mark.parametrize(
    ("rules", "end"),
    [
        (Rules.make("block", players=2), "domino"),
        (Rules.make("block", players=4), "blocked"),
        (Rules.make("latvian", players=4, deals=2), "dead"),
        (Rules.make("draw", players=4, teams=True), "domino"),
    ],
    ids=["domino", "blocked", "dead", "teams"],
)
def test_every_summary_names_the_deals_winner(rules: Rules, end: str) -> None:
    state = deal_ending(rules, end)
    result = state.results[-1]
    names = NAMES[: rules.players]
    texts = summary_texts(state, names)
    winners = " & ".join(names[s] for s in result.winners)
    assert texts.captions[0] == f"{winners} won the deal"
    assert texts.title == f"Deal 1 · {ENGLISH.deal_end(result.end)}"
    if rules.teams:
        assert len(result.winners) == 2


def test_a_drawn_deal_says_nobody_won() -> None:
    state = deal_ending(Rules.make("block", players=4), "blocked", drawn=True)
    texts = summary_texts(state, NAMES)
    assert texts.captions[0] == "A drawn deal: nobody won it"
    assert texts.title == "Deal 1 · Blocked"
    assert not any("won the deal" in c for c in texts.captions)


def test_a_latvian_summary_says_the_lowest_value_wins() -> None:
    rules = Rules.make("latvian", players=3, deals=2)
    texts = summary_texts(finished(rules, seed=3), NAMES[:3])
    assert texts.captions[-1] == ENGLISH.lowest_wins
    assert "lowest value wins" in texts.captions[-1]
    block = summary_texts(finished(Rules.make("block", players=2), seed=3), NAMES[:2])
    assert ENGLISH.lowest_wins not in block.captions


def test_a_latvian_session_shows_places_not_place_points() -> None:
    state = finished(Rules.make("latvian", players=4, deals=2), seed=5, deals=2)
    assert state.places is not None
    by_points = sorted(range(4), key=lambda s: -state.places[s])  # type: ignore[index]
    shown = summary._places(state.places, ENGLISH)
    assert shown is not None
    assert [shown[s] for s in by_points] == ["1st", "2nd", "3rd", "4th"]
    assert summary._places((4.0, 2.5, 2.5, 1.0), ENGLISH) == ["1st", "2nd", "2nd", "4th"]


@pytest.mark.parametrize(
    ("language", "text"), [("en", "3.4"), ("fi", "3,4"), ("da", "3,4"), ("lv", "3,4")]
)
def test_summary_numbers_are_written_the_languages_way(language: str, text: str) -> None:
    labels = image_labels(Translator(language))
    assert labels.number(3.4) == text
    assert labels.number(12) == "12"
    assert ENGLISH.number(3.4) == "3.4"
    assert ENGLISH.number(-0.04) == "0"
