"""Where the table's feed begins: everything since the last turn of the seat to move.

A position in a match is ``(deal number, index into that deal's history)``: the moment
before that event (``(n, len(history))`` is the deal as it stands). The feed of the
public table tells every event from :func:`feed_start` on, so the player whose turn it
is reads what happened since they last moved: their partner's move, who scored,
passes, draws, a deal that ended and the next that began.

These read the match state, on the service's side: the game's snapshot
(:func:`bot.games.snapshot.snapshot`) carries where the feed starts, the public events
from there on and the tiles laid since, and the cogs tell them from it.
"""

from __future__ import annotations

from bot.engine import Drew, MatchState, Passed, Played, Tile

Position = tuple[int, int]
LOBBY: Position = (0, 0)
"""Before the first deal (a lobby's notes)."""
FIRST: Position = (1, 0)
"""The first deal, before its first move."""


def position(state: MatchState | None) -> Position:
    """Where ``state`` stands: after its last event."""
    if state is None:
        return LOBBY
    return state.deal_number, len(state.deal.history)


def last_turn(state: MatchState, seat: int, *, skip: int = 0) -> Position | None:
    """The position just after ``seat``'s last play or pass (after skipping the ``skip``
    latest ones), looking back through earlier deals; None if it has none."""
    for number in range(state.deal_number, 0, -1):
        history = state.deals[number - 1].history
        for index in range(len(history) - 1, -1, -1):
            event = history[index]
            if type(event) is not Drew and event.seat == seat:
                if skip:
                    skip -= 1
                    continue
                return number, index + 1
    return None


def feed_start(state: MatchState) -> tuple[int | None, Position]:
    """Whose last turn the feed starts from, and where: the seat to move; once nobody is
    (the match over), the seat that moved last, from its turn before. ``(None, (1, 0))``
    before anybody has moved."""
    deal = state.deal
    seat: int | None = None if state.over or deal.over else deal.turn
    if seat is not None:
        start = last_turn(state, seat)
    else:
        seat = _last_mover(state)
        start = None if seat is None else last_turn(state, seat, skip=1)
    if start is None:
        return None, FIRST
    return seat, start


def _last_mover(state: MatchState) -> int | None:
    for number in range(state.deal_number, 0, -1):
        for event in reversed(state.deals[number - 1].history):
            if type(event) is Played or type(event) is Passed:
                return event.seat
    return None


def laid_since(state: MatchState, start: Position) -> list[tuple[int, Tile]]:
    """The tiles laid face up on the table of the deal in play from ``start`` on, in
    order, with the seat that laid each (what the board marks as the latest moves)."""
    number, index = start
    deal = state.deal
    begin = index if number == state.deal_number else 0 if number < state.deal_number else None
    if begin is None:
        return []
    return [
        (event.seat, p.tile)
        for event in deal.history[begin:]
        if type(event) is Played
        for p in event.move.placements
        if not p.closed or deal.over
    ]
