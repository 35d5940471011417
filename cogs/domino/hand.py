"""A player's hand as an ephemeral message: the image and one control per legal move."""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.engine import Move
from bot.engine.view import HandView
from bot.games.moves_text import describe
from bot.games.service import turn_token
from bot.games.session import Session
from bot.i18n import Translator
from render.hand import hand_keys, render_hand

from .items import MoveButton, MoveSelect, TableButton, sent_view
from .markup import plain

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
    # A hand is a small image (a fraction of a millisecond): cheaper here than a thread hop.
    png = render_hand(seen.hand, playable, keys=keys, top=session.rules.set)
    view = sent_view()
    token = turn_token(session)
    labels = [_label(m, keys, tr) for m in legal]
    if len(legal) <= MAX_BUTTONS:
        for index, label in enumerate(labels):
            view.add_item(MoveButton(session.id, token, index, label))
    else:
        for page in range(min(MAX_SELECTS, -(-len(legal) // OPTIONS_PER_SELECT))):
            chunk = range(
                page * OPTIONS_PER_SELECT, min(len(legal), (page + 1) * OPTIONS_PER_SELECT)
            )
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


def _label(move: Move, keys: dict[Any, str], tr: Translator) -> str:
    key = keys.get(move.tile)
    text = describe(move, tr)
    return f"{key}: {text}" if key and len(move.placements) == 1 else text


def _caption(session: Session, seen: HandView, tr: Translator) -> str:
    if not session.active:
        state = session.state
        if state is not None and state.over:
            if not state.winners:
                return tr("The match is over: a draw.")
            names = " & ".join(plain(session.seats[s].name) for s in state.winners)
            return tr("The match is over: {name} wins!", name=names)
        return tr("This game is over.")
    if seen.legal_moves:
        if seen.forced is not None:
            return tr("You drew {tile}: lay it.", tile=seen.forced)
        return tr("Your turn: choose a move.")
    turn = session.turn_seat
    if turn is None:
        return tr("Your hand.")
    return tr("Your hand. It is {name}'s turn.", name=plain(turn.name))
