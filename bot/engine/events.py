"""What happens in a deal, in order: the public move history (and the private draws)."""

from __future__ import annotations

from typing import NamedTuple

from .moves import Move
from .tiles import Tile


class Played(NamedTuple):
    seat: int
    move: Move
    fives_count: int = 0
    """The all-fives count after the move (0 in other games)."""
    points: int = 0
    """What the move scored for the seat's side (all fives only)."""


class Drew(NamedTuple):
    """A forced draw. Which tiles is known to the drawer only; others see how many."""

    seat: int
    tiles: tuple[Tile, ...]


class Passed(NamedTuple):
    seat: int


Event = Played | Drew | Passed
