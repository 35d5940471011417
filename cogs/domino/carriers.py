"""Carriers: players' interactions, through which a game's public messages go out uncounted.

Discord counts a bot's REST calls against one budget for the whole token (50 a second,
every shard and process together), except the calls on an interaction's own routes: its
callback, its followups, and editing or deleting its original response and its own
followups, for 15 minutes after the interaction (Discord's "Receiving and Responding"
and rate-limit documentation; docs/LOAD.md). So every interaction of a player in a
game's channel (a move, a hand, a join, ``/domino board``) is a *carrier*: the announcer
posts the game's table (and its turn ping) as a public followup of the freshest one, and
deletes or edits what a carrier posted through that same carrier while it lives.

A carrier may carry only once its own answer is complete. A command deferred with
"thinking…" (the private answer to come) turns its *first* followup into that answer,
whatever flags the followup asks for: a table sent then would be private. So a carrier
is *pending* while its handler runs and *ready* once :meth:`Carriers.answered` says the
handler's own answer went out (or the interaction was acknowledged as an update of its
message, whose followups are always new messages); a handler that ends without an
answer leaves no carrier. The announcer waits a moment for a pending carrier of the
channel (the move's own, usually) before it takes the freshest ready one, or the
counted channel routes when none lives (:data:`CARRY_LIFE`, a minute short of Discord's
15) or Discord refuses one (then it is dead, and never used again).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import discord

TOKEN_LIFE = timedelta(minutes=15)
"""How long Discord honours an interaction's token (its followups, its messages)."""
CARRY_LIFE = TOKEN_LIFE - timedelta(minutes=1)
"""How long a carrier is used: the token's life with a minute's margin."""
WAIT_FOR_PENDING = 3.0
"""Seconds the announcer waits for a pending carrier of the channel to be answered."""

OPENING: ContextVar[discord.Interaction | None] = ContextVar("dominobot_opening", default=None)
"""The interaction that opens a game (``/domino new``, a rematch click), while the service
opens it: the announcer posts the new lobby through it."""

CLICK_UPDATES = frozenset(
    {
        discord.InteractionResponseType.deferred_message_update,
        discord.InteractionResponseType.message_update,
    }
)
"""A click acknowledged so: its original response is the clicked message."""
UPDATES = CLICK_UPDATES | {discord.InteractionResponseType.channel_message}
"""Acknowledgements after which every followup is a new message of its own."""


@dataclass(eq=False, slots=True)
class Carrier:
    """One interaction that may carry a game's public messages."""

    interaction: discord.Interaction
    created_at: datetime
    channel_id: int
    answered: bool = False
    """The handler's own answer went out: followups are new messages now."""
    dead: bool = False
    """Discord refused its token (or the handler never answered): never used."""
    settled: asyncio.Event = field(default_factory=asyncio.Event)
    """Set when its handler is done, answered or not."""


class Carriers:
    """The freshest carrier of every channel (in memory: a restart forgets them)."""

    def __init__(self, clock: Callable[[], datetime]) -> None:
        self.clock = clock
        self._ready: dict[int, Carrier] = {}
        self._pending: dict[int, list[Carrier]] = {}
        self._by_interaction: dict[int, Carrier] = {}
        self._swept: datetime | None = None

    # -- the cog's side ------------------------------------------------------------------

    def begin(self, interaction: discord.Interaction) -> Carrier | None:
        """A handler starts on ``interaction``: a pending carrier for its channel."""
        channel_id = interaction.channel_id
        if channel_id is None or interaction.type is discord.InteractionType.autocomplete:
            return None
        carrier = Carrier(interaction, interaction.created_at, channel_id)
        self._pending.setdefault(channel_id, []).append(carrier)
        self._by_interaction[interaction.id] = carrier
        return carrier

    def find(self, interaction: discord.Interaction) -> Carrier | None:
        """The pending carrier of ``interaction`` (its handler still runs), if any."""
        return self._by_interaction.get(interaction.id)

    def answered(self, interaction: discord.Interaction) -> None:
        """The handler's own answer to ``interaction`` went out."""
        carrier = self._by_interaction.get(interaction.id)
        if carrier is not None:
            carrier.answered = True

    def settle(self, interaction: discord.Interaction) -> None:
        """The handler is done: a carrier whose answer went out becomes the channel's
        freshest; one without an answer is dropped."""
        carrier = self._by_interaction.pop(interaction.id, None)
        if carrier is None:
            return
        if interaction.response.type in UPDATES:
            carrier.answered = True
        pending = self._pending.get(carrier.channel_id, [])
        with contextlib.suppress(ValueError):
            pending.remove(carrier)
        if not pending:
            self._pending.pop(carrier.channel_id, None)
        if carrier.answered and not carrier.dead:
            current = self._ready.get(carrier.channel_id)
            if current is None or current.created_at <= carrier.created_at:
                self._ready[carrier.channel_id] = carrier
        else:
            carrier.dead = True
        carrier.settled.set()
        self._sweep()

    # -- the announcer's side ------------------------------------------------------------

    def usable(self, carrier: Carrier | None) -> bool:
        """Whether ``carrier`` may post, edit or delete now."""
        return (
            carrier is not None
            and _answered(carrier)
            and not carrier.dead
            and self.clock() - carrier.created_at < CARRY_LIFE
        )

    async def best(self, channel_id: int) -> Carrier | None:
        """The freshest usable carrier of the channel, after waiting (a moment at most)
        for the handlers still running there to answer; None: use the channel routes."""
        waiting = [
            c
            for c in self._pending.get(channel_id, ())
            if not _answered(c) and not c.settled.is_set()
        ]
        if waiting:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(
                    asyncio.gather(*(c.settled.wait() for c in waiting)), timeout=WAIT_FOR_PENDING
                )
        ready = self._ready.get(channel_id)
        if ready is not None and not self.usable(ready):
            del self._ready[channel_id]
        candidates = [ready, *self._pending.get(channel_id, ())]
        usable = [c for c in candidates if c is not None and self.usable(c)]
        return max(usable, key=lambda c: c.created_at, default=None)

    def kill(self, carrier: Carrier) -> None:
        """Discord refused the carrier's token: never use it again."""
        carrier.dead = True
        if self._ready.get(carrier.channel_id) is carrier:
            del self._ready[carrier.channel_id]

    def _sweep(self) -> None:
        """Drop the carriers past their life (at most once a minute)."""
        now = self.clock()
        if self._swept is not None and now - self._swept < timedelta(minutes=1):
            return
        self._swept = now
        for channel_id, carrier in list(self._ready.items()):
            if not self.usable(carrier):
                del self._ready[channel_id]


def _answered(carrier: Carrier) -> bool:
    """Whether the carrier's own answer went out (an update's followups are always new)."""
    return carrier.answered or carrier.interaction.response.type in UPDATES


def _carriers_of(client: discord.Client) -> Carriers | None:
    """The carriers of the bot's announcer (None before the cog is loaded)."""
    cog = getattr(client, "get_cog", lambda _name: None)("Domino")
    carriers = getattr(getattr(cog, "publisher", None), "carriers", None)
    return carriers if isinstance(carriers, Carriers) else None


@contextlib.asynccontextmanager
async def carrying(interaction: discord.Interaction) -> AsyncIterator[None]:
    """Run a handler of ``interaction`` as a pending carrier of its channel (settled, ready
    or dropped, when the handler is done)."""
    carriers = _carriers_of(interaction.client)
    if carriers is None or carriers.begin(interaction) is None:
        yield
        return
    try:
        yield
    finally:
        carriers.settle(interaction)


def answered(interaction: discord.Interaction) -> None:
    """The handler's own answer to ``interaction`` went out (its followups are new messages
    from now on)."""
    carriers = _carriers_of(interaction.client)
    if carriers is not None:
        carriers.answered(interaction)
