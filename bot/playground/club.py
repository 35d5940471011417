"""A club night in the playground (``python -m bot playground --club-night``).

Alice, who owns the server, referees a competition in ``#dominoes``: she opens it, the
four players check in with its button, and AI fill-ins make up the tables (four people
and two AI players: two tables of three). Each step is the real command or click, as
the page shows it ("Alice used /domino competition open"), so the channel reads as the
club night's own how-to; the referee then starts it with ``/domino competition start``
(or :func:`open_club_night` does, with ``start``). The world is new on every start, so a
competition left open in the channel by the last one is ended first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .world import World

if TYPE_CHECKING:
    from bot.client import DominoBot

REFEREE = "Alice"
AI_FILL_INS = 2
"""Four people and two AI players: two tables of three."""
AI_LEVEL = "easy"
ROUNDS = 2
DEALS = 1
"""A short night: two rounds, one deal a table."""


async def open_club_night(bot: DominoBot, world: World, *, start: bool = False) -> int:
    """Open the club night in ``world``'s channel (checked in, AI added; started if
    ``start``); the competition's id."""
    referee = world.member(REFEREE)
    channel = world.channel
    if bot.restoring is not None:
        await bot.restoring  # (the competitions read back: the last start's is known)
    left = bot.competitions.in_channel(channel.id)
    if left is not None:  # its messages and threads were in the last start's world
        await bot.competitions.end(left.id, referee.id, can_manage=True)
    await referee.slash(channel, "domino competition open", rounds=ROUNDS, deals=DEALS)
    held = bot.competitions.in_channel(channel.id)
    if held is None or held.message_id is None:
        raise RuntimeError("the club night's competition was not opened")
    message = next(m for m in channel.history(viewer=referee) if m.id == held.message_id)
    for member in world.members:
        await member.click(message, label="Check in")
    await referee.slash(channel, "domino competition add-ai", count=AI_FILL_INS, level=AI_LEVEL)
    if start:
        await referee.slash(channel, "domino competition start")
    return held.id
