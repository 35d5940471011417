"""Results, standings and ratings on real SQLite files: hand-checked and against openskill."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from openskill.models import PlackettLuce, PlackettLuceRating
from stats_support import seats_of

from bot.stats import OpenSkillRater, RatedSeat, Rating, match_results, rated_sides
from bot.storage import Database

ALICE, BOB, CAROL, DAVE = 11, 12, 13, 14
AI = None


def results(*seats: Any) -> list[tuple[int, str]]:
    return [(r.rank, r.outcome) for r in match_results(seats_of(*seats))]


# -- ranks and outcomes, by hand ---------------------------------------------------------------


def test_two_players_the_winner_ranks_first() -> None:
    assert results((1, "a", 0, 100.0, True, None), (2, "b", 1, 40.0, False, None)) == [
        (1, "win"),
        (2, "loss"),
    ]


def test_teams_share_their_side_rank() -> None:
    got = results(
        (1, "a", 0, 100.0, True, None),
        (2, "b", 1, 64.5, False, None),
        (3, "c", 0, 100.0, True, None),
        (4, "d", 1, 64.5, False, None),
    )
    assert got == [(1, "win"), (2, "loss"), (1, "win"), (2, "loss")]


def test_a_match_without_a_winner_is_a_draw_for_everyone() -> None:
    got = results((1, "a", 0, 0.0, False, None), (2, "b", 1, 0.0, False, None))
    assert got == [(1, "draw"), (1, "draw")]


def test_two_winning_sides_draw_and_the_rest_lose() -> None:
    got = results(
        (1, "a", 0, 105.0, True, None),
        (2, "b", 1, 105.0, True, None),
        (3, "c", 2, 80.0, False, None),
    )
    assert got == [(1, "draw"), (1, "draw"), (3, "loss")]


def test_penalty_scoring_ranks_the_lowest_totals_first() -> None:
    got = results(
        (1, "a", 0, 20.0, True, None),
        (2, "b", 1, 50.0, False, None),
        (3, "c", 2, 35.0, False, None),
    )
    assert got == [(1, "win"), (3, "loss"), (2, "loss")]


def test_points_scoring_ranks_the_highest_totals_first_with_ties() -> None:
    got = results(
        (1, "a", 0, 61.0, True, None),
        (2, "b", 1, 10.0, False, None),
        (3, "c", 2, 30.0, False, None),
        (4, "d", 3, 30.0, False, None),
    )
    assert got == [(1, "win"), (4, "loss"), (2, "loss"), (2, "loss")]


def test_latvian_ranks_by_place_points_with_shared_places() -> None:
    got = results(
        (1, "a", 0, 40.0, True, 4.0),
        (2, "b", 1, 90.0, False, 2.5),
        (3, "c", 2, 90.0, False, 2.5),
        (4, "d", 3, 120.0, False, 1.0),
    )
    assert got == [(1, "win"), (2, "loss"), (2, "loss"), (4, "loss")]


def test_a_shared_latvian_first_place_is_a_draw() -> None:
    got = results(
        (1, "a", 0, 40.0, True, 3.5),
        (2, "b", 1, 40.0, True, 3.5),
        (3, "c", 2, 90.0, False, 1.5),
        (4, "d", 3, 90.0, False, 1.5),
    )
    assert got == [(1, "draw"), (1, "draw"), (3, "loss"), (3, "loss")]


# -- the rating policy ----------------------------------------------------------------------------

START = Rating(25.0, 25.0 / 3, 0.0)


def rated(*seats: tuple[int | None, int, int]) -> list[RatedSeat]:
    return [
        RatedSeat(i, user, side, rank, START if user is not None else None)
        for i, (user, side, rank) in enumerate(seats)
    ]


def test_ai_seats_and_human_less_sides_are_left_out() -> None:
    sides = rated_sides(rated((ALICE, 0, 2), (AI, 1, 1), (BOB, 0, 2), (AI, 1, 1)))
    assert sides == []  # two humans, one side: nobody to be rated against
    sides = rated_sides(rated((ALICE, 0, 2), (AI, 1, 1), (CAROL, 2, 3)))
    assert [[s.user_id for s in side] for side in sides] == [[ALICE], [CAROL]]
    sides = rated_sides(rated((ALICE, 0, 1), (AI, 1, 2)))
    assert sides == []
    rater = OpenSkillRater()
    assert rater.rate("block", rated((ALICE, 0, 1), (AI, 1, 2))) == {}


# -- stored matches: counts by hand, ratings against openskill -------------------------------------


def os_rating(model: PlackettLuce, r: Rating | PlackettLuceRating) -> PlackettLuceRating:
    return model.rating(mu=r.mu, sigma=r.sigma)


def same(got: Rating | None, want: PlackettLuceRating) -> None:
    assert got is not None
    assert got.mu == pytest.approx(want.mu, rel=1e-12)
    assert got.sigma == pytest.approx(want.sigma, rel=1e-12)
    assert got.ordinal == pytest.approx(want.ordinal(), rel=1e-12, abs=1e-12)


async def play_the_season(matches: Any) -> None:
    """Eight matches of ALICE, BOB, CAROL and DAVE (block and one latvian session)."""
    a, b, c, d = ALICE, BOB, CAROL, DAVE
    # m1: alice beats bob
    await matches.add((a, "Alice", 0, 100.0, True, None), (b, "Bob", 1, 40.0, False, None))
    # m2: a drawn single deal
    await matches.add((a, "Alice", 0, 0.0, False, None), (b, "Bob", 1, 0.0, False, None))
    # m3: teams, alice + carol beat bob + dave
    await matches.add(
        (a, "Alice", 0, 101.0, True, None),
        (b, "Bob", 1, 70.0, False, None),
        (c, "Carol", 0, 101.0, True, None),
        (d, "Dave", 1, 70.0, False, None),
    )
    # m4: a latvian session: carol 1st, alice and dave share 2nd, bob 4th
    await matches.add(
        (a, "Alice", 0, 60.0, False, 2.5),
        (b, "Bob", 1, 140.0, False, 1.0),
        (c, "Carol", 2, 20.0, True, 4.0),
        (d, "Dave", 3, 60.0, False, 2.5),
        game="latvian",
    )
    # m5: alice + carol beat two AIs (counts, rates nobody)
    await matches.add(
        (a, "Alice", 0, 100.0, True, None),
        (AI, "Bot 1", 1, 30.0, False, None),
        (c, "Carol", 0, 100.0, True, None),
        (AI, "Bot 2", 1, 30.0, False, None),
    )
    # m6: alice and bob each with an AI partner: bob's side wins
    await matches.add(
        (a, "Alice", 0, 50.0, False, None),
        (b, "Bob", 1, 100.0, True, None),
        (AI, "Bot 1", 0, 50.0, False, None),
        (AI, "Bot 2", 1, 100.0, True, None),
    )
    # m7: alice alone against an AI, and loses (counts, rates nobody)
    await matches.add((a, "Alice", 0, 10.0, False, None), (AI, "Bot", 1, 100.0, True, None))
    # m8: three players: the AI wins, alice is 2nd, bob 3rd
    await matches.add(
        (AI, "Bot", 0, 61.0, True, None),
        (a, "Alice", 1, 30.0, False, None),
        (b, "Bob", 2, 10.0, False, None),
    )


async def test_counts_streaks_and_points_by_hand(db: Database, matches: Any) -> None:
    await play_the_season(matches)
    block = {s.user_id: s for s in await db.leaderboards.standings(1, "block")}
    assert set(block) == {ALICE, BOB, CAROL, DAVE}  # never an AI
    alice = block[ALICE]
    # alice: W D W W L L L (m1 m2 m3 m5 m6 m7 m8)
    assert (alice.matches, alice.wins, alice.draws, alice.losses) == (7, 3, 1, 3)
    assert (alice.best_streak, alice.streak, alice.rated) == (2, 0, 5)
    assert alice.points == 100 + 0 + 101 + 100 + 50 + 10 + 30
    assert alice.win_rate == pytest.approx(3 / 7)
    bob = block[BOB]
    assert (bob.matches, bob.wins, bob.draws, bob.losses, bob.rated) == (5, 1, 1, 3, 5)
    assert (block[CAROL].matches, block[CAROL].wins, block[CAROL].rated) == (2, 2, 1)
    assert block[CAROL].best_streak == 2
    assert (block[DAVE].matches, block[DAVE].wins, block[DAVE].rated) == (1, 0, 1)
    latvian = {s.user_id: s for s in await db.leaderboards.standings(1, "latvian")}
    assert {u: s.place_points for u, s in latvian.items()} == {
        ALICE: 2.5,
        BOB: 1.0,
        CAROL: 4.0,
        DAVE: 2.5,
    }
    assert [latvian[u].wins for u in (ALICE, BOB, CAROL, DAVE)] == [0, 0, 1, 0]


async def test_ratings_are_openskills_plackett_luce_for_the_same_matches(
    db: Database, matches: Any
) -> None:
    await play_the_season(matches)
    model = PlackettLuce()
    a0, b0 = model.rating(), model.rating()
    [[a1], [b1]] = model.rate([[a0], [b0]], ranks=[1, 2])
    [[a2], [b2]] = model.rate([[a1], [b1]], ranks=[1, 1])
    [[a3, c1], [b3, d1]] = model.rate([[a2, model.rating()], [b2, model.rating()]], ranks=[1, 2])
    [[a4], [b4]] = model.rate([[a3], [b3]], ranks=[2, 1])  # m6: AI partners left out
    [[a5], [b5]] = model.rate([[a4], [b4]], ranks=[2, 3])  # m8: the AI's side left out
    block = {s.user_id: s.rating for s in await db.leaderboards.standings(1, "block")}
    for user, want in ((ALICE, a5), (BOB, b5), (CAROL, c1), (DAVE, d1)):
        same(block[user], want)
    lat = model.rate([[model.rating()] for _ in range(4)], ranks=[2, 4, 1, 2])
    latvian = {s.user_id: s.rating for s in await db.leaderboards.standings(1, "latvian")}
    for user, [want] in zip((ALICE, BOB, CAROL, DAVE), lat, strict=True):
        same(latvian[user], want)
    # The trend: alice's rating after each of her rated block matches.
    history = [r for r in await db.leaderboards.results(1, ALICE) if r.game == "block"]
    trend = [r.rating for r in history if r.rating is not None]
    for got, want in zip(trend, (a1, a2, a3, a4, a5), strict=True):
        same(got, want)
    assert history[0].rating_before == 0.0
    assert [r.outcome for r in history] == ["win", "draw", "win", "win", "loss", "loss", "loss"]


async def test_the_board_order_by_hand(db: Database, matches: Any) -> None:
    await play_the_season(matches)
    board = await db.leaderboards.leaderboard(1, "block")
    # alice 6.04, carol 2.25, bob 0.45, dave -1.29 (openskill ordinals, mu - 3 sigma)
    assert [e.name for e in board.entries] == ["Alice", "Carol", "Bob", "Dave"]
    assert [e.position for e in board.entries] == [1, 2, 3, 4]
    assert [(e.matches, e.wins, e.draws) for e in board.entries] == [
        (7, 3, 1),
        (2, 2, 0),
        (5, 1, 1),
        (1, 0, 0),
    ]
    ordinals = [e.rating.ordinal for e in board.entries if e.rating]
    assert ordinals == sorted(ordinals, reverse=True)
    assert ordinals[0] == pytest.approx(6.0357, abs=1e-4)
    places = await db.leaderboards.leaderboard(1, "latvian", order="places")
    # alice and dave share 2nd with equal ratings: the lower user id first
    assert [e.name for e in places.entries] == ["Carol", "Alice", "Dave", "Bob"]
    assert [e.place_points for e in places.entries] == [4.0, 2.5, 2.5, 1.0]


async def test_unrated_players_come_after_the_rated_ones(db: Database, matches: Any) -> None:
    await matches.add((ALICE, "Alice", 0, 100.0, True, None), (AI, "Bot", 1, 0.0, False, None))
    await matches.add((ALICE, "Alice", 0, 100.0, True, None), (AI, "Bot", 1, 0.0, False, None))
    await matches.add((BOB, "Bob", 0, 0.0, False, None), (CAROL, "Carol", 1, 100.0, True, None))
    board = await db.leaderboards.leaderboard(1, "block")
    assert [e.name for e in board.entries] == ["Carol", "Bob", "Alice"]
    assert board.entries[2].rating is None
    assert board.entries[1].rating is not None
    assert board.entries[1].rating.ordinal < 0


async def test_pages_and_periods(db: Database, matches: Any) -> None:
    for i in range(25):  # 25 players, each loses once to ALICE
        await matches.add(
            (ALICE, "Alice", 0, 100.0, True, None), (100 + i, f"P{i}", 1, 0.0, False, None)
        )
    first = await db.leaderboards.leaderboard(1, "block", page_size=10)
    assert (first.total, first.pages, first.page) == (26, 3, 0)
    assert first.entries[0].name == "Alice"
    third = await db.leaderboards.leaderboard(1, "block", page=2, page_size=10)
    assert [e.position for e in third.entries] == [21, 22, 23, 24, 25, 26]
    beyond = await db.leaderboards.leaderboard(1, "block", page=99, page_size=10)
    assert beyond.page == 2
    assert beyond.entries == third.entries
    pages = [await db.leaderboards.leaderboard(1, "block", page=p) for p in range(3)]
    seen = [e.user_id for page in pages for e in page.entries]
    assert len(seen) == len(set(seen)) == 26

    now = matches.clock
    await matches.add(
        (BOB, "Bob", 0, 100.0, True, None),
        (CAROL, "Carol", 1, 0.0, False, None),
        guild_id=2,
        at=now - timedelta(days=40),
    )
    await matches.add(
        (BOB, "Bob", 0, 0.0, False, None),
        (CAROL, "Carol", 1, 100.0, True, None),
        guild_id=2,
        at=now - timedelta(days=10),
    )
    await matches.add(
        (BOB, "Bob", 0, 100.0, True, None),
        (DAVE, "Dave", 1, 0.0, False, None),
        guild_id=2,
        at=now - timedelta(days=1),
    )
    week = await db.leaderboards.leaderboard(2, "block", since=now - timedelta(days=7))
    assert {(e.name, e.matches, e.wins) for e in week.entries} == {("Bob", 1, 1), ("Dave", 1, 0)}
    month = await db.leaderboards.leaderboard(2, "block", since=now - timedelta(days=30))
    assert {(e.name, e.matches, e.wins) for e in month.entries} == {
        ("Bob", 2, 1),
        ("Carol", 1, 1),
        ("Dave", 1, 0),
    }
    everything = await db.leaderboards.leaderboard(2, "block")
    assert {(e.name, e.matches, e.wins) for e in everything.entries} == {
        ("Bob", 3, 2),
        ("Carol", 2, 1),
        ("Dave", 1, 0),
    }
    # the period board ranks by the current rating, like the all-time one
    assert [e.user_id for e in month.entries] == [
        e.user_id for e in everything.entries if e.user_id in {BOB, CAROL, DAVE}
    ]
    # another server sees none of it
    assert (await db.leaderboards.leaderboard(1, "block")).total == 26


async def test_the_player_card(db: Database, matches: Any) -> None:
    await play_the_season(matches)
    card = await db.leaderboards.card(1, ALICE)
    assert card is not None
    assert card.name == "Alice"
    assert [s.game for s in card.standings] == ["block", "latvian"]  # most played first
    assert card.positions["block"] == (1, 4)
    assert card.positions["latvian"][1] == 4
    assert card.trend_game == "block"
    assert len(card.trend) == 5
    assert [r.match_id for r in card.recent] == sorted(
        (r.match_id for r in card.recent), reverse=True
    )
    assert card.recent[0].outcome == "loss"
    assert card.recent[0].rank == 2
    assert card.recent[0].sides == 3
    latvian = await db.leaderboards.card(1, ALICE, game="latvian")
    assert latvian is not None
    assert len(latvian.trend) == 1
    assert await db.leaderboards.card(1, 999) is None
    assert await db.leaderboards.card(2, ALICE) is None
