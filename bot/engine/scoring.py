"""Scoring a finished deal and ranking a finished session.

How each game scores: RULES.md#block-game, #all-fives and #latvian-dominoes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from .moves import Move
from .rules import Rules
from .tiles import PIPS, Tile, tile


class DealEnd(StrEnum):
    """How a deal ended. The values are the names a replay summary prints (RECORD.md)."""

    DOMINO = "domino"
    """A seat laid its last tile."""
    BLOCKED = "blocked"
    """Nobody could lay (and, in the draw games, the boneyard was empty)."""
    DEAD = "dead"
    """Latvian: no open end, or every open end's number is all on the table."""
    TARGET = "target"
    """All fives: a side reached the target during play."""


DOUBLE_BLANK = tile(0, 0)
DOUBLE_SIX = tile(6, 6)


@dataclass(frozen=True, slots=True)
class DealResult:
    """How a deal ended and what it scored. Per-side lists follow ``Rules.sides``."""

    end: DealEnd
    winners: tuple[int, ...]
    """Seats that won the deal; empty for a drawn deal."""
    pips: tuple[int, ...]
    """Pips left in each seat's hand."""
    score: tuple[int, ...]
    """What each side gained (RECORD.md: points, fives play+bonus, minus points, deal values)."""
    values: tuple[int, ...] | None
    """Latvian deal values per seat."""
    hands: tuple[tuple[Tile, ...], ...]
    """Every hand as it was when the deal ended (revealed at the end)."""
    play_points: tuple[int, ...]
    """All fives: points scored by counts during play, per side."""
    bonus: tuple[int, ...]
    """All fives: the domino or block bonus, per side."""
    out_seat: int | None
    """The seat that laid its last tile, if any."""

    @property
    def drawn(self) -> bool:
        return not self.winners


def round5(n: int) -> int:
    """``5·⌊(n+2)/5⌋``: 13 → 15, 12 → 10 (RULES.md#all-fives)."""
    return 5 * ((n + 2) // 5)


def latvian_value(hand: Sequence[Tile]) -> int:
    """The deal value of a hand left in latvian (RULES.md#latvian-dominoes)."""
    held = set(hand)
    if held and held <= {DOUBLE_BLANK, DOUBLE_SIX}:  # 0-0 alone 25, 6-6 alone 50, both 75
        return 25 * (DOUBLE_BLANK in held) + 50 * (DOUBLE_SIX in held)
    return sum(t.pips for t in hand)


def latvian_out_value(last_move: Move | None) -> int:
    """The value of going out: 0, or -25 / -50 / -75 for ending on 0-0 / 6-6 / both."""
    tiles = set(last_move.tiles) if last_move else set()
    return -25 * (DOUBLE_BLANK in tiles) - 50 * (DOUBLE_SIX in tiles)


def score_deal(
    rules: Rules,
    end: DealEnd,
    hands: Sequence[Sequence[Tile]],
    out_seat: int | None = None,
    last_move: Move | None = None,
    play_points: Sequence[int] | None = None,
    target_side: int | None = None,
) -> DealResult:
    """Score a finished deal.

    ``out_seat`` is the seat that went out (``DealEnd.DOMINO``); ``last_move`` its
    final move (latvian values); ``play_points`` the all-fives points scored during
    play; ``target_side`` the side that reached the all-fives target mid-deal.
    """
    end = DealEnd(end)
    sides = rules.sides
    n_sides = len(sides)
    pips = tuple(sum([PIPS[t] for t in hand]) for hand in hands)
    side_pips = [sum(pips[s] for s in side) for side in sides]
    play = tuple(play_points) if play_points is not None else (0,) * n_sides
    zero = (0,) * n_sides
    values: tuple[int, ...] | None = None

    if rules.scoring == "places":
        values = tuple(
            latvian_out_value(last_move) if seat == out_seat else latvian_value(hands[seat])
            for seat in range(rules.players)
        )
        measure = list(values)
    else:
        measure = side_pips

    # Who won the deal.
    if end is DealEnd.TARGET:
        assert target_side is not None
        win_side: int | None = target_side
    elif end is DealEnd.DOMINO:
        assert out_seat is not None
        win_side = rules.side_of(out_seat)
    else:
        best = min(measure)
        lowest = [i for i, m in enumerate(measure) if m == best]
        win_side = lowest[0] if len(lowest) == 1 else None
    winners = sides[win_side] if win_side is not None else ()

    # What each side gained.
    bonus = zero
    if rules.scoring == "points":
        score = list(zero)
        if win_side is not None:
            others = sum(side_pips) - side_pips[win_side]
            if end is DealEnd.BLOCKED and rules.blocked_scoring == "minus_own":
                others -= side_pips[win_side]
            score[win_side] = others
        score_t = tuple(score)
    elif rules.scoring == "single":
        score_t = zero
    elif rules.scoring in ("penalty", "rounds"):
        score_t = tuple(side_pips)
    elif rules.scoring == "fives":
        if win_side is not None and end is not DealEnd.TARGET:
            b = [0] * n_sides
            b[win_side] = round5(sum(side_pips) - side_pips[win_side])
            bonus = tuple(b)
        score_t = tuple(p + b for p, b in zip(play, bonus, strict=True))
    else:  # places: the deal values
        assert values is not None
        score_t = values

    return DealResult(
        end=end,
        winners=tuple(winners),
        pips=pips,
        score=score_t,
        values=values,
        hands=tuple(tuple(sorted(h)) for h in hands),
        play_points=play,
        bonus=bonus,
        out_seat=out_seat,
    )


def place_points(totals: Sequence[float], players: int) -> tuple[float, ...]:
    """Latvian place points for session totals: lowest first, 4/3/2/1, ties averaged."""
    order = sorted(range(len(totals)), key=lambda i: totals[i])
    points = [0.0] * len(totals)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and totals[order[j + 1]] == totals[order[i]]:
            j += 1
        # places i+1 .. j+1 score 4 - i .. 4 - j
        share = sum(4 - k for k in range(i, j + 1)) / (j - i + 1)
        for k in range(i, j + 1):
            points[order[k]] = share
        i = j + 1
    return tuple(points)
