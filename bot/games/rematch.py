"""Rematch offers: a finished match's players accept, one click each.

Every human seat of a finished match accepts once (AI seats accept by themselves);
the last acceptance creates a new game in the same channel with the same seats in
the same order, the same rules and timer (the service then posts and starts it). The
offer lapses :data:`~bot.games.service.REMATCH_LIFE` after the match ended, or once
another game was opened in the channel. Acceptances are kept in memory: a restart
forgets them, and the players click again.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime

from bot.engine import Rules
from bot.i18n import N_
from bot.storage import Database

from .errors import GameError
from .locks import LockTable
from .memory import Memory
from .service import REMATCH_LIFE, Rematch, channel_busy
from .session import FINISHED, Seat, Session


@dataclass(slots=True)
class _Offer:
    """A finished game's rematch offer: its channel, when the match ended, who accepted."""

    channel_id: int
    ended_at: datetime
    accepted: set[int] = field(default_factory=set)


class Rematches:
    """The rematch offers by finished game id."""

    def __init__(
        self,
        db: Database,
        memory: Memory,
        locks: LockTable,
        *,
        clock: Callable[[], datetime],
        create: Callable[[int, int, int, Rules, list[Seat], int], Awaitable[Session]],
        check_open_games: Callable[[int, int], Awaitable[None]],
    ) -> None:
        self.db = db
        self.memory = memory
        self.locks = locks
        self.clock = clock
        self.create = create
        """Stores a new game (:meth:`~bot.games.service.GameService._create`)."""
        self.check_open_games = check_open_games
        """Refuses a new game past the user's or the server's cap."""
        self._offers: dict[int, _Offer] = {}

    def lapse(self, channel_id: int) -> None:
        """A new game opened in ``channel_id``: its offer ends (and any old one goes)."""
        now = self.clock()
        self._offers = {
            game: offer
            for game, offer in self._offers.items()
            if offer.channel_id != channel_id and now - offer.ended_at <= REMATCH_LIFE
        }

    async def accept(self, game_id: int, user_id: int) -> Rematch | Session:
        """Record ``user_id``'s acceptance (the finished game's lock held): where the
        offer stands, or, once everyone is in, the new game."""
        async with self.locks.hold(game_id):
            finished = await self.memory.get(game_id)
            if finished is None:
                raise GameError(N_("There is no such game."))
            if finished.status != FINISHED:
                raise GameError(N_("Only a match played to its end can have a rematch."))
            if finished.seat_of(user_id) is None:
                raise GameError(N_("Only the players of that match can accept its rematch."))
            if self.clock() - finished.updated_at > REMATCH_LIFE:
                self._offers.pop(game_id, None)
                raise GameError(
                    N_("This rematch offer has lapsed: it lasts {n} minutes after the match."),
                    n=int(REMATCH_LIFE.total_seconds() // 60),
                )
            active = await self.memory.in_channel(finished.channel_id)
            if active is not None:
                raise channel_busy()
            latest = await self.db.games.latest_in_channel(finished.channel_id)
            if latest is not None and latest.id != game_id:
                self._offers.pop(game_id, None)
                raise GameError(
                    N_("This rematch offer has lapsed: a new game was opened in this channel.")
                )
            offer = self._offers.setdefault(
                game_id, _Offer(finished.channel_id, finished.updated_at)
            )
            accepted = offer.accepted
            humans = [s for s in finished.seats if s.user_id is not None]
            if user_id in accepted:
                raise GameError(
                    N_("You're already in for the rematch. Waiting for {names}."),
                    names=", ".join(s.name for s in humans if s.user_id not in accepted),
                )
            waiting = tuple(
                s.name for s in humans if s.user_id not in accepted and s.user_id != user_id
            )
            if waiting:
                accepted.add(user_id)
                return Rematch(frozenset(accepted), waiting)
            # everyone is in: the same seats, rules and timer, in the same channel
            seats = [Seat(s.name, s.user_id, s.ai) for s in finished.seats]
            creator = finished.creator_id
            if finished.seat_of(creator) is None:
                creator = humans[0].user_id or creator
            await self.check_open_games(finished.guild_id, creator)
            accepted.add(user_id)
            new = await self.create(
                finished.guild_id,
                finished.channel_id,
                creator,
                finished.rules,
                seats,
                finished.timer,
            )
            self._offers.pop(game_id, None)
            return new
