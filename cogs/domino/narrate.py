"""What just happened, in words for the public table (never a hidden tile)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import Deal, Drew, MatchState, Passed, Played
from bot.engine.events import Event
from bot.engine.mexican import TrainDeal
from bot.engine.scoring import DealEnd
from bot.engine.trains import MEXICAN
from bot.games.moves_text import describe, end_name, on_train_text
from bot.games.service import Note, Update
from bot.i18n import Translator

from .markup import plain

BEFORE_MOVES = (
    "rematch",
    "started",
    "joined",
    "bot_added",
    "left",
    "left_lobby",
    "timeout",
    "replaced_by_ai",
)
AFTER_MOVES = ("cancelled", "abandoned", "everyone_left", "no_humans", "lapsed")
# "recovered" (a restart announces a change that was never shown) adds no line: nothing
# happened in the game.


def narrate(update: Update, tr: Translator, names: Sequence[str]) -> list[str]:
    """Lines for the table message: the notes and every move since ``update.before``.

    ``names`` are escaped for message text (:func:`cogs.domino.table.text_names`).
    """
    lines = [_note(n, tr, names) for n in update.notes if n.kind in BEFORE_MOVES]
    before = update.before.state if update.before else None
    after = update.after.state
    if after is not None:
        lines += _moves_since(before, after, tr, names)
    lines += [_note(n, tr, names) for n in update.notes if n.kind in AFTER_MOVES]
    return [line for line in lines if line]


def _moves_since(
    before: MatchState | None, after: MatchState, tr: Translator, names: Sequence[str]
) -> list[str]:
    lines: list[str] = []
    first = before.deal_number if before else 1
    for number in range(first, after.deal_number + 1):
        deal = after.deals[number - 1]
        start = 0
        if before is not None and number == before.deal_number:
            start = len(before.deal.history)
        if isinstance(deal, TrainDeal):
            if start == 0:
                lines.append(
                    tr(
                        "Round {number} begins: the engine is {tile}.",
                        number=number,
                        tile=deal.engine,
                    )
                )
            lines += _train_events(deal, start, tr, names)
        else:
            if start == 0 and number > 1:
                lines.append(tr("Deal {number} begins.", number=number))
            lines += _events(deal.history[start:], tr, names)
        if deal.result is not None and (before is None or start < len(deal.history)):
            lines.append(_deal_end(after, number, tr, names))
    if after.over:
        lines.append(_match_end(after, tr, names))
    return lines


def _train_events(deal: TrainDeal, start: int, tr: Translator, names: Sequence[str]) -> list[str]:
    """Mexican Train's moves from ``deal.history[start:]`` in words: the train each tile
    went on, doubles to satisfy and satisfied, markers put out and taken back. The
    history before ``start`` is read (not told) to know the trains and markers."""
    lines: list[str] = []
    last_double: dict[int, bool] = {}
    """Whether each train's last tile is a double (one not satisfied yet)."""
    markers = [False] * deal.n
    ends = [deal.station.engine] * (deal.n + 1)
    drew: Drew | None = None
    for index, event in enumerate(deal.history):
        told = index >= start
        if type(event) is Drew:
            drew = event
            continue
        seat = event.seat
        name = names[seat]
        drawn = drew is not None and drew.seat == seat
        drew = None
        if type(event) is Passed:
            already = markers[seat]
            markers[seat] = True
            if not told:
                continue
            if already and drawn:
                lines.append(
                    tr("{name} drew a tile and passes: their marker stays out.", name=name)
                )
            elif already:
                lines.append(tr("{name} passes: their marker stays out.", name=name))
            elif drawn:
                lines.append(tr("{name} drew a tile and put out a marker.", name=name))
            else:
                lines.append(tr("{name} can't lay and put out a marker.", name=name))
            continue
        if type(event) is not Played:
            continue
        p = event.move.placements[0]
        train = p.train if p.train is not None else MEXICAN
        satisfies = last_double.get(train, False)
        written = on_train_text(p.tile, train, ends)
        if p.tile.has(ends[train]):
            ends[train] = p.tile.other(ends[train])
        double = p.tile.is_double
        last_double[train] = double
        marker_back = train == seat and markers[seat]
        if train == seat:
            markers[seat] = False
        if not told:
            continue
        move = _on_train(written, train, seat, tr, names)
        lines.append(_laid(name, move, tr, drawn=drawn, double=double, satisfies=satisfies))
        if marker_back:
            lines.append(tr("{name} took their marker back.", name=name))
    return lines


def _on_train(tile: str, train: int, seat: int, tr: Translator, names: Sequence[str]) -> str:
    if train == MEXICAN:
        return tr("{tile} on the Mexican train", tile=tile)
    if train == seat:
        return tr("{tile} on their own train", tile=tile)
    return tr("{tile} on {name}'s train", tile=tile, name=names[train])


def _laid(
    name: str, move: str, tr: Translator, *, drawn: bool, double: bool, satisfies: bool
) -> str:
    if satisfies and drawn:
        return tr("{name} drew a tile and satisfied the double: {move}.", name=name, move=move)
    if satisfies:
        return tr("{name} satisfied the double: {move}.", name=name, move=move)
    if double and drawn:
        return tr(
            "{name} drew a tile and laid {move}: the double must be satisfied.",
            name=name,
            move=move,
        )
    if double:
        return tr("{name} laid {move}: the double must be satisfied.", name=name, move=move)
    if drawn:
        return tr("{name} drew a tile and laid {move}.", name=name, move=move)
    return tr("{name} laid {move}.", name=name, move=move)


def _events(events: Sequence[Event], tr: Translator, names: Sequence[str]) -> list[str]:
    lines = []
    drew: Drew | None = None
    for event in events:
        if type(event) is Drew:
            drew = event
            continue
        name = names[event.seat]
        if type(event) is Played:
            move = _public_move(event, tr)
            if drew is not None and drew.seat == event.seat:
                lines.append(
                    tr.plural(
                        "{name} drew {n} tile and played {move}",
                        "{name} drew {n} tiles and played {move}",
                        len(drew.tiles),
                        name=name,
                        move=move,
                    )
                )
            else:
                lines.append(tr("{name} played {move}", name=name, move=move))
            if event.points:
                lines[-1] += " " + tr("(+{points})", points=event.points)
        elif type(event) is Passed:
            if drew is not None and drew.seat == event.seat:
                lines.append(
                    tr.plural(
                        "{name} drew {n} tile and passes",
                        "{name} drew {n} tiles and passes",
                        len(drew.tiles),
                        name=name,
                    )
                )
            else:
                lines.append(tr("{name} passes", name=name))
        drew = None
    return lines


def _public_move(event: Played, tr: Translator) -> str:
    """The move as everybody may see it: a face-down tile is not named."""
    parts = []
    for p in event.move.placements:
        if p.closed and p.end is not None:
            parts.append(tr("a tile face down on {end}", end=end_name(p.end, tr)))
        else:
            parts.append(describe(type(event.move)((p,)), tr))
    return " + ".join(parts)


def _deal_end(state: MatchState, number: int, tr: Translator, names: Sequence[str]) -> str:
    deal: Deal = state.deals[number - 1]
    result = deal.result
    assert result is not None
    who = " & ".join(names[s] for s in result.winners)
    if isinstance(deal, TrainDeal):
        if result.end == DealEnd.DOMINO:
            return tr("Domino! {name} went out and wins round {number}.", name=who, number=number)
        if not result.winners:
            return tr("Round {number} is blocked: nobody wins it.", number=number)
        return tr(
            "Round {number} is blocked: {name} has the fewest pips and wins it.",
            number=number,
            name=who,
        )
    if result.end == "domino":
        return tr("Domino! {name} went out and wins deal {number}.", name=who, number=number)
    if result.end == "target":
        return tr("{name} reached the target.", name=who)
    if not result.winners:
        return tr("Deal {number} is blocked: a drawn deal.", number=number)
    if result.end == "dead":
        return tr("Deal {number} is dead: {name} wins it.", number=number, name=who)
    return tr("Deal {number} is blocked: {name} wins it.", number=number, name=who)


def _match_end(state: MatchState, tr: Translator, names: Sequence[str]) -> str:
    if not state.winners:
        return tr("The match is over: a draw.")
    who = " & ".join(names[s] for s in state.winners)
    if state.rules.mexican:
        return tr("The match is over: {name} wins with the lowest total!", name=who)
    return tr("The match is over: {name} wins!", name=who)


def _note(note: Note, tr: Translator, names: Sequence[str]) -> str:
    name = plain(str(note.fields.get("name", "")))
    if not name and note.seat is not None and note.seat < len(names):
        name = names[note.seat]
    kind = note.kind
    if kind == "rematch":
        return tr("Rematch: the same players, the same rules.")
    if kind == "started":
        return tr("The match begins!")
    if kind == "joined":
        return tr("{name} sits down.", name=name)
    if kind == "bot_added":
        return tr("{name}, an AI player, sits down.", name=name)
    if kind == "left":
        return tr("{name} left; an AI player takes the seat.", name=name)
    if kind == "left_lobby":
        return tr("{name} left the table.", name=name)
    if kind == "timeout":
        return tr("{name} ran out of time: the AI played for them.", name=name)
    if kind == "replaced_by_ai":
        return tr("{name} missed 3 turns in a row; an AI player takes the seat.", name=name)
    if kind == "cancelled":
        return tr("The game was ended.")
    if kind == "abandoned":
        return tr("Nobody played for 24 hours, so the game was abandoned.")
    if kind == "everyone_left":
        return tr("Everyone left, so the game is over.")
    if kind == "no_humans":
        return tr("No human player is left at the table, so the game is over.")
    if kind == "lapsed":
        return tr(
            "Nobody started the game within {minutes} minutes, so the table was closed.",
            minutes=note.fields.get("minutes", 30),
        )
    return ""
