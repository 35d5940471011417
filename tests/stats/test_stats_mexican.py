"""Mexican Train on the leaderboard: a match ranks by its final totals, lowest first,
equal totals sharing a rank (RULES.md#mexican-train)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from stats_support import seats_of

from bot.stats import count_match, match_results
from bot.storage import MatchSummary

ALICE, BOB, CAROL, DAVE = 11, 12, 13, 14


def ranks(*seats: Any, game: str = "mexican") -> list[tuple[int, str]]:
    return [(r.rank, r.outcome) for r in match_results(seats_of(*seats), game)]


def test_the_lowest_total_wins_and_the_rest_follow_lowest_first() -> None:
    got = ranks(
        (ALICE, "a", 0, 120.0, False, None),
        (BOB, "b", 1, 35.0, True, None),
        (CAROL, "c", 2, 80.0, False, None),
        (DAVE, "d", 3, 200.0, False, None),
    )
    assert got == [(3, "loss"), (1, "win"), (2, "loss"), (4, "loss")]


def test_equal_lowest_totals_share_the_win_as_a_draw() -> None:
    got = ranks(
        (ALICE, "a", 0, 40.0, True, None),
        (BOB, "b", 1, 40.0, True, None),
        (CAROL, "c", 2, 90.0, False, None),
    )
    assert got == [(1, "draw"), (1, "draw"), (3, "loss")]


def test_equal_totals_below_the_top_share_their_place() -> None:
    got = ranks(
        (ALICE, "a", 0, 10.0, True, None),
        (BOB, "b", 1, 60.0, False, None),
        (CAROL, "c", 2, 60.0, False, None),
        (DAVE, "d", 3, 61.0, False, None),
    )
    assert got == [(1, "win"), (2, "loss"), (2, "loss"), (4, "loss")]


def test_everybody_on_the_same_total_draws() -> None:
    got = ranks(
        (ALICE, "a", 0, 33.0, True, None),
        (BOB, "b", 1, 33.0, True, None),
    )
    assert got == [(1, "draw"), (1, "draw")]


def test_a_counted_match_gives_each_human_their_rank_and_points() -> None:
    match = MatchSummary(
        id=7,
        game_id=70,
        channel_id=5,
        game="mexican",
        finished_at=datetime(2026, 1, 1, tzinfo=UTC),
        deals=13,
        seats=seats_of(
            (ALICE, "a", 0, 55.0, False, None),
            (None, "Bot 1", 1, 20.0, True, None),
            (BOB, "b", 2, 70.0, False, None),
        ),
    )
    counted = count_match({}, match, None)
    rows = {r.user_id: r for r in counted.results}
    assert (rows[ALICE].rank, rows[ALICE].outcome) == (2, "loss")
    assert (rows[BOB].rank, rows[BOB].outcome) == (3, "loss")
    standings = {s.user_id: s for s in counted.standings}
    assert standings[ALICE].points == 55.0
    assert standings[ALICE].game == "mexican"
