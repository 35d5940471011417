"""The playground's clock: real time for turn timers, refreshes only when the bot acted."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

import aiohttp

from bot.playground.realtime import RealTimeClock
from bot.playground.world import running_world

MICROSECONDS = timedelta(microseconds=10)  # SimCord's clock counts seconds in a float


class FakeWall:
    """A wall clock the test moves by hand."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


class FakePreview:
    def __init__(self) -> None:
        self.refreshes = 0

    async def refresh(self) -> None:
        self.refreshes += 1


async def test_the_clock_jumps_to_the_wall_clock_and_never_goes_back(new_bot):
    async with running_world(new_bot()) as (env, _world):
        wall = FakeWall(env.now() + timedelta(days=30, seconds=12.5))
        await RealTimeClock(env, wall=wall).catch_up()
        assert abs(env.now() - wall.now) < MICROSECONDS
        wall.now -= timedelta(days=1)  # a wall clock behind the world: time moves on with it
        clock = RealTimeClock(env, wall=wall)
        await clock.catch_up()
        assert abs(env.now() - wall.now - timedelta(days=1)) < MICROSECONDS
        wall.now += timedelta(seconds=5)
        await clock.tick()
        assert abs(env.now() - wall.now - timedelta(days=1)) < MICROSECONDS


async def test_a_turn_timer_fires_after_its_time_and_the_page_is_refreshed(new_bot):
    async with running_world(new_bot()) as (env, world):
        alice, bob = world.member("Alice"), world.member("Bob")
        await alice.slash(world.channel, "domino new", game="block", timer=10)
        await bob.click(world.channel.last_message, label="Join")
        await alice.click(world.channel.last_message, label="Start")
        game = await env.bot.games.in_channel(world.channel.id)
        wall = FakeWall(env.now())
        clock = RealTimeClock(env, wall=wall)
        clock.preview = preview = FakePreview()

        wall.now += timedelta(seconds=6)
        assert not await clock.tick()
        assert (await env.bot.games.in_channel(world.channel.id)).version == game.version
        assert preview.refreshes == 0

        wall.now += timedelta(seconds=5)
        assert await clock.tick()
        after = await env.bot.games.in_channel(world.channel.id)
        assert after.seats[game.turn].missed == 1
        assert preview.refreshes == 1
        table = next(
            m for m in world.channel.history(viewer=alice) if m.id == after.table_message_id
        )
        latest = next(
            f.value
            for f in table.embeds[0].fields
            if f.name == "Latest" or f.name.startswith("Since ")
        )
        assert "ran out of time" in latest


async def test_a_quiet_tick_moves_time_without_refreshing(new_bot):
    async with running_world(new_bot()) as (env, _world):
        wall = FakeWall(env.now() + timedelta(seconds=42))
        clock = RealTimeClock(env, wall=wall)
        clock.preview = preview = FakePreview()
        assert not await clock.tick()
        assert abs(env.now() - wall.now) < MICROSECONDS
        assert preview.refreshes == 0


async def test_browser_actions_wait_for_the_clock_on_loopback(new_bot):
    """An action arriving mid-tick would be refused by SimCord: it must wait its turn."""
    async with running_world(new_bot()) as (env, world):
        clock = RealTimeClock(env)
        async with env.preview(world.channel, viewers=list(world.members), port=0) as preview:
            clock.attach(preview)
            assert preview.url.startswith("http://127.0.0.1:")
            base, _, capability = preview.url.partition("/#")
            headers = {"X-Simcord-Capability": capability}
            async with aiohttp.ClientSession(base) as http:
                async with http.post("/api/pages", json={}, headers=headers) as response:
                    page = await response.json()
                action = {
                    "protocol_version": 3,
                    "sequence": 1,
                    "request_id": "clock-test",
                    "generation": page["context"]["generation"],
                    "bot_generation": page["botGeneration"],
                    "kind": "refresh",
                }
                headers["X-Simcord-Context"] = page["context"]["id"]

                async def act() -> dict:
                    async with http.post("/api/action", json=action, headers=headers) as response:
                        assert response.status == 200
                        return await response.json()

                async with clock.lock:  # as during a tick
                    waiting = asyncio.create_task(act())
                    await asyncio.sleep(0.3)
                    assert not waiting.done()
                result = await waiting
    assert not result["rejected"]
    assert result["settlement"] == "settled"
