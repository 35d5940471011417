"""The end-of-deal summary and the labels it draws."""

from __future__ import annotations

import io
import random
from typing import Any, NamedTuple

import pytest
from PIL import Image

from bot.engine.match import MatchState, new_match, next_deal
from bot.engine.moves import End
from bot.engine.rules import Rules
from bot.i18n import Translator
from cogs.domino.texts import image_labels
from render import canvas, sprites, summary, summary_sheet
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
    shown = summary_sheet._places(state.places, ENGLISH)
    assert [shown[s] for s in by_points] == ["1st", "2nd", "3rd", "4th"]
    assert summary_sheet._places((4.0, 2.5, 2.5, 1.0), ENGLISH) == ["1st", "2nd", "2nd", "4th"]
    sheet = summary.score_sheet(state, NAMES[:4])
    assert sheet.labels[-2:] == ("Total", "Place")
    assert list(sheet.cells[-1]) == shown


@pytest.mark.parametrize(
    ("language", "text"), [("en", "3.4"), ("fi", "3,4"), ("da", "3,4"), ("lv", "3,4")]
)
def test_summary_numbers_are_written_the_languages_way(language: str, text: str) -> None:
    labels = image_labels(Translator(language))
    assert labels.number(3.4) == text
    assert labels.number(12) == "12"
    assert ENGLISH.number(3.4) == "3.4"
    assert ENGLISH.number(-0.04) == "0"


# -- Mexican Train ----------------------------------------------------------------------

MEXICAN_NAMES = ("Alice", "Bob", "Carol", "Dmitrijs Ozoliņš", "Erin", "Frank", "Grace", "Heidi")


def mexican_round(players: int, *, end: str, drawn: bool = False, rounds: int = 1) -> MatchState:
    """The first seeded random match whose round ``rounds`` ended ``end`` (drawn or won)."""
    rules = Rules.make("mexican", players=players)
    for seed in range(400):
        state = finished(rules, seed, deals=rounds)
        result = state.results[-1]
        if len(state.results) == rounds and result.end == end and result.drawn == drawn:
            return state
    raise AssertionError(f"no {end} round in 400 seeds")


@pytest.mark.parametrize("players", [2, 4, 8])
@pytest.mark.parametrize("end", ["domino", "blocked"])
def test_a_mexican_round_names_its_winner_and_says_the_lowest_total_wins(
    players: int, end: str
) -> None:
    state = mexican_round(players, end=end)
    result = state.results[-1]
    names = MEXICAN_NAMES[:players]
    texts = summary_texts(state, names)
    assert texts.title == f"Round 1 · {ENGLISH.deal_end(result.end)}"
    assert texts.captions == (
        f"{names[result.winners[0]]} won the round",
        ENGLISH.mexican_lowest_wins,
    )
    assert "lowest total wins" in texts.captions[-1]
    assert texts.footer == ""
    data = render_summary(state, names)
    assert len(data) <= 150 * 1024
    im = Image.open(io.BytesIO(data))
    assert im.format == "PNG"
    assert im.width == summary.WIDTH
    assert render_summary(state, names) == data


def test_a_blocked_mexican_round_with_a_tie_is_won_by_nobody() -> None:
    state = mexican_round(2, end="blocked", drawn=True)
    texts = summary_texts(state, MEXICAN_NAMES[:2])
    assert texts.captions[0] == "Nobody won the round"
    assert not any("won the round" in c for c in texts.captions[1:])
    draw_summary(state, MEXICAN_NAMES[:2])


@pytest.mark.parametrize("players", [2, 4, 8])
def test_a_mexican_summary_reveals_every_hand(
    monkeypatch: pytest.MonkeyPatch, players: int
) -> None:
    state = mexican_round(players, end="blocked")
    result = state.results[-1]
    drawn: list[tuple[int, int]] = []
    real = sprites.tile_sprite

    def tile_sprite(first: int, second: int, *args: Any, **kwargs: Any) -> sprites.Sprite:
        drawn.append((first, second))
        return real(first, second, *args, **kwargs)

    monkeypatch.setattr(sprites, "tile_sprite", tile_sprite)
    draw_summary(state, MEXICAN_NAMES[:players])
    hands = [t for hand in result.hands for t in hand]
    assert sorted(drawn) == sorted((t.low, t.high) for t in hands)
    assert len(drawn) >= players  # blocked: every hand holds a tile or more
    assert [sum(t.low + t.high for t in hand) for hand in result.hands] == list(result.pips)


def test_the_score_sheet_holds_every_round_and_the_totals() -> None:
    state = finished(Rules.make("mexican", players=4), seed=7, deals=5)
    sheet = summary.score_sheet(state, MEXICAN_NAMES[:4])
    assert len(sheet.rounds) == len(state.results) == 5
    for line, result in zip(sheet.rounds, state.results, strict=True):
        assert line == tuple(str(p) for p in result.pips)  # a round scores the pips left
    assert sheet.totals == tuple(str(int(t)) for t in state.totals)
    low = min(state.totals)
    assert sheet.leaders == {s for s, t in enumerate(state.totals) if t == low}
    assert sheet.round_winners == tuple(frozenset(r.winners) for r in state.results)
    assert sheet.labels == ("1", "2", "3", "4", "5", "Total")
    assert sheet.cells[:5] == sheet.rounds
    assert sheet.cells[5] == sheet.totals
    assert sheet.carried == 0


def test_a_whole_mexican_match_ends_with_the_lowest_total() -> None:
    state = finished(Rules.make("mexican", players=8), seed=5, deals=13)
    assert state.over
    assert len(state.results) == 13  # engines 12 down to 0
    low = min(state.totals)
    assert all(state.totals[s] == low for s in state.winners)
    texts = summary_texts(state, MEXICAN_NAMES)
    assert texts.title.startswith("Round 13 · ")
    winners = [MEXICAN_NAMES[s] for s in state.winners]
    assert texts.footer in (f"Winner: {winners[0]}", f"Winners: {' & '.join(winners)}")
    assert len(summary.score_sheet(state, MEXICAN_NAMES).rounds) == 13


class _Text(NamedTuple):
    text: str
    size: int
    box: tuple[int, int, int, int]


@pytest.mark.parametrize("language", ["en", "fi", "da", "lv"])
@pytest.mark.parametrize(("players", "rounds"), [(2, 1), (4, 3), (8, 13)])
def test_a_mexican_summary_reads_at_400_px_with_13_rounds(
    monkeypatch: pytest.MonkeyPatch, language: str, players: int, rounds: int
) -> None:
    """Every text at least 10 px as shown 400 px wide, none overlapping, all inside; the
    score sheet of 13 rounds and 8 players included."""
    texts: list[_Text] = []

    def draw_text(im: Image.Image, text: str, x: int, y: int, size: int, **kw: Any) -> int:
        width = canvas.draw_text(im, text, x, y, size, **kw)
        align = kw.get("align", "left")
        left = x - width // 2 if align == "centre" else x - width if align == "right" else x
        if text:
            bottom = y + canvas.line_height(size, kw.get("bold", False))
            texts.append(_Text(text, size, (left, y, left + width, bottom)))
        return width

    monkeypatch.setattr(summary, "draw_text", draw_text)
    monkeypatch.setattr(summary_sheet, "draw_text", draw_text)
    state = finished(Rules.make("mexican", players=players), seed=5, deals=rounds)
    names = MEXICAN_NAMES[:players]
    im = draw_summary(state, names, labels=image_labels(Translator(language)))
    assert len(state.results) == rounds
    for t in texts:
        assert t.size * 400 / im.width >= 10, t
        left, top, right, bottom = t.box
        assert left >= 0, t
        assert top >= 0, t
        assert right <= im.width, t
        assert bottom <= im.height, t
    for i, a in enumerate(texts):
        for b in texts[i + 1 :]:
            apart = (
                a.box[2] - 1 <= b.box[0]
                or b.box[2] - 1 <= a.box[0]
                or a.box[3] - 1 <= b.box[1]
                or b.box[3] - 1 <= a.box[1]
            )
            assert apart, (a, b)
    # every round's line and the totals are drawn
    drawn = {t.text for t in texts}
    assert {str(n) for n in range(1, rounds + 1)} <= drawn
    assert {image_labels(Translator(language)).number(v) for v in state.totals} <= drawn


def test_a_mexican_summary_never_reads_the_round_in_play() -> None:
    state = finished(Rules.make("mexican", players=4), seed=2, deals=2)
    assert not state.over
    shown = render_summary(state, MEXICAN_NAMES[:4])
    for seed in (1, 2):
        dealt = next_deal(state, random.Random(seed))
        assert render_summary(dealt, MEXICAN_NAMES[:4]) == shown


# -- the match so far, compact ----------------------------------------------------------


def drawn_texts(monkeypatch: pytest.MonkeyPatch) -> list[_Text]:
    """Record every text the summary and its sheet draw from now on."""
    texts: list[_Text] = []

    def draw_text(im: Image.Image, text: str, x: int, y: int, size: int, **kw: Any) -> int:
        width = canvas.draw_text(im, text, x, y, size, **kw)
        align = kw.get("align", "left")
        left = x - width // 2 if align == "centre" else x - width if align == "right" else x
        if text:
            bottom = y + canvas.line_height(size, kw.get("bold", False))
            texts.append(_Text(text, size, (left, y, left + width, bottom)))
        return width

    monkeypatch.setattr(summary, "draw_text", draw_text)
    monkeypatch.setattr(summary_sheet, "draw_text", draw_text)
    return texts


@pytest.mark.parametrize(
    "rules",
    [
        Rules.make("block", players=4, target=250),
        Rules.make("draw", players=4, teams=True, target=250),
        Rules.make("allfives", players=3, target=250),
        Rules.make("latvian", players=4, deals=4),
    ],
    ids=lambda r: f"{r.game}-{r.players}",
)
def test_the_latest_summary_carries_the_match_so_far(
    monkeypatch: pytest.MonkeyPatch, rules: Rules
) -> None:
    """Older summaries may be folded away: the latest one holds every deal's score and the
    running totals, a line per side."""
    state = finished(rules, seed=4, deals=3)
    assert len(state.results) == 3
    assert not state.over
    sides = rules.sides
    sheet = summary.score_sheet(state, NAMES[: rules.players])
    assert sheet.rounds == tuple(tuple(str(int(v)) for v in r.score) for r in state.results)
    assert sheet.totals == tuple(str(int(t)) for t in state.totals)
    assert sheet.labels == ("1", "2", "3", "Total")
    assert len(sheet.names) == len(sides)
    if rules.teams:
        assert sheet.names[0][0] == "Alice & Carol"
    texts = drawn_texts(monkeypatch)
    draw_summary(state, NAMES[: rules.players])
    drawn = [t.text for t in texts]
    assert {"1", "2", "3", "Total", *sheet.totals} <= set(drawn)
    for side in sides:  # every seat's name, over its hand, and again (its side's) in the sheet
        for seat in side:
            assert NAMES[seat] in drawn


def test_a_long_match_adds_up_its_earliest_deals() -> None:
    """When the deals outgrow the width the earliest share a column ``1–k``; the totals
    still count every deal."""
    state = finished(Rules.make("block", players=2), seed=3, deals=6)
    assert len(state.results) == 6
    wide = summary.score_sheet(state, NAMES[:2])
    assert wide.carried == 0
    narrow = summary.score_sheet(state, NAMES[:2], left=40, right=280)
    assert narrow.carried >= 2
    k = narrow.carried
    assert narrow.labels[0] == f"1–{k}"
    assert narrow.labels[1:] == (*(str(n) for n in range(k + 1, 7)), "Total")
    sums = tuple(str(int(sum(r.score[i] for r in state.results[:k]))) for i in range(2))
    assert narrow.cells[0] == sums
    assert narrow.totals == wide.totals == tuple(str(int(t)) for t in state.totals)


def test_the_totals_show_who_leads_the_way_the_game_counts() -> None:
    points = next(
        state
        for seed in range(100)
        if len(set((state := finished(Rules.make("block", players=3, target=250), seed, 3)).totals))
        == 3
    )
    assert not points.over
    assert summary.leading_sides(points) == {points.totals.index(max(points.totals))}
    mexican = finished(Rules.make("mexican", players=3), seed=6, deals=3)
    assert summary.leading_sides(mexican) == {mexican.totals.index(min(mexican.totals))}
    over = finished(Rules.make("block", players=2, scoring="single"), seed=1)
    assert over.over
    assert summary.leading_sides(over) == set(over.winners)


def test_a_single_deal_match_has_no_sheet(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its one deal is the whole match: the deal's points are its result."""
    state = finished(Rules.make("block", players=2, scoring="single"), seed=1)
    assert state.over
    assert len(state.results) == 1
    texts = drawn_texts(monkeypatch)
    draw_summary(state, NAMES[:2])
    assert "Total" not in [t.text for t in texts]
    assert texts[-1].text.startswith("Winner")
    going_on = finished(Rules.make("block", players=2), seed=1)
    texts.clear()
    draw_summary(going_on, NAMES[:2])
    assert "Total" in [t.text for t in texts]


# The same matches' summaries on main before issue 38 (no sheet of earlier deals), in
# pixels tall at 450 px wide: 231, 402, 306, 436, 439 and 774; now 183, 302, 239, 336,
# 309 and 508, every deal's score and the running totals included.
COMPACT = [
    (Rules.make("block", players=2), 3, 200),
    (Rules.make("block", players=4), 4, 310),
    (Rules.make("draw", players=4, teams=True), 4, 270),
    (Rules.make("latvian", players=4, deals=2), 2, 340),
    (Rules.make("mexican", players=4), 5, 330),
    (Rules.make("mexican", players=8), 13, 520),
]


@pytest.mark.parametrize(("rules", "deals", "most"), COMPACT, ids=lambda v: getattr(v, "game", v))
def test_a_summary_is_short_as_shown(rules: Rules, deals: int, most: int) -> None:
    """How tall the picture is at 450 px wide, with its sheet of every deal."""
    state = finished(rules, seed=2, deals=deals)
    im = draw_summary(state, MEXICAN_NAMES[: rules.players])
    assert im.width == summary.WIDTH
    assert im.height * 450 / im.width <= most
