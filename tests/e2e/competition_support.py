"""Driving a competition in SimCord tests: its work settled, its tables played."""

from __future__ import annotations

from driver_support import Driver

TIMER = 30
"""The turn timer the competitions of these tests play with (seconds)."""


def reply_text(result) -> str:
    private = [m for m in result.followups if m.ephemeral]
    if private:
        return private[-1].content
    return result.response.content


async def settle(simcord_env, bot):
    """SimCord's settle, then the competition's own work (its results, its posts)."""
    herald = bot.get_cog("Domino").herald
    for _ in range(60):  # (the pacer's waits are on SimCord's clock)
        await simcord_env.settle()
        if not bot.competitions.busy and not herald.busy:
            return
        await simcord_env.advance_time(1)
    raise AssertionError("the competition's work did not settle")


async def play_games(simcord_env, bot, channel, users, game_ids, absent_id):
    """Play ``game_ids`` to their ends through the UI (each table in its thread): every
    present human plays when it is their turn; when every table waits for the absent
    player (or an AI), time passes."""
    for _ in range(3000):
        await settle(simcord_env, bot)
        sessions = [await bot.games.get(g) for g in game_ids]
        live = [s for s in sessions if s.active]
        if not live:
            return sessions
        moved = False
        for s in live:
            seat = s.turn_seat
            if seat is not None and not seat.is_ai and seat.user_id != absent_id:
                thread = next(t for t in channel.threads if t.id == s.channel_id)
                await Driver(simcord_env, bot, thread, users).play_turn()
                moved = True
        if moved:
            continue
        if any(s.turn_seat is not None and s.turn_seat.user_id == absent_id for s in live):
            await simcord_env.advance_time(TIMER)  # the absent player's turn timer runs out
        else:
            await simcord_env.advance_time(1)  # an AI seat is deciding
    raise AssertionError(f"the tables did not finish: {[(s.id, s.turn, s.seats) for s in live]}")


def unpaced(new_bot, **options):
    """A bot whose pacer never waits: SimCord freezes the clock the pacer reads between
    operations, so a burst (a round ended: the tables' ends, the next round's threads)
    would wait for time a test may not advance. Pacing has tests of its own
    (tests/test_pacer.py, tests/e2e/test_budget.py)."""
    bot = new_bot(calls_per_second=100_000, **options)
    bot.pacer.channel_posts = 100_000
    return bot
