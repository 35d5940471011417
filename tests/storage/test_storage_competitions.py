"""Competitions saved and read back (issue 41): on both backends, with the version every
save checks and one open competition a channel."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.competitions.competition import Format, check_in, from_json, new_competition, start
from bot.competitions.competition import to_json as competition_json
from bot.storage import ChannelBusyError, Database, StaleGameError


def a_competition(players: int = 5):
    c = new_competition(Format(table_size=3, rounds=2), seed=11)
    for user in range(1, players + 1):
        c = check_in(c, user, f"p{user}")
    return c


async def test_a_competition_round_trips_and_its_saves_check_the_version(db: Database, t0) -> None:
    c = a_competition()
    row = await db.competitions.create(
        guild_id=1, channel_id=10, referee_id=99, status=c.status, state=competition_json(c), now=t0
    )
    assert row.version == 0
    assert from_json(row.state) == c
    assert (await db.competitions.open_in(10)).id == row.id
    started = start(c)
    saved = await db.competitions.save(
        row.id,
        expected_version=0,
        status=started.status,
        state=competition_json(started),
        now=t0 + timedelta(minutes=1),
        message_id=555,
    )
    assert saved.version == 1
    assert saved.status == "playing"
    assert saved.message_id == 555
    assert from_json((await db.competitions.get(row.id)).state) == started
    with pytest.raises(StaleGameError):
        await db.competitions.save(
            row.id, expected_version=0, status="playing", state=competition_json(started), now=t0
        )
    # a save without a message keeps the one it has
    again = await db.competitions.save(
        row.id, expected_version=1, status="playing", state=competition_json(started), now=t0
    )
    assert again.message_id == 555
    assert [r.id for r in await db.competitions.open_all()] == [row.id]


async def test_one_open_competition_a_channel(db: Database, t0) -> None:
    state = competition_json(a_competition())
    first = await db.competitions.create(
        guild_id=1, channel_id=10, referee_id=9, status="checkin", state=state, now=t0
    )
    with pytest.raises(ChannelBusyError):
        await db.competitions.create(
            guild_id=1, channel_id=10, referee_id=9, status="checkin", state=state, now=t0
        )
    await db.competitions.save(first.id, expected_version=0, status="finished", state=state, now=t0)
    second = await db.competitions.create(
        guild_id=1, channel_id=10, referee_id=9, status="checkin", state=state, now=t0
    )
    assert second.id != first.id
    assert [r.id for r in await db.competitions.finished_in(1)] == [first.id]
    assert await db.competitions.finished_in(2) == []
    assert (await db.competitions.open_in(10)).id == second.id


async def test_an_unknown_status_is_refused(db: Database, t0) -> None:
    with pytest.raises(ValueError, match="status"):
        await db.competitions.create(
            guild_id=1, channel_id=10, referee_id=9, status="paused", state={}, now=t0
        )
