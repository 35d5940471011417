"""Moves as players type and read them: `6-4 east`, `3-3 north 5-5 east`, `4-2 north closed`,
and in Mexican Train `12-5 mexican`, `12-5 mine`, `12-5 @Bob` (the train a tile goes on)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache

from bot.engine import Deal, End, IllegalMoveError, Move, MoveFault, Placement, Tile, resolve_move
from bot.engine.tiles import MAX_PIPS
from bot.engine.trains import MEXICAN, TrainName
from bot.i18n import LANGUAGES, N_, Translator

from .errors import GameError, end_name, train_word

__all__ = [
    "MAX_MOVE_TEXT",
    "REFUSALS",
    "Wanted",
    "describe",
    "end_name",
    "excerpt",
    "move_key",
    "move_refusal",
    "on_train_text",
    "parse_wanted",
    "resolve",
    "train_key",
    "train_words",
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
    train: int | None = None
    """Mexican Train: the train named (a seat, or ``MEXICAN``), if one was."""

    @property
    def typed(self) -> str:
        """The tile as the player wrote it (``4-2``, where the tile is ``2-4``)."""
        if not self.tile.has(self.west):
            return str(self.tile)
        return f"{self.west}-{self.tile.other(self.west)}"


MEXICAN_WORDS = frozenset({"mexican", "mex", "mexico"})
OWN_WORDS = frozenset({"mine", "own", "my", "me", "myself"})
FILLER_WORDS = frozenset({"on", "the", "to", "train", "'s", "s"})
"""Words a typed train may carry around its name: "on Bob's train" is Bob's."""
_SEAT_NUMBER = re.compile(r"^#(\d{1,2})$")


def _squeezed(text: str) -> str:
    """A name or a typed train as compared: case and spaces ignored, no leading @."""
    return re.sub(r"\s+", "", text.casefold()).lstrip("@")


@cache
def _train_vocabulary() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """The words for the Mexican train, one's own train and "train" in every language."""
    mexican, own, filler = set(MEXICAN_WORDS), set(OWN_WORDS), set(FILLER_WORDS)
    for language in LANGUAGES:
        tr = Translator(language)
        mexican.add(tr(N_("mexican")).casefold())
        own |= {tr(N_("mine")).casefold(), tr(N_("own")).casefold()}
        filler.add(tr(N_("train")).casefold())
    return frozenset(mexican), frozenset(own), frozenset(filler)


@dataclass(frozen=True, slots=True)
class TrainWords:
    """How one player at a Mexican Train table names trains when typing: ``mexican``,
    ``mine``/``own``, a player's name (``bob``, ``@Bob``) or a seat number (``#2``)."""

    seat: int
    names: tuple[str, ...]
    _by_name: dict[str, tuple[int, ...]] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        by_name: dict[str, list[int]] = {}
        for i, name in enumerate(self.names):
            by_name.setdefault(_squeezed(name), []).append(i)
        self._by_name.update({k: tuple(v) for k, v in by_name.items()})

    def find(self, words: Sequence[str]) -> int:
        """The train ``words`` name (already lower case), or the refusal that says why not."""
        mexican, own, filler = _train_vocabulary()
        kept = [w for w in words if w not in filler]
        typed = " ".join(words)
        if not kept:
            raise GameError(N_("Say which train: mexican, mine, or a player's name."))
        phrase = _squeezed("".join(kept))
        if phrase.endswith(("'s", "’s")):
            phrase = phrase[:-2]
        if phrase in mexican:
            return MEXICAN
        if phrase in own:
            return self.seat
        number = _SEAT_NUMBER.match(phrase)
        if number and 1 <= int(number[1]) <= len(self.names):
            return int(number[1]) - 1
        seats = self._by_name.get(phrase, ())
        if len(seats) == 1:
            return seats[0]
        if len(seats) > 1:
            raise GameError(
                N_("Several players are called {text}: name the train by seat number, like #2."),
                text=excerpt(typed),
            )
        ends, _ = typed_words()
        if phrase in ends:
            raise GameError(REFUSALS[MoveFault.ENDS_NOT_MEXICAN])
        raise GameError(
            N_("There is no train called {text}: say mexican, mine, or a player's name."),
            text=excerpt(typed),
        )


def train_words(seat: int, names: Sequence[str]) -> TrainWords:
    """How the player at ``seat`` may name the trains of a table with these seat ``names``."""
    return TrainWords(seat, tuple(names))


def train_key(train: int, seat: int | None) -> str:
    """A train as typed text that :class:`TrainWords` reads back: ``mexican``, ``mine``
    or ``#2`` (what an autocomplete choice fills in)."""
    if train == MEXICAN:
        return "mexican"
    if train == seat:
        return "mine"
    return f"#{train + 1}"


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


def describe(
    move: Move,
    tr: Translator,
    names: Sequence[str] = (),
    seat: int | None = None,
    ends: Sequence[int] = (),
) -> str:
    """A move in words, for buttons and announcements: ``6-4 → east``, and in Mexican
    Train ``12-5 → your train`` as the player at ``seat`` reads it (owners named by
    ``names``; with the trains' ``ends``, the half that meets the train written first)."""
    parts = []
    for p in move.placements:
        if p.train is not None:
            train = train_word(p.train, names, seat).label(tr)
            tile = on_train_text(p.tile, p.train, ends)
            parts.append(tr("{tile} → {train}", tile=tile, train=train))
        elif p.end is None:
            parts.append(str(p))
        elif p.closed:
            parts.append(tr("{tile} → {end}, face down", tile=p.tile, end=end_name(p.end, tr)))
        else:
            parts.append(tr("{tile} → {end}", tile=p.tile, end=end_name(p.end, tr)))
    return " + ".join(parts)


def on_train_text(tile: Tile, train: int, ends: Sequence[int] = ()) -> str:
    """A tile going on a train, the half that meets the train's end first (``12-5`` on a
    train ending in 12); as the tile is written without the ``ends``."""
    if ends and -len(ends) <= train < len(ends) and tile.has(ends[train]):
        end = ends[train]
        return f"{end}-{tile.other(end)}"
    return str(tile)


def move_key(move: Move, seat: int | None = None, ends: Sequence[int] = ()) -> str:
    """A move as typed text (the value an autocomplete choice fills in); a Mexican Train
    move names its train as the player at ``seat`` types it."""
    parts = []
    for p in move.placements:
        if p.train is not None:
            parts.append(f"{on_train_text(p.tile, p.train, ends)} {train_key(p.train, seat)}")
        elif p.end is None:
            parts.append(str(p))
        else:
            parts.append(f"{p.tile} {p.end}" + (" closed" if p.closed else ""))
    return " ".join(parts)


def parse_wanted(
    text: str,
    end_text: str | None = None,
    closed: bool | None = None,
    *,
    trains: TrainWords | None = None,
    train_text: str | None = None,
) -> list[Wanted]:
    """Read ``tile`` (and the optional ``end`` and ``closed`` options) into wanted placements.

    ``trains``: the table plays Mexican Train, and this is how the player names trains;
    the words after the tile or ``train_text`` (the train option) name its train.
    An option that says the same as the tile's own words is let be (an autocomplete
    choice like ``0-2 west`` with the end option ``west``); one that disagrees is refused
    naming both, never silently overruled.
    """
    if any(len(typed or "") > MAX_MOVE_TEXT for typed in (text, end_text, train_text)):
        raise GameError(N_("That is too long for a move: write a tile like 6-4, then an end."))
    if trains is None and train_text:
        raise GameError(REFUSALS[MoveFault.TRAINS_ONLY_MEXICAN])
    if trains is not None:
        return _parse_on_train(text, end_text, closed, trains, train_text)
    tokens = _words(text)
    end_words, closed_words = typed_words()
    wanted: list[Wanted] = []
    for token in tokens:
        tile = _tile_of(token)
        if tile is not None:
            if any(w.tile == tile for w in wanted):
                raise GameError(N_("You named {tile} twice."), tile=tile)
            wanted.append(Wanted(tile, None, closed, _west(token)))
        elif token in end_words and wanted and wanted[-1].end is None:
            wanted[-1] = replace(wanted[-1], end=end_words[token])
        elif token in end_words and wanted:
            last = wanted[-1]
            raise GameError(
                N_("You gave {tile} two ends, {first} and {second}: give one."),
                tile=last.typed,
                first=last.end,
                second=end_words[token],
            )
        elif token in closed_words and wanted:
            last = wanted[-1]
            if closed is False:
                raise GameError(CLOSED_TWICE, tile=last.typed)
            wanted[-1] = replace(last, closed=True)
        else:
            raise GameError(
                N_("I can't read {text}: write a tile like 6-4, then an end like east."),
                text=excerpt(token),
            )
    if not wanted:
        raise GameError(N_("Say which tile to play, like 6-4."))
    if end_text:
        wanted = _with_end_option(wanted, _words(end_text), end_words)
    return wanted


CLOSED_TWICE = N_(
    "The tile option lays {tile} face down, but the closed option is off: leave one of them out."
)


def _words(text: str) -> list[str]:
    return [t for t in re.split(r"[\s,;+]+", text.strip().lower()) if t]


def _with_end_option(
    wanted: list[Wanted], words: list[str], end_words: dict[str, End]
) -> list[Wanted]:
    """The ``end`` option's ends given to the tiles: to the tiles typed without an end, in
    order; or one for each tile, agreeing with any end typed with a tile (an
    autocomplete's ``0-2 west`` with the end option ``west``)."""
    for word in words:
        if word not in end_words:
            raise GameError(
                N_("{text} is not an end: say west, east, north or south."),
                text=excerpt(word),
            )
    ends = [end_words[w] for w in words]
    free = [i for i, w in enumerate(wanted) if w.end is None]
    if len(ends) <= len(free):
        places = free[: len(ends)]
    elif len(ends) == len(wanted):
        places = list(range(len(wanted)))
        for w, end in zip(wanted, ends, strict=True):
            if w.end is not None and w.end != end:
                raise GameError(
                    N_(
                        "You gave {tile} two ends: {first} with the tile and {second} in the "
                        "end option. Give one end (or the same one twice)."
                    ),
                    tile=w.typed,
                    first=w.end,
                    second=end,
                )
    else:
        raise GameError(N_("There are more ends than tiles: give one end for each tile."))
    out = list(wanted)
    for i, end in zip(places, ends, strict=True):
        out[i] = replace(out[i], end=end)
    return out


def _west(token: str) -> int:
    """The half of a typed tile (a token :func:`_tile_of` read) written first: 12 of 12-5."""
    match = _TILE.match(token)
    assert match is not None
    return int(match[1])


def _tile_of(token: str) -> Tile | None:
    """The tile ``token`` writes (``6-4``), ``None`` if it writes none; a refusal if it
    looks like a tile that no set has."""
    match = _TILE.match(token)
    if not match:
        return None
    a, b = int(match[1]), int(match[2])
    if max(a, b) > MAX_PIPS:
        raise GameError(
            N_("There is no {tile} in any domino set: the biggest is double-{top}."),
            tile=f"{a}-{b}",
            top=MAX_PIPS,
        )
    return Tile.parse(f"{a}-{b}")


def _parse_on_train(
    text: str,
    end_text: str | None,
    closed: bool | None,
    trains: TrainWords,
    train_text: str | None,
) -> list[Wanted]:
    """Mexican Train: one tile, then the words that name its train (``12-5 mexican``)."""
    if end_text:
        raise GameError(
            N_(
                "Mexican Train lays tiles on trains, not on ends: leave the end option out "
                "and say the train."
            )
        )
    if closed:
        raise GameError(REFUSALS[MoveFault.CLOSED_NOT_LATVIAN])
    tokens = _words(text)
    if not tokens:
        raise GameError(N_("Say which tile to play, like 6-4."))
    first = tokens[0].lstrip("@")
    tile = _tile_of(tokens[0])
    if tile is None:
        raise GameError(
            N_("I can't read {text}: write a tile like 12-5, then a train like mexican."),
            text=excerpt(first),
        )
    rest = tokens[1:]
    if any(_TILE.match(t) for t in rest):
        raise GameError(REFUSALS[MoveFault.ONE_AT_A_TIME])
    train = trains.find(rest) if rest else None
    option = _words(train_text or "")
    if option:
        chosen = trains.find(option)
        if train is not None and chosen != train:
            raise GameError(
                N_(
                    "You named two trains: {first} with the tile and {second} in the train "
                    "option. Name one (or the same one twice)."
                ),
                first=train_word(train, trains.names, trains.seat),
                second=train_word(chosen, trains.names, trains.seat),
            )
        train = chosen
    return [Wanted(tile, None, None, _west(tokens[0]), train)]


def resolve(deal: Deal, seat: int, wanted: Sequence[Wanted], names: Sequence[str] = ()) -> Move:
    """The legal move the player meant, or a :class:`GameError` saying why there is none.

    The engine's :func:`~bot.engine.resolve_move` decides; typing is friendlier than a
    record in one way: an end or "closed" typed with the first tile is let go (the
    lead goes in the middle, face up). ``names``: the seats' names, for a refusal that
    names a Mexican Train train ("Bob's train").
    """
    top = deal.rules.set
    for w in wanted:
        if w.tile.high > top:
            raise GameError(N_("There is no {tile} in a double-{top} set."), tile=w.typed, top=top)
    if deal.rules.game == "mexican":
        named = [Placement(w.tile, None, False, w.west, w.train) for w in wanted]
    elif deal.layout.lead is None:
        named = [Placement(w.tile, None, False, w.west) for w in wanted]
    else:
        named = [Placement(w.tile, w.end, bool(w.closed), w.west) for w in wanted]
    try:
        return resolve_move(deal, named, seat)
    except IllegalMoveError as e:  # (only Mexican Train's refusals name trains)
        raise move_refusal(e, names, seat) from None


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
    MoveFault.TRAIN_NOT_OPEN: N_(
        "That train is not open to you: {train} has no marker. Lay on your own train, "
        "the Mexican train, or a train with a marker."
    ),
    MoveFault.MUST_SATISFY: N_(
        "A double waits: {number}-{number} on {train} must be satisfied first, "
        "with a tile that shows {number}."
    ),
    MoveFault.TRAIN_DOES_NOT_FIT: N_("{written} doesn't fit that train: {train} ends in {number}."),
    MoveFault.FITS_NO_TRAIN: N_("{tile} doesn't fit any train open to you."),
    MoveFault.TRAIN_AMBIGUOUS: N_("{tile} fits more than one train ({trains}): say which."),
}
"""What the bot says for each fault the engine finds in a move (fields as the engine's)."""


def move_refusal(
    error: IllegalMoveError, names: Sequence[str] = (), seat: int | None = None
) -> GameError:
    """The engine's refusal of a move, as the bot says it to a player (a Mexican Train
    train as the player at ``seat`` reads it, owners named by ``names``)."""
    fields = {k: _train_field(v, names, seat) for k, v in error.fields.items()}
    return GameError(REFUSALS[error.fault], **fields)


def _train_field(value: object, names: Sequence[str], seat: int | None) -> object:
    if isinstance(value, TrainName):
        return train_word(int(value), names, seat)
    if isinstance(value, tuple) and value and all(isinstance(v, TrainName) for v in value):
        return tuple(train_word(int(v), names, seat) for v in value)
    return value
