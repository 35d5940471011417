"""Latvian through the UI: several doubles in one move, and a tile laid face down."""

from __future__ import annotations

import random

import pytest
from feed_support import feed_lines

from bot.engine import Rules, new_match, play

RULES = Rules.make("latvian", players=2, deals=1)


def choose(labels: list[str], state: dict) -> int:
    """Lay several doubles when offered; close an end once; otherwise lay face up."""
    for i, label in enumerate(labels):
        if " + " in label:
            state["multi"] += 1
            return i
    if not state["closed"]:
        for i, label in enumerate(labels):
            if "face down" in label:
                state["closed"] += 1
                return i
    return next(i for i, label in enumerate(labels) if "face down" not in label)


def label_of(move) -> str:
    parts = []
    for p in move.placements:
        text = f"{p.tile} {p.end}" if p.end is not None else str(p)
        parts.append(text + (", face down" if p.closed else ""))
    return " + ".join(parts)


def seed_with_both() -> int:
    """A seed whose first deal, played by :func:`choose`, has both kinds of move."""
    for seed in range(500):
        state = new_match(RULES, random.Random(f"{seed}:1"))
        seen = {"multi": 0, "closed": 0}
        while not state.deal.over:
            legal = state.legal_moves()
            state = play(state, legal[choose([label_of(m) for m in legal], seen)])
        if seen["multi"] and seen["closed"]:
            return seed
    raise AssertionError("no seed found")


SEED = seed_with_both()


@pytest.fixture
def simcord_bot(new_bot):
    return new_bot(seed_source=lambda: SEED)


async def test_several_doubles_and_a_closed_end_through_the_ui(bot, channel, alice, bob, driver):
    await alice.slash(channel, "domino new", game="latvian", deals=1)
    table = channel.last_message
    await bob.click(table, label="Join")
    await alice.click(table, label="Start")
    seen = {"multi": 0, "closed": 0}
    latest_lines = []
    while True:
        session = await driver.session()
        if session.status != "playing":
            break
        await driver.play_turn(lambda labels: choose(labels, seen))
        shown = await driver.session()  # the table after the move (posted anew)
        message = next(
            (m for m in channel.history(viewer=bob) if m.id == shown.table_message_id), None
        )
        if message is not None and message.embeds:
            latest_lines += feed_lines(message)
    assert seen["multi"] >= 1
    assert seen["closed"] >= 1
    final = await driver.session()
    moves = final.state.deals[0].moves()
    assert any(len(m.placements) >= 2 for m in moves)
    assert any(p.closed for m in moves for p in m.placements)
    public = "\n".join(latest_lines)
    assert "face down on" in public
