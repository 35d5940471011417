"""Every text of the summary and the stats cards, measured as drawn.

Each drawn text is recorded (its box and font size) by wrapping the module's
``draw_text``. Bars, at the width Discord shows an image (400 px): no font under
10 px (size × 400 / image width), no two texts overlapping (column headings in
English, Finnish, Danish and Latvian included), every text inside the picture.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import pytest
from PIL import Image

from bot.engine.rules import Rules
from bot.i18n import LANGUAGES, Translator
from cogs.domino.stats_texts import RATING_NOTE, UNRATED_NOTE
from cogs.domino.texts import game_name, image_labels
from render import canvas, cards, summary, summary_sheet
from render.cards import BoardCard, BoardLine, PlayerCardImage, ResultLine
from render.samples import finished_match

SHOWN = 400
"""How wide Discord shows an attachment at the narrowest (a phone)."""
ATTACHMENT = (550, 350)
"""The box Discord's desktop client fits an attachment in: a tall picture is shown
narrower than 550 px (so a picture that is too tall has small text however wide it is)."""


def desktop_scale(im: Image.Image) -> float:
    """How much Discord's desktop client shrinks ``im`` (an attachment)."""
    return min(1.0, ATTACHMENT[0] / im.width, ATTACHMENT[1] / im.height)
NAMES = ("Ilze Bērziņa", "Bob", "Carolina Maximiliana", "Dave", "Eve", "Fay", "Gus", "Hal")


@dataclass(frozen=True)
class Drawn:
    text: str
    size: int
    box: tuple[int, int, int, int]


def recording(monkeypatch: pytest.MonkeyPatch, *modules: Any) -> list[Drawn]:
    """Record every text ``modules`` draw from now on."""
    drawn: list[Drawn] = []

    def draw_text(im: Image.Image, text: str, x: int, y: int, size: int, **kw: Any) -> int:
        width = canvas.draw_text(im, text, x, y, size, **kw)
        align = kw.get("align", "left")
        left = x - width // 2 if align == "centre" else x - width if align == "right" else x
        box = (left, y, left + width, y + canvas.line_height(size, kw.get("bold", False)))
        if text:
            drawn.append(Drawn(text, size, box))
        return width

    for module in modules:
        monkeypatch.setattr(module, "draw_text", draw_text)
    return drawn


def problems(drawn: list[Drawn], im: Image.Image) -> list[str]:
    """What breaks the bars: small text, overlapping texts, text outside the picture."""
    found = []
    for d in drawn:
        shown = d.size * SHOWN / im.width
        if shown < 10:
            found.append(f"{d.text!r} is {shown:.1f} px shown")
        left, top, right, bottom = d.box
        if left < 0 or top < 0 or right > im.width or bottom > im.height:
            found.append(f"{d.text!r} leaves the picture: {d.box}")
    for i, a in enumerate(drawn):
        for b in drawn[i + 1 :]:
            if _overlap(a.box, b.box):
                found.append(f"{a.text!r} runs into {b.text!r}")
    return found


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    # texts on the same line touch only within their ink: compare with 1 px of slack
    return a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1


finished = finished_match


SUMMARIES = [
    (Rules.make("latvian", players=4, deals=2), 2),
    (Rules.make("latvian", players=3, deals=1), 1),
    (Rules.make("draw", players=4, teams=True), 1),
    (Rules.make("block", players=2, scoring="single"), 1),
    (Rules.make("allfives", players=3), 1),
    (Rules.make("block", set=12, players=8), 1),
    (Rules.make("block", players=4, target=250), 6),
    (Rules.make("mexican", players=4), 6),
]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("rules", "deals"), SUMMARIES, ids=lambda v: getattr(v, "game", v))
def test_summary_texts_are_readable_and_apart(
    monkeypatch: pytest.MonkeyPatch, language: str, rules: Rules, deals: int
) -> None:
    drawn = recording(monkeypatch, summary, summary_sheet)
    state = finished(rules, seed=5, deals=deals)
    im = summary.draw_summary(
        state, NAMES[: rules.players], labels=image_labels(Translator(language))
    )
    assert drawn
    assert problems(drawn, im) == []
    assert summary.MIN_TEXT_SIZE * SHOWN / summary.WIDTH >= 10


@pytest.mark.parametrize(("rules", "deals"), SUMMARIES, ids=lambda v: getattr(v, "game", v))
def test_summary_texts_are_readable_on_the_desktop(
    monkeypatch: pytest.MonkeyPatch, rules: Rules, deals: int
) -> None:
    """Fitted in the desktop's 550 × 350 box, every text is still 10 px or more."""
    drawn = recording(monkeypatch, summary, summary_sheet)
    state = finished(rules, seed=5, deals=deals)
    im = summary.draw_summary(state, NAMES[: rules.players], labels=image_labels(Translator("fi")))
    small = [d.text for d in drawn if d.size * desktop_scale(im) < 10]
    assert small == [], (im.size, small[:3])


def test_summary_headings_in_every_language_stay_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    """The real labels: Finnish "Jako" and "Yhteensä" once ran into each other."""
    state = finished(Rules.make("latvian", players=4, deals=2), seed=5, deals=2)
    assert state.places is not None
    for language in LANGUAGES:
        drawn = recording(monkeypatch, summary, summary_sheet)
        labels = image_labels(Translator(language))
        im = summary.draw_summary(state, NAMES[:4], labels=labels)
        # the deal's columns over the seats, the sheet's over the sides: each on one line
        for headings in ((labels.pips, labels.deal_score), (labels.total, labels.place)):
            top = next(d.box[1] for d in drawn if d.text == headings[-1])
            row = [d for d in drawn if d.text in headings and d.box[1] == top]
            assert {d.text for d in row} == set(headings), language  # each drawn whole, in line
            row.sort(key=lambda d: d.box[0])
            gaps = [b.box[0] - a.box[2] for a, b in pairwise(row)]
            assert min(gaps) >= 12, (language, gaps)
        assert problems(drawn, im) == []


def translated_board(tr: Translator, players: int = 10) -> BoardCard:
    names = [*NAMES, "Ilze Bērziņa-Kalniņa von Longname"]
    lines = tuple(
        BoardLine(
            i + 1,
            names[i % len(names)],
            (
                "—" if i == 9 else tr.number(24.37 - 2.3 * i),
                tr.number(1234 - 100 * i),
                tr.number(600 - 50 * i),
                tr.percent(0.486),
                tr.number(12.5),
            ),
            highlight=i == 4,
        )
        for i in range(players)
    )
    return BoardCard(
        title=tr("{game} leaderboard", game=game_name("latvian", tr)),
        subtitle=" · ".join(
            [
                tr("Last 30 days"),
                tr("by place points"),
                tr.plural("{n} player", "{n} players", 1234),
                tr("page {page} of {pages}", page=1, pages=124),
            ]
        ),
        name_heading=tr("Player"),
        headings=(tr("Rating"), tr("Matches"), tr("Wins"), tr("Win rate"), tr("Place pts")),
        lines=lines,
        footer=f"{tr(RATING_NOTE)} {tr(UNRATED_NOTE)}",
        empty=tr("No counted matches here yet. Finish a match to get on the board!"),
    )


def translated_player(tr: Translator, trend: tuple[float, ...]) -> PlayerCardImage:
    rows = tuple(
        (
            game_name(game, tr),
            tr("{rating} (#{position})", rating=tr.number(-12.3), position=1234),
            tr.number(1242),
            tr.number(610),
            tr.percent(0.491),
            tr.number(88.4),
            tr.number(12),
        )
        for game in ("block", "draw", "allfives", "latvian")
    )
    long = " · ".join(
        [
            game_name("latvian", tr),
            tr("place {rank} of {sides}", rank=3, sides=4),
            tr("{n} pts", n=tr.number(1234)),
            tr("{n} place pts", n=tr.number(2.5)),
            "2024-05-01",
        ]
    )
    return PlayerCardImage(
        title="Ilze Bērziņa-Kalniņa von Longname the Third",
        subtitle="A server with a long name · " + tr("all time"),
        game_heading=tr("Game"),
        headings=(
            tr("Rating"),
            tr("Matches"),
            tr("Wins"),
            tr("Win rate"),
            tr("Pts/match"),
            tr("Best streak"),
        ),
        rows=rows,
        trend_title=tr("Rating trend · {game}", game=game_name("latvian", tr)),
        trend=trend,
        trend_empty=tr("Not enough rated matches for a trend yet."),
        recent_title=tr("Recent results"),
        recent=(
            ResultLine("win", long, "+" + tr.number(1.23)),
            ResultLine("loss", long, "−" + tr.number(12.3)),
            ResultLine("draw", game_name("draw", tr) + " · " + tr("Draw")),
        ),
        footer=tr(RATING_NOTE),
        number=tr.number,
    )


def cards_drawn(language: str) -> Iterator[tuple[str, Callable[[], Image.Image]]]:
    tr = Translator(language)
    yield "board", lambda: cards.draw_leaderboard(translated_board(tr))
    yield "empty board", lambda: cards.draw_leaderboard(translated_board(tr, players=0))
    yield "card", lambda: cards.draw_player_card(translated_player(tr, (-3.21, 1.5, 12.34)))
    yield "card, no trend", lambda: cards.draw_player_card(translated_player(tr, ()))


@pytest.mark.parametrize("language", LANGUAGES)
def test_card_texts_are_readable_and_apart(monkeypatch: pytest.MonkeyPatch, language: str) -> None:
    for what, draw in cards_drawn(language):
        drawn = recording(monkeypatch, cards)
        im = draw()
        assert drawn, what
        assert problems(drawn, im) == [], what
    for size in cards.TEXT_SIZES:
        assert size * SHOWN / max(cards.WIDTH, cards.CARD_WIDTH) >= 10


@pytest.mark.parametrize("language", LANGUAGES)
def test_card_headings_are_drawn_whole(monkeypatch: pytest.MonkeyPatch, language: str) -> None:
    tr = Translator(language)
    drawn = recording(monkeypatch, cards)
    card = translated_board(tr)
    cards.draw_leaderboard(card)
    texts = {d.text for d in drawn}
    assert {card.name_heading, *card.headings} <= texts
    drawn = recording(monkeypatch, cards)
    player = translated_player(tr, (1.0, 2.0))
    cards.draw_player_card(player)
    assert {player.game_heading, *player.headings} <= {d.text for d in drawn}


def test_the_bars_catch_small_and_overlapping_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: a 12 px footer on a 1000 px card, and a column too narrow."""
    monkeypatch.setattr(cards, "FOOTER_SIZE", 12)
    drawn = recording(monkeypatch, cards)
    im = cards.draw_leaderboard(translated_board(Translator("fi")))
    assert any("px shown" in p for p in problems(drawn, im))
    monkeypatch.setattr(cards, "FOOTER_SIZE", 25)
    monkeypatch.setattr(cards, "CELL_GAP", -40)
    drawn = recording(monkeypatch, cards)
    im = cards.draw_leaderboard(translated_board(Translator("fi")))
    assert any("runs into" in p for p in problems(drawn, im))
