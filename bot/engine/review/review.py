"""Review a finished deal: every decision of every seat valued, known and open."""

from __future__ import annotations

import random

from ..match import MatchState
from .accuracy import biggest_mistakes, cost, move_accuracy, seat_reviews
from .replay import Step, finished_deal, steps
from .report import REVIEW_VERSION, DealReview, MoveRow
from .values import ReviewSettings, value_step

UNIT_OF = {
    "points": "points",
    "fives": "points",
    "single": "wins",
    "penalty": "penalty",
    "places": "minus",
    "rounds": "pips",
}


def review_deal(
    state: MatchState,
    deal: int,
    rng: random.Random,
    settings: ReviewSettings | None = None,
) -> DealReview:
    """The review of finished deal ``deal`` (from 1) of ``state``: deterministic given
    ``rng`` (one seed is drawn for every move, forced or not).

    Raises :class:`~bot.engine.review.replay.NotReviewable` when the deal is not over.
    """
    settings = settings or ReviewSettings()
    finished_deal(state, deal)
    rules = state.rules
    rows: list[MoveRow] = []
    trimmed = False
    open_estimated = False
    worlds = 0
    for step in steps(state, deal):
        seed = rng.getrandbits(64)
        if len(step.deal.legal_moves()) <= 1:
            rows.append(_forced(step))
            continue
        valued = value_step(step, random.Random(seed), settings)
        trimmed |= valued.trimmed
        open_estimated |= not valued.open_exact
        worlds = max(worlds, valued.worlds)
        played = valued.moves.index(step.move.canonical())
        kbest = max(range(len(valued.moves)), key=lambda j: (valued.known[j], j == played))
        obest = max(range(len(valued.moves)), key=lambda j: (valued.open[j], j == played))
        rows.append(
            MoveRow(
                index=step.index,
                seat=step.seat,
                played=step.move,
                options=len(step.deal.legal_moves()),
                known_best=valued.moves[kbest],
                known_cost=cost(valued.known[kbest], valued.known[played]),
                open_best=valued.moves[obest],
                open_cost=cost(valued.open[obest], valued.open[played]),
                open_exact=valued.open_exact,
                accuracy=move_accuracy(valued.known, valued.known[played]),
            )
        )
    notes = []
    if open_estimated:
        notes.append("open_playouts")
    if rules.mexican:
        notes.append("known_horizon")
    if trimmed:
        notes.append("known_candidates")
    return DealReview(
        version=REVIEW_VERSION,
        game=rules.game,
        players=rules.players,
        deal=deal,
        unit=UNIT_OF[rules.scoring],
        rows=tuple(rows),
        seats=seat_reviews(rows, rules.players),
        mistakes=biggest_mistakes(rows),
        approximate=open_estimated or rules.mexican,
        notes=tuple(notes),
        worlds=worlds,
    )


def _forced(step: Step) -> MoveRow:
    return MoveRow(
        index=step.index,
        seat=step.seat,
        played=step.move,
        options=1,
        known_best=step.move,
        known_cost=0.0,
        open_best=step.move,
        open_cost=0.0,
        open_exact=True,
        accuracy=100.0,
    )
