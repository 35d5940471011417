"""The pure rules engine: standard library only, deterministic given a ``random.Random``.

The public API in one place::

    rules = Rules.make("draw", players=3)
    state = new_match(rules, random.Random(seed))
    state = play(state, legal_moves(state)[0])
    move = Move.on_train(tile(12, 5), MEXICAN)   # Mexican Train names a train, not an end
    move = resolve_move(state.deal, [Placement(tile(6, 4), End.EAST)])  # or IllegalMoveError
    seen = view(state, seat=1)             # what seat 1 may see
    doc = state_to_json(state)             # a match record (RECORD.md)
    state = state_from_json(doc)           # replayed and checked
"""

from .deal import Deal, deal_tiles
from .errors import (
    DealOverError,
    DominoError,
    IllegalMoveError,
    MatchOverError,
    MoveFault,
    NotYourTurnError,
    RecordError,
    RulesError,
)
from .events import Drew, Passed, Played
from .match import (
    DealNotOverError,
    MatchState,
    call_time,
    legal_moves,
    new_match,
    next_deal,
    play,
    start_match,
)
from .moves import End, Move, Placement
from .record import load_record, match_record, replay_summary
from .resolve import resolve_move
from .rules import Rules
from .scoring import DealEnd
from .tiles import Tile, full_set, tile
from .trains import MEXICAN
from .view import PlayerView, view

state_to_json = match_record
"""A match state as JSON: its match record, which replays to the same state."""
state_from_json = load_record
"""A match state back from its JSON (the record is replayed and checked)."""

__all__ = [
    "MEXICAN",
    "Deal",
    "DealEnd",
    "DealNotOverError",
    "DealOverError",
    "DominoError",
    "Drew",
    "End",
    "IllegalMoveError",
    "MatchOverError",
    "MatchState",
    "Move",
    "MoveFault",
    "NotYourTurnError",
    "Passed",
    "Placement",
    "Played",
    "PlayerView",
    "RecordError",
    "Rules",
    "RulesError",
    "Tile",
    "call_time",
    "deal_tiles",
    "full_set",
    "legal_moves",
    "load_record",
    "match_record",
    "new_match",
    "next_deal",
    "play",
    "replay_summary",
    "resolve_move",
    "start_match",
    "state_from_json",
    "state_to_json",
    "tile",
    "view",
]
