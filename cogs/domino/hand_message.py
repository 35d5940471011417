"""A player's hand as an ephemeral message: the image and one control per legal move.

Drawn from the owner's own :class:`~bot.engine.view.HandView` and the game's public
snapshot (whose turn, the trains, how the last deal ended), nothing else."""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.engine import Move
from bot.engine.trains import MEXICAN
from bot.engine.view import HandView, SeenPlay
from bot.games.errors import train_word
from bot.games.moves_text import describe
from bot.games.snapshot import MatchSnapshot, Snapshot
from bot.i18n import Translator
from render.hand import hand_keys, render_hand, train_tops

from .items import MoveButton, MoveSelect, TableButton, sent_view
from .markup import plain
from .results import deal_end_line, match_end_line

MAX_BUTTONS = 20
OPTIONS_PER_SELECT = 25
MAX_SELECTS = 4


def offered_moves(game: Snapshot, seen: HandView) -> list[Move]:
    """The moves a hand message offers: the seat's legal moves while the game is on."""
    return list(seen.legal_moves) if game.playing else []


async def hand_message(game: Snapshot, seen: HandView, tr: Translator) -> dict[str, Any]:
    """The kwargs of the ephemeral hand message for ``seen.seat``."""
    legal = offered_moves(game, seen)
    playable = {t for m in legal for t in m.tiles}
    keys = hand_keys(seen.hand, playable)
    names, seat = game.names, seen.seat
    ends = game.train_ends
    labels = [_label(m, keys, tr, names, seat, ends) for m in legal]
    order = _in_hand_order(legal, seen.hand, seat)
    # each tile stands as its first button writes it (Mexican Train: the half that meets
    # the train first)
    tops = train_tops([legal[i] for i in order], ends) if ends else None
    # A hand is a small image (a fraction of a millisecond): cheaper here than a thread hop.
    png = render_hand(seen.hand, playable, keys=keys, top=game.rules.set, tops=tops)
    view = sent_view()
    token = game.turn_token
    if len(legal) <= MAX_BUTTONS:
        for index in order:
            view.add_item(MoveButton(game.id, token, index, labels[index]))
    else:
        for page in range(min(MAX_SELECTS, -(-len(legal) // OPTIONS_PER_SELECT))):
            chunk = order[page * OPTIONS_PER_SELECT : (page + 1) * OPTIONS_PER_SELECT]
            options = [discord.SelectOption(label=labels[i][:100], value=str(i)) for i in chunk]
            view.add_item(
                MoveSelect(game.id, token, page, options, placeholder=tr("Choose a move"))
            )
    if game.active:
        view.add_item(TableButton(game.id, "hand", tr("Refresh"), discord.ButtonStyle.secondary))
    return {
        "content": _caption(game, seen, tr),
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
    ends: tuple[int, ...],
) -> str:
    key = keys.get(move.tile)
    text = describe(move, tr, names, seat, ends)
    return f"{key}: {text}" if key and len(move.placements) == 1 else text


def _caption(game: Snapshot, seen: HandView, tr: Translator) -> str:
    """What the hand message says: the result once the game is over; else whose turn it
    is (on the owner's turn, what to do), and how the deal before ended while the owner
    has not played in the new one yet."""
    names = [plain(n) for n in game.names]
    match = game.match
    if not game.active:
        if match is not None and match.over:
            last = _last_deal_line(match, tr, names, match.deal_number)
            return "\n".join(x for x in (last, match_end_line(match.score, tr, names)) if x)
        return tr("This game is over.")
    trains = _trains_line(game, seen.seat, tr)
    before = _deal_before_line(game, seen.seat, tr, names)
    if seen.legal_moves:
        waiting = _waiting_double(game, seen.seat, tr)
        if seen.forced is not None and trains:
            text = tr("You drew {tile} and must lay it now.", tile=seen.forced)
        elif seen.forced is not None:
            text = tr("You drew {tile}: lay it.", tile=seen.forced)
            return "\n".join(x for x in (before, text) if x)
        else:
            text = tr("Your turn: choose a move.")
        return "\n".join(x for x in (before, text, waiting, trains) if x)
    turn = game.turn_seat
    if turn is None:
        return "\n".join(x for x in (before, tr("Your hand.")) if x)
    text = tr("Your hand. It is {name}'s turn.", name=plain(turn.name))
    return "\n".join(x for x in (before, text, trains) if x)


def _last_deal_line(match: MatchSnapshot, tr: Translator, names: list[str], number: int) -> str:
    if not 0 < number <= match.finished:
        return ""
    return deal_end_line(match.score, number, tr, names)


def _deal_before_line(game: Snapshot, seat: int, tr: Translator, names: list[str]) -> str:
    """How the previous deal ended, while the owner has not played in the new one."""
    match = game.match
    if match is None or match.deal_number < 2:
        return ""
    if any(type(e) is SeenPlay and e.seat == seat for e in match.board.history):
        return ""
    return _last_deal_line(match, tr, names, match.deal_number - 1)


def _waiting_double(game: Snapshot, seat: int, tr: Translator) -> str:
    """Mexican Train: the double that must be satisfied now, if one waits."""
    station = game.match.board.station if game.match is not None else None
    if station is None or station.unsatisfied is None:
        return ""
    train = station.unsatisfied
    word = train_word(train, [plain(n) for n in game.names], seat)
    return tr(
        "A double waits: {number}-{number} on {train} must be satisfied first.",
        number=station.train(train).end,
        train=word.text(tr),
    )


def _trains_line(game: Snapshot, seat: int, tr: Translator) -> str:
    """Mexican Train: the end number of every train, as this player reads it (public)."""
    station = game.match.board.station if game.match is not None else None
    if station is None:
        return ""
    names = [plain(n) for n in game.names]
    parts = []
    for train in (seat, *(t for t in range(station.players) if t != seat), MEXICAN):
        word = train_word(train, names, seat).label(tr)
        number = station.train(train).end
        if station.train(train).marker:
            parts.append(tr("{train} {number} (marker)", train=word, number=number))
        else:
            parts.append(tr("{train} {number}", train=word, number=number))
    return tr("Trains: {trains}", trains=" · ".join(parts))
