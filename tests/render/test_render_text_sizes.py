"""Every text of the summary and the leaderboard card, measured as drawn.

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
from bot.stats import BoardEntry, BoardPage, Rating
from cogs.domino.stats_texts import RATING_NOTE, board_card
from cogs.domino.texts import image_labels
from render import canvas, cards, summary, summary_sheet
from render.cards import BoardCard
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
    """Page 1 of 124 of a latvian board by place points, as the cog draws it: long names,
    big numbers, an unrated player (so both notes), the viewer's line outlined."""
    names = [*NAMES, "Ilze Bērziņa-Kalniņa von Longname"]
    entries = tuple(
        BoardEntry(
            position=i + 1,
            user_id=100 + i,
            name=names[i % len(names)],
            matches=1234 - 100 * i,
            wins=600 - 50 * i,
            draws=3,
            points=10.0,
            place_points=1250.5 - 10 * i,
            rating=None if i == 9 else Rating(30.0, 2.0, 24.37 - 2.3 * i),
        )
        for i in range(players)
    )
    page = BoardPage(1, "latvian", None, "places", 0, 10, 1234 if players else 0, entries)
    return board_card(page, tr, "month", viewer=104)


def cards_drawn(language: str) -> Iterator[tuple[str, Callable[[], Image.Image]]]:
    tr = Translator(language)
    yield "board", lambda: cards.draw_leaderboard(translated_board(tr))
    yield "empty board", lambda: cards.draw_leaderboard(translated_board(tr, players=0))


@pytest.mark.parametrize("language", LANGUAGES)
def test_card_texts_are_readable_and_apart(monkeypatch: pytest.MonkeyPatch, language: str) -> None:
    for what, draw in cards_drawn(language):
        drawn = recording(monkeypatch, cards)
        im = draw()
        assert drawn, what
        assert problems(drawn, im) == [], what
    for size in cards.TEXT_SIZES:
        assert size * SHOWN / cards.WIDTH >= 10


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_full_leaderboard_page_reads_on_the_desktop(
    monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    """Ten players, both notes and a page line: short enough that Discord's desktop box
    (550 × 350) does not shrink any text under 10 px. (The leaderboard used to be an
    embed's image, fitted in 400 × 300: 8 px text, the player card 6 px.)"""
    drawn = recording(monkeypatch, cards)
    card = translated_board(Translator(language))
    im = cards.draw_leaderboard(card)
    assert im.height <= cards.MAX_HEIGHT
    assert min(d.size for d in drawn) * desktop_scale(im) >= 10
    assert card.page in {d.text for d in drawn}  # the page line drawn whole, on its own
    assert card.footer.startswith(Translator(language)(RATING_NOTE))


@pytest.mark.parametrize("language", LANGUAGES)
def test_card_headings_are_drawn_whole(monkeypatch: pytest.MonkeyPatch, language: str) -> None:
    tr = Translator(language)
    drawn = recording(monkeypatch, cards)
    card = translated_board(tr)
    cards.draw_leaderboard(card)
    texts = {d.text for d in drawn}
    assert {card.name_heading, *card.headings} <= texts


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
