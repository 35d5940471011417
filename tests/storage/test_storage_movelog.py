"""A game in play keeps its record in pieces (bot/storage/games.py): each save appends
what is new, every read gives back the whole record, exactly the one the old
whole-record saves stored; a save that lost a race writes nothing; an ending stores
the whole record once and drops the pieces."""

from __future__ import annotations

import asyncio
import itertools
from datetime import datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from match_walks import appends, names_for, rules_st, walk

from bot.engine import MatchState, Rules, match_record, state_from_json, state_to_json
from bot.storage import (
    Database,
    FinishedMatch,
    GameRow,
    IntegrityError,
    MatchSeat,
    RecordAppend,
    StaleGameError,
)
from bot.storage.sql import Insert

CHANNELS = itertools.count(10_000)


async def playing(db: Database, rules: Rules, t0: datetime) -> GameRow:
    seats = [{"name": name, "user_id": 100 + i} for i, name in enumerate(names_for(rules))]
    game = await db.games.create(
        guild_id=1, channel_id=next(CHANNELS), creator_id=100, rules=rules.to_dict(),
        seats=seats, seed=7, timer=0, now=t0,
    )  # fmt: skip
    return await db.games.save(game.id, 0, now=t0, status="playing")


async def pieces(db: Database, game_id: int) -> tuple[Any, ...]:
    """Everything stored of a game's record, read past the repository."""
    head = await db.fetchone(
        "SELECT record_head, state, version FROM games WHERE id = ?", (game_id,)
    )
    deals = await db.fetchall(
        "SELECT deal, dealt FROM game_deals WHERE game_id = ? ORDER BY deal", (game_id,)
    )
    moves = await db.fetchall(
        "SELECT deal, first_move, moves FROM game_moves WHERE game_id = ?"
        " ORDER BY deal, first_move",
        (game_id,),
    )
    assert head is not None
    return tuple(head), [tuple(r) for r in deals], [tuple(r) for r in moves]


def same_state(stored: dict[str, Any] | None, state: MatchState, names: list[str]) -> None:
    """``stored`` is the record of ``state``, and replays to the same state."""
    assert stored == match_record(state, names)
    assert state_to_json(state_from_json(stored), names) == state_to_json(state, names)


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    rules=rules_st,
    seed=st.integers(0, 2**32 - 1),
    time_up_at=st.none() | st.integers(1, 40),
)
async def test_a_game_saved_move_by_move_reads_back_as_played_at_every_step(
    db: Database, t0: datetime, rules: Rules, seed: int, time_up_at: int | None
) -> None:
    game = await playing(db, rules, t0)
    names = names_for(rules)
    version = game.version
    for state, log in appends(walk(rules, seed, time_up_at=time_up_at), names):
        version = await db.games.update(game.id, version, now=t0, log=log)
        row = await db.games.get(game.id)
        assert row is not None
        assert row.version == version
        same_state(row.state, state, names)
    [active] = [g for g in await db.games.active() if g.id == game.id]
    assert active == row
    assert await db.games.active_in_channel(game.channel_id) == row
    assert await db.games.latest_in_channel(game.channel_id) == row
    stored, _, _ = await pieces(db, game.id)
    assert stored[1] is None  # no whole record in games.state: only the pieces


async def test_a_save_that_lost_a_race_writes_nothing(db: Database, t0: datetime) -> None:
    rules = Rules.make("latvian", players=3, deals=3)
    names = names_for(rules)
    saves = list(appends(walk(rules, 5), names))
    game = await playing(db, rules, t0)
    version = game.version
    for _, log in saves[:3]:
        version = await db.games.update(game.id, version, now=t0, log=log)
    before = await pieces(db, game.id)
    # two saves from the same version: the first lands, the second is stale
    _, winner = saves[3]
    won = await db.games.update(game.id, version, now=t0, log=winner)
    after_win = await pieces(db, game.id)
    loser = RecordAppend(
        {"format": "domino-record/1", "lost": True},
        [(9, {"hands": [], "stock": [], "leader": 0})],
        [(1, 0, [{"seat": 0, "tile": "6-6"}]), (9, 0, [{"seat": 1, "tile": "1-1"}])],
    )
    with pytest.raises(StaleGameError) as caught:
        await db.games.update(game.id, version, now=t0, seats=[{"name": "x"}], log=loser)
    assert caught.value.actual_version == won
    assert await pieces(db, game.id) == after_win != before
    row = await db.games.get(game.id)
    assert row is not None
    assert row.seats[0]["name"] == "P0"
    same_state(row.state, saves[3][0], names)
    # a stale save through save() writes nothing either
    with pytest.raises(StaleGameError):
        await db.games.save(game.id, version, now=t0, log=loser)
    assert await pieces(db, game.id) == after_win


async def test_a_guarded_write_is_all_or_nothing(db: Database, t0: datetime) -> None:
    rules = Rules.make("block", players=2)
    game = await playing(db, rules, t0)
    guard = "UPDATE games SET version = version + 1 WHERE id = ? AND version = ? RETURNING version"
    deal = Insert(
        "game_deals", ("game_id", "deal", "dealt"), ("bigint", "integer", "text"),
        [(game.id, 1, "{}"), (game.id, 1, "{}")],
    )  # fmt: skip
    with pytest.raises(IntegrityError):  # the second row breaks the key: nothing lands
        await db.write_guarded(guard, (game.id, game.version), [deal])
    assert (await pieces(db, game.id))[0][2] == game.version
    assert (await pieces(db, game.id))[1] == []
    one = Insert(deal.table, deal.columns, deal.types, [(game.id, 1, "{}")])
    assert await db.write_guarded(guard, (game.id, game.version + 5), [one]) == []
    assert (await pieces(db, game.id))[1] == []
    [row] = await db.write_guarded(guard, (game.id, game.version), [one])
    assert row[0] == game.version + 1
    assert (await pieces(db, game.id))[1] == [(1, "{}")]
    async with db.transaction():  # inside the task's transaction: part of it
        await db.write_guarded(guard, (game.id, game.version + 1), [])


@pytest.mark.parametrize("ending", ["finished", "cancelled"])
async def test_an_ending_stores_the_whole_record_once_and_drops_the_pieces(
    db: Database, t0: datetime, ending: str
) -> None:
    rules = Rules.make("mexican", set=9, players=3, deals=2)
    names = names_for(rules)
    game = await playing(db, rules, t0)
    version = game.version
    saves = list(appends(walk(rules, 11), names))
    for _, log in saves:
        version = await db.games.update(game.id, version, now=t0, log=log)
    record = match_record(saves[-1][0], names)
    match = None
    if ending == "finished":
        seats = tuple(
            MatchSeat(i, 100 + i, None, n, i, 0.0, i == 0, None) for i, n in enumerate(names)
        )
        match = FinishedMatch("mexican", t0, record, seats, ())
    done = await db.games.finish(
        game.id, version, now=t0, status=ending, state=record, seats=[], match=match
    )
    assert done.state == record
    assert await db.games.get(game.id) == done
    (head, state_column, _), deals, moves = await pieces(db, game.id)
    assert (head, deals, moves) == (None, [], [])
    assert (state_column is None) == (ending == "finished")  # else in matches.record


async def test_reads_never_mix_two_moments_of_a_game_being_saved(
    db: Database, t0: datetime
) -> None:
    rules = Rules.make("latvian", players=4, deals=4)
    names = names_for(rules)
    game = await playing(db, rules, t0)
    saves = list(appends(walk(rules, 3, deals=4), names))
    records = {game.version: None}
    version = game.version
    for number, (state, _) in enumerate(saves, 1):
        records[version + number] = match_record(state, names)
    done = asyncio.Event()
    seen: list[tuple[int, Any]] = []

    async def save_all() -> None:
        v = version
        for number, (_, log) in enumerate(saves, 1):
            v = await db.games.update(game.id, v, now=t0, log=log)
            reads = len(seen)
            while number % 5 == 0 and len(seen) == reads:  # reads keep up (a busy machine)
                await asyncio.sleep(0)
        done.set()

    async def read_all() -> None:
        while not done.is_set():
            row = await db.games.get(game.id)
            assert row is not None
            seen.append((row.version, row.state))

    await asyncio.gather(save_all(), read_all())
    assert len(seen) >= len(saves) // 5
    for v, state in seen:
        assert state == records[v], f"a read at version {v} saw another version's record"
