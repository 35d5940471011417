"""Every save the service makes, read back from the database, is the game it holds in
memory: human moves, forced moves and deals dealt between saves, AI moves, turn timers
and a seat handed to the AI. And no save writes the whole record again: only what is
new (the whole record is written once, when the match ends)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from games_support import ALICE, BOB, GUILD, RecordingPublisher

from bot.engine import match_record
from bot.games import saving
from bot.games.service import GameService
from bot.storage import Database, RecordAppend
from bot.storage.codec import to_json


async def settle(service: GameService) -> None:
    """Wait until the AI has made its moves (its tasks are done)."""
    while service._turns.tasks:
        await asyncio.gather(*list(service._turns.tasks), return_exceptions=True)


def size(log: RecordAppend | None, game_id: int) -> int:
    """The bytes of record one save writes."""
    if log is None:
        return 0
    pieces = [str(v) for insert in log.inserts(game_id) for row in insert.rows for v in row]
    return sum(map(len, pieces)) + (len(to_json(dict(log.head))) if log.head else 0)


@pytest.mark.parametrize(
    "options",
    [
        {"game": "latvian", "players": 3, "deals": 8},
        {"game": "mexican", "set": 9, "players": 3, "deals": 3},
        {"game": "draw", "players": 3, "target": 80},
    ],
    ids=["latvian", "mexican", "draw"],
)
async def test_every_save_reads_back_as_the_game_in_memory(
    service: GameService,
    db: Database,
    publisher: RecordingPublisher,
    monkeypatch: pytest.MonkeyPatch,
    options: dict[str, Any],
) -> None:
    stored: dict[int, Any] = {}
    saves: list[tuple[int, int]] = []  # (the deal saved, bytes written)
    update = db.games.update

    async def update_and_read(game_id: int, expected_version: int, **changes: Any) -> int:
        version = await update(game_id, expected_version, **changes)
        row = await db.games.get(game_id)  # under the game's lock: nothing else moves it
        assert row is not None
        assert row.version == version
        stored[version] = row.state
        if row.state is not None:
            saves.append((len(row.state["deals"]), size(changes.get("log"), game_id)))
        return version

    wholes: list[int] = []
    whole = saving.state_to_json

    def counted(*args: Any) -> Any:
        doc = whole(*args)
        wholes.append(len(to_json(doc)))
        return doc

    monkeypatch.setattr(db.games, "update", update_and_read)
    monkeypatch.setattr(saving, "state_to_json", counted)

    lobby = await service.open_lobby(
        guild_id=GUILD, channel_id=300, user_id=ALICE, name="Alice", options=options
    )
    await service.join(lobby.id, BOB, "Bob")
    await service.add_bot(lobby.id, ALICE, "easy")
    session = await service.start(lobby.id, ALICE)
    rng = random.Random(7)
    for step in range(600):
        await settle(service)
        current = await service.get(lobby.id)
        assert current is not None
        session = current
        if not session.active:
            break
        seat = session.turn_seat
        assert seat is not None
        assert session.state is not None
        if seat.is_ai:
            continue  # it moves after the save that gave it the turn
        if (seat.user_id == BOB and step > 40) or rng.random() < 0.1:
            await service._turns.watch(session.id, session.version, 0)  # the turn timer fires
        else:
            assert seat.user_id is not None
            await service.play(session.id, seat.user_id, rng.choice(session.state.legal_moves()))
    await settle(service)
    assert not session.active, "the match should have ended"
    assert session.seats[1].is_ai  # Bob missed three turns in a row: the AI has his seat
    assert session.seats[0].user_id == ALICE

    ours = [u.after for u in publisher.updates if u.after.id == lobby.id and u.after.playing]
    assert len(ours) > 30
    for after in ours:  # every save, read back at its version, is the game as it was held
        assert after.state is not None
        assert stored[after.version] == match_record(after.state, after.names)
    assert len(wholes) == 1  # the whole record once: when the match ended
    last = max(deal for deal, _ in saves)
    assert last > 1
    first_deal = max(n for deal, n in saves if deal == 1)
    assert all(n <= first_deal * 1.5 for deal, n in saves if deal == last)
    assert wholes[0] > 3 * max(n for _, n in saves)  # far more than any save writes
