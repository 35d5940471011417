"""What just happened, in words for the public table (never a hidden tile)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import Drew, MatchState, Passed, Played
from bot.engine.events import Event
from bot.games.moves_text import describe, end_name
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
AFTER_MOVES = ("cancelled", "abandoned", "everyone_left")
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
        if start == 0 and number > 1:
            lines.append(tr("Deal {number} begins.", number=number))
        lines += _events(deal.history[start:], tr, names)
        if deal.result is not None and (before is None or start < len(deal.history)):
            lines.append(_deal_end(after, number, tr, names))
    if after.over:
        lines.append(_match_end(after, tr, names))
    return lines


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
    result = state.deals[number - 1].result
    assert result is not None
    who = " & ".join(names[s] for s in result.winners)
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
    return ""
