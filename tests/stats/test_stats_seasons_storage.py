"""Seasons in storage (bot/storage/seasons.py): closing one archives its boards as shown,
and the next one starts with ratings reset or carried, the same on a recompute."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from stats_support import T0, Matches

from bot.storage import ClosedSeason, CurrentSeason, Database, SeasonSettings

GUILD, OTHER = 1, 2
A, B, C, D = 101, 102, 103, 104


def duel(winner: int, loser: int) -> tuple[Any, Any]:
    return (winner, f"P{winner}", 0, 100.0, True, None), (loser, f"P{loser}", 1, 0.0, False, None)


async def tables(db: Database, guild: int = GUILD) -> tuple[list[Any], list[Any]]:
    return await db.leaderboards.standings(guild), await db.leaderboards.results(guild)


async def some_matches(matches: Matches, rng: random.Random, n: int, guild: int = GUILD) -> None:
    """Duels, draws, a human with an AI partner, and latvian sessions among six players."""
    players = list(range(100, 106))
    for _ in range(n):
        kind = rng.choice(["duel", "draw", "teams", "latvian"])
        if kind in ("duel", "draw"):
            a, b = rng.sample(players, 2)
            won = kind == "duel"
            await matches.add(
                (a, f"P{a}", 0, 100.0 if won else 0.0, won, None),
                (b, f"P{b}", 1, 0.0, False, None),
                guild_id=guild,
            )
        elif kind == "teams":
            a, b, c = rng.sample(players, 3)
            side = rng.randrange(2)
            await matches.add(
                (a, f"P{a}", 0, 100.0 if side == 0 else 50.0, side == 0, None),
                (b, f"P{b}", 1, 100.0 if side == 1 else 50.0, side == 1, None),
                (c, f"P{c}", 0, 100.0 if side == 0 else 50.0, side == 0, None),
                (None, "Bot", 1, 100.0 if side == 1 else 50.0, side == 1, None),
                guild_id=guild,
            )
        else:
            four = rng.sample(players, 4)
            places = rng.choice([(4.0, 3.0, 2.0, 1.0), (3.5, 3.5, 1.5, 1.5)])
            await matches.add(
                *[
                    (u, f"P{u}", i, 10.0 * i, p == max(places), p)
                    for i, (u, p) in enumerate(zip(four, places, strict=True))
                ],
                guild_id=guild,
                game="latvian",
            )


async def test_a_server_starts_in_season_one_with_the_defaults(db: Database) -> None:
    assert await db.seasons.current(GUILD) == CurrentSeason(GUILD, 1, None, 0)
    assert await db.seasons.closed(GUILD) == []
    assert await db.seasons.closed_season(GUILD, 1) is None
    assert await db.seasons.settings(GUILD) == SeasonSettings("reset", "off", None)
    assert await db.seasons.scheduled() == []


async def test_closing_archives_the_board_as_shown_and_resets_ratings(
    db: Database, matches: Matches
) -> None:
    await matches.add(*duel(A, B))
    await matches.add(*duel(A, C))
    last = await matches.add(*duel(B, C))
    await matches.add(*duel(A, B), guild_id=OTHER)
    other = await tables(db, OTHER)
    shown = await db.leaderboards.leaderboard(GUILD, "block")
    end = T0 + timedelta(days=3)

    closed = await db.seasons.close(GUILD, number=1, by=7, now=end)

    assert closed == ClosedSeason(GUILD, 1, None, end, 7, 0, last + 1, "reset", (("block", 3),))
    archived = await db.seasons.board(GUILD, 1, "block")
    assert archived.entries == shown.entries
    assert archived.total == 3
    assert await db.seasons.closed(GUILD) == [closed]
    assert await db.seasons.current(GUILD) == CurrentSeason(GUILD, 2, end, last + 1)
    assert await tables(db) == ([], [])  # reset: the new season counts from nothing
    assert await tables(db, OTHER) == other  # another server is untouched
    # the same confirmation twice (or another process) closes nothing more
    assert await db.seasons.close(GUILD, number=1, by=7, now=end) is None

    await matches.add(*duel(C, A))
    standings = await db.leaderboards.standings(GUILD)
    assert {s.user_id: s.matches for s in standings} == {C: 1, A: 1}
    assert all(s.rated == 1 for s in standings)  # rated from the initial rating again
    # the archive does not move with the new season, nor with a recompute
    await db.leaderboards.recompute()
    assert (await db.seasons.board(GUILD, 1, "block")).entries == shown.entries
    assert await db.leaderboards.standings(GUILD) == standings


async def test_carried_ratings_go_on_and_the_counts_begin_again(
    db: Database, matches: Matches
) -> None:
    await db.seasons.set_settings(GUILD, now=T0, ratings="carry")
    await matches.add(*duel(A, B))
    await matches.add(*duel(A, B))
    await matches.add((C, "P103", 0, 100.0, True, None), (None, "Bot", 1, 0.0, False, None))
    before = {s.user_id: s for s in await db.leaderboards.standings(GUILD)}
    assert before[C].rating is None  # played only the AI: nothing to carry

    closed = await db.seasons.close(GUILD, number=1, by=7, now=T0 + timedelta(days=1))
    assert closed is not None
    assert closed.next_ratings == "carry"

    kept = {s.user_id: s for s in await db.leaderboards.standings(GUILD)}
    assert set(kept) == {A, B}
    for user in (A, B):
        assert kept[user].rating == before[user].rating
        assert (kept[user].matches, kept[user].wins, kept[user].streak, kept[user].rated) == (
            0,
            0,
            0,
            0,
        )
    # nobody has played in season 2 yet: its board is empty, the card finds nothing
    assert (await db.leaderboards.leaderboard(GUILD, "block")).total == 0
    assert await db.leaderboards.card(GUILD, A) is None
    assert await db.leaderboards.games(GUILD) == []

    await matches.add(*duel(B, A))
    results = await db.leaderboards.results(GUILD)
    rating_a = before[A].rating
    assert rating_a is not None
    assert {r.user_id: r.rating_before for r in results}[A] == pytest.approx(rating_a.ordinal)
    board = await db.leaderboards.leaderboard(GUILD, "block")
    # A's two wins of season 1 still hold A's rating above B's after one loss
    assert [(e.user_id, e.matches, e.wins) for e in board.entries] == [(A, 1, 0), (B, 1, 1)]


@pytest.mark.parametrize("plan", ["carry", "reset", "carry-reset-carry"])
async def test_a_recompute_gives_what_the_closes_gave(
    db: Database, matches: Matches, plan: str
) -> None:
    rng = random.Random(plan)
    now = T0
    for ratings in plan.split("-"):
        await db.seasons.set_settings(GUILD, now=now, ratings=ratings)
        await some_matches(matches, rng, 12)
        await some_matches(matches, rng, 3, OTHER)
        now += timedelta(days=7)
        current = await db.seasons.current(GUILD)
        assert await db.seasons.close(GUILD, number=current.number, by=1, now=now)
    await some_matches(matches, rng, 12)
    incremental = await tables(db), await tables(db, OTHER)
    assert incremental[0][1]  # the last season has results
    await db.leaderboards.recompute()
    assert (await tables(db), await tables(db, OTHER)) == incremental
    await db.leaderboards.recompute(GUILD)
    assert (await tables(db), await tables(db, OTHER)) == incremental


async def test_latvian_is_archived_by_places_too_and_pages_clamp(
    db: Database, matches: Matches
) -> None:
    await matches.add(
        (A, "A", 0, 10.0, False, 2.0),
        (B, "B", 1, 20.0, True, 4.0),
        (C, "C", 2, 30.0, False, 3.0),
        (D, "D", 3, 40.0, False, 1.0),
        game="latvian",
    )
    shown = await db.leaderboards.leaderboard(GUILD, "latvian", page_size=3)
    by_places = await db.leaderboards.leaderboard(GUILD, "latvian", order="places", page_size=3)
    await db.seasons.close(GUILD, number=1, by=None, now=T0)
    archived = await db.seasons.board(GUILD, 1, "latvian", page_size=3)
    assert archived.entries == shown.entries
    places = await db.seasons.board(GUILD, 1, "latvian", order="places", page_size=3)
    assert places.entries == by_places.entries
    assert [e.user_id for e in places.entries] == [B, C, A]
    last = await db.seasons.board(GUILD, 1, "latvian", page=9, page_size=3)
    assert (last.page, last.pages, [e.position for e in last.entries]) == (1, 2, [4])
    # a game that had no board that season: an empty page
    assert (await db.seasons.board(GUILD, 1, "block")).total == 0
    closed = await db.seasons.closed_season(GUILD, 1)
    assert closed is not None
    assert closed.closed_by is None
    assert closed.games == (("latvian", 4),)


async def test_settings_and_the_servers_on_a_schedule(db: Database) -> None:
    later = T0 + timedelta(hours=5)
    assert await db.seasons.set_settings(GUILD, now=T0, schedule="weekly") == SeasonSettings(
        "reset", "weekly", T0
    )
    # changing the ratings keeps when the schedule was chosen; the same schedule too
    await db.seasons.set_settings(GUILD, now=later, ratings="carry")
    await db.seasons.set_settings(GUILD, now=later, schedule="weekly")
    assert await db.seasons.settings(GUILD) == SeasonSettings("carry", "weekly", T0)
    await db.seasons.set_settings(OTHER, now=later, schedule="monthly")
    await db.seasons.close(OTHER, number=1, by=None, now=later)
    assert await db.seasons.scheduled() == [
        (GUILD, SeasonSettings("carry", "weekly", T0), CurrentSeason(GUILD, 1, None, 0)),
        (OTHER, SeasonSettings("reset", "monthly", later), CurrentSeason(OTHER, 2, later, 0)),
    ]
    await db.seasons.set_settings(GUILD, now=later, schedule="off")
    assert await db.seasons.settings(GUILD) == SeasonSettings("carry", "off", None)
    assert [guild for guild, _, _ in await db.seasons.scheduled()] == [OTHER]
    with pytest.raises(ValueError, match="daily"):
        await db.seasons.set_settings(GUILD, now=later, schedule="daily")
    with pytest.raises(ValueError, match="keep"):
        await db.seasons.set_settings(GUILD, now=later, ratings="keep")


async def test_a_reset_keeps_the_season_number(db: Database, matches: Matches) -> None:
    await matches.add(*duel(A, B))
    await db.seasons.close(GUILD, number=1, by=7, now=T0)
    await matches.add(*duel(A, B))
    season = await db.leaderboards.reset(GUILD, by=7, now=T0 + timedelta(hours=1))
    assert season.number == 2
    current = await db.seasons.current(GUILD)
    assert (current.number, current.started_at) == (2, T0 + timedelta(hours=1))
    assert [s.number for s in await db.seasons.closed(GUILD)] == [1]
