"""A hand appears only in its owner's ephemeral replies: never in public, never in a log."""

from __future__ import annotations

import logging
import re

import pytest

TILE = re.compile(r"\b(\d{1,2})-(\d{1,2})\b")


def tiles_in_text(text: str) -> set[frozenset[int]]:
    return {frozenset((int(a), int(b))) for a, b in TILE.findall(text)}


def message_text(message) -> str:
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or "", embed.footer.text or ""]
        parts += [f"{f.name} {f.value}" for f in embed.fields]
    for row in message.components:
        children = row.get("components", []) if isinstance(row, dict) else row.children
        for c in children:
            if isinstance(c, dict):
                parts.append(c.get("label", "") or "")
                parts += [o.get("label", "") for o in c.get("options", [])]
            else:
                parts.append(getattr(c, "label", "") or "")
                parts += [o.label for o in getattr(c, "options", [])]
    return "\n".join(parts)


@pytest.mark.parametrize("game", ["draw", "mexican"])
async def test_hands_stay_hidden_from_other_players_and_the_logs(
    bot, channel, alice, bob, carol, driver, caplog, game
):
    caplog.set_level(logging.DEBUG)
    await alice.slash(channel, "domino new", game=game, players=3)
    table = channel.last_message
    await bob.click(table, label="Join")
    await carol.click(table, label="Join")
    await alice.click(table, label="Start")
    users = {alice.id: (0, alice), bob.id: (1, bob), carol.id: (2, carol)}
    for _ in range(12):
        session = await driver.session()
        if session.status != "playing" or session.state.deal_number > 1:
            break
        deal = session.state.deal
        hands = {seat: {frozenset(t.halves) for t in deal.hand(seat)} for seat in range(3)}
        for seat, user in users.values():
            others = set().union(*(h for s, h in hands.items() if s != seat))
            hand_message = await driver.hand(user)
            assert hand_message.ephemeral
            own = tiles_in_text(message_text(hand_message))
            assert not own & others, "a hand message shows another player's tile"
            for message in channel.history(viewer=user):
                if message.flags.ephemeral:
                    continue
                shown = tiles_in_text(message_text(message))
                assert not shown & (others | hands[seat]), message_text(message)
        # nobody sees another player's ephemeral hand message
        for _seat, user in users.values():
            for message in channel.history(viewer=user):
                if message.flags.ephemeral:
                    assert message.interaction_metadata is None or (
                        message.interaction_metadata.user.id == user.id
                    )
        await driver.play_turn()
    session = await driver.session()
    current = set()
    for seat in range(3):
        current |= {frozenset(t.halves) for t in session.state.deal.hand(seat)}
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert not tiles_in_text(logged) & current
