"""Information-set search through the next few moves (setting ``plies``, off).

The flat search (:mod:`bot.engine.ai.search`) values each candidate world by
world: in every world, what follows is played as if every seat saw that world.
Here the first ``plies`` moves, the candidate's included, form one tree shared by
every world (single-observer information-set Monte Carlo tree search): a node is
the public history since the decision (who laid what; passes are public too), so a
choice in the tree is taken once for all the worlds that look the same, by the
seat's own statistics over them. Each iteration samples a world as the flat search
does, walks down the tree through the moves legal in that world (each seat picks
by UCB over the children it could make there, counting a child's *availability*,
the times it could have been chosen, in place of its parent's visits), adds one
new node, and values the rest of the deal as the flat search values a candidate
(the exact solver where it can, else a playout). Every node on the path takes the
value, from the side of the seat that chose it.
"""

from __future__ import annotations

import math
import random

from ..deal import Deal
from ..moves import Move
from .evaluate import deal_value
from .knowledge import Knowledge
from .rollout import best_move
from .search import CANDIDATE_COST, NODE_COST, SearchSettings, _Search
from .solver import LineSolver, SearchLimit, solvable


class _Node:
    """A move in the tree: its value summed from the side of the seat that made it."""

    __slots__ = ("available", "children", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.available = 0
        self.children: dict[tuple[int, Move], _Node] = {}

    def score(self, explore: float) -> float:
        """UCB1 over the times the node could have been chosen."""
        return self.total / self.visits + explore * math.sqrt(
            math.log(self.available) / self.visits
        )


class TreeSearch(_Search):
    """One decision's information-set search: the flat search's rounds and sequential
    halving over the candidates, each played in every world down its own tree."""

    def __init__(self, know: Knowledge, candidates: list[Move], settings: SearchSettings) -> None:
        super().__init__(know, candidates, settings)
        self.root = [_Node() for _ in candidates]
        self.solve_root = True  # leaves are solved whenever they are small enough

    def _world(self, rng: random.Random, active: list[int]) -> None:
        """Sample one world and walk each candidate ``active`` down its tree in it."""
        base = self._sample(rng)
        seed = rng.getrandbits(64)
        solver = self._world_solver(base)
        try:
            for j in active:
                value = self._walk(base.copy(), j, seed, solver)
                self.totals[j] += value
                self.counts[j] += 1
        finally:
            if solver is not None:
                self.work += solver.nodes * NODE_COST

    def _world_solver(self, base: Deal) -> LineSolver | None:
        """The world's exact solver, shared by its leaves (``None``: not solvable)."""
        if not (self.solve_root and solvable(base, self.many)):
            return None
        return self._solver(base)

    def _walk(self, deal: Deal, j: int, seed: int, solver: LineSolver | None) -> float:
        """Candidate ``j`` played in ``deal``, the moves after it chosen in the tree until a
        new node or ``plies`` moves; the value of the end, given to every node passed."""
        settings = self.settings
        explore = settings.explore
        side = self.side
        node = self.root[j]
        path = [(node, side)]
        move = self.candidates[j]
        for _ in range(settings.plies - 1):
            if not node.visits:
                break  # a new node: valued from here
            deal.push(move)
            self.work += self.move_cost
            if deal.end is not None:
                break
            seat = deal.turn
            legal = deal.legal_moves()
            children = [node.children.setdefault((seat, m), _Node()) for m in legal]
            for child in children:
                child.available += 1
            fresh = [m for m, c in zip(legal, children, strict=True) if not c.visits]
            if fresh:
                move = fresh[0] if len(fresh) == 1 else self._prior(deal, fresh)
                node = node.children[seat, move]
            else:
                i = _pick(children, explore)
                node, move = children[i], legal[i]
            path.append((node, deal.side_of[seat]))
        value = self._value(deal, move, seed, solver)
        for passed, mover in path:
            passed.visits += 1
            passed.total += value if mover == side else -value
        return value

    def _prior(self, deal: Deal, moves: list[Move]) -> Move:
        """The first unvisited move to try: the playout policy's choice (its own view)."""
        voids = list(self.know.voids)
        return best_move(deal, moves, self.weights[deal.turn], voids, self.know.every)

    def _value(self, deal: Deal, move: Move, seed: int, solver: LineSolver | None) -> float:
        """``move`` played in ``deal`` (or already, when it ended the deal), valued to the
        end of the deal: exactly by ``solver`` when few enough tiles are left."""
        self.work += CANDIDATE_COST
        if deal.end is not None:
            return deal_value(deal, self.side, self.settings.win_bonus)
        if (
            solver is not None
            and self.solve_root
            and sum(deal.hand_sizes()) <= self.settings.exact_tiles
        ):
            try:
                return solver.after(deal, move)
            except SearchLimit:
                self.solve_root = False  # too big to solve: playouts from here on
        exact = solvable(deal, self.many)
        return self._playouts(deal, [move], seed, exact and self.solve_end)[0]


def _pick(nodes: list[_Node], explore: float) -> int:
    """The node best by UCB (every one visited: new ones are tried first by the walk)."""
    return max(range(len(nodes)), key=lambda i: nodes[i].score(explore))
