"""What happened at the table, in words for its feed (never a hidden tile).

The feed (:func:`feed`) tells, in order, everything since the last turn of the seat to
move (:func:`bot.games.feed.feed_start`): each seat's tile and end, the points a move
scored with the side's new total, passes, draws, a deal's end and the next deal's start,
and what the service did meanwhile (a seat handed to the AI, a timeout: the
:class:`~bot.games.service.Note` s, each kept at the position where it happened).
Moves are read from the public history in the game's snapshot
(:class:`~bot.games.snapshot.Snapshot`; a restart tells them again); notes live as long
as the process.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.engine import Move
from bot.engine.trains import MEXICAN
from bot.engine.view import SeenDraw, SeenPass, SeenPlay
from bot.games.feed import FIRST, LOBBY, Position
from bot.games.moves_text import describe, end_name, on_train_text
from bot.games.service import Note, Update
from bot.games.snapshot import DealStory, MatchSnapshot, Snapshot
from bot.i18n import N_, Translator

from .markup import plain
from .results import deal_end_line, match_end_line

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
FEED_CHARS = 1000
"""At most this much text in the feed (an embed field holds 1,024 characters)."""
FEED_LINES = 12
NOTES_KEPT = 30
"""Notes kept per game (a feed tells at most :data:`FEED_LINES` lines)."""

NOTE_LINES = {
    "rematch": N_("Rematch: the same players, the same rules."),
    "started": N_("The match begins!"),
    "joined": N_("{name} sits down."),
    "bot_added": N_("{name}, an AI player, sits down."),
    "left": N_("{name} left; an AI player takes the seat."),
    "left_lobby": N_("{name} left the table."),
    "timeout": N_("{name} ran out of time: the AI played for them."),
    "replaced_by_ai": N_("{name} missed 3 turns in a row; an AI player takes the seat."),
    "cancelled": N_("The game was ended."),
    "abandoned": N_("Nobody played for 24 hours, so the game was abandoned."),
    "everyone_left": N_("Everyone left, so the game is over."),
    "no_humans": N_("No human player is left at the table, so the game is over."),
    "time_up": N_("Time is up: this deal is the session's last."),
    "lapsed": N_("Nobody started the game within {minutes} minutes, so the table was closed."),
}
"""Each note's line in the feed (``{name}``: the note's seat or name)."""

Key = tuple[int, int, int]
"""Where a line goes in the feed: (deal, history index, order at that index)."""
_BEGINS, _NOTE, _EVENT, _ENDS, _AFTER = range(5)
_MATCH_END: Key = (1 << 30, 0, 0)


@dataclass(frozen=True, slots=True)
class Noted:
    """A note and where in the match it happened."""

    at: Position
    note: Note
    after: bool
    """Told after the moves at its position (a game's end), not before them."""


def noted(update: Update) -> list[Noted]:
    """``update``'s notes, each at its place: notes about what led to the moves at the
    position before the change, notes about how it ended after it."""
    before, after = update.span()
    if before == LOBBY and after != LOBBY:
        before = FIRST  # the match began (or a rematch): told before its first move
    return [
        Noted(after, n, True) if n.kind in AFTER_MOVES else Noted(before, n, False)
        for n in update.notes
        if n.kind in BEFORE_MOVES or n.kind in AFTER_MOVES
    ]


@dataclass(frozen=True, slots=True)
class Feed:
    """The feed's lines, and whose last turn they start from (None: the start)."""

    lines: list[str]
    since: int | None


def feed(game: Snapshot, notes: Sequence[Noted], tr: Translator, names: Sequence[str]) -> Feed:
    """Every event since the last turn of the seat to move, with the notes among them
    (the last :data:`FEED_LINES` lines that fit :data:`FEED_CHARS`; a first line says
    how many earlier ones were left out). A lobby tells its latest notes.

    ``names`` are escaped for message text (:func:`cogs.domino.table.text_names`).
    """
    match = game.match
    since: int | None = None
    start = LOBBY
    keyed: list[tuple[Key, str]] = []
    if match is not None:
        since, start = match.feed_seat, match.feed_start
        keyed += _moves_since(match, tr, names)
    # a note about the turn the feed starts after (it timed out, the AI took the seat)
    # is still told: it is news to the player whose turn that was
    own = (start[0], start[1] - 1)
    for n in notes:
        about_own_turn = since is not None and n.note.seat == since and n.at >= own
        if n.at < start and not about_own_turn:
            continue
        line = _note(n.note, tr, names)
        if line:
            keyed.append(((*n.at, _AFTER if n.after else _NOTE), line))
    keyed.sort(key=lambda pair: pair[0])  # stable: the order told within one key
    return Feed(_fit([line for _, line in keyed], tr), since)


def _fit(lines: list[str], tr: Translator) -> list[str]:
    kept: list[str] = []
    size = 0
    for line in reversed(lines):
        if len(kept) == FEED_LINES - 1 or size + len(line) + 1 > FEED_CHARS - 40:
            break
        kept.append(line)
        size += len(line) + 1
    left = len(lines) - len(kept)
    if left == 1 and size + len(lines[0]) + 1 <= FEED_CHARS:
        kept.append(lines[0])
    elif left:
        kept.append(tr.plural("… {n} earlier line", "… {n} earlier lines", left))
    return kept[::-1]


def _moves_since(
    match: MatchSnapshot, tr: Translator, names: Sequence[str]
) -> list[tuple[Key, str]]:
    lines: list[tuple[Key, str]] = []
    first, skip = match.feed_start if match.feed_start != LOBBY else FIRST
    players = match.rules.players
    for deal in match.stories:
        number = deal.number
        begin = skip if number == first else 0
        if deal.engine is not None:
            if begin == 0:
                line = tr(
                    "Round {number} begins: the engine is {tile}.", number=number, tile=deal.engine
                )
                lines.append(((number, 0, _BEGINS), line))
            lines += _train_events(deal, players, begin, tr, names)
        else:
            if begin == 0 and number > 1:
                lines.append(((number, 0, _BEGINS), tr("Deal {number} begins.", number=number)))
            totals = list(match.score.totals_after(number - 1))
            lines += _events(deal, begin, totals, match, tr, names)
        if deal.result is not None:
            end = deal_end_line(match.score, number, tr, names)
            lines.append(((number, len(deal.events), _ENDS), end))
    if match.over:
        lines.append((_MATCH_END, match_end_line(match.score, tr, names)))
    return lines


def _train_events(
    deal: DealStory, players: int, start: int, tr: Translator, names: Sequence[str]
) -> list[tuple[Key, str]]:
    """Mexican Train's moves from ``deal.events[start:]`` in words: the train each tile
    went on, doubles to satisfy and satisfied, markers put out and taken back. The
    history before ``start`` is read (not told) to know the trains and markers."""
    assert deal.engine is not None
    lines: list[tuple[Key, str]] = []
    last_double: dict[int, bool] = {}
    """Whether each train's last tile is a double (one not satisfied yet)."""
    markers = [False] * players
    ends = [deal.engine.high] * (players + 1)
    drew: SeenDraw | None = None
    for index, event in enumerate(deal.events):
        told = index >= start
        key: Key = (deal.number, index, _EVENT)
        if type(event) is SeenDraw:
            drew = event
            continue
        seat = event.seat
        name = names[seat]
        drawn = drew is not None and drew.seat == seat
        drew = None
        if type(event) is SeenPass:
            already = markers[seat]
            markers[seat] = True
            if told:
                lines.append((key, tr(MARKER_OUT[already, drawn], name=name)))
            continue
        if type(event) is not SeenPlay:
            continue
        p = event.placements[0].placement()  # Mexican Train lays every tile face up
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
        laid = "satisfies" if satisfies else "double" if double else ""
        lines.append((key, tr(LAID[laid, drawn], name=name, move=move)))
        if marker_back:
            lines.append((key, tr("{name} took their marker back.", name=name)))
    return lines


MARKER_OUT = {  # (their marker was out already, they drew a tile first)
    (True, True): N_("{name} drew a tile and passes: their marker stays out."),
    (True, False): N_("{name} passes: their marker stays out."),
    (False, True): N_("{name} drew a tile and put out a marker."),
    (False, False): N_("{name} can't lay and put out a marker."),
}


def _on_train(tile: str, train: int, seat: int, tr: Translator, names: Sequence[str]) -> str:
    if train == MEXICAN:
        return tr("{tile} on the Mexican train", tile=tile)
    if train == seat:
        return tr("{tile} on their own train", tile=tile)
    return tr("{tile} on {name}'s train", tile=tile, name=names[train])


LAID = {  # (what the tile did to a double, they drew a tile first)
    ("satisfies", True): N_("{name} drew a tile and satisfied the double: {move}."),
    ("satisfies", False): N_("{name} satisfied the double: {move}."),
    ("double", True): N_("{name} drew a tile and laid {move}: the double must be satisfied."),
    ("double", False): N_("{name} laid {move}: the double must be satisfied."),
    ("", True): N_("{name} drew a tile and laid {move}."),
    ("", False): N_("{name} laid {move}."),
}


def _events(
    deal: DealStory,
    start: int,
    totals: list[float],
    match: MatchSnapshot,
    tr: Translator,
    names: Sequence[str],
) -> list[tuple[Key, str]]:
    """The moves of ``deal.events[start:]``; ``totals`` (per side, before the deal) run on
    with the points moves score, so a scoring move says its side's new total."""
    lines: list[tuple[Key, str]] = []
    drew: SeenDraw | None = None
    side_of = match.rules.side_of
    for index, event in enumerate(deal.events):
        if type(event) is SeenDraw:
            drew = event
            continue
        drawn = drew.count if drew is not None and drew.seat == event.seat else 0
        drew = None
        if type(event) is SeenPlay and event.points:
            totals[side_of(event.seat)] += event.points
        if index < start:
            continue
        name = names[event.seat]
        key: Key = (deal.number, index, _EVENT)
        if type(event) is SeenPlay:
            line = _played(name, _public_move(event, tr), drawn, tr)
            if event.points:
                total = tr.number(totals[side_of(event.seat)])
                line += " " + tr("(+{points} → {total})", points=event.points, total=total)
            lines.append((key, line))
        elif type(event) is SeenPass:
            lines.append((key, _passed(name, drawn, tr)))
    return lines


def _played(name: str, move: str, drawn: int, tr: Translator) -> str:
    if not drawn:
        return tr("{name} played {move}", name=name, move=move)
    return tr.plural(
        "{name} drew {n} tile and played {move}",
        "{name} drew {n} tiles and played {move}",
        drawn,
        name=name,
        move=move,
    )


def _passed(name: str, drawn: int, tr: Translator) -> str:
    if not drawn:
        return tr("{name} passes", name=name)
    return tr.plural(
        "{name} drew {n} tile and passes", "{name} drew {n} tiles and passes", drawn, name=name
    )


def _public_move(event: SeenPlay, tr: Translator) -> str:
    """The move as everybody may see it: a face-down tile is not named."""
    parts = []
    for p in event.placements:
        if p.closed and p.end is not None:
            parts.append(tr("a tile face down on {end}", end=end_name(p.end, tr)))
        else:
            parts.append(describe(Move((p.placement(),)), tr))
    return " + ".join(parts)


def _note(note: Note, tr: Translator, names: Sequence[str]) -> str:
    name = plain(str(note.fields.get("name", "")))
    if not name and note.seat is not None and note.seat < len(names):
        name = names[note.seat]
    if note.kind == "no_humans" and note.fields.get("left") and name:
        return tr(
            "{name} left, and no human player is left at the table, so the game is over.",
            name=name,
        )
    line = NOTE_LINES.get(note.kind)
    return tr(line, name=name, minutes=note.fields.get("minutes", 30)) if line else ""
