"""The rules of a match as one validated value (each game's options in RULES.md)."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from functools import cache
from typing import Any, Literal, cast

from .errors import RulesError, brief
from .tiles import SET_SIZES, set_size

Game = Literal["block", "draw", "allfives", "latvian", "mexican"]
Scoring = Literal["points", "single", "penalty", "fives", "places", "rounds"]
LayoutKind = Literal["line", "spinner", "hub"]
BlockedScoring = Literal["others", "minus_own"]

GAMES: tuple[Game, ...] = ("block", "draw", "allfives", "latvian", "mexican")
SCORINGS: dict[str, tuple[Scoring, ...]] = {
    "block": ("points", "single", "penalty"),
    "draw": ("points", "single", "penalty"),
    "allfives": ("fives",),
    "latvian": ("places",),
    "mexican": ("rounds",),
}
LAYOUTS: dict[str, tuple[LayoutKind, ...]] = {
    "block": ("line", "spinner"),
    "draw": ("line", "spinner"),
    "allfives": ("spinner",),
    "latvian": ("hub",),
    "mexican": (),  # trains, not a layout of ends: the option is left out
}
MAX_PLAYERS: dict[tuple[str, int], int] = {
    ("block", 6): 4,
    ("block", 9): 6,
    ("block", 12): 8,
    ("draw", 6): 4,
    ("draw", 9): 6,
    ("draw", 12): 8,
    ("allfives", 6): 4,
    ("latvian", 6): 4,
    ("mexican", 9): 6,
    ("mexican", 12): 8,
}
# RULES.md#block-game (and the draw game): hand size by set and player count; key
# "teams" for partnerships.
HAND_SIZES: dict[int, dict[int | str, int]] = {
    6: {2: 7, 3: 5, 4: 5, "teams": 7},
    9: {2: 10, 3: 8, 4: 8, "teams": 10, 5: 7, 6: 7},
    12: {2: 12, 3: 10, 4: 10, "teams": 12, 5: 9, 6: 9, 7: 8, 8: 8},
}
# RULES.md#mexican-train: hand size by set and player count.
MEXICAN_HANDS: dict[int, dict[int, int]] = {
    9: {2: 10, 3: 10, 4: 10, 5: 8, 6: 8},
    12: {2: 15, 3: 15, 4: 15, 5: 12, 6: 12, 7: 10, 8: 10},
}
DEFAULT_SET: dict[str, int] = {"mexican": 12}
TARGET_RANGE = (1, 1000)
LARGEST = 10**9
"""No whole-number option is larger (a check before any arithmetic or message)."""
DEFAULT_SESSION_DEALS = 4


@dataclass(frozen=True, slots=True)
class Rules:
    """Everything that decides how a match is played.

    Build it with :meth:`make` (or :meth:`from_dict`), which fills the defaults of
    RULES.md and raises :class:`RulesError` naming the option at fault.
    """

    game: Game
    set: int = 6
    players: int = 2
    teams: bool = False
    scoring: Scoring = "points"
    target: int | None = None
    layout: LayoutKind | None = "line"
    """``None`` for Mexican Train, which lays trains instead."""
    hand: int = 7
    blocked_scoring: BlockedScoring = "others"
    deals: int | None = None
    time_limit: int | None = None

    @classmethod
    def make(cls, game: str, **options: Any) -> Rules:
        """Validated rules with RULES.md defaults for every option left out (or ``None``)."""
        return cls.from_dict({"game": game, **options})

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        if not isinstance(data, dict):
            raise RulesError("rules", "rules must be a JSON object")
        unknown = sorted((k for k in data if k not in RULE_KEYS), key=str)
        if unknown:
            raise RulesError(str(unknown[0]), f"unknown rules option {brief(unknown[0])}")
        given = {k: v for k, v in data.items() if v is not None}
        game = given.get("game")
        if game not in GAMES:
            raise RulesError(
                "game", f"unknown game {brief(game)}; choose one of {', '.join(GAMES)}"
            )

        top = _int_option(given, "set", DEFAULT_SET.get(game, 6))
        if top not in SET_SIZES:
            raise RulesError("set", f"set must be double-6, double-9 or double-12, not {top}")
        players = _int_option(given, "players", 2)
        teams = given.get("teams", False)
        if not isinstance(teams, bool):
            raise RulesError("teams", "teams must be true or false")
        _check_players(game, top, players, teams)

        scoring = given.get("scoring", SCORINGS[game][0])
        if scoring not in SCORINGS[game]:
            raise RulesError(
                "scoring",
                f"{game} is scored by {' or '.join(SCORINGS[game])}, not {brief(scoring)}",
            )
        if scoring == "penalty" and teams:
            raise RulesError("scoring", "penalty scoring is played without teams")

        layout = given.get("layout", LAYOUTS[game][0] if LAYOUTS[game] else None)
        if not LAYOUTS[game] and layout is not None:
            raise RulesError("layout", f"{game} lays trains: it takes no layout option")
        if layout is not None and layout not in LAYOUTS[game]:
            raise RulesError(
                "layout", f"{game} is laid out as {' or '.join(LAYOUTS[game])}, not {brief(layout)}"
            )

        hand = _int_option(given, "hand", _default_hand(game, top, players, teams))
        if hand < 1:
            raise RulesError("hand", "every player needs at least 1 tile")
        available = set_size(top) - (game == "mexican")
        if hand * players > available:
            raise RulesError(
                "hand",
                f"{players} hands of {hand} need {hand * players} tiles, "
                f"but double-{top} has only {available}"
                + (" besides the engine" if game == "mexican" else ""),
            )

        target = _target(given, scoring, players, teams)
        blocked = given.get("blocked_scoring", "others")
        if blocked not in ("others", "minus_own"):
            raise RulesError("blocked_scoring", "blocked_scoring is 'others' or 'minus_own'")

        deals, time_limit = _session(given, game, top)
        return cls(
            game=cast(Game, game),
            set=top,
            players=players,
            teams=teams,
            scoring=cast(Scoring, scoring),
            target=target,
            layout=cast(LayoutKind | None, layout),
            hand=hand,
            blocked_scoring=cast(BlockedScoring, blocked),
            deals=deals,
            time_limit=time_limit,
        )

    def to_dict(self) -> dict[str, Any]:
        """Every option spelled out (the record's ``rules``); ``None`` values left out."""
        # Every field is a plain value: no asdict (its deep copy shows in a move's cost).
        return {k: v for k in RULE_KEYS if (v := getattr(self, k)) is not None}

    def with_options(self, **options: Any) -> Rules:
        """A validated copy with some options changed."""
        return Rules.from_dict({**self.to_dict(), **options})

    # -- derived facts -------------------------------------------------------

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each side: ``((0, 2), (1, 3))`` with teams, else one seat each."""
        return _make_sides(self.players, self.teams)

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.teams else seat

    @property
    def mexican(self) -> bool:
        return self.game == "mexican"

    @property
    def draws(self) -> bool:
        """Whether a player who cannot lay draws from a boneyard."""
        return self.game != "block"

    @property
    def tile_count(self) -> int:
        return set_size(self.set)

    @property
    def stock_size(self) -> int:
        """The tiles not dealt: the whole set less the hands (and Mexican Train's engine)."""
        return self.tile_count - self.mexican - self.hand * self.players

    def replace(self, **changes: Any) -> Rules:
        return replace(self, **changes)


RULE_KEYS = tuple(f.name for f in fields(Rules))
"""Every option, in the order a record writes them."""


def _int_option(given: dict[str, Any], name: str, default: int) -> int:
    value = given.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(name, f"{name} must be a whole number, not {brief(value)}")
    if not -LARGEST <= value <= LARGEST:
        raise RulesError(name, f"{name} is far out of range: {brief(value)}")
    return value


def _check_players(game: str, top: int, players: int, teams: bool) -> None:
    limit = MAX_PLAYERS.get((game, top))
    if limit is None:
        raise RulesError("set", f"{game} is played with double-6 only, not double-{top}")
    if not 2 <= players <= limit:
        raise RulesError(
            "players", f"{game} on double-{top} takes 2 to {limit} players, not {players}"
        )
    if teams:
        if game in ("latvian", "mexican"):
            raise RulesError("teams", f"{game} is played without teams")
        if players != 4:
            raise RulesError("teams", f"teams need exactly 4 players, not {players}")


def _default_hand(game: str, top: int, players: int, teams: bool) -> int:
    if game == "mexican":
        return MEXICAN_HANDS[top][players]
    if game in ("allfives", "latvian"):
        return 7
    return HAND_SIZES[top]["teams" if teams else players]


def _target(given: dict[str, Any], scoring: str, players: int, teams: bool) -> int | None:
    if scoring in ("single", "places", "rounds"):
        return None  # RECORD.md: ignored by single, places and rounds
    points = 100 if players == 2 or teams else 61
    default = {"points": points, "penalty": 50}.get(scoring, 250)
    target = _int_option(given, "target", default)
    low, high = TARGET_RANGE
    if not low <= target <= high:
        raise RulesError("target", f"target must be between {low} and {high}, not {target}")
    return target


def _session(given: dict[str, Any], game: str, top: int) -> tuple[int | None, int | None]:
    if game == "mexican":
        if "time_limit" in given:
            raise RulesError("time_limit", "time_limit sets the length of a latvian session only")
        rounds = _int_option(given, "deals", top + 1)
        if not 1 <= rounds <= top + 1:
            raise RulesError(
                "deals", f"double-{top} has {top + 1} rounds (engines {top} to 0), not {rounds}"
            )
        return rounds, None
    if game != "latvian":
        if "deals" in given:
            raise RulesError("deals", "deals sets the length of latvian and Mexican Train only")
        if "time_limit" in given:
            raise RulesError("time_limit", "time_limit sets the length of a latvian session only")
        return None, None
    time_limit = given.get("time_limit")
    if time_limit is not None:
        time_limit = _int_option(given, "time_limit", 0)
        if time_limit < 1:
            raise RulesError("time_limit", "time_limit is a number of minutes, at least 1")
    default_deals = None if time_limit is not None else DEFAULT_SESSION_DEALS
    deals = given.get("deals", default_deals)
    if deals is not None:
        deals = _int_option(given, "deals", DEFAULT_SESSION_DEALS)
        if not 1 <= deals <= 100:
            raise RulesError("deals", f"a session has 1 to 100 deals, not {deals}")
    return deals, time_limit


@cache
def _make_sides(players: int, teams: bool) -> tuple[tuple[int, ...], ...]:
    if teams:
        return ((0, 2), (1, 3))
    return tuple((seat,) for seat in range(players))
