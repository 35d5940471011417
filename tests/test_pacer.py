"""The pacer: the token's counted calls in order, at a rate, fair between channels."""

from __future__ import annotations

import asyncio

import pytest

from bot.pacer import Pacer, Priority, paced, priority


async def call(pacer: Pacer, log: list, name, channel=None, *, post=False, level=None):
    with priority(level if level is not None else Priority.NORMAL):
        await pacer.take(channel, post=post)
    log.append((name, pacer._now()))


async def drain_bucket(pacer: Pacer) -> None:
    """Use up the bucket's burst, so that later calls queue."""
    while pacer._tokens >= 1.0:
        await pacer.take()


async def test_a_call_goes_at_once_while_the_bucket_holds_tokens():
    pacer = Pacer(50)
    log: list = []
    await call(pacer, log, "a")
    assert [name for name, _ in log] == ["a"]
    assert pacer.stats.calls == 1
    assert pacer.stats.longest_wait == 0.0


async def test_calls_never_exceed_the_rate_in_any_second():
    rate = 200.0
    pacer = Pacer(rate)
    log: list = []
    await asyncio.gather(*(call(pacer, log, i) for i in range(150)))
    times = sorted(at for _, at in log)
    assert len(times) == 150
    # in every window of one second: at most a second's calls and the bucket's burst
    for i, start in enumerate(times):
        within = sum(1 for t in times[i:] if t < start + 1.0)
        assert within <= rate + pacer.capacity
    # and it does not dawdle either: 150 calls at 200/s take well under their deadline
    assert times[-1] - times[0] <= 150 / rate + 0.5


async def test_the_turn_of_a_human_goes_before_cosmetic_edits():
    pacer = Pacer(100)
    await drain_bucket(pacer)
    log: list = []
    tasks = [
        asyncio.create_task(call(pacer, log, f"edit{i}", 1, level=Priority.COSMETIC))
        for i in range(5)
    ]
    await asyncio.sleep(0)
    tasks += [asyncio.create_task(call(pacer, log, "turn", 2, level=Priority.TURN))]
    tasks += [asyncio.create_task(call(pacer, log, "summary", 3, level=Priority.NORMAL))]
    await asyncio.gather(*tasks)
    order = [name for name, _ in log]
    assert order.index("turn") < order.index("summary") < order.index("edit0")


async def test_channels_take_turns_so_a_busy_one_starves_no_other():
    pacer = Pacer(100)
    await drain_bucket(pacer)
    log: list = []
    tasks = [asyncio.create_task(call(pacer, log, f"busy{i}", 1)) for i in range(20)]
    await asyncio.sleep(0)
    tasks += [asyncio.create_task(call(pacer, log, "quiet", 2))]
    await asyncio.gather(*tasks)
    order = [name for name, _ in log]
    assert order.index("quiet") <= 2  # after at most two of the busy channel's calls


async def test_a_channel_takes_at_most_five_new_messages_in_five_seconds():
    pacer = Pacer(1000, channel_posts=5, channel_window=0.5)  # the window shortened
    log: list = []
    started = pacer._now()
    await asyncio.gather(
        *(call(pacer, log, f"post{i}", 7, post=True) for i in range(7)),
        call(pacer, log, "elsewhere", 8, post=True),
    )
    at = dict(log)
    posts = sorted(t for name, t in log if name.startswith("post"))
    assert posts[5] - posts[0] >= 0.5 - 1e-3  # the sixth waited for the window
    assert at["elsewhere"] - started < 0.4  # another channel did not wait for it


async def test_a_global_429_pauses_and_slows_the_pacer_down():
    clock = [100.0]
    pacer = Pacer(40, clock=lambda: clock[0])
    pacer.limited(2.0, scope="user")  # a 429 of one route: not the pacer's business
    assert pacer.rate == 40
    pacer.limited(2.0, scope="global")
    assert pacer.stats.global_429s == 1
    assert pacer.rate == pytest.approx(30)
    assert not pacer._grantable(None, False)  # paused for the Retry-After
    clock[0] += 2.5
    assert pacer._grantable(None, False)
    clock[0] += 60
    assert pacer._current_rate(pacer._now()) == pytest.approx(40)  # recovered


class FakeRoute:
    def __init__(self, method, path, channel_id=None):
        self.method = method
        self.path = path
        self.channel_id = channel_id


class Limited(Exception):
    """A 429 as discord.HTTPException carries one: a status and the response's headers."""

    status = 429

    def __init__(self) -> None:
        super().__init__("429")
        self.response = type(
            "Response", (), {"headers": {"Retry-After": "1.5", "X-RateLimit-Scope": "global"}}
        )()


async def test_paced_requests_wait_their_turn_and_report_a_global_429():
    pacer = Pacer(100)
    seen = []

    async def request(route, **kwargs):
        seen.append((route.method, route.channel_id))
        if route.method == "DELETE":
            raise Limited()
        return {"id": "1"}

    send = paced(request, pacer)
    route = FakeRoute("POST", "/channels/{channel_id}/messages", 5)
    assert await send(route, json={}) == {"id": "1"}
    assert list(pacer._posts[5])  # a new message in channel 5 was counted
    with pytest.raises(Limited):
        await send(FakeRoute("DELETE", "/channels/{channel_id}/messages/{message_id}", 5))
    assert pacer.stats.global_429s == 1
    assert seen == [("POST", 5), ("DELETE", 5)]
    assert pacer.stats.calls == 2


async def test_a_cancelled_wait_leaves_no_waiter_behind():
    pacer = Pacer(10)
    await drain_bucket(pacer)
    task = asyncio.create_task(pacer.take(3))
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert not pacer._waiting()


def test_a_rate_must_be_positive():
    with pytest.raises(ValueError, match="positive number"):
        Pacer(0)
