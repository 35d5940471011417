"""Moves as players type and read them: `6-4 east`, `3-3 north 5-5 east`, `4-2 north closed`."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from bot.engine import Deal, End, Move, Tile
from bot.i18n import LANGUAGES, N_, Translator

from .errors import GameError

END_WORDS: dict[str, End] = {str(e): e for e in End}
CLOSED_WORDS = frozenset({"closed", "close", "down", "facedown", "face-down"})
END_NAMES = {
    End.WEST: N_("west"),
    End.EAST: N_("east"),
    End.NORTH: N_("north"),
    End.SOUTH: N_("south"),
}
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


def end_name(end: End, tr: Translator) -> str:
    return tr(END_NAMES[end])


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
    """The legal move the player meant, or a :class:`GameError` saying why there is none."""
    legal = deal.legal_moves()
    hand = set(deal.hand(seat))
    for w in wanted:
        if w.tile not in hand:
            raise GameError(N_("You don't have {tile}."), tile=w.tile)
    if deal.forced is not None and any(w.tile != deal.forced for w in wanted):
        raise GameError(N_("You drew {tile}, so you must lay it."), tile=deal.forced)
    if legal and legal[0].is_lead:
        if len(wanted) != 1:
            raise GameError(N_("The first tile is laid on its own."))
        lead = Move.lead(wanted[0].tile, wanted[0].west)
        if lead.canonical() in legal:
            return lead
        return _refuse_lead(deal)
    candidates = [m for m in legal if _matches(m, wanted)]
    if len(candidates) == 1:
        return candidates[0]
    if candidates:
        ends = sorted({p.end for m in candidates for p in m.placements if p.end is not None})
        raise GameError(
            N_("{tile} fits more than one end ({ends}): say which."),
            tile=" ".join(str(w.tile) for w in wanted),
            ends=tuple(ends),
        )
    raise _why_not(deal, wanted)


def _matches(move: Move, wanted: Sequence[Wanted]) -> bool:
    if len(move.placements) != len(wanted):
        return False
    by_tile = {p.tile: p for p in move.placements}
    for w in wanted:
        p = by_tile.get(w.tile)
        if p is None:
            return False
        if w.end is not None and p.end != w.end:
            return False
        if p.closed != bool(w.closed):
            return False
    return True


def _refuse_lead(deal: Deal) -> Move:
    if deal.lead_tile is not None:
        raise GameError(N_("You must lead {tile}."), tile=deal.lead_tile)
    raise GameError(N_("That tile can't lead."))


def _why_not(deal: Deal, wanted: Sequence[Wanted]) -> GameError:
    layout = deal.layout
    if len(wanted) > 1:
        if not deal.latvian:
            return GameError(N_("Only one tile at a time in this game."))
        if not all(w.tile.is_double for w in wanted):
            return GameError(N_("Only doubles can be laid together."))
    if any(w.closed for w in wanted) and not deal.latvian:
        return GameError(N_("Only the latvian game lays tiles face down."))
    for w in wanted:
        if w.end is None:
            if not deal.end_name_fits(w.tile):
                return GameError(N_("{tile} doesn't fit any open end."), tile=w.tile)
            continue
        if not layout.is_open(w.end):
            if layout.closed[w.end]:
                return GameError(N_("The {end} end is closed."), end=w.end)
            return GameError(N_("The {end} end is not open."), end=w.end)
        if not w.tile.has(layout.values[w.end]):
            return GameError(
                N_("{tile} doesn't fit {end}: it shows {number}."),
                tile=w.tile,
                end=w.end,
                number=layout.values[w.end],
            )
    return GameError(N_("That move isn't allowed here."))
