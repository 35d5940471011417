"""What plays itself between the players' moves: the next deal, dealt when one ends,
and a drawn tile laid when it can go only one way (for a human seat: an AI seat
chooses for itself)."""

from __future__ import annotations

from bot.engine import MatchState, next_deal, play

from .session import Session


def advance(session: Session, state: MatchState) -> MatchState:
    """``state`` after the deals and forced moves that follow it by themselves (each deal
    dealt by ``session``'s generator for it, so a restart deals the same)."""
    while True:
        deal = state.deal
        if deal.over:
            if state.over:
                return state
            state = next_deal(state, session.deal_rng(state.deal_number + 1))
            continue
        seat = session.seats[deal.turn]
        legal = deal.legal_moves()
        if not seat.is_ai and deal.forced is not None and len(legal) == 1:
            state = play(state, legal[0])
            continue
        return state
