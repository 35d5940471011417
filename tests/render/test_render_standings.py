"""A competition's standings picture (issue 41): every text readable at Discord's 400 px
preview and apart from the others, in every language; a page of players within the
desktop's box; a long competition shows its latest rounds; shared ranks and pages."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest
from test_render_text_sizes import SHOWN, desktop_scale, problems, recording

from bot.competitions.competition import (
    Competition,
    Format,
    check_in,
    new_competition,
    record,
    set_game,
    start,
)
from bot.competitions.service import Held
from bot.competitions.standings import TableResult
from bot.i18n import LANGUAGES, Translator
from cogs.domino.competition_pictures import standings_cards
from render import cards, standings
from render.standings import LINES_A_PICTURE, StandingLine, StandingsCard

LONG = "Ilze Bērziņa-Kalniņa von Longname"
NOW = datetime(2025, 5, 1, tzinfo=UTC)


def played(players: int, rounds: int, done: int, seed: int = 3) -> Held:
    """A competition of ``players`` over ``rounds`` rounds, ``done`` of them played."""
    c: Competition = new_competition(Format(rounds=rounds), seed=seed)
    for user in range(1, players + 1):
        c = check_in(c, user, LONG if user % 3 == 0 else f"Player {user}")
    c = start(c)
    rng = random.Random(seed)
    for _ in range(done):
        current = c.current
        assert current is not None
        for table in current.tables:
            c = set_game(c, current.number, table.number, 100 * current.number + table.number)
            values = tuple(float(rng.randint(-25, 160)) for _ in table.players)
            c = record(c, current.number, table.number, TableResult(table.players, values))
    return Held(1, 10, 20, 30, 0, None, c)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_standings_are_readable_and_apart(
    monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    tr = Translator(language)
    for held in (played(10, 3, 2), played(10, 3, 3), played(7, 12, 12), played(4, 3, 0)):
        for picture in standings_cards(held, tr, viewer=3):
            drawn = recording(monkeypatch, cards)
            im = standings.draw_standings(picture.card)
            assert drawn
            assert problems(drawn, im) == [], (language, picture.card.title)
            assert min(d.size for d in drawn) * SHOWN / im.width >= 10
            assert min(d.size for d in drawn) * desktop_scale(im) >= 10, im.size
            texts = {d.text for d in drawn}
            assert {picture.card.name_heading, *picture.card.headings} <= texts


def test_a_round_s_title_and_the_final_one() -> None:
    tr = Translator("en")
    assert standings_cards(played(10, 3, 2), tr)[0].card.title == "Round 2 of 3"
    assert standings_cards(played(10, 3, 3), tr)[0].card.title == "Final standings"
    before = standings_cards(played(10, 3, 0), tr)[0].card
    assert before.title == "Round 1 of 3"
    assert before.round_headings == ()


def test_each_round_s_place_points_and_the_sums() -> None:
    held = played(10, 3, 3)
    [picture] = standings_cards(held, Translator("en"), viewer=4)
    card = picture.card
    assert card.round_headings == ("R1", "R2", "R3")
    assert len(card.lines) == 10
    for line, s in zip(card.lines, held.competition.standings(), strict=True):
        assert line.rank == s.rank
        assert float(line.cells[0]) == s.points == sum(float(p) for p in line.per_round)
        assert line.cells[2] == "3"
        assert line.highlight == (s.player == 4)
    # latvian: the game total as played (the sum of deal values; lower is better)
    assert "lower game total" in card.footer
    totals = [float(line.cells[1]) for line in card.lines]
    assert totals == [-s.margin for s in held.competition.standings()]
    assert picture.alt.startswith("Final standings\n1. ")
    assert "place points" in picture.alt


def test_more_players_than_a_picture_holds_are_pages() -> None:
    held = played(23, 2, 2)
    pictures = standings_cards(held, Translator("en"))
    assert [len(p.card.lines) for p in pictures] == [10, 10, 3]
    assert [p.card.page for p in pictures] == ["page 1 of 3", "page 2 of 3", "page 3 of 3"]
    ranks = [line.rank for p in pictures for line in p.card.lines]
    assert ranks == sorted(ranks)
    for p in pictures:
        assert standings.draw_standings(p.card).height <= cards.MAX_HEIGHT


def test_a_long_competition_shows_its_latest_rounds() -> None:
    held = played(8, 20, 20)
    [picture] = standings_cards(held, Translator("fi"))
    assert len(picture.card.round_headings) == 20
    shown = standings.rounds_that_fit(picture.card)
    assert 3 <= shown < 20
    board = standings.board_of(picture.card)
    assert board.headings[-shown:] == picture.card.round_headings[-shown:]
    assert board.headings[-1] == Translator("fi")("R{round}", round=20)


def test_shared_ranks_repeat_and_lines_must_match_the_rounds() -> None:
    line = StandingLine(1, "Ann", ("4", "10", "1"), ("4",))
    level = StandingLine(1, "Bob", ("4", "10", "1"), ("4",))
    card = StandingsCard("Round 1 of 1", "", "Player", ("P", "T", "R"), ("R1",), (line, level))
    assert [b.position for b in standings.board_of(card).lines] == [1, 1]
    assert standings.render_standings(card)[:8] == b"\x89PNG\r\n\x1a\n"
    bad = StandingsCard("x", "", "Player", ("P", "T", "R"), ("R1", "R2"), (line,))
    with pytest.raises(ValueError, match="rounds"):
        standings.draw_standings(bad)
    assert LINES_A_PICTURE == 10
