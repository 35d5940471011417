"""A competition as a value: check-in, rounds of seated tables, results, standings.

Each change makes a new :class:`Competition` (the service saves it as JSON, like a
game). The referee opens it with its :class:`Format`; players check in; the referee
starts it, which seats round 1; each table is played as a normal game and its result
recorded; when every table of a round has one, the next round is seated (at random, or
by standing: :mod:`.seating`), until the last round, when the competition is over and
its standings final (:mod:`.standings`). Deterministic given its seed.

The referee may add **AI fill-in entrants** during check-in (:func:`add_ai`), so a club
short of players still fills its tables. An AI entrant's id is a small negative number
(``-1``, ``-2``, …: never a Discord user id) and it keeps its level; it is seated,
ranked and listed as any player. Every table gets at least one human where that can be
done (:func:`~.seating.spread_humans`), and the start is refused when it cannot (fewer
humans than tables). A later round that removals left with fewer people than tables
seats as many AI fill-ins as can sit with a person; the others sit that round out (in
turn), so no table is ever AI alone (docs/COMPETITIONS.md).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from bot.engine.ai import LEVELS
from bot.games.errors import GameError
from bot.i18n import N_

from .seating import Pair, SeatingError, pairs_of, seat, spread_humans, table_sizes
from .standings import Standing, TableResult, standings

Status = Literal["checkin", "playing", "finished", "cancelled"]
Seating = Literal["random", "standing"]
MAX_ROUNDS = 20
MAX_PLAYERS = 64
MAX_AI_AT_ONCE = 8
"""AI entrants the referee adds with one command."""


class CompetitionError(GameError):
    """Something the competition does not allow now (a translatable message): a refusal
    the cogs answer as any other."""


@dataclass(frozen=True, slots=True)
class Format:
    """What the referee chose: the game and how the competition runs."""

    options: dict[str, Any] = field(default_factory=lambda: {"game": "latvian"})
    """The game's options, as ``/domino new`` takes them (latvian by default)."""
    table_size: int | None = None
    """Players a table (2–4), or None: as even as possible at tables of up to 4."""
    rounds: int = 3
    seating: Seating = "random"
    """How rounds after the first are seated."""

    def __post_init__(self) -> None:
        if self.table_size is not None and not 2 <= self.table_size <= 4:
            raise CompetitionError(N_("A table seats 2 to 4 players."))
        if not 1 <= self.rounds <= MAX_ROUNDS:
            raise CompetitionError(N_("A competition has 1 to {most} rounds."), most=MAX_ROUNDS)
        if self.seating not in ("random", "standing"):
            raise CompetitionError(N_("Players are seated at random or by standing."))


@dataclass(frozen=True, slots=True)
class Entrant:
    user_id: int
    name: str
    active: bool = True
    """False once the referee removed them (they are seated no more)."""
    ai: str | None = None
    """An AI fill-in's level (its ``user_id`` is negative); None for a person."""

    @property
    def is_ai(self) -> bool:
        return self.ai is not None


@dataclass(frozen=True, slots=True)
class Table:
    number: int
    """From 1, within its round."""
    players: tuple[int, ...]
    """User ids in seat order."""
    game_id: int | None = None
    result: TableResult | None = None


@dataclass(frozen=True, slots=True)
class Round:
    number: int
    tables: tuple[Table, ...]
    ends_at: str | None = None
    """A timed round's end (ISO 8601, UTC): each table's deal in play then is its last."""

    @property
    def done(self) -> bool:
        return all(t.result is not None for t in self.tables)


@dataclass(frozen=True, slots=True)
class Competition:
    format: Format
    seed: int
    status: Status = "checkin"
    entrants: tuple[Entrant, ...] = ()
    rounds: tuple[Round, ...] = ()

    # -- reading ------------------------------------------------------------------

    @property
    def players(self) -> list[int]:
        """The user ids still in the competition, in check-in order."""
        return [e.user_id for e in self.entrants if e.active]

    @property
    def humans(self) -> list[int]:
        """The people still in the competition (its players but the AI fill-ins)."""
        return [e.user_id for e in self.entrants if e.active and not e.is_ai]

    def entrant(self, user_id: int) -> Entrant | None:
        return next((e for e in self.entrants if e.user_id == user_id), None)

    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def table_of(self, game_id: int) -> tuple[int, Table] | None:
        """The round number and table that plays ``game_id``."""
        for r in self.rounds:
            for t in r.tables:
                if t.game_id == game_id:
                    return r.number, t
        return None

    def met(self) -> set[Pair]:
        """Every pair of players who shared a table so far."""
        return pairs_of(t.players for r in self.rounds for t in r.tables)

    def standings(self) -> list[Standing]:
        results = [[t.result for t in r.tables if t.result is not None] for r in self.rounds]
        return standings(results, [e.user_id for e in self.entrants])


# -- changes ------------------------------------------------------------------------


def check_in(c: Competition, user_id: int, name: str) -> Competition:
    _check_in_open(c)
    known = c.entrant(user_id)
    if known is not None and known.active:
        raise CompetitionError(N_("You are already checked in."))
    if len(c.players) >= MAX_PLAYERS:
        raise CompetitionError(N_("The competition is full ({n} players)."), n=MAX_PLAYERS)
    others = tuple(e for e in c.entrants if e.user_id != user_id)
    return replace(c, entrants=(*others, Entrant(user_id, name)))


def add_ai(
    c: Competition, count: int, level: str, name: Callable[[int], str] | None = None
) -> Competition:
    """``count`` AI fill-in entrants of ``level`` checked in (the referee's choice).

    Each gets the next free negative id (``-1``, ``-2``, …) and the name ``name(number)``
    (the caller's translated "AI 1 (normal)"; by default that in English)."""
    _check_in_open(c)
    if not 1 <= count <= MAX_AI_AT_ONCE:
        raise CompetitionError(N_("Add 1 to {most} AI players at a time."), most=MAX_AI_AT_ONCE)
    if level not in LEVELS:
        raise CompetitionError(N_("The AI level is easy, normal or hard."))
    if len(c.players) + count > MAX_PLAYERS:
        raise CompetitionError(N_("The competition is full ({n} players)."), n=MAX_PLAYERS)
    lowest = min((e.user_id for e in c.entrants if e.is_ai), default=0)
    added = []
    for number in range(-lowest + 1, -lowest + 1 + count):
        shown = name(number) if name is not None else f"AI {number} ({level})"
        added.append(Entrant(-number, shown, ai=level))
    return replace(c, entrants=(*c.entrants, *added))


def check_out(c: Competition, user_id: int) -> Competition:
    _check_in_open(c)
    if c.entrant(user_id) is None:
        raise CompetitionError(N_("You are not checked in."))
    return replace(c, entrants=tuple(e for e in c.entrants if e.user_id != user_id))


def start(c: Competition) -> Competition:
    """Close check-in and seat round 1."""
    if c.status != "checkin":
        raise CompetitionError(N_("The competition has already begun."))
    try:
        tables = len(table_sizes(len(c.players), c.format.table_size))
    except SeatingError:
        raise CompetitionError(
            N_("{n} players cannot be seated at tables of 2 to 4."), n=len(c.players)
        ) from None
    if len(c.humans) < tables:
        raise CompetitionError(
            N_(
                "Every table needs at least one person: {humans} people cannot sit at "
                "{tables} tables. Add fewer AI players."
            ),
            humans=len(c.humans),
            tables=tables,
        )
    return _seat_round(replace(c, status="playing"))


def set_game(c: Competition, round_number: int, table: int, game_id: int) -> Competition:
    """The game that plays ``table`` of the current round."""
    return _with_table(c, round_number, table, lambda t: replace(t, game_id=game_id))


def record(c: Competition, round_number: int, table: int, result: TableResult) -> Competition:
    """A table's result; when it completes the round, the next is seated (or the
    competition ends after its last round)."""
    if c.status != "playing":
        raise CompetitionError(N_("The competition is not being played."))
    current = c.current
    assert current is not None
    if round_number != current.number:
        raise CompetitionError(N_("That round is over."))
    target = next((t for t in current.tables if t.number == table), None)
    if target is None:
        raise CompetitionError(N_("There is no such table."))
    if tuple(result.players) != target.players:
        raise CompetitionError(N_("A result must name the table's players."))
    if target.result is not None:
        return c  # told twice (a restart): the first result stands
    c = _with_table(c, round_number, table, lambda t: replace(t, result=result))
    return advance(c)


def advance(c: Competition) -> Competition:
    """After a round is complete: seat the next, or finish."""
    current = c.current
    if c.status != "playing" or current is None or not current.done:
        return c
    if current.number >= c.format.rounds:
        return replace(c, status="finished")
    return _seat_round(c)


def remove(c: Competition, user_id: int) -> Competition:
    """The referee removes a player: seated no more from the next round on (a game in
    play goes on with an AI in their seat, which counts as their result)."""
    known = c.entrant(user_id)
    if known is None or not known.active:
        raise CompetitionError(N_("That player is not in the competition."))
    if c.status == "checkin":
        return check_out(c, user_id)
    if len(c.players) <= 2:
        raise CompetitionError(N_("A competition needs at least 2 players."))
    if not known.is_ai and c.humans == [user_id]:
        raise CompetitionError(N_("A competition needs at least one person."))
    entrants = tuple(replace(e, active=False) if e.user_id == user_id else e for e in c.entrants)
    return replace(c, entrants=entrants)


def set_end(c: Competition, round_number: int, ends_at: str) -> Competition:
    """When a timed round ends (set once, as its tables are opened)."""
    rounds = tuple(
        replace(r, ends_at=r.ends_at or ends_at) if r.number == round_number else r
        for r in c.rounds
    )
    return replace(c, rounds=rounds)


def round_minutes(c: Competition) -> int | None:
    """A timed round's length in minutes (a latvian session's ``time_limit``), or None."""
    minutes = c.format.options.get("time_limit")
    return None if minutes is None else int(minutes)


def reinstate(c: Competition, user_id: int) -> Competition:
    """The referee takes back a removal: the player is seated again from the next round."""
    known = c.entrant(user_id)
    if known is None or c.status == "checkin":
        raise CompetitionError(N_("That player was not removed from the competition."))
    if known.active:
        raise CompetitionError(N_("That player is still in the competition."))
    if c.status != "playing":
        raise CompetitionError(N_("The competition is over."))
    entrants = tuple(replace(e, active=True) if e.user_id == user_id else e for e in c.entrants)
    return replace(c, entrants=entrants)


def cancel(c: Competition) -> Competition:
    if c.status in ("finished", "cancelled"):
        raise CompetitionError(N_("The competition is over."))
    return replace(c, status="cancelled")


def _seat_round(c: Competition) -> Competition:
    number = len(c.rounds) + 1
    rng = random.Random(f"{c.seed}:{number}")
    players = _with_a_person_a_table(c, number)
    sizes = table_sizes(len(players), c.format.table_size)
    ranking = None
    if number > 1 and c.format.seating == "standing":
        order = [s.player for s in c.standings()]
        ranking = [p for p in order if p in set(players)]
    tables = seat(players, sizes, rng, met=c.met(), ranking=ranking)
    tables = spread_humans(tables, set(c.humans), c.met())
    seated = tuple(Table(i + 1, tuple(t)) for i, t in enumerate(tables))
    return replace(c, rounds=(*c.rounds, Round(number, seated)))


def _with_a_person_a_table(c: Competition, number: int) -> list[int]:
    """The players round ``number`` seats: everyone, unless there are more tables than
    people; then only as many AI fill-ins as leave a person for every table (the ones
    left out change from round to round)."""
    players = c.players
    humans = set(c.humans)
    ai = [p for p in players if p not in humans]
    keep = len(ai)
    while keep > 0:
        n = len(humans) + keep
        if n >= 2 and len(table_sizes(n, c.format.table_size)) <= len(humans):
            break
        keep -= 1
    if keep == len(ai):
        return players
    turn = number % len(ai)
    seated = set((ai[turn:] + ai[:turn])[:keep])
    return [p for p in players if p in humans or p in seated]


def _check_in_open(c: Competition) -> None:
    if c.status != "checkin":
        raise CompetitionError(N_("Check-in is closed: the competition has begun."))


def _with_table(c: Competition, round_number: int, table: int, change: Any) -> Competition:
    if not any(r.number == round_number and t.number == table for r in c.rounds for t in r.tables):
        raise CompetitionError(N_("There is no such table."))
    rounds = tuple(
        replace(r, tables=tuple(change(t) if t.number == table else t for t in r.tables))
        if r.number == round_number
        else r
        for r in c.rounds
    )
    return replace(c, rounds=rounds)


# -- JSON -----------------------------------------------------------------------------


def to_json(c: Competition) -> dict[str, Any]:
    f = c.format
    return {
        "format": {k: getattr(f, k) for k in ("options", "table_size", "rounds", "seating")},
        "seed": c.seed,
        "status": c.status,
        "entrants": [
            [e.user_id, e.name, e.active] + ([e.ai] if e.ai is not None else []) for e in c.entrants
        ],
        "rounds": [
            [
                {
                    "players": list(t.players),
                    "game": t.game_id,
                    "result": None
                    if t.result is None
                    else {"score": list(t.result.score), "lower": t.result.lower_wins},
                }
                for t in r.tables
            ]
            for r in c.rounds
        ],
        "ends_at": [r.ends_at for r in c.rounds],
    }


def from_json(data: dict[str, Any]) -> Competition:
    f = data["format"]
    rounds = []
    ends = list(data.get("ends_at") or [])
    for n, tables in enumerate(data["rounds"], start=1):
        seated = []
        for i, t in enumerate(tables, start=1):
            players = tuple(int(p) for p in t["players"])
            result = None
            if (res := t.get("result")) is not None:
                result = TableResult(players, tuple(res["score"]), bool(res["lower"]))
            seated.append(Table(i, players, t.get("game"), result))
        rounds.append(Round(n, tuple(seated), ends[n - 1] if n <= len(ends) else None))
    fmt = Format(dict(f["options"]), f["table_size"], int(f["rounds"]), f["seating"])
    return Competition(
        format=fmt,
        seed=int(data["seed"]),
        status=data["status"],
        entrants=tuple(_entrant(e) for e in data["entrants"]),
        rounds=tuple(rounds),
    )


def _entrant(data: list[Any]) -> Entrant:
    """``[user_id, name, active]``, and an AI fill-in's level after them."""
    ai = str(data[3]) if len(data) > 3 and data[3] is not None else None
    return Entrant(int(data[0]), str(data[1]), bool(data[2]), ai)


def new_competition(fmt: Format, seed: int) -> Competition:
    return Competition(format=fmt, seed=seed)


__all__ = [
    "Competition",
    "CompetitionError",
    "Entrant",
    "Format",
    "Round",
    "Table",
    "add_ai",
    "advance",
    "cancel",
    "check_in",
    "check_out",
    "from_json",
    "new_competition",
    "record",
    "remove",
    "set_game",
    "start",
    "to_json",
]
