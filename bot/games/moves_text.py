"""Moves as players type and read them: `6-4 east`, `3-3 north 5-5 east`, `4-2 north closed`."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from bot.engine import Deal, End, IllegalMoveError, Move, MoveFault, Placement, Tile, resolve_move
from bot.i18n import LANGUAGES, N_, Translator

from .errors import GameError, end_name

__all__ = [
    "MAX_MOVE_TEXT",
    "REFUSALS",
    "Wanted",
    "describe",
    "end_name",
    "excerpt",
    "move_key",
    "move_refusal",
    "parse_wanted",
    "resolve",
]

END_WORDS: dict[str, End] = {str(e): e for e in End}
CLOSED_WORDS = frozenset({"closed", "close", "down", "facedown", "face-down"})
_TILE = re.compile(r"^(\d{1,2})[-/|:](\d{1,2})$")
MAX_MOVE_TEXT = 100
"""The longest move text read (the longest real one, four latvian doubles with
their ends and "closed", is about 60 characters)."""
EXCERPT = 12
"""At most this many characters of a player's text are echoed in a refusal."""


def excerpt(text: str) -> str:
    """A short, harmless piece of what a player typed, to quote back to them."""
    shown = re.sub(r"[^\w\-/|:.]", "", text)[:EXCERPT]
    return shown + "…" if len(text) > EXCERPT or shown != text[:EXCERPT] else shown


@dataclass(frozen=True, slots=True)
class Wanted:
    tile: Tile
    end: End | None
    closed: bool | None
    west: int


@cache
def typed_words() -> tuple[dict[str, End], frozenset[str]]:
    """The end names and "closed" words a player may type: English and every translation."""
    ends = dict(END_WORDS)
    closed = set(CLOSED_WORDS)
    for language in LANGUAGES:
        tr = Translator(language)
        ends.update({end_name(e, tr).lower(): e for e in End})
        closed.add(tr(N_("closed")).lower())
    return ends, frozenset(closed)


def describe(move: Move, tr: Translator) -> str:
    """A move in words, for buttons and announcements: ``6-4 → east``."""
    parts = []
    for p in move.placements:
        if p.end is None:
            parts.append(str(p))
        elif p.closed:
            parts.append(tr("{tile} → {end}, face down", tile=p.tile, end=end_name(p.end, tr)))
        else:
            parts.append(tr("{tile} → {end}", tile=p.tile, end=end_name(p.end, tr)))
    return " + ".join(parts)


def move_key(move: Move) -> str:
    """A move as typed text (the value an autocomplete choice fills in)."""
    parts = []
    for p in move.placements:
        if p.end is None:
            parts.append(str(p))
        else:
            parts.append(f"{p.tile} {p.end}" + (" closed" if p.closed else ""))
    return " ".join(parts)


def parse_wanted(
    text: str, end_text: str | None = None, closed: bool | None = None
) -> list[Wanted]:
    """Read ``tile`` (and the optional ``end`` and ``closed`` options) into wanted placements."""
    if len(text) > MAX_MOVE_TEXT or len(end_text or "") > MAX_MOVE_TEXT:
        raise GameError(N_("That is too long for a move: write a tile like 6-4, then an end."))
    tokens = [t for t in re.split(r"[\s,;+]+", text.strip().lower()) if t]
    end_words, closed_words = typed_words()
    wanted: list[Wanted] = []
    for token in tokens:
        match = _TILE.match(token)
        if match:
            a, b = int(match[1]), int(match[2])
            try:
                tile = Tile.parse(f"{a}-{b}")
            except ValueError:
                raise GameError(
                    N_("{text} is not a tile: write it like 6-4."), text=excerpt(token)
                ) from None
            if any(w.tile == tile for w in wanted):
                raise GameError(N_("You named {tile} twice."), tile=tile)
            wanted.append(Wanted(tile, None, closed, a))
        elif token in end_words and wanted and wanted[-1].end is None:
            last = wanted[-1]
            wanted[-1] = Wanted(last.tile, end_words[token], last.closed, last.west)
        elif token in closed_words and wanted:
            last = wanted[-1]
            wanted[-1] = Wanted(last.tile, last.end, True, last.west)
        else:
            raise GameError(
                N_("I can't read {text}: write a tile like 6-4, then an end like east."),
                text=excerpt(token),
            )
    if not wanted:
        raise GameError(N_("Say which tile to play, like 6-4."))
    if end_text:
        ends = [t for t in re.split(r"[\s,;+]+", end_text.strip().lower()) if t]
        free = [i for i, w in enumerate(wanted) if w.end is None]
        if len(ends) > len(free) or any(e not in end_words for e in ends):
            raise GameError(
                N_("The end must be west, east, north or south, one for each tile."),
            )
        for i, word in zip(free, ends, strict=False):
            w = wanted[i]
            wanted[i] = Wanted(w.tile, end_words[word], w.closed, w.west)
    return wanted


def resolve(deal: Deal, seat: int, wanted: Sequence[Wanted]) -> Move:
    """The legal move the player meant, or a :class:`GameError` saying why there is none.

    The engine's :func:`~bot.engine.resolve_move` decides; typing is friendlier than a
    record in one way: an end or "closed" typed with the first tile is let go (the
    lead goes in the middle, face up).
    """
    leading = deal.layout.lead is None
    named = [
        Placement(w.tile, None, False, w.west)
        if leading
        else Placement(w.tile, w.end, bool(w.closed), w.west)
        for w in wanted
    ]
    try:
        return resolve_move(deal, named, seat)
    except IllegalMoveError as e:
        raise move_refusal(e) from None


NOT_ALLOWED = N_("That move isn't allowed here.")
NOT_OPEN = N_("The {end} end is not open.")
REFUSALS: dict[MoveFault, str] = {
    MoveFault.DEAL_OVER: NOT_ALLOWED,
    MoveFault.NOT_YOUR_TURN: NOT_ALLOWED,  # the service refuses a move out of turn first
    MoveFault.NO_TILE: N_("Say which tile to play, like 6-4."),
    MoveFault.TILE_TWICE: N_("You named {tile} twice."),
    MoveFault.NOT_HELD: N_("You don't have {tile}."),
    MoveFault.LEAD_ALONE: N_("The first tile is laid on its own."),
    MoveFault.LEAD_WITH_END: NOT_ALLOWED,  # not raised: resolve() lets the end go
    MoveFault.LEAD_CLOSED: NOT_ALLOWED,  # likewise
    MoveFault.LEAD_HALF: N_("That tile can't lead."),
    MoveFault.MUST_LEAD: N_("You must lead {tile}."),
    MoveFault.MUST_LAY_DRAWN: N_("You drew {tile}, so you must lay it."),
    MoveFault.END_MISSING: NOT_ALLOWED,  # only Deal.play asks for every end
    MoveFault.ONE_AT_A_TIME: N_("Only one tile at a time in this game."),
    MoveFault.ONLY_DOUBLES: N_("Only doubles can be laid together."),
    MoveFault.CLOSED_NOT_LATVIAN: N_("Only the latvian game lays tiles face down."),
    MoveFault.NO_SUCH_END: NOT_OPEN,
    MoveFault.END_NOT_OPEN_YET: NOT_OPEN,
    MoveFault.END_NOT_OPEN: NOT_OPEN,
    MoveFault.END_CLOSED: N_("The {end} end is closed."),
    MoveFault.DOES_NOT_FIT: N_("{tile} doesn't fit {end}: it shows {number}."),
    MoveFault.FITS_NO_END: N_("{tile} doesn't fit any open end."),
    MoveFault.END_AMBIGUOUS: N_("{tile} fits more than one end ({ends}): say which."),
    MoveFault.NOT_LEGAL: NOT_ALLOWED,
    MoveFault.TRAINS_ONLY_MEXICAN: N_("Only Mexican Train lays tiles on trains."),
    MoveFault.ENDS_NOT_MEXICAN: N_("In Mexican Train, say which train the tile goes on."),
    MoveFault.NO_SUCH_TRAIN: N_("There is no such train at this table."),
    MoveFault.TRAIN_NOT_OPEN: N_("{train} is not open to you: it has no marker."),
    MoveFault.MUST_SATISFY: N_("The double {number}-{number} on {train} must be satisfied first."),
    MoveFault.TRAIN_DOES_NOT_FIT: N_("{tile} doesn't fit {train}: it ends in {number}."),
    MoveFault.FITS_NO_TRAIN: N_("{tile} doesn't fit any train open to you."),
    MoveFault.TRAIN_AMBIGUOUS: N_("{tile} fits more than one train ({trains}): say which."),
}
"""What the bot says for each fault the engine finds in a move (fields as the engine's)."""


def move_refusal(error: IllegalMoveError) -> GameError:
    """The engine's refusal of a move, as the bot says it to a player."""
    return GameError(REFUSALS[error.fault], **error.fields)
