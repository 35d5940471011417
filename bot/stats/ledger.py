"""Counting a finished match into the leaderboard: pure functions over plain values.

    counted = count_match(standings, match, rater)   # new standings rows, result rows

:func:`count_match` takes the players' current standings (``bot.storage.Standing``
by user id), the stored match (``bot.storage.MatchSummary``) and a :class:`Rater`
(or None: the match counts, no rating moves), and returns a
``bot.storage.Counted``: each human player's new standings row and one result
row per human seat. No SQL, no I/O (a failing rater is logged), deterministic
for a deterministic rater, and it never changes what it is given.

:class:`MatchLedger` binds a rater and is the ``bot.storage.Ledger`` the bot
plugs into storage once (``bot.stats.install`` in ``setup_hook``): storage calls
it inside the transaction that stores a finished match, and again, in match id
order, when it rebuilds the tables, so both give the same numbers.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.storage import Counted, MatchSummary, PlayerResult, Rating, Standing, fresh_standing

from .ranking import SeatResult, match_results

__all__ = ["MatchLedger", "RatedSeat", "Rater", "Rating", "count_match"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class RatedSeat:
    """A seat as a :class:`Rater` sees it: ``rating`` is None exactly for AI seats."""

    seat: int
    user_id: int | None
    side: int
    rank: int
    rating: Rating | None


class Rater(Protocol):
    """The rating arithmetic (``bot.stats.rating.OpenSkillRater``)."""

    def initial(self) -> Rating:
        """The rating of a player before their first rated match."""
        ...

    def rate(self, game: str, seats: Sequence[RatedSeat]) -> Mapping[int, Rating]:
        """New ratings by seat number for the human seats this match rates (may be empty)."""
        ...


def count_match(
    standings: Mapping[int, Standing], match: MatchSummary, rater: Rater | None
) -> Counted:
    """Count ``match`` into its human players' standings in ``match.game``.

    ``standings`` holds (at least) the players' current rows by user id; a
    player without one starts from nothing. AI seats are never counted. Each
    human gets one more match, a win, a draw or neither (:func:`match_results`),
    their side's total in points, their latvian place points, their win streak
    moved on (a win extends it, anything else ends it), and, when the rater
    rates the match, the new rating. A rater that fails is logged and the match
    counts unrated.
    """
    results = match_results(match.seats, match.game)
    humans = [r for r in results if r.user_id is not None]
    if not humans:
        return Counted((), ())
    initial, ratings = _rate(rater, match, results, humans, standings)
    sides = len({r.side for r in results})
    counted: dict[int, Standing] = {}
    rows: list[PlayerResult] = []
    for r in humans:
        assert r.user_id is not None
        old = counted.get(r.user_id)
        if old is None:
            old = standings.get(r.user_id) or fresh_standing(match.game, r.user_id, r.name)
        new = ratings.get(r.seat)
        won = r.outcome == "win"
        streak = old.streak + 1 if won else 0
        counted[r.user_id] = Standing(
            game=match.game,
            user_id=r.user_id,
            name=r.name,
            matches=old.matches + 1,
            wins=old.wins + int(won),
            draws=old.draws + int(r.outcome == "draw"),
            points=old.points + r.points,
            place_points=old.place_points if r.place is None else old.place_points + r.place,
            streak=streak,
            best_streak=max(old.best_streak, streak),
            rated=old.rated + int(new is not None),
            rating=old.rating if new is None else new,
            last_match_id=match.id,
        )
        before = old.rating if old.rating is not None else initial
        rows.append(
            PlayerResult(
                match_id=match.id,
                user_id=r.user_id,
                game=match.game,
                finished_at=match.finished_at,
                seat=r.seat,
                outcome=r.outcome,
                rank=r.rank,
                sides=sides,
                points=r.points,
                place=r.place,
                rating_before=None if new is None or before is None else before.ordinal,
                rating=new,
            )
        )
    return Counted(tuple(counted.values()), tuple(rows))


def _rate(
    rater: Rater | None,
    match: MatchSummary,
    results: Sequence[SeatResult],
    humans: Sequence[SeatResult],
    standings: Mapping[int, Standing],
) -> tuple[Rating | None, dict[int, Rating]]:
    """The rater's starting rating and its new ratings of the human seats, by seat."""
    if rater is None:
        return None, {}
    try:
        initial = rater.initial()
        seats = [
            RatedSeat(
                r.seat,
                r.user_id,
                r.side,
                r.rank,
                None if r.user_id is None else _rating(standings, r.user_id, initial),
            )
            for r in results
        ]
        human_seats = {r.seat for r in humans}
        ratings = {
            seat: rating
            for seat, rating in rater.rate(match.game, seats).items()
            if seat in human_seats
        }
    except Exception:
        # A rating bug must never keep a match from being saved: it counts unrated
        # (a recompute can rate it later).
        log.exception("match %d: the rater failed; the match counts without ratings", match.id)
        return None, {}
    return initial, ratings


def _rating(standings: Mapping[int, Standing], user_id: int, initial: Rating) -> Rating:
    """The player's rating before the match (``initial`` before their first rated one)."""
    standing = standings.get(user_id)
    if standing is None or standing.rating is None:
        return initial
    return standing.rating


@dataclass(frozen=True, slots=True)
class MatchLedger:
    """The ``bot.storage.Ledger`` the bot plugs in: :func:`count_match` with one rater.

    Without a rater (None) matches count and no rating moves.
    """

    rater: Rater | None = None

    def count(self, standings: Mapping[int, Standing], match: MatchSummary) -> Counted:
        return count_match(standings, match, self.rater)
