"""Skill ratings with openskill: who a match rates, and the Plackett-Luce update.

The policy (docs/LEADERBOARDS.md):

- AI seats never have a rating and are left out of the update.
- A side is rated through its human players only: in 2v2 the two partners form
  the team; a human whose partner is an AI is rated as a team of one.
- A match moves ratings only if at least two *sides* have a human player
  (so at least two humans who played against each other). Two humans in one
  team against two AIs, or one human against AIs, move nothing.
- The ranks come from the match result (:func:`bot.stats.ranking.match_results`):
  the winning side first, ties (draws, shared latvian places) share a rank.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from openskill.models import PlackettLuce, PlackettLuceRating

from bot.storage import Rating

from .ledger import RatedSeat

__all__ = ["OpenSkillRater", "rated_sides"]


def rated_sides(seats: Sequence[RatedSeat]) -> list[list[RatedSeat]]:
    """The human seats of each side that has any, in side order; [] if the match rates nobody."""
    sides: dict[int, list[RatedSeat]] = {}
    for seat in sorted(seats, key=lambda s: (s.side, s.seat)):
        if seat.user_id is not None and seat.rating is not None:
            sides.setdefault(seat.side, []).append(seat)
    if len(sides) < 2:
        return []
    return [sides[side] for side in sorted(sides)]


class OpenSkillRater:
    """A :class:`bot.stats.ledger.Rater` on openskill's Plackett-Luce model (default parameters).

    The conservative rating shown on the boards is openskill's ordinal, mu − 3·sigma.
    """

    def __init__(self, model: PlackettLuce | None = None) -> None:
        self.model = model if model is not None else PlackettLuce()

    def initial(self) -> Rating:
        return _rating(self.model.rating())

    def rate(self, game: str, seats: Sequence[RatedSeat]) -> Mapping[int, Rating]:
        sides = rated_sides(seats)
        if not sides:
            return {}
        teams = [
            [self.model.rating(mu=s.rating.mu, sigma=s.rating.sigma) for s in side if s.rating]
            for side in sides
        ]
        ranks: list[float] = [float(side[0].rank) for side in sides]
        updated = self.model.rate(teams, ranks=ranks)
        return {
            seat.seat: _rating(new)
            for side, team in zip(sides, updated, strict=True)
            for seat, new in zip(side, team, strict=True)
        }


def _rating(r: PlackettLuceRating) -> Rating:
    return Rating(mu=float(r.mu), sigma=float(r.sigma), ordinal=float(r.ordinal()))
