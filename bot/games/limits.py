"""How much one user or one server may hold of the bot at once, and how often.

- **Open games**: a user may have :attr:`Limits.games_per_user` tables open (in the lobby
  or in play) that they hold (opened, or took over, see :mod:`bot.games.holding`), a
  server :attr:`Limits.games_per_server` (``GAMES_PER_USER``, ``GAMES_PER_SERVER``).
  Counted in the database, so every shard's games count.
- **An idle lobby** lapses after :attr:`Limits.lobby_idle` without a change (the service's
  watchdog cancels it): a table nobody starts does not hold its channel for a day.
- **Posting the table again** (``/domino board``): once per :attr:`Limits.repost_every`
  per user and channel (:class:`Cooldowns`).

Each refusal is a polite :class:`~bot.games.errors.GameError`; nothing changes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.i18n import N_

from .errors import GameError

GAMES_PER_USER = 3
GAMES_PER_SERVER = 50


@dataclass(frozen=True, slots=True)
class Limits:
    games_per_user: int = GAMES_PER_USER
    """Open games (lobby or in play) one user may hold at once."""
    games_per_server: int = GAMES_PER_SERVER
    """Open games one server may have at once."""
    lobby_idle: timedelta = timedelta(minutes=30)
    """A lobby unchanged this long is cancelled."""
    repost_every: timedelta = timedelta(seconds=10)
    """How often one user may post a channel's table again."""


def check_open_games(limits: Limits, *, held: int, in_server: int) -> None:
    """Refuse one more game for a user who holds ``held`` open games, in a server that has
    ``in_server``."""
    if held >= limits.games_per_user:
        raise GameError(
            N_(
                "You already have as many tables open as one player may ({n}). Finish or "
                "end one of them first."
            ),
            n=limits.games_per_user,
        )
    if in_server >= limits.games_per_server:
        raise GameError(
            N_(
                "This server already has as many games open as it may have at once ({n}). "
                "Please wait until one of them ends."
            ),
            n=limits.games_per_server,
        )


class Cooldowns:
    """When each user last did something per channel, refused again until ``every`` has
    passed. Entries past their cooldown are swept as the table grows: it holds about as
    many as acted within the last ``every``."""

    def __init__(self, every: timedelta, clock: Callable[[], datetime]) -> None:
        self.every = every
        self.clock = clock
        self._last: dict[tuple[int, int], datetime] = {}
        self._sweep_at = 1024

    def __len__(self) -> int:
        return len(self._last)

    def take(self, user_id: int, channel_id: int) -> None:
        """Note the user's action now, or refuse it if their last was too recent."""
        now = self.clock()
        key = (user_id, channel_id)
        last = self._last.get(key)
        if last is not None and now - last < self.every:
            raise GameError(
                N_("You just posted the table. Please wait a few seconds before posting it again.")
            )
        self._last[key] = now
        if len(self._last) >= self._sweep_at:
            self._last = {k: t for k, t in self._last.items() if now - t < self.every}
            self._sweep_at = max(1024, 2 * len(self._last))
