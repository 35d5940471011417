"""How good a finished deal is for one side, in the units of the deal's scoring mode.

* ``points``: the side's points minus the best other side's, plus a bonus for
  winning the deal (a deal won is what a match to a target is made of), and a
  larger one when the deal decides the match;
* ``fives``: the same with all-fives scores (counts and bonus);
* ``penalty``: the other players' mean minus points against the side's own;
* ``places`` (latvian): the other players' mean deal value minus the side's own;
* ``single``: 1 for a win, 0 for a drawn deal, -1 for a loss.

Partners share a side, so a partner's result is the side's result.
"""

from __future__ import annotations

from ..deal import Deal

WIN_BONUS = 8.0
"""Points a won deal is worth beyond its margin (``points`` and ``fives``)."""
MATCH_BONUS = 40.0
"""Points a deal that wins (or loses) the match is worth beyond its margin."""


def deal_value(
    deal: Deal, side: int, win_bonus: float = WIN_BONUS, match_bonus: float = MATCH_BONUS
) -> float:
    """The value of the finished ``deal`` for ``side`` (higher is better); ``match_bonus``
    (0: the deal's own points only, as a game review counts them) for a deal that decides
    the match."""
    result = deal.result
    assert result is not None, "the deal is not over"
    rules = deal.rules
    scoring = rules.scoring
    winners = result.winners
    won = 0
    if winners:
        won = 1 if rules.side_of(winners[0]) == side else -1
    if scoring == "single":
        return float(won)
    score = result.score
    others = [s for i, s in enumerate(score) if i != side]
    if scoring == "penalty" or scoring == "places":
        return sum(others) / len(others) - score[side]
    value = score[side] - max(others) + win_bonus * won
    target = rules.target
    if target is not None and match_bonus:
        base = deal.base_totals
        mine = base[side] + score[side] >= target
        theirs = any(base[i] + s >= target for i, s in enumerate(score) if i != side)
        if mine != theirs:
            value += match_bonus if mine else -match_bonus
    return value
