"""A competition's standings: place points summed over the rounds (docs/RULES.md,
"Competitions").

At each table a round ranks its players; 1st place scores 4 place points, 2nd 3, 3rd 2,
4th 1 (at a table of 3: 4/3/2, of 2: 4/3); players tied at a table share the average of
the places they span. The standings sum each player's place points. Ties are broken by:

1. the **margin**: the game's own total over the rounds, better first (latvian: the sum
   of the deal values, lower is better; a points game: points scored);
2. **head to head**: among the tied players only, who finished ahead of whom at the
   tables they shared (each time ahead +1, behind −1);
3. otherwise the players **share** the place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

PLACE_POINTS = (4, 3, 2, 1)


@dataclass(frozen=True, slots=True)
class TableResult:
    """One table of one round: its players and how each did."""

    players: tuple[int, ...]
    score: tuple[float, ...]
    """Each player's total in the game's own terms."""
    lower_wins: bool = True
    """Whether a lower score is better (latvian's deal values, Mexican Train's pips)."""

    def __post_init__(self) -> None:
        if len(self.players) != len(self.score):
            raise ValueError("one score a player")
        if not 1 <= len(self.players) <= len(PLACE_POINTS):
            raise ValueError(f"a table seats 1 to {len(PLACE_POINTS)} players")

    def margins(self) -> tuple[float, ...]:
        """Each player's score as "higher is better"."""
        return tuple(-s if self.lower_wins else s for s in self.score)

    def places(self) -> tuple[float, ...]:
        """Each player's place from 1; tied players share the average of their places."""
        margins = self.margins()
        return tuple(
            1 + sum(1 for o in margins if o > m) + (sum(1 for o in margins if o == m) - 1) / 2
            for m in margins
        )

    def place_points(self) -> tuple[float, ...]:
        """4 for 1st, 3 for 2nd, 2 for 3rd, 1 for 4th; tied places share the average."""
        margins = self.margins()
        out = []
        for m in margins:
            ahead = sum(1 for o in margins if o > m)
            level = sum(1 for o in margins if o == m)
            span = PLACE_POINTS[ahead : ahead + level]
            out.append(sum(span) / level)
        return tuple(out)


@dataclass(frozen=True, slots=True)
class Standing:
    player: int
    rank: int
    """From 1; players who share a place share its rank."""
    points: float
    margin: float
    rounds: int
    """Rounds played."""


def standings(
    rounds: Sequence[Sequence[TableResult]], players: Sequence[int] = ()
) -> list[Standing]:
    """Every player's standing after ``rounds`` (each a list of table results), best
    first. ``players`` adds those who have played no table yet (last, sharing a rank)."""
    points: dict[int, float] = dict.fromkeys(players, 0.0)
    margin: dict[int, float] = dict.fromkeys(players, 0.0)
    played: dict[int, int] = dict.fromkeys(players, 0)
    for tables in rounds:
        for table in tables:
            for player, pp, m in zip(
                table.players, table.place_points(), table.margins(), strict=True
            ):
                points[player] = points.get(player, 0.0) + pp
                margin[player] = margin.get(player, 0.0) + m
                played[player] = played.get(player, 0) + 1
    groups: dict[tuple[float, float], list[int]] = {}
    for player in points:
        groups.setdefault((points[player], margin[player]), []).append(player)
    ordered: list[list[int]] = []
    for key in sorted(groups, reverse=True):
        ordered += _head_to_head(sorted(groups[key]), rounds)
    out: list[Standing] = []
    rank = 1
    for group in ordered:
        for player in group:
            out.append(Standing(player, rank, points[player], margin[player], played[player]))
        rank += len(group)
    return out


def _head_to_head(tied: list[int], rounds: Sequence[Sequence[TableResult]]) -> list[list[int]]:
    """``tied`` in groups, best first: by head to head among them; still level: one group."""
    if len(tied) == 1:
        return [tied]
    among = set(tied)
    score = dict.fromkeys(tied, 0)
    for tables in rounds:
        for table in tables:
            places = dict(zip(table.players, table.places(), strict=True))
            here = [p for p in table.players if p in among]
            for p in here:
                for q in here:
                    if places[p] < places[q]:
                        score[p] += 1
                        score[q] -= 1
    groups: dict[int, list[int]] = {}
    for p in tied:
        groups.setdefault(score[p], []).append(p)
    return [groups[s] for s in sorted(groups, reverse=True)]
