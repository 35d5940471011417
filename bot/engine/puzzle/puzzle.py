"""The :class:`Puzzle` value: a moment of a finished deal, its choices and their values.

It carries the deal as dealt (hands, boneyard, leader, the match totals before it) and
the moves played up to the moment, so :meth:`Puzzle.position` rebuilds the position
exactly (every move checked again); the choices, the answer and the margin are what the
finder proved there. ``to_json``/``from_json`` give a plain JSON object
(``"format": "domino-puzzle/1"``) that the bot stores.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..deal import Deal
from ..match import MatchState
from ..moves import End, Move, Placement
from ..rules import Rules
from ..tiles import Tile

FORMAT = "domino-puzzle/1"


@dataclass(frozen=True, slots=True)
class Choice:
    """One choice of the puzzle: a legal move (others equal to it, with the same value,
    are the same choice: ``also``) and its exact value for the mover's side."""

    move: Move
    value: float
    also: tuple[Move, ...] = ()
    """Moves that lead to the same position (the same tile at either of two equal ends)."""

    def accepts(self, move: Move) -> bool:
        return move == self.move or move in self.also


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A position of a finished deal where one choice is best by ``margin`` points."""

    source: str
    """Where it comes from: ``"match 12"``, ``"builtin 3"`` (for the bot's bookkeeping)."""
    deal_number: int
    """The deal of its match, from 1."""
    ply: int
    """Moves played in the deal before the position."""
    rules: Rules
    hands: tuple[tuple[Tile, ...], ...]
    """Each seat's hand as dealt."""
    stock: tuple[Tile, ...]
    leader: int
    base_totals: tuple[float, ...]
    moves: tuple[Move, ...]
    """The moves of the deal before the position, in order."""
    seat: int
    """The seat to move."""
    choices: tuple[Choice, ...]
    answer: int
    """The index of the best choice."""
    margin: float
    """How much better the answer is than the next best choice (points)."""

    @property
    def key(self) -> str:
        """A name for the position, the same whenever it is found again."""
        return f"{self.source}/{self.deal_number}/{self.ply}"

    @property
    def best(self) -> Choice:
        return self.choices[self.answer]

    def deal(self) -> Deal:
        """The deal at the puzzle's moment, rebuilt move by move (each checked)."""
        deal = Deal.start(self.rules, self.hands, self.stock, self.leader, self.base_totals)
        for move in self.moves:
            deal.play(move)
        if deal.turn != self.seat or deal.end is not None:
            raise ValueError("the puzzle's moves do not lead to its position")
        return deal

    def position(self) -> MatchState:
        """The position as a match state of one deal (what the board is drawn from)."""
        return MatchState(self.rules, (self.deal(),))

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "source": self.source,
            "deal": self.deal_number,
            "ply": self.ply,
            "rules": self.rules.to_dict(),
            "hands": [[str(t) for t in h] for h in self.hands],
            "stock": [str(t) for t in self.stock],
            "leader": self.leader,
            "base_totals": list(self.base_totals),
            "moves": [_move_doc(m) for m in self.moves],
            "seat": self.seat,
            "choices": [
                {
                    "move": _move_doc(c.move),
                    "value": c.value,
                    "also": [_move_doc(m) for m in c.also],
                }
                for c in self.choices
            ],
            "answer": self.answer,
            "margin": self.margin,
        }

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Puzzle:
        """A puzzle back from :meth:`to_json`; ``ValueError`` for anything else."""
        try:
            if doc["format"] != FORMAT:
                raise ValueError(f"not a {FORMAT} document")
            choices = tuple(
                Choice(
                    _read_move(c["move"]),
                    float(c["value"]),
                    tuple(_read_move(m) for m in c.get("also", ())),
                )
                for c in doc["choices"]
            )
            puzzle = cls(
                source=str(doc["source"]),
                deal_number=int(doc["deal"]),
                ply=int(doc["ply"]),
                rules=Rules.from_dict(doc["rules"]),
                hands=tuple(tuple(Tile.parse(t) for t in h) for h in doc["hands"]),
                stock=tuple(Tile.parse(t) for t in doc["stock"]),
                leader=int(doc["leader"]),
                base_totals=tuple(float(x) for x in doc["base_totals"]),
                moves=tuple(_read_move(m) for m in doc["moves"]),
                seat=int(doc["seat"]),
                choices=choices,
                answer=int(doc["answer"]),
                margin=float(doc["margin"]),
            )
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"not a puzzle: {exc!r}") from exc
        if not 0 <= puzzle.answer < len(puzzle.choices):
            raise ValueError("the puzzle's answer is not one of its choices")
        return puzzle


def _move_doc(move: Move) -> list[dict[str, Any]]:
    return [
        {
            "tile": str(p.tile),
            "end": None if p.end is None else int(p.end),
            "closed": p.closed,
            "west": p.west,
        }
        for p in move.placements
    ]


def _read_move(doc: Sequence[dict[str, Any]]) -> Move:
    placements: list[Placement] = []
    for part in doc:
        end = part["end"]
        west = part.get("west")
        placements.append(
            Placement(
                Tile.parse(part["tile"]),
                None if end is None else End(int(end)),
                bool(part.get("closed", False)),
                None if west is None else int(west),
            )
        )
    if len(placements) == 1:
        p = placements[0]
        if p.end is None:
            return Move.lead(p.tile, p.west)
        return Move.single(p.tile, p.end, p.closed)
    return Move(tuple(placements))
