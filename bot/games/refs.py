"""How an action names its game: as the one in play in a channel (a slash command), or
by id from a button or select clicked somewhere (:class:`Clicked`).

A clicked id is not taken on trust: ids are sequential and a custom id can be sent
from any channel, so the service refuses a click whose server and channel are not its
game's (a game in a thread has the thread as its channel). Discord checks that a
custom id belongs to the clicked message today; the bot does not rely on it.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import N_

from .errors import GameError
from .session import Session


@dataclass(frozen=True, slots=True)
class InChannel:
    """The game in play in a channel: what a slash command acts on (a button names
    its game by id)."""

    channel_id: int


@dataclass(frozen=True, slots=True)
class Clicked:
    """A game by the id a button or select carries, clicked in that server and channel
    (None: outside any server, or a channel Discord did not name)."""

    game_id: int
    guild_id: int | None
    channel_id: int | None


GameRef = int | InChannel | Clicked
"""A game by its id (the service's own callers), as the one in play in a channel, or by
a clicked id, checked against where it was clicked."""


def check_place(session: Session, clicked: Clicked) -> None:
    """Refuse a click from a server or channel other than the game's."""
    if (clicked.guild_id, clicked.channel_id) != (session.guild_id, session.channel_id):
        raise GameError(N_("That button belongs to a game in another channel."))
