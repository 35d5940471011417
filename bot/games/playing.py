"""A player's move: checked against the turn and the hand shown, applied, saved.

A move comes as a :class:`~bot.engine.Move` (the autocomplete's, checked to be legal
still), as typed text (resolved by :mod:`bot.games.moves_text`, which says why an
illegal one is refused), or as the index of a hand button's move, with the turn token
of the hand it was shown on (:func:`~bot.games.service.turn_token`): a click on a
hand the game has moved past is refused. The deals and forced moves that follow play
themselves (:mod:`bot.games.autoplay`); a player who moves has no missed turns.
"""

from __future__ import annotations

from bot.engine import Move, play
from bot.i18n import N_

from .autoplay import advance
from .errors import GameError, StaleError
from .locks import LockTable
from .memory import Memory
from .moves_text import parse_wanted, resolve, train_words
from .saving import Saver
from .service import turn_token
from .session import PLAYING, Seat, Session


class Moves:
    """The players' moves (the AI's are :class:`~bot.games.turns.Turns`')."""

    def __init__(self, memory: Memory, saver: Saver, locks: LockTable) -> None:
        self.memory = memory
        self.saver = saver
        self.locks = locks

    async def play(
        self,
        game_id: int,
        user_id: int,
        move: Move | None = None,
        *,
        text: str | None = None,
        end: str | None = None,
        closed: bool | None = None,
        train: str | None = None,
        token: str | None = None,
    ) -> Session:
        """Play a move for ``user_id``: a :class:`Move`, or typed text (``train``: the
        train a Mexican Train tile goes on, as typed)."""
        async with self.locks.hold(game_id):
            session, seat = await self._mover(game_id, user_id, token)
            state = session.state
            assert state is not None
            if move is None:
                names = session.names
                trains = train_words(seat, names) if session.rules.mexican else None
                wanted = parse_wanted(text or "", end, closed, trains=trains, train_text=train)
                move = resolve(state.deal, seat, wanted, names)
            elif move.canonical() not in state.legal_moves():
                raise StaleError(N_("That move is no longer possible."))
            return await self._apply(session, seat, move)

    async def play_choice(self, game_id: int, user_id: int, token: str, index: int) -> Session:
        """Play the ``index``-th legal move of the hand shown at ``token`` (a button)."""
        async with self.locks.hold(game_id):
            session, seat = await self._mover(game_id, user_id, token)
            state = session.state
            assert state is not None
            legal = state.legal_moves()
            if not 0 <= index < len(legal):
                raise StaleError(N_("That move is no longer possible."))
            return await self._apply(session, seat, legal[index])

    async def _mover(self, game_id: int, user_id: int, token: str | None) -> tuple[Session, int]:
        """The game and the seat of ``user_id``, who must be the one to move."""
        session = await self.memory.require(game_id, PLAYING)
        seat = session.seat_of(user_id)
        if seat is None:
            raise GameError(N_("You are not playing in this game."))
        if token is not None and token != turn_token(session):
            raise StaleError(N_("This hand is out of date: the game has moved on."))
        if session.turn != seat:
            turn = session.turn_seat
            raise GameError(
                N_("It's not your turn: {name} is playing."),
                name=turn.name if turn else "",
            )
        return session, seat

    async def _apply(self, session: Session, seat: int, move: Move) -> Session:
        state = session.state
        assert state is not None
        state = play(state, move, seat)
        seats = _reset_missed(session.seats, seat)
        state = advance(session, state)
        return await self.saver.commit(session, state=state, seats=seats)


def _reset_missed(seats: tuple[Seat, ...], seat: int) -> tuple[Seat, ...]:
    if not seats[seat].missed:
        return seats
    s = seats[seat]
    return (*seats[:seat], Seat(s.name, s.user_id, s.ai, 0), *seats[seat + 1 :])
