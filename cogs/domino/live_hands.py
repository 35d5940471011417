"""One live hand per player: the hand message the bot keeps current for each game and player.

A hand message is ephemeral and always the *original response* of the player's own
interaction: the "thinking…" reply of ``/domino hand`` or of the table's (or ping's)
"Show my hand" button, or the hand message itself when a move or "Refresh" was clicked
on it (a deferred update edits the clicked message in place). Only that interaction's
token can edit or delete it, and Discord honours a token for 15 minutes after the
interaction: a live hand is used for :data:`HAND_LIFE` (14 minutes, a minute's margin)
after its interaction, then forgotten and never touched again.

- **One hand on screen**: a new hand (``/domino hand``, "Show my hand") replaces the live
  one; the new one is sent first, then the previous deleted (while its token lives).
- **It refreshes itself**: the announcer (:mod:`cogs.domino.announcer`), before the table
  and the ping, edits every live hand whose game changed since it was shown
  (:func:`wants_refresh`): on its owner's turn with the move buttons, else without them,
  the caption saying whose turn it is; once the game is over, its result, and no buttons.
  A stale move button is refused by the turn token all the same (and the clicked hand is
  shown anew).
- **Leaving**: the hand of a player who leaves says so, without tiles or buttons, and is
  no longer kept (:func:`leaving`); one whose seat the turn timer gave to an AI is told
  so by the announcer (:func:`owner_hand`).
- **Never anybody else's**: a live hand is kept under its owner's id, from an interaction
  of that owner on an ephemeral message; it is rendered from the owner's own hand only.

Every edit of a live hand (by the cog or the announcer) happens under its slot's lock and
records the game version it shows, so a slower, older edit never overwrites a newer one.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import discord

from bot.engine.view import HandView
from bot.games.session import Session
from bot.games.snapshot import Snapshot
from bot.i18n import N_, Translator

from .carriers import CARRY_LIFE
from .hand_message import hand_message, offered_moves

HAND_LIFE = CARRY_LIFE
"""How long a live hand is edited: the interaction token's life with a minute's margin."""
SWEEP_EVERY = timedelta(minutes=1)


@dataclass(frozen=True, slots=True)
class LiveHand:
    """A player's latest hand message, and what it shows."""

    interaction: discord.Interaction
    """The owner's interaction whose original response the message is."""
    message_id: int
    created_at: datetime
    """When the interaction was created (its token's life starts then)."""
    tr: Translator
    """The owner's language (their Discord locale)."""
    version: int
    """The game version the message shows."""
    turn: str | None
    """The turn token whose moves it offers (None: it offers no moves)."""


@dataclass(slots=True)
class Slot:
    """One player's place in one game: the lock every edit of their hand takes."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    hand: LiveHand | None = None


class LiveHands:
    """Every player's live hand, per game (in memory: a restart forgets them)."""

    def __init__(self, clock: Callable[[], datetime]) -> None:
        self.clock = clock
        self._games: dict[int, dict[int, Slot]] = {}
        self._swept: datetime | None = None
        self.refreshed = 0
        """Hands the announcer edited (for tests and benchmarks)."""

    def slot(self, game_id: int, user_id: int) -> Slot:
        return self._games.setdefault(game_id, {}).setdefault(user_id, Slot())

    def slots(self, game_id: int) -> list[tuple[int, Slot]]:
        """The game's players with a live hand (a copy: editing them may change the dict)."""
        return [(u, s) for u, s in self._games.get(game_id, {}).items() if s.hand is not None]

    def usable(self, hand: LiveHand) -> bool:
        """Whether the hand's token still lives (with the margin)."""
        return self.clock() - hand.created_at < HAND_LIFE

    def keep(self, slot: Slot, hand: LiveHand, *, active: bool) -> LiveHand | None:
        """Make ``hand`` the player's live hand (call under ``slot.lock``); returns the one
        it replaces, if it is another message whose token still lives (to delete it).

        A hand of a game that is over is not kept (nothing will change it again).
        """
        previous = slot.hand
        slot.hand = hand if active else None
        self._sweep()
        if previous is None or previous.message_id == hand.message_id:
            return None
        return previous if self.usable(previous) else None

    def tidy(self, game_id: int, user_id: int) -> None:
        """Drop the player's slot if it holds no hand and nobody waits on it (a refused
        "Show my hand" leaves nothing behind)."""
        players = self._games.get(game_id)
        slot = players.get(user_id) if players else None
        if players is None or slot is None or slot.hand is not None or slot.lock.locked():
            return
        del players[user_id]
        if not players:
            del self._games[game_id]

    def forget_game(self, game_id: int) -> None:
        """The game is over: its live hands are never edited again."""
        self._games.pop(game_id, None)

    def _sweep(self) -> None:
        """Drop hands whose token is past its life (at most once a minute)."""
        now = self.clock()
        if self._swept is not None and now - self._swept < SWEEP_EVERY:
            return
        self._swept = now
        for game_id in list(self._games):
            players = self._games[game_id]
            for user_id in list(players):
                slot = players[user_id]
                if slot.hand is not None and not self.usable(slot.hand):
                    slot.hand = None
                if slot.hand is None and not slot.lock.locked():
                    del players[user_id]
            if not players:
                del self._games[game_id]


def live_hand(
    interaction: discord.Interaction,
    message_id: int,
    game: Snapshot,
    offers_moves: bool,
) -> LiveHand:
    """The live hand an interaction of its owner just showed."""
    return LiveHand(
        interaction=interaction,
        message_id=message_id,
        created_at=interaction.created_at,
        tr=Translator.for_locale(interaction.locale),
        version=game.version,
        turn=game.turn_token if offers_moves else None,
    )


def wants_refresh(hand: LiveHand, game: Snapshot, user_id: int) -> bool:
    """Whether the announcer should edit ``user_id``'s live hand to show ``game``.

    On every change it has not shown yet: whose turn it is (the owner's, with the moves
    to offer; another player's, an AI's), the trains, the end and its result, all change
    with every move. A player who lost their seat (the turn timer gave it to an AI)
    gets it edited once, if it still offers moves: it then says so, without tiles.
    """
    if game.version <= hand.version or game.match is None:
        return False  # it shows this state, or a newer one
    if game.seat_of(user_id) is None:
        return hand.turn is not None
    return True


async def owner_hand(
    game: Snapshot, hands: Callable[[int], HandView | None], user_id: int, tr: Translator
) -> tuple[dict[str, Any], bool] | None:
    """The hand message of ``user_id``'s own hand in ``game`` (never anybody else's:
    ``hands`` gives a seat's own, :meth:`bot.games.service.Update.hand`) and whether it
    offers moves; for a player without a seat (any more), a message without tiles that
    says so; None before the game has a deal."""
    if game.match is None:
        return None
    seat = game.seat_of(user_id)
    if seat is None:
        return seatless_message(tr(NO_SEAT if game.active else GAME_OVER)), False
    seen = hands(seat)
    if seen is None or seen.seat != seat:
        return None
    return await hand_message(game, seen, tr), bool(offered_moves(game, seen))


NO_SEAT = N_("You no longer have a seat in this game: an AI player plays it.")
GAME_OVER = N_("This game is over.")
LEFT = N_("You left this game: an AI player plays your seat.")
LEFT_AND_ENDED = N_("You left this game, and it is over.")


def seatless_message(content: str) -> dict[str, Any]:
    """A hand message's new content once its owner has no seat: no tiles, no buttons."""
    return {"content": content, "attachments": [], "view": None}


async def leaving(
    hands: LiveHands, game_id: int, user_id: int, leave: Callable[[], Awaitable[Session]]
) -> Session:
    """Run ``leave`` (the service's leave of ``user_id``) under their hand's lock; if they
    left, their live hand (while its token lives) says so in their language, without
    tiles or buttons, and is never edited again. The announcer, waiting on the same
    lock, finds no hand to refresh."""
    slot = hands.slot(game_id, user_id)
    try:
        async with slot.lock:
            session = await leave()
            if session.seat_of(user_id) is not None:
                return session  # still seated (asked to confirm first)
            hand, slot.hand = slot.hand, None
            if hand is not None and hands.usable(hand):
                text = hand.tr(LEFT if session.active else LEFT_AND_ENDED)
                with contextlib.suppress(discord.HTTPException):
                    await hand.interaction.edit_original_response(**seatless_message(text))
            return session
    finally:
        hands.tidy(game_id, user_id)


async def discard(hand: LiveHand) -> None:
    """Delete a replaced hand message (a failure only leaves it on the owner's screen)."""
    with contextlib.suppress(discord.HTTPException):
        await hand.interaction.delete_original_response()
