"""A match: deals in sequence, the totals, who leads next, when the match ends.

:class:`MatchState` values never change: :func:`play` and :func:`next_deal`
return new ones and leave the old untouched.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from .deal import Deal, deal_tiles
from .errors import DominoError, MatchOverError
from .mexican import TrainDeal
from .moves import Move
from .rules import Rules
from .scoring import DealResult, place_points
from .tiles import Tile


class DealNotOverError(DominoError):
    """A new deal was asked for while the current one is still being played."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a match: who won, and the latvian place points."""

    winners: tuple[int, ...]
    places: tuple[float, ...] | None = None


@dataclass(frozen=True, slots=True)
class MatchState:
    """Everything about a match at one moment. Treat it as a value."""

    rules: Rules
    deals: tuple[Deal, ...]
    """Every deal so far; the last is the current one (the others are finished)."""
    time_up: bool = False
    """Latvian sessions with a time limit: the session ends after the current deal."""
    outcome: Outcome | None = field(default=None)

    # -- reading -------------------------------------------------------------

    @property
    def deal(self) -> Deal:
        return self.deals[-1]

    @property
    def deal_number(self) -> int:
        """The current deal, counting from 1."""
        return len(self.deals)

    @property
    def turn(self) -> int:
        return self.deal.turn

    @property
    def over(self) -> bool:
        return self.outcome is not None

    @property
    def winners(self) -> tuple[int, ...]:
        return self.outcome.winners if self.outcome else ()

    @property
    def places(self) -> tuple[float, ...] | None:
        return self.outcome.places if self.outcome else None

    @property
    def results(self) -> tuple[DealResult, ...]:
        """The results of the finished deals."""
        return tuple(d.result for d in self.deals if d.result is not None)

    @property
    def totals(self) -> tuple[float, ...]:
        """Per side, after every deal (including all-fives points of the deal in play)."""
        return _totals(self.rules, self.deals)

    def legal_moves(self) -> list[Move]:
        """The moves the seat to move may make (a new list each time)."""
        return list(self.deal.legal_moves())


def _totals(rules: Rules, deals: Sequence[Deal]) -> tuple[float, ...]:
    totals = [0] * len(rules.sides)
    for d in deals:
        gained = d.result.score if d.result is not None else d.play_points
        for i, g in enumerate(gained):
            totals[i] += g
    return tuple(totals)


def new_match(rules: Rules, rng: random.Random) -> MatchState:
    """A match with its first deal dealt from ``rng``."""
    return MatchState(rules, (_new_deal(rules, rng, (), None),))


def start_deal(
    rules: Rules,
    number: int,
    hands: Sequence[Sequence[Tile]],
    stock: Sequence[Tile],
    leader: int | None = None,
    base_totals: Sequence[float] | None = None,
) -> Deal:
    """Deal ``number`` (from 1) of a match as dealt: a :class:`TrainDeal` for Mexican
    Train (which needs no ``leader``), else a :class:`Deal`."""
    if rules.game == "mexican":
        return TrainDeal.start_round(rules, number, hands, stock, base_totals)
    return Deal.start(rules, hands, stock, leader, base_totals)


def start_match(
    rules: Rules,
    hands: Sequence[Sequence[Tile]],
    stock: Sequence[Tile],
    leader: int | None = None,
) -> MatchState:
    """A match whose first deal is given (tests, records)."""
    return MatchState(rules, (start_deal(rules, 1, hands, stock, leader),))


def legal_moves(state: MatchState | Deal) -> list[Move]:
    """The single source of legality: the moves the seat to move may make now."""
    deal = state.deal if isinstance(state, MatchState) else state
    return list(deal.legal_moves())


def play(state: MatchState, move: Move, seat: int | None = None) -> MatchState:
    """The state after ``move``. Raises and leaves ``state`` untouched if it is illegal.

    Pass ``seat`` to have a move from the wrong seat refused with
    :class:`NotYourTurnError`.
    """
    deal = state.deal.copy()
    deal.play(move, seat)
    deals = (*state.deals[:-1], deal)
    return replace(state, deals=deals, outcome=_outcome(state.rules, deals, state.time_up))


def next_deal(state: MatchState, rng: random.Random) -> MatchState:
    """Deal the next deal of the match from ``rng``."""
    if state.over:
        raise MatchOverError("the match is over")
    if not state.deal.over:
        raise DealNotOverError("the current deal is still being played")
    deal = _new_deal(state.rules, rng, state.deals, None)
    return replace(state, deals=(*state.deals, deal))


def add_deal(
    state: MatchState,
    hands: Sequence[Sequence[Tile]],
    stock: Sequence[Tile],
    leader: int | None = None,
) -> MatchState:
    """Add a given next deal (records). ``leader`` only where the rules draw it."""
    if state.over:
        raise MatchOverError("the match is over")
    if not state.deal.over:
        raise DealNotOverError("the current deal is still being played")
    fixed = next_leader(state.rules, state.deal.result)
    deal = start_deal(
        state.rules,
        len(state.deals) + 1,
        hands,
        stock,
        fixed if fixed is not None else leader,
        base_totals=state.totals,
    )
    return replace(state, deals=(*state.deals, deal))


def call_time(state: MatchState) -> MatchState:
    """A latvian session's time ran out: it ends after the deal in progress."""
    if state.rules.time_limit is None:
        raise DominoError("this match has no time limit")
    return replace(state, time_up=True, outcome=_outcome(state.rules, state.deals, True))


def next_leader(rules: Rules, last: DealResult | None) -> int | None:
    """All fives: the seat the rules choose to lead after the deal ``last``, or ``None``
    when it is drawn at random (the first deal, or after a drawn deal).

    Other games fix the lead by the tiles dealt; this returns ``None`` for them too.
    """
    if rules.game != "allfives" or last is None or not last.winners:
        return None
    if last.out_seat is not None:
        return last.out_seat
    return min(last.winners, key=lambda s: (last.pips[s], s))


def _new_deal(
    rules: Rules, rng: random.Random, previous: Sequence[Deal], leader: int | None
) -> Deal:
    number = len(previous) + 1
    hands, stock = deal_tiles(rules, rng, number)
    base = _totals(rules, previous)
    if rules.game == "allfives" and leader is None:
        leader = next_leader(rules, previous[-1].result if previous else None)
        if leader is None:
            leader = rng.randrange(rules.players)
    return start_deal(rules, number, hands, stock, leader, base_totals=base)


def _outcome(rules: Rules, deals: Sequence[Deal], time_up: bool) -> Outcome | None:
    if not deals[-1].over:
        return None
    return decide_match(rules, [d.result for d in deals if d.result is not None], time_up)


def decide_match(
    rules: Rules, results: Sequence[DealResult], time_up: bool = False
) -> Outcome | None:
    """Whether a match has ended after these finished deals, and who won
    (RULES.md#block-game, #all-fives and #latvian-dominoes)."""
    totals = [sum(r.score[i] for r in results) for i in range(len(rules.sides))]
    sides = rules.sides
    scoring = rules.scoring
    target = rules.target or 0
    if scoring == "single":
        return Outcome(results[-1].winners) if results else None
    if scoring in ("points", "fives"):
        reached = [i for i, t in enumerate(totals) if t >= target]
        if not reached:
            return None
        best = max(totals[i] for i in reached)
        return Outcome(_seats(sides, [i for i in reached if totals[i] == best]))
    if scoring == "penalty" and max(totals) < target:
        return None
    if scoring == "rounds" and (rules.deals is None or len(results) < rules.deals):
        return None  # Mexican Train: every round played, the lowest total wins
    if scoring in ("penalty", "rounds"):
        low = min(totals)
        return Outcome(_seats(sides, [i for i, t in enumerate(totals) if t == low]))
    # places: a session of a number of deals, or until the time is up
    if not (time_up or (rules.deals is not None and len(results) >= rules.deals)):
        return None
    places = place_points(totals, rules.players)
    top = max(places)
    return Outcome(_seats(sides, [i for i, p in enumerate(places) if p == top]), places)


def _seats(sides: Sequence[Sequence[int]], indexes: Sequence[int]) -> tuple[int, ...]:
    return tuple(sorted(s for i in indexes for s in sides[i]))
