"""The end-of-deal summary and the labels it draws."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.engine.match import MatchState, new_match, next_deal, play
from bot.engine.moves import End
from bot.engine.rules import Rules
from render.labels import ENGLISH, Labels
from render.summary import draw_summary, render_summary

NAMES = ("Alice", "Bob", "Carol", "Dave")


def finished(rules: Rules, seed: int, deals: int = 1) -> MatchState:
    rng = random.Random(seed)
    state = new_match(rules, rng)
    for number in range(deals):
        if number:
            state = next_deal(state, rng)
        while not state.deal.over:
            state = play(state, rng.choice(state.legal_moves()))
        if state.over:
            break
    return state


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
