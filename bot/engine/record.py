"""Match records (``docs/RECORD.md``): writing, reading and the replay summary.

A record is also how a match state is stored: :func:`match_record` turns a
:class:`MatchState` into one and :func:`load_record` replays it back, checking
every deal and move against the rules on the way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .deal import VoidDealError, fixed_lead
from .errors import DominoError, RecordError, RulesError
from .events import Event, Played
from .match import MatchState, add_deal, call_time, next_leader, play, start_match
from .moves import End, Move, Placement
from .rules import Rules
from .scoring import DealResult
from .tiles import Tile, full_set, mask_of

FORMAT = "domino-record/1"


# -- writing -------------------------------------------------------------------


def match_record(state: MatchState, seats: Sequence[str] | None = None) -> dict[str, Any]:
    """The record of ``state`` (finished or in progress) as a JSON-ready dict."""
    doc: dict[str, Any] = {"format": FORMAT, "rules": state.rules.to_dict()}
    if seats is not None:
        doc["seats"] = list(seats)
    deals = []
    for i, deal in enumerate(state.deals):
        entry: dict[str, Any] = {
            "hands": [[str(t) for t in hand] for hand in deal.dealt],
            "stock": [str(t) for t in deal.stock],
            "leader": deal.leader,
            "moves": [_move_doc(e.seat, e.move) for e in _played(deal.history)],
        }
        if state.time_up and i == len(state.deals) - 1:
            entry["time_up"] = True
        deals.append(entry)
    doc["deals"] = deals
    return doc


def _played(history: Sequence[Event]) -> list[Played]:
    return [e for e in history if type(e) is Played]


def _move_doc(seat: int, move: Move) -> dict[str, Any]:
    if len(move.placements) > 1:
        return {"seat": seat, "tiles": [_placement_doc(p) for p in move.placements]}
    return {"seat": seat, **_placement_doc(move.placements[0])}


def _placement_doc(p: Placement) -> dict[str, Any]:
    if p.end is None:
        return {"tile": str(p)}
    doc: dict[str, Any] = {"tile": str(p.tile), "end": str(p.end)}
    if p.closed:
        doc["closed"] = True
    return doc


# -- reading -------------------------------------------------------------------


def load_record(doc: Any) -> MatchState:
    """Replay a record into a match state. Raises :class:`RecordError` on any fault."""
    if not isinstance(doc, dict):
        raise RecordError("a record is a JSON object")
    if "format" in doc and doc["format"] != FORMAT:
        raise RecordError(f"unknown format {doc['format']!r}; expected {FORMAT!r}")
    deals = doc.get("deals")
    if not isinstance(deals, list) or not deals:
        raise RecordError("a record needs a list of deals, with at least one deal")
    rules = _read_rules(doc.get("rules"), deals[0])
    seats = doc.get("seats")
    if seats is not None and (
        not isinstance(seats, list)
        or len(seats) != rules.players
        or not all(isinstance(s, str) for s in seats)
    ):
        raise RecordError(f"seats must be a list of {rules.players} names")

    state: MatchState | None = None
    for number, deal_doc in enumerate(deals, 1):
        if state is not None:
            if not state.deal.over:
                raise RecordError(
                    "this deal stops before it ends; only the last deal may", number - 1
                )
            if state.over:
                raise RecordError("the match was already over before this deal", number)
        if not isinstance(deal_doc, dict):
            raise RecordError("a deal is a JSON object", number)
        state = _read_deal(rules, state, deal_doc, number)
    assert state is not None
    return state


def _read_rules(data: Any, first_deal: Any) -> Rules:
    if not isinstance(data, dict):
        raise RecordError("rules must be a JSON object naming at least the game")
    data = dict(data)
    if "players" not in data:
        hands = first_deal.get("hands") if isinstance(first_deal, dict) else None
        if isinstance(hands, list):
            data["players"] = len(hands)
    try:
        return Rules.from_dict(data)
    except RulesError as e:
        raise RecordError(f"rules: {e.message}") from None


def _read_deal(
    rules: Rules, state: MatchState | None, doc: dict[str, Any], number: int
) -> MatchState:
    hands, stock = _read_tiles(rules, doc, number)
    leader = _read_leader(rules, state, doc, hands, number)
    try:
        if state is None:
            state = start_match(rules, hands, stock, leader)
        else:
            state = add_deal(state, hands, stock, leader)
    except VoidDealError:
        raise RecordError(
            "no double was dealt: a void latvian deal must not appear in a record", number
        ) from None
    moves = doc.get("moves", [])
    if not isinstance(moves, list):
        raise RecordError("moves must be a list", number)
    for index, move_doc in enumerate(moves, 1):
        seat, move = _read_move(state, move_doc, number, index)
        try:
            state = play(state, move, seat)
        except DominoError as e:
            raise RecordError(str(e), number, index) from None
    if doc.get("time_up") is True:
        if rules.time_limit is None:
            raise RecordError("time_up is only for latvian sessions with a time limit", number)
        state = call_time(state)
    return state


def _read_tiles(
    rules: Rules, doc: dict[str, Any], number: int
) -> tuple[list[list[Tile]], list[Tile]]:
    hands_doc = doc.get("hands")
    if not isinstance(hands_doc, list) or not all(isinstance(h, list) for h in hands_doc):
        raise RecordError("hands must be a list of lists of tiles", number)
    if len(hands_doc) != rules.players:
        raise RecordError(
            f"the deal has {len(hands_doc)} hands for {rules.players} players", number
        )
    stock_doc = doc.get("stock", [])
    if not isinstance(stock_doc, list):
        raise RecordError("stock must be a list of tiles", number)
    in_set = set(full_set(rules.set))
    seen: set[Tile] = set()

    def read(text: Any, where: str) -> Tile:
        if not isinstance(text, str):
            raise RecordError(f"{where} holds {text!r}, which is not a tile", number)
        try:
            t = Tile.parse(text)
        except ValueError:
            raise RecordError(f"{where} holds {text!r}, which is not a tile", number) from None
        if t not in in_set:
            raise RecordError(f"{where} holds {t}, which is not in double-{rules.set}", number)
        if t in seen:
            raise RecordError(f"{t} is dealt twice", number)
        seen.add(t)
        return t

    hands = []
    for seat, hand_doc in enumerate(hands_doc):
        hand = [read(x, f"the hand of seat {seat}") for x in hand_doc]
        if len(hand) != rules.hand:
            raise RecordError(
                f"the hand of seat {seat} has {len(hand)} tiles; every hand has {rules.hand}",
                number,
            )
        hands.append(hand)
    stock = [read(x, "the stock") for x in stock_doc]
    missing = sorted(in_set - seen)
    if missing:
        shown = ", ".join(str(t) for t in missing[:5]) + (" …" if len(missing) > 5 else "")
        raise RecordError(f"the hands and stock miss {shown}", number)
    return hands, stock


def _read_leader(
    rules: Rules,
    state: MatchState | None,
    doc: dict[str, Any],
    hands: list[list[Tile]],
    number: int,
) -> int | None:
    leader = doc.get("leader")
    if leader is not None and (
        isinstance(leader, bool) or not isinstance(leader, int) or not 0 <= leader < rules.players
    ):
        raise RecordError(f"leader must be a seat from 0 to {rules.players - 1}", number)
    try:
        fixed = fixed_lead(rules, [mask_of(h) for h in hands])
    except VoidDealError:
        return leader  # reported when the deal starts
    if fixed is not None:
        seat, lead = fixed
        if leader is not None and leader != seat:
            raise RecordError(f"seat {seat} leads this deal (holding {lead}), not {leader}", number)
        return leader
    chosen = next_leader(rules, state.deal.result if state is not None else None)
    if chosen is not None:
        if leader is not None and leader != chosen:
            raise RecordError(
                f"seat {chosen} leads this deal (it won the last one), not seat {leader}", number
            )
        return chosen
    if leader is None:
        raise RecordError(
            "the rules draw this deal's leader: the deal must name its leader", number
        )
    return leader


def _read_move(state: MatchState, doc: Any, number: int, index: int) -> tuple[int, Move]:
    def fault(message: str) -> RecordError:
        return RecordError(message, number, index)

    deal = state.deal
    if not isinstance(doc, dict):
        raise fault("a move is a JSON object")
    if deal.over:
        raise fault("the deal is already over")
    seat = doc.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < deal.n:
        raise fault(f"seat must be a seat from 0 to {deal.n - 1}")
    if seat != deal.turn:
        raise fault(f"seat {seat} moved, but it is seat {deal.turn}'s turn")
    if "tiles" in doc:
        entries = doc["tiles"]
        if not isinstance(entries, list) or not entries:
            raise fault("tiles must be a list of at least one {tile, end}")
    else:
        entries = [doc]
    parsed = [_read_entry(e, fault) for e in entries]
    hand = deal.hands[seat]
    for t, _, _, west in parsed:
        if not hand >> t & 1:
            raise fault(f"seat {seat} does not hold {_written(t, west)}")

    if deal.layout.lead is None:
        t, end, closed, west = parsed[0]
        if len(parsed) > 1:
            raise fault("the lead is one tile")
        if end is not None:
            raise fault("the lead takes no end")
        if closed:
            raise fault("the lead cannot be laid face down")
        return seat, Move.lead(t, west)

    placements = []
    for t, end, closed, west in parsed:
        if closed and not deal.latvian:
            raise fault("only latvian lays tiles face down")
        if end is not None and deal.forced is None and len(parsed) == 1:
            why = deal.layout.why_not(t, end, _written(t, west))
            if why:
                raise fault(why)
        if end is None:
            fits = deal.end_name_fits(t)
            if len(fits) != 1:
                where = " and ".join(str(e) for e in fits)
                raise fault(
                    f"{t} fits {where}: the move must name its end"
                    if fits
                    else f"{t} fits no open end"
                )
            end = fits[0]
        placements.append(Placement(t, end, closed))
    if len(placements) == 1:
        p = placements[0]
        assert p.end is not None
        return seat, Move.single(p.tile, p.end, p.closed)
    return seat, Move(tuple(sorted(placements, key=lambda p: p.end or 0)))


def _written(t: Tile, first: int) -> str:
    """The tile as the record wrote it: ``4-2`` stays ``4-2``."""
    return f"{first}-{t.other(first)}"


def _read_entry(doc: Any, fault: Any) -> tuple[Tile, End | None, bool, int]:
    if not isinstance(doc, dict):
        raise fault("each tile of a move is a JSON object with a tile")
    text = doc.get("tile")
    if not isinstance(text, str):
        raise fault("a move needs a tile, written a-b")
    try:
        t = Tile.parse(text)
    except ValueError:
        raise fault(f"{text!r} is not a tile") from None
    west = int(text.replace(" ", "").split("-")[0])
    end_text = doc.get("end")
    end = None
    if end_text is not None:
        if not isinstance(end_text, str):
            raise fault(f"{end_text!r} is not an end")
        try:
            end = End.parse(end_text)
        except ValueError as e:
            raise fault(str(e)) from None
    closed = doc.get("closed", False)
    if not isinstance(closed, bool):
        raise fault("closed must be true or false")
    return t, end, closed, west


# -- the replay summary ----------------------------------------------------------


def replay_summary(state: MatchState) -> dict[str, Any]:
    """The replay command's output for a replayed record (RECORD.md)."""
    rules = state.rules
    deals = []
    for deal in state.deals:
        if deal.result is not None:
            deals.append(_result_doc(deal.result))
        else:
            deals.append(
                {
                    "end": "open",
                    "winners": [],
                    "pips": [sum(t.pips for t in deal.hand(s)) for s in range(rules.players)],
                    "score": list(deal.play_points),
                    "values": None,
                }
            )
    return {
        "sides": [list(side) for side in rules.sides],
        "deals": deals,
        "totals": [_num(t) for t in state.totals],
        "over": state.over,
        "winners": list(state.winners),
        "places": [_num(p) for p in state.places] if state.places is not None else None,
    }


def _result_doc(result: DealResult) -> dict[str, Any]:
    return {
        "end": result.end,
        "winners": list(result.winners),
        "pips": list(result.pips),
        "score": list(result.score),
        "values": list(result.values) if result.values is not None else None,
    }


def _num(x: float) -> float | int:
    return int(x) if float(x).is_integer() else x
