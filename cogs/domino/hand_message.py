"""A player's hand as an ephemeral message: the image and one control per legal move."""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.engine import MatchState, Move, Played
from bot.engine.mexican import TrainDeal
from bot.engine.trains import MEXICAN, NO_DOUBLE
from bot.engine.view import HandView
from bot.games.errors import train_word
from bot.games.moves_text import describe
from bot.games.service import turn_token
from bot.games.session import Session
from bot.i18n import Translator
from render.hand import hand_keys, render_hand, train_tops

from .items import MoveButton, MoveSelect, TableButton, sent_view
from .markup import plain
from .results import deal_end_line, match_end_line

MAX_BUTTONS = 20
OPTIONS_PER_SELECT = 25
MAX_SELECTS = 4


def offered_moves(session: Session, seen: HandView) -> list[Move]:
    """The moves a hand message offers: the seat's legal moves while the game is on."""
    return list(seen.legal_moves) if session.playing else []


async def hand_message(session: Session, seen: HandView, tr: Translator) -> dict[str, Any]:
    """The kwargs of the ephemeral hand message for ``seen.seat``."""
    legal = offered_moves(session, seen)
    playable = {t for m in legal for t in m.tiles}
    keys = hand_keys(seen.hand, playable)
    names, seat = session.names, seen.seat
    deal = session.state.deal if session.state is not None else None
    ends = deal.station.ends if isinstance(deal, TrainDeal) else []
    labels = [_label(m, keys, tr, names, seat, ends) for m in legal]
    order = _in_hand_order(legal, seen.hand, seat)
    # each tile stands as its first button writes it (Mexican Train: the half that meets
    # the train first)
    tops = train_tops([legal[i] for i in order], ends) if ends else None
    # A hand is a small image (a fraction of a millisecond): cheaper here than a thread hop.
    png = render_hand(seen.hand, playable, keys=keys, top=session.rules.set, tops=tops)
    view = sent_view()
    token = turn_token(session)
    if len(legal) <= MAX_BUTTONS:
        for index in order:
            view.add_item(MoveButton(session.id, token, index, labels[index]))
    else:
        for page in range(min(MAX_SELECTS, -(-len(legal) // OPTIONS_PER_SELECT))):
            chunk = order[page * OPTIONS_PER_SELECT : (page + 1) * OPTIONS_PER_SELECT]
            options = [discord.SelectOption(label=labels[i][:100], value=str(i)) for i in chunk]
            view.add_item(
                MoveSelect(session.id, token, page, options, placeholder=tr("Choose a move"))
            )
    if session.active:
        view.add_item(TableButton(session.id, "hand", tr("Refresh"), discord.ButtonStyle.secondary))
    return {
        "content": _caption(session, seen, tr),
        "attachments": [discord.File(io.BytesIO(png), filename="hand.png")],
        "view": view,
    }


def _in_hand_order(legal: list[Move], hand: tuple[Any, ...], seat: int) -> list[int]:
    """The indexes of ``legal`` as the hand shows them: by the tile's key (its place in the
    hand image); a Mexican Train tile's trains in turn: the player's own, the marked ones
    in seat order, the Mexican train last. Other games keep the engine's order."""
    if not any(m.train is not None for m in legal):
        return list(range(len(legal)))
    place = {t: i for i, t in enumerate(hand)}

    def key(i: int) -> tuple[int, int, int]:
        move = legal[i]
        train = move.train if move.train is not None else MEXICAN
        rank = 0 if train == seat else 2 if train == MEXICAN else 1
        return place.get(move.tile, len(place)), rank, train

    return sorted(range(len(legal)), key=key)


def _label(
    move: Move,
    keys: dict[Any, str],
    tr: Translator,
    names: list[str],
    seat: int,
    ends: list[int],
) -> str:
    key = keys.get(move.tile)
    text = describe(move, tr, names, seat, ends)
    return f"{key}: {text}" if key and len(move.placements) == 1 else text


def _caption(session: Session, seen: HandView, tr: Translator) -> str:
    """What the hand message says: the result once the game is over; else whose turn it
    is (on the owner's turn, what to do), and how the deal before ended while the owner
    has not played in the new one yet."""
    names = [plain(n) for n in session.names]
    state = session.state
    if not session.active:
        if state is not None and state.over:
            last = _last_deal_line(state, tr, names, len(state.deals))
            return "\n".join(x for x in (last, match_end_line(state, tr, names)) if x)
        return tr("This game is over.")
    trains = _trains_line(session, seen.seat, tr)
    before = _deal_before_line(session, seen.seat, tr, names)
    if seen.legal_moves:
        waiting = _waiting_double(session, seen.seat, tr)
        if seen.forced is not None and trains:
            text = tr("You drew {tile} and must lay it now.", tile=seen.forced)
        elif seen.forced is not None:
            text = tr("You drew {tile}: lay it.", tile=seen.forced)
            return "\n".join(x for x in (before, text) if x)
        else:
            text = tr("Your turn: choose a move.")
        return "\n".join(x for x in (before, text, waiting, trains) if x)
    turn = session.turn_seat
    if turn is None:
        return "\n".join(x for x in (before, tr("Your hand.")) if x)
    text = tr("Your hand. It is {name}'s turn.", name=plain(turn.name))
    return "\n".join(x for x in (before, text, trains) if x)


def _last_deal_line(state: MatchState, tr: Translator, names: list[str], number: int) -> str:
    deal = state.deals[number - 1] if 0 < number <= len(state.deals) else None
    if deal is None or deal.result is None:
        return ""
    return deal_end_line(state, number, tr, names)


def _deal_before_line(session: Session, seat: int, tr: Translator, names: list[str]) -> str:
    """How the previous deal ended, while the owner has not played in the new one."""
    state = session.state
    if state is None or state.deal_number < 2:
        return ""
    if any(type(e) is Played and e.seat == seat for e in state.deal.history):
        return ""
    return _last_deal_line(state, tr, names, state.deal_number - 1)


def _waiting_double(session: Session, seat: int, tr: Translator) -> str:
    """Mexican Train: the double that must be satisfied now, if one waits."""
    deal = session.state.deal if session.state is not None else None
    if not isinstance(deal, TrainDeal) or deal.station.unsatisfied == NO_DOUBLE:
        return ""
    train = deal.station.unsatisfied
    word = train_word(train, [plain(n) for n in session.names], seat)
    return tr(
        "A double waits: {number}-{number} on {train} must be satisfied first.",
        number=deal.station.ends[train],
        train=word.text(tr),
    )


def _trains_line(session: Session, seat: int, tr: Translator) -> str:
    """Mexican Train: the end number of every train, as this player reads it (public)."""
    deal = session.state.deal if session.state is not None else None
    if not isinstance(deal, TrainDeal):
        return ""
    station = deal.station
    names = [plain(n) for n in session.names]
    parts = []
    for train in (seat, *(t for t in range(station.players) if t != seat), MEXICAN):
        word = train_word(train, names, seat).label(tr)
        if train != MEXICAN and station.markers[train]:
            parts.append(tr("{train} {number} (marker)", train=word, number=station.ends[train]))
        else:
            parts.append(tr("{train} {number}", train=word, number=station.ends[train]))
    return tr("Trains: {trains}", trains=" · ".join(parts))
