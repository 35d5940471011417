"""Match records (``docs/RECORD.md``): writing, reading and the replay summary.

A record is also how a match state is stored: :func:`match_record` turns a
:class:`MatchState` into one and :func:`load_record` replays it back, checking
every deal and move against the rules on the way.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from .deal import Deal, VoidDealError, fixed_lead
from .errors import DealOverError, DominoError, RecordError, RulesError, brief
from .events import Played
from .match import MatchState, add_deal, call_time, next_leader, play, start_match
from .mexican import TrainDeal, engine_of, first_seat
from .moves import End, Move, Placement
from .resolve import resolve_move
from .rules import RULE_KEYS, Rules
from .scoring import DealResult
from .tiles import MAX_PIPS, Tile, full_set, mask_of, tile
from .trains import MEXICAN

FORMAT = "domino-record/1"


# -- writing -------------------------------------------------------------------


def match_record(state: MatchState, seats: Sequence[str] | None = None) -> dict[str, Any]:
    """The record of ``state`` (finished or in progress) as a JSON-ready dict."""
    return joined_record(
        record_head(state, seats), [(deal_entry(d), move_entries(d)) for d in state.deals]
    )


# A record in pieces, for storing it a save at a time (bot.storage keeps a game in play
# so): its head, each deal as dealt, and its moves a few at a time. The pieces of a
# state are the pieces of any earlier state of the same match plus record_gain's.


def record_head(state: MatchState, seats: Sequence[str] | None = None) -> dict[str, Any]:
    """The record of ``state`` without its deals (``format``, ``rules``, ``seats``), and
    ``"time_up": true`` when the last deal carries it (:func:`joined_record` puts it there)."""
    head: dict[str, Any] = {"format": FORMAT, "rules": state.rules.to_dict()}
    if seats is not None:
        head["seats"] = list(seats)
    if state.time_up:
        head["time_up"] = True
    return head


def deal_entry(deal: Deal) -> dict[str, Any]:
    """A deal's record as dealt: its entry without ``moves`` (and ``time_up``)."""
    return {
        "hands": [[str(t) for t in hand] for hand in deal.dealt],
        "stock": [str(t) for t in deal.stock],
        "leader": deal.leader,
    }


def move_entries(deal: Deal, since: Deal | None = None) -> list[dict[str, Any]]:
    """The record's entries of the moves of ``deal``, or only of those played after
    ``since``, an earlier moment of the same deal (its history is a prefix of ``deal``'s).

    Costs as much as the moves written (and, with ``since``, nothing for the others).
    """
    events = deal.history if since is None else deal.history[len(since.history) :]
    played = [e for e in events if type(e) is Played]
    if not isinstance(deal, TrainDeal):
        return [_move_doc(e.seat, e.move) for e in played]
    # Mexican Train: each tile written as it lies, the half that touches its train first.
    if isinstance(since, TrainDeal):
        ends = since.station.ends[:]
    else:
        ends = [deal.station.engine] * (deal.n + 1)
    moves = []
    for e in played:
        p = e.move.placements[0]
        assert p.train is not None
        inner = ends[p.train]
        ends[p.train] = p.tile.other(inner)
        train: int | str = "mexican" if p.train == MEXICAN else p.train
        moves.append({"seat": e.seat, "tile": f"{inner}-{ends[p.train]}", "train": train})
    return moves


class RecordGain(NamedTuple):
    """What a later state of a match adds to the record of an earlier one, deal by deal."""

    deals: list[tuple[int, dict[str, Any]]]
    """The deals dealt since: (the deal's number from 1, :func:`deal_entry`)."""
    moves: list[tuple[int, int, list[dict[str, Any]]]]
    """The moves played since, per deal: (the deal's number, the moves it had before,
    their :func:`move_entries`)."""


def record_gain(before: MatchState | None, after: MatchState) -> RecordGain:
    """What ``after`` adds to the record of ``before`` (None: of nothing), an earlier state
    of the same match: the moves of the deal in play then, every deal dealt since and its
    moves. Costs as much as what is new, whatever the length of the match."""
    deals: list[tuple[int, dict[str, Any]]] = []
    moves: list[tuple[int, int, list[dict[str, Any]]]] = []
    known = 0 if before is None else len(before.deals)
    if before is not None:
        if not 0 < known <= len(after.deals):
            raise ValueError("the later state has fewer deals than the earlier one")
        old = before.deals[-1]
        entries = move_entries(after.deals[known - 1], since=old)
        if entries:
            moves.append((known, len(old.moves()), entries))
    for number in range(known + 1, len(after.deals) + 1):
        deal = after.deals[number - 1]
        deals.append((number, deal_entry(deal)))
        entries = move_entries(deal)
        if entries:
            moves.append((number, 0, entries))
    return RecordGain(deals, moves)


def joined_record(
    head: Mapping[str, Any],
    deals: Iterable[tuple[Mapping[str, Any], Iterable[Mapping[str, Any]]]],
) -> dict[str, Any]:
    """The record made of its pieces: a :func:`record_head` and, per deal, its
    :func:`deal_entry` and its moves. The inverse of splitting it."""
    doc = {key: value for key, value in head.items() if key != "time_up"}
    entries = []
    for entry, moves in deals:
        entries.append({**entry, "moves": list(moves)})
    if head.get("time_up") is True and entries:
        entries[-1]["time_up"] = True
    doc["deals"] = entries
    return doc


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

LONGEST_NUMBER = 100
"""Digits: a longer JSON integer is no value of any record key (:class:`LongNumber`)."""
_TILE = re.compile(r"(0|[1-9][0-9]?)-(0|[1-9][0-9]?)", re.ASCII)
_ENDS = {str(e): e for e in End}
_MISSING: Any = object()


class LongNumber:
    """A JSON integer of more than :data:`LONGEST_NUMBER` digits, kept unread.

    Python refuses to read very long integers (and computing with them is slow), and
    no record value is anywhere near this long: the reader reports it where it is.
    """

    __slots__ = ("digits",)

    def __init__(self, digits: int) -> None:
        self.digits = digits

    def __repr__(self) -> str:
        return f"a number {self.digits} digits long"


def read_json(text: str) -> Any:
    """A record's JSON text as :func:`load_record` takes it.

    Integers too long to be any record value are read as :class:`LongNumber`; ``NaN``
    and ``Infinity`` are not JSON (``ValueError``, as for any text that is not JSON);
    an object that names a key twice is a :class:`RecordError`: the reader never guesses
    which one counts.
    """
    return json.loads(
        text, parse_int=_parse_int, parse_constant=_not_json, object_pairs_hook=_object
    )


def _parse_int(digits: str) -> int | LongNumber:
    length = len(digits.lstrip("-"))
    return LongNumber(length) if length > LONGEST_NUMBER else int(digits)


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise RecordError(f"an object names {brief(key)} twice: which one counts?")
        obj[key] = value
    return obj


class _At(NamedTuple):
    """Where the reader is: the deal and the move (from 1), or ``None``."""

    deal: int | None = None
    move: int | None = None

    def fault(self, message: str) -> RecordError:
        return RecordError(message, self.deal, self.move)


def _value(doc: dict[str, Any], key: str, at: _At) -> Any:
    """``doc[key]``, or ``_MISSING`` when the key is left out. A ``null`` is a fault."""
    value = doc.get(key, _MISSING)
    if value is None:
        raise at.fault(f"{key} is null; a record leaves a key out rather than writing null")
    return value


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def load_record(doc: Any) -> MatchState:
    """Replay a record into a match state. Raises :class:`RecordError` on any fault.

    The reader is strict (RECORD.md): it accepts the forms the format describes and
    nothing else, and reports each fault where it is (the record, a deal or a move).
    """
    top = _At()
    if not isinstance(doc, dict):
        raise top.fault("a record is a JSON object")
    form = _value(doc, "format", top)
    if form is not _MISSING and form != FORMAT:
        raise top.fault(f"unknown format {brief(form)}; expected {FORMAT!r}")
    deals = _value(doc, "deals", top)
    if not isinstance(deals, list) or not deals:
        raise top.fault("a record needs a list of deals, with at least one deal")
    rules = _read_rules(_value(doc, "rules", top), deals[0])
    seats = _value(doc, "seats", top)
    if seats is not _MISSING and (
        not isinstance(seats, list)
        or len(seats) != rules.players
        or not all(isinstance(s, str) for s in seats)
    ):
        raise top.fault(f"seats must be a list of {rules.players} names")

    state: MatchState | None = None
    for number, deal_doc in enumerate(deals, 1):
        at = _At(number)
        if state is not None:
            if not state.deal.over:
                raise RecordError(
                    "this deal stops before it ends; only the last deal may", number - 1
                )
            if state.over:
                raise at.fault("the match was already over before this deal")
        if not isinstance(deal_doc, dict):
            raise at.fault("a deal is a JSON object")
        state = _read_deal(rules, state, deal_doc, at)
    assert state is not None
    return state


def _read_rules(data: Any, first_deal: Any) -> Rules:
    top = _At()
    if not isinstance(data, dict):
        raise top.fault("rules must be a JSON object naming at least the game")
    for key in RULE_KEYS:
        value = data.get(key)
        if value is None and key in data:
            raise top.fault(f"rules: {key} is null; leave it out to take the default")
        if isinstance(value, LongNumber):
            raise top.fault(f"rules: {key} is {brief(value)}, far out of range")
    data = dict(data)
    if "players" not in data and isinstance(first_deal, dict):
        hands = first_deal.get("hands")
        if isinstance(hands, list):
            data["players"] = len(hands)
    try:
        return Rules.from_dict(data)
    except RulesError as e:
        raise top.fault(f"rules: {e.message}") from None


def _read_deal(rules: Rules, state: MatchState | None, doc: dict[str, Any], at: _At) -> MatchState:
    hands, stock = _read_tiles(rules, doc, at)
    leader = _read_leader(rules, state, doc, hands, at)
    moves = _value(doc, "moves", at)
    if moves is _MISSING:
        raise at.fault("a deal needs its moves: a list, empty before the lead")
    if not isinstance(moves, list):
        raise at.fault("moves must be a list")
    time_up = _value(doc, "time_up", at)
    if time_up is not _MISSING:
        if not isinstance(time_up, bool):
            raise at.fault("time_up must be true or false")
        if time_up and rules.time_limit is None:
            raise at.fault("time_up is only for latvian sessions with a time limit")
    try:
        if state is None:
            state = start_match(rules, hands, stock, leader)
        else:
            state = add_deal(state, hands, stock, leader)
    except VoidDealError:
        raise at.fault(
            "no double was dealt: a void latvian deal must not appear in a record"
        ) from None
    for index, move_doc in enumerate(moves, 1):
        where = _At(at.deal, index)
        seat, named = _read_move(state.deal, move_doc, where)
        try:
            state = play(state, resolve_move(state.deal, named, seat), seat)
        except DominoError as e:
            raise where.fault(str(e)) from None
    if time_up is True:
        state = call_time(state)
    return state


def _read_tiles(rules: Rules, doc: dict[str, Any], at: _At) -> tuple[list[list[Tile]], list[Tile]]:
    hands_doc = _value(doc, "hands", at)
    if not isinstance(hands_doc, list) or not all(isinstance(h, list) for h in hands_doc):
        raise at.fault("hands must be a list of lists of tiles")
    if len(hands_doc) != rules.players:
        raise at.fault(f"the deal has {len(hands_doc)} hands for {rules.players} players")
    stock_doc = _value(doc, "stock", at)
    if stock_doc is _MISSING:
        raise at.fault("a deal needs its stock: a list of the tiles not dealt")
    if not isinstance(stock_doc, list):
        raise at.fault("stock must be a list of tiles")
    in_set = set(full_set(rules.set))
    engine: Tile | None = None
    if rules.game == "mexican":
        assert at.deal is not None
        number = engine_of(rules, at.deal)
        engine = tile(number, number)
        in_set.discard(engine)
    seen: set[Tile] = set()

    def read(text: Any, where: str) -> Tile:
        parsed = _tile(text)
        if parsed is None:
            raise at.fault(f"{where} holds {brief(text)}, which is not a tile")
        t = parsed[0]
        if t == engine:
            raise at.fault(f"{where} holds {t}, this round's engine (it lies in the station)")
        if t not in in_set:
            raise at.fault(f"{where} holds {t}, which is not in double-{rules.set}")
        if t in seen:
            raise at.fault(f"{t} is dealt twice")
        seen.add(t)
        return t

    hands = []
    for seat, hand_doc in enumerate(hands_doc):
        hand = [read(x, f"the hand of seat {seat}") for x in hand_doc]
        if len(hand) != rules.hand:
            raise at.fault(
                f"the hand of seat {seat} has {len(hand)} tiles; every hand has {rules.hand}"
            )
        hands.append(hand)
    stock = [read(x, "the stock") for x in stock_doc]
    missing = sorted(in_set - seen)
    if missing:
        shown = ", ".join(str(t) for t in missing[:5]) + (" …" if len(missing) > 5 else "")
        raise at.fault(f"the hands and stock miss {shown}")
    return hands, stock


def _tile(text: Any) -> tuple[Tile, int] | None:
    """A tile written exactly ``a-b`` (ASCII digits, no spaces) and its first half."""
    match = _TILE.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        return None
    a, b = int(match[1]), int(match[2])
    if a > MAX_PIPS or b > MAX_PIPS:
        return None
    return tile(a, b), a


def _read_leader(
    rules: Rules,
    state: MatchState | None,
    doc: dict[str, Any],
    hands: list[list[Tile]],
    at: _At,
) -> int | None:
    written = _value(doc, "leader", at)
    leader: int | None = None
    if written is not _MISSING:
        if not _is_int(written) or not 0 <= written < rules.players:
            raise at.fault(
                f"leader must be a seat from 0 to {rules.players - 1}, not {brief(written)}"
            )
        leader = written
    if rules.game == "mexican":
        assert at.deal is not None
        first = first_seat(rules, at.deal)
        if leader is not None and leader != first:
            raise at.fault(f"seat {first} moves first in round {at.deal}, not seat {leader}")
        return first
    try:
        fixed = fixed_lead(rules, [mask_of(h) for h in hands])
    except VoidDealError:
        return leader  # reported when the deal starts
    if fixed is not None:
        seat, lead = fixed
        if leader is not None and leader != seat:
            raise at.fault(f"seat {seat} leads this deal (holding {lead}), not {leader}")
        return leader
    chosen = next_leader(rules, state.deal.result if state is not None else None)
    if chosen is not None:
        if leader is not None and leader != chosen:
            raise at.fault(
                f"seat {chosen} leads this deal (it won the last one), not seat {leader}"
            )
        return chosen
    if leader is None:
        raise at.fault("the rules draw this deal's leader: the deal must name its leader")
    return leader


def _read_move(deal: Deal, doc: Any, at: _At) -> tuple[int, list[Placement]]:
    """The seat and the placements a written move names (checked by the resolver)."""
    if not isinstance(doc, dict):
        raise at.fault("a move is a JSON object")
    if deal.over:
        raise at.fault(DealOverError().message)
    seat = _value(doc, "seat", at)
    if seat is _MISSING:
        raise at.fault("a move names its seat")
    if not _is_int(seat) or not 0 <= seat < deal.n:
        raise at.fault(f"seat must be a seat from 0 to {deal.n - 1}, not {brief(seat)}")
    if "tiles" not in doc:
        return seat, [_read_entry(doc, at, deal.rules.game == "mexican", deal.n)]
    if "tile" in doc:
        raise at.fault("a move has a tile or a list of tiles, never both")
    if not deal.latvian:
        several = isinstance(doc["tiles"], list) and len(doc["tiles"]) > 1
        raise at.fault(
            "only latvian lays several tiles in one move (the tiles form)"
            if several
            else "the tiles form is only for latvian moves"
        )
    for key in ("end", "closed"):
        if key in doc:
            raise at.fault(f"{key} goes in each entry of tiles, not beside the list")
    entries = _value(doc, "tiles", at)
    if not isinstance(entries, list) or not entries:
        raise at.fault("tiles must be a list of at least one {tile, end}")
    return seat, [_read_entry(e, at) for e in entries]


def _read_entry(doc: Any, at: _At, trains: bool = False, players: int = 0) -> Placement:
    """One tile of a move: ``tile``, and ``end`` and ``closed`` when written (``train``
    instead for Mexican Train, whose table has ``players`` seats' trains)."""
    if not isinstance(doc, dict):
        raise at.fault("each tile of a move is a JSON object with a tile")
    if trains:
        return _read_train_move(doc, at, players)
    if "train" in doc:
        raise at.fault("train is only for Mexican Train moves")
    t, first = _read_tile(doc, at, "6-4")
    end = None
    end_text = _value(doc, "end", at)
    if end_text is not _MISSING:
        end = _ENDS.get(end_text) if isinstance(end_text, str) else None
        if end is None:
            raise at.fault(f"{brief(end_text)} is not an end; ends are west, east, north and south")
    closed = _value(doc, "closed", at)
    if closed is _MISSING:
        closed = False
    elif not isinstance(closed, bool):
        raise at.fault("closed must be true or false")
    return Placement(t, end, closed, first)


def _read_tile(doc: dict[str, Any], at: _At, example: str) -> tuple[Tile, int]:
    """A move's ``tile`` and its first half (``example``: a tile of the game, for the fault)."""
    text = _value(doc, "tile", at)
    if text is _MISSING:
        raise at.fault("a move needs a tile, written a-b")
    parsed = _tile(text)
    if parsed is None:
        raise at.fault(f"{brief(text)} is not a tile; tiles are written a-b, like {example}")
    return parsed


def _read_train_move(doc: dict[str, Any], at: _At, players: int) -> Placement:
    """A Mexican Train move: ``tile`` and, unless only one train can take it, ``train``."""
    for key in ("end", "closed"):
        if key in doc:
            raise at.fault(f"Mexican Train moves name a train, not {key}")
    t, first = _read_tile(doc, at, "12-5")
    written = _value(doc, "train", at)
    train: int | None = None
    if written is not _MISSING:
        if written == "mexican" and isinstance(written, str):
            train = MEXICAN
        elif _is_int(written) and 0 <= written < players:
            train = written
        else:
            raise at.fault(
                f'train must be a seat from 0 to {players - 1} or "mexican", not {brief(written)}'
            )
    return Placement(t, None, False, first, train)


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
        "end": result.end.value,
        "winners": list(result.winners),
        "pips": list(result.pips),
        "score": list(result.score),
        "values": list(result.values) if result.values is not None else None,
    }


def _num(x: float) -> float | int:
    return int(x) if float(x).is_integer() else x
