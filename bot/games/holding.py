"""Who holds a game: may end it (``/domino end``), start it and add AI seats (its lobby),
and counts it against their open tables (:mod:`bot.games.limits`).

The right moves with the seat. The creator holds the game while seated; a creator who
leaves (or whom the turn timer replaces by the AI) hands it to the next human seat
(:func:`holder_after`, saved as the game's ``creator_id``). In a game whose creator left
before the right moved so, every human still seated holds it. Manage Server may always
end a game.
"""

from __future__ import annotations

from bot.i18n import N_

from .errors import GameError
from .session import Seat, Session


def check_can_end(session: Session, user_id: int, *, can_manage: bool) -> None:
    """Refuse ``user_id`` ending the game unless they hold it or manage the server
    (asked before ``/domino end`` asks for a confirmation)."""
    if can_manage:
        return
    if session.seat_of(user_id) is None:  # a stranger, or a player who left
        raise GameError(
            N_(
                "You are not at this table, so you can't end its game. A player at "
                "the table or someone with Manage Server can."
            )
        )
    if user_id != session.creator_id and session.seat_of(session.creator_id) is not None:
        raise GameError(N_("Only the game's creator or someone with Manage Server can end it."))


def holder_after(session: Session, seats: tuple[Seat, ...], gone: int) -> int | None:
    """Who holds the game once the human at seat ``gone`` is replaced in ``seats``: None
    (unchanged) unless they held it, else the next human seat after ``gone`` (None when
    nobody is left)."""
    if session.creator_id != session.seats[gone].user_id:
        return None
    for step in range(1, len(seats)):
        user = seats[(gone + step) % len(seats)].user_id
        if user is not None:
            return user
    return None
