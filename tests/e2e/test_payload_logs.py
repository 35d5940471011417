"""Hands stay out of the logs even at DEBUG: discord.py's payload loggers are held back.

SimCord feeds gateway events to discord.py's parsers without a websocket, so the
real gateway's DEBUG line (``discord/gateway.py``: ``For Shard ID %s: WebSocket
Event: %s`` with the whole event) is emitted here exactly as discord.py does it,
through its own logger, and everything that reaches the root handler is read.
"""

from __future__ import annotations

import logging

import pytest
import simcord.gateway

from bot import logs


@pytest.fixture
def gateway_debug_lines(monkeypatch):
    """Log every gateway event at DEBUG on ``discord.gateway``, as the real gateway does."""
    feed = simcord.gateway.FakeGateway.feed
    gateway_log = logging.getLogger("discord.gateway")

    def logged_feed(self, event, payload):
        gateway_log.debug(
            "For Shard ID %s: WebSocket Event: %s", 0, {"t": event, "op": 0, "d": payload}
        )
        return feed(self, event, payload)

    monkeypatch.setattr(simcord.gateway.FakeGateway, "feed", logged_feed)
    yield
    logs.quiet_payloads()


async def play_with_hands(bot, channel, alice, bob, driver, game="draw"):
    """A few moves through hand buttons; the labels of every hand that was shown."""
    await alice.slash(channel, "domino new", game=game)
    table = channel.last_message
    await bob.click(table, label="Join")
    await alice.click(table, label="Start")
    labels = set()
    for _ in range(4):
        session = await driver.session()
        if session.status != "playing":
            break
        user = alice if session.turn_seat.user_id == alice.id else bob
        hand = await driver.hand(user)
        labels |= {
            c["label"]
            for row in hand.components
            for c in row["components"]
            if c.get("custom_id", "").startswith("domino:m:")
        }
        await driver.play_turn()
    return labels


def logged_text(caplog) -> str:
    return "\n".join(record.getMessage() for record in caplog.records)


@pytest.mark.parametrize("game", ["draw", "mexican"])
async def test_debug_logging_keeps_gateway_payloads_out(
    gateway_debug_lines, bot, channel, alice, bob, driver, caplog, game
):
    logs.configure("DEBUG")
    caplog.set_level(logging.DEBUG)
    labels = await play_with_hands(bot, channel, alice, bob, driver, game)
    assert labels
    text = logged_text(caplog)
    assert "bot.games" in {r.name.rsplit(".", 1)[0] for r in caplog.records} or text
    assert not [label for label in labels if label in text]
    assert "WebSocket Event" not in text


async def test_payload_logging_is_there_when_asked_for(
    gateway_debug_lines, bot, channel, alice, bob, driver, caplog
):
    logs.configure("DEBUG", payloads=True)
    caplog.set_level(logging.DEBUG)
    labels = await play_with_hands(bot, channel, alice, bob, driver)
    text = logged_text(caplog)
    assert "WebSocket Event" in text
    assert [label for label in labels if label in text]  # the click carried its label


def test_settings_read_log_payloads(monkeypatch):
    from bot.settings import Settings, SettingsError

    token = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789"
    assert not Settings.from_env({"DISCORD_TOKEN": token}).log_payloads
    assert Settings.from_env({"DISCORD_TOKEN": token, "LOG_PAYLOADS": "1"}).log_payloads
    with pytest.raises(SettingsError):
        Settings.from_env({"DISCORD_TOKEN": token, "LOG_PAYLOADS": "maybe"})
