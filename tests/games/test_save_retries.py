"""The bot's own moves are retried when their save fails (issue 37, row 5): an AI seat's
move whose save hits a database outage is tried again after a pause, so the game never
waits for a restart. (A turn timer's move: tests/e2e/test_timer.py, on SimCord's clock.)"""

from __future__ import annotations

from flaky_games import FlakyGames
from games_support import ALICE, RecordingPublisher, against_the_ai, moved_past, until

from bot.games.service import GameService, turn_token
from bot.storage import Database


async def test_an_ai_move_whose_save_fails_is_tried_again(
    service: GameService, db: Database, publisher: RecordingPublisher
) -> None:
    flaky = FlakyGames(db)
    db.games = flaky
    service.retry_delays = (0.0, 0.01)
    session = await against_the_ai(service, 900)
    await until(lambda: _alice_to_move(service, session.id))
    before = await service.get(session.id)
    assert before is not None
    moved = await service.play_choice(session.id, ALICE, turn_token(before), 0)
    if moved.turn_seat is None or not moved.turn_seat.is_ai:
        return  # her move ended the deal with her to lead again (no AI move to save)
    flaky.fail(3)  # the AI's move (its task runs from the next pause on) fails 3 times
    await until(moved_past(service, session.id, moved.version))
    assert flaky.failed == 3
    current = await service.get(session.id)
    assert (
        current is None
        or current.version == moved.version + 1
        or not current.active
        or (current.turn_seat is not None and not current.turn_seat.is_ai)
    )
    row = await db.games.get(session.id)
    assert row is not None
    assert row.version > moved.version  # saved at last
    assert publisher.updates[-1].after.version == row.version


async def _alice_to_move(service: GameService, game_id: int) -> bool:
    current = await service.get(game_id)
    return current is not None and current.turn == 0
