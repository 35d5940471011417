"""Counting one match (bot.stats.ledger.count_match): plain values in and out, by hand."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace

import pytest
from openskill.models import PlackettLuce
from stats_support import T0, Seat, seats_of

from bot.stats import MatchLedger, OpenSkillRater, RatedSeat, Rating, count_match
from bot.storage import Counted, MatchSummary, PlayerResult, Standing, fresh_standing

ALICE, BOB, CAROL, DAVE = 11, 12, 13, 14
AI = None


def match(*seats: Seat, game: str = "block", match_id: int = 7) -> MatchSummary:
    return MatchSummary(
        id=match_id,
        game_id=70,
        channel_id=5,
        game=game,
        finished_at=T0,
        deals=1,
        seats=seats_of(*seats),
    )


def standing(user_id: int, name: str, game: str = "block", **fields: object) -> Standing:
    base = fresh_standing(game, user_id, name)
    return replace(base, **fields)  # type: ignore[arg-type]


def by_user(counted: Counted) -> dict[int, Standing]:
    return {s.user_id: s for s in counted.standings}


def row(counted: Counted, seat: int) -> PlayerResult:
    return next(r for r in counted.results if r.seat == seat)


# -- tallies, streaks, points -------------------------------------------------------------


def test_three_players_ranks_outcomes_streaks_and_points() -> None:
    before = {
        ALICE: standing(ALICE, "Al", matches=4, wins=3, points=200.0, streak=2, best_streak=2),
        BOB: standing(BOB, "Bob", matches=6, wins=5, points=300.0, streak=4, best_streak=5),
    }
    snapshot = dict(before)
    counted = count_match(
        before,
        match(
            (ALICE, "Alice", 0, 61.0, True, None),
            (BOB, "Bob", 1, 30.0, False, None),
            (CAROL, "Carol", 2, 10.0, False, None),
        ),
        None,
    )
    assert before == snapshot  # nothing it was given changed
    new = by_user(counted)
    # alice wins outright: one more win, her streak goes on and sets her best
    assert new[ALICE] == standing(
        ALICE,
        "Alice",  # the latest name
        matches=5,
        wins=4,
        points=261.0,
        streak=3,
        best_streak=3,
        last_match_id=7,
    )
    # bob's streak ends, his best stays
    assert (new[BOB].matches, new[BOB].wins, new[BOB].streak, new[BOB].best_streak) == (7, 5, 0, 5)
    assert new[BOB].points == 330.0
    # carol starts from nothing
    assert new[CAROL] == standing(CAROL, "Carol", matches=1, points=10.0, last_match_id=7)
    assert new[CAROL].losses == 1
    # points scoring: the higher totals rank first
    assert [(r.seat, r.user_id, r.rank, r.outcome, r.sides, r.points) for r in counted.results] == [
        (0, ALICE, 1, "win", 3, 61.0),
        (1, BOB, 2, "loss", 3, 30.0),
        (2, CAROL, 3, "loss", 3, 10.0),
    ]
    assert all(
        (r.match_id, r.game, r.finished_at, r.place, r.rating_before, r.rating)
        == (7, "block", T0, None, None, None)
        for r in counted.results
    )


def test_a_partnership_counts_each_partner_with_the_side_total() -> None:
    counted = count_match(
        {},
        match(
            (ALICE, "Alice", 0, 101.0, True, None),
            (BOB, "Bob", 1, 70.0, False, None),
            (CAROL, "Carol", 0, 101.0, True, None),
            (DAVE, "Dave", 1, 70.0, False, None),
        ),
        None,
    )
    assert [(r.user_id, r.rank, r.outcome, r.sides, r.points) for r in counted.results] == [
        (ALICE, 1, "win", 2, 101.0),
        (BOB, 2, "loss", 2, 70.0),
        (CAROL, 1, "win", 2, 101.0),
        (DAVE, 2, "loss", 2, 70.0),
    ]
    new = by_user(counted)
    assert [(new[u].wins, new[u].streak, new[u].points) for u in (ALICE, BOB, CAROL, DAVE)] == [
        (1, 1, 101.0),
        (0, 0, 70.0),
        (1, 1, 101.0),
        (0, 0, 70.0),
    ]


def test_ai_partners_are_never_counted() -> None:
    counted = count_match(
        {},
        match(
            (ALICE, "Alice", 0, 50.0, False, None),
            (AI, "Bot 1", 1, 100.0, True, None),
            (BOB, "Bob", 0, 50.0, False, None),
            (AI, "Bot 2", 1, 100.0, True, None),
        ),
        None,
    )
    assert set(by_user(counted)) == {ALICE, BOB}
    assert [(r.seat, r.rank, r.outcome, r.sides) for r in counted.results] == [
        (0, 2, "loss", 2),
        (2, 2, "loss", 2),
    ]
    # a match of AIs only counts nobody
    alone = count_match(
        {}, match((AI, "Bot", 0, 1.0, True, None), (AI, "B", 1, 0.0, False, None)), None
    )
    assert alone == Counted((), ())


def test_latvian_place_points_accumulate_and_rank_the_session() -> None:
    before = {ALICE: standing(ALICE, "Alice", "latvian", matches=1, wins=1, place_points=4.0)}
    counted = count_match(
        before,
        match(
            (ALICE, "Alice", 0, 40.0, False, 2.5),
            (BOB, "Bob", 1, 90.0, False, 1.0),
            (CAROL, "Carol", 2, 20.0, True, 4.0),
            (DAVE, "Dave", 3, 60.0, False, 2.5),
            game="latvian",
        ),
        None,
    )
    new = by_user(counted)
    assert {u: s.place_points for u, s in new.items()} == {
        ALICE: 6.5,
        BOB: 1.0,
        CAROL: 4.0,
        DAVE: 2.5,
    }
    # places rank the session (not the totals); the shared 2nd place shares rank 2
    assert [(r.user_id, r.rank, r.outcome, r.place) for r in counted.results] == [
        (ALICE, 2, "loss", 2.5),
        (BOB, 4, "loss", 1.0),
        (CAROL, 1, "win", 4.0),
        (DAVE, 2, "loss", 2.5),
    ]
    assert (new[ALICE].matches, new[ALICE].wins, new[ALICE].points) == (2, 1, 40.0)
    assert all(s.game == "latvian" for s in counted.standings)


def test_a_draw_counts_for_everyone_and_ends_the_streaks() -> None:
    before = {ALICE: standing(ALICE, "Alice", matches=2, wins=2, streak=2, best_streak=2)}
    counted = count_match(
        before,
        match((ALICE, "Alice", 0, 0.0, False, None), (BOB, "Bob", 1, 0.0, False, None)),
        None,
    )
    new = by_user(counted)
    assert (new[ALICE].wins, new[ALICE].draws, new[ALICE].streak, new[ALICE].best_streak) == (
        2,
        1,
        0,
        2,
    )
    assert (new[BOB].matches, new[BOB].draws, new[BOB].losses) == (1, 1, 0)
    assert [(r.rank, r.outcome) for r in counted.results] == [(1, "draw"), (1, "draw")]
    # a shared latvian first place is a draw too
    shared = count_match(
        {},
        match(
            (ALICE, "Alice", 0, 40.0, True, 3.5),
            (BOB, "Bob", 1, 40.0, True, 3.5),
            (CAROL, "Carol", 2, 90.0, False, 1.5),
            (DAVE, "Dave", 3, 90.0, False, 1.5),
            game="latvian",
        ),
        None,
    )
    assert [r.outcome for r in shared.results] == ["draw", "draw", "loss", "loss"]
    assert [s.draws for s in shared.standings] == [1, 1, 0, 0]


# -- ratings ----------------------------------------------------------------------------------


class StepRater:
    """A rater to check by hand: each rated seat gains (sides − rank) in mu, sigma stays,
    the ordinal is mu − 2·sigma. Remembers what it was shown."""

    def __init__(self) -> None:
        self.shown: list[list[RatedSeat]] = []

    def initial(self) -> Rating:
        return Rating(10.0, 2.0, 6.0)

    def rate(self, game: str, seats: Sequence[RatedSeat]) -> Mapping[int, Rating]:
        self.shown.append(list(seats))
        sides = len({s.side for s in seats})
        new: dict[int, Rating] = {}
        for s in seats:
            if s.rating is not None:
                mu = s.rating.mu + sides - s.rank
                new[s.seat] = Rating(mu, s.rating.sigma, mu - 2 * s.rating.sigma)
        return new


def test_the_rater_sees_current_ratings_and_its_ratings_are_kept() -> None:
    rater = StepRater()
    before = {ALICE: standing(ALICE, "Alice", matches=1, rated=1, rating=Rating(12.0, 2.0, 8.0))}
    counted = count_match(
        before,
        match(
            (ALICE, "Alice", 0, 61.0, True, None),
            (BOB, "Bob", 1, 30.0, False, None),
            (AI, "Bot", 2, 10.0, False, None),
        ),
        rater,
    )
    # alice comes with her rating, bob with the initial one, the AI with none
    assert rater.shown == [
        [
            RatedSeat(0, ALICE, 0, 1, Rating(12.0, 2.0, 8.0)),
            RatedSeat(1, BOB, 1, 2, Rating(10.0, 2.0, 6.0)),
            RatedSeat(2, None, 2, 3, None),
        ]
    ]
    new = by_user(counted)
    assert (new[ALICE].rated, new[ALICE].rating) == (2, Rating(14.0, 2.0, 10.0))
    assert (new[BOB].rated, new[BOB].rating) == (1, Rating(11.0, 2.0, 7.0))
    alice, bob = row(counted, 0), row(counted, 1)
    assert (alice.rating_before, alice.rating, alice.change) == (8.0, Rating(14.0, 2.0, 10.0), 2.0)
    assert (bob.rating_before, bob.rating, bob.change) == (6.0, Rating(11.0, 2.0, 7.0), 1.0)


def test_a_match_the_rater_leaves_out_keeps_the_ratings() -> None:
    rating = Rating(12.0, 2.0, 8.0)
    before = {ALICE: standing(ALICE, "Alice", matches=1, rated=1, rating=rating)}
    counted = count_match(
        before,
        match((ALICE, "Alice", 0, 10.0, False, None), (AI, "Bot", 1, 100.0, True, None)),
        OpenSkillRater(),  # one human against an AI: nobody is rated
    )
    [alice] = counted.standings
    assert (alice.matches, alice.rated, alice.rating) == (2, 1, rating)
    assert (counted.results[0].rating_before, counted.results[0].rating) == (None, None)


def test_openskill_rates_a_duel_like_openskill() -> None:
    counted = count_match(
        {},
        match((ALICE, "Alice", 0, 100.0, True, None), (BOB, "Bob", 1, 0.0, False, None)),
        OpenSkillRater(),
    )
    model = PlackettLuce()
    [[a], [b]] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    new = by_user(counted)
    assert new[ALICE].rating is not None
    assert new[BOB].rating is not None
    assert new[ALICE].rating.mu == pytest.approx(a.mu, rel=1e-12)
    assert new[BOB].rating.ordinal == pytest.approx(b.ordinal(), rel=1e-12)
    assert [r.rating_before for r in counted.results] == [pytest.approx(0.0), pytest.approx(0.0)]


class BrokenRater:
    def initial(self) -> Rating:
        return Rating(25.0, 8.0, 1.0)

    def rate(self, game: str, seats: Sequence[RatedSeat]) -> Mapping[int, Rating]:
        raise ZeroDivisionError("a rating bug")


def test_a_failing_rater_counts_the_match_unrated(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR, logger="bot.stats.ledger"):
        counted = count_match(
            {},
            match((ALICE, "Alice", 0, 100.0, True, None), (BOB, "Bob", 1, 0.0, False, None)),
            BrokenRater(),
        )
    assert "match 7: the rater failed" in caplog.text
    new = by_user(counted)
    assert (new[ALICE].wins, new[ALICE].rated, new[ALICE].rating) == (1, 0, None)
    assert [r.rating for r in counted.results] == [None, None]


def test_the_ledger_is_count_match_with_its_rater_and_gives_the_same_answer_twice() -> None:
    before = {ALICE: standing(ALICE, "Alice", matches=1, rated=1, rating=Rating(25.0, 8.0, 1.0))}
    played = match(
        (ALICE, "Alice", 0, 100.0, True, None),
        (BOB, "Bob", 1, 0.0, False, None),
        (CAROL, "Carol", 2, 50.0, False, None),
    )
    ledger = MatchLedger(OpenSkillRater())
    first = ledger.count(before, played)
    assert first == ledger.count(before, played)
    assert first == count_match(before, played, OpenSkillRater())
    assert MatchLedger().count(before, played) == count_match(before, played, None)
