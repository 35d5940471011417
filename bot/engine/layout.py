"""The tiles on the table: arms, open ends, the spinner, the hub.

The table is RULES.md#what-every-game-shares; the spinner is RULES.md#block-game
and #all-fives (with the count), the hub and dead deals RULES.md#latvian-dominoes.

The lead lies in the middle. ``west`` and ``east`` are the two line arms growing
from it. With a spinner, ``north`` and ``south`` grow from the spinner's short
sides once both its long sides have a tile; with the latvian hub they grow from
the lead at once. Each arm is a list of :class:`Laid` tiles, innermost first.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from .moves import End, Placement
from .rules import LayoutKind
from .tiles import PIPS, SUIT_MASKS, Tile, set_size

NOT_OPEN = -1
WEST, EAST, NORTH, SOUTH = End.WEST, End.EAST, End.NORTH, End.SOUTH


class Laid(NamedTuple):
    """A tile on the table: ``inner`` touches the tile before it, ``outer`` faces out."""

    tile: Tile
    inner: int
    outer: int
    closed: bool = False


class Layout:
    """The table of one deal. Mutable; :meth:`copy` before changing a shared one."""

    __slots__ = (
        "arms",
        "closed",
        "kind",
        "lead",
        "on_table",
        "spinner",
        "spinner_arm",
        "spinner_index",
        "suit_full",
        "values",
    )

    def __init__(self, kind: LayoutKind, top: int = 6) -> None:
        self.kind = kind
        self.lead: Laid | None = None
        self.arms: list[list[Laid]] = [[], [], [], []]
        self.values = [NOT_OPEN, NOT_OPEN, NOT_OPEN, NOT_OPEN]
        self.closed = [False, False, False, False]
        self.spinner: Tile | None = None
        self.spinner_arm: End | None = None  # None: the spinner is the lead
        self.spinner_index = -1
        self.on_table = 0
        self.suit_full = _suits(top)

    def copy(self) -> Layout:
        new = Layout.__new__(Layout)
        new.kind = self.kind
        new.lead = self.lead
        new.arms = [arm[:] for arm in self.arms]
        new.values = self.values[:]
        new.closed = self.closed[:]
        new.spinner = self.spinner
        new.spinner_arm = self.spinner_arm
        new.spinner_index = self.spinner_index
        new.on_table = self.on_table
        new.suit_full = self.suit_full
        return new

    # -- reading -------------------------------------------------------------

    def open_ends(self) -> list[End]:
        return [e for e in End if self.values[e] != NOT_OPEN and not self.closed[e]]

    def shown(self) -> dict[End, int]:
        """Every end that has a number (open or closed) and the number it shows."""
        return {e: self.values[e] for e in End if self.values[e] != NOT_OPEN}

    def fit_mask(self) -> int:
        """Bit mask of every tile that fits some open end."""
        fit = 0
        values = self.values
        closed = self.closed
        for end in (0, 1, 2, 3):
            v = values[end]
            if v != NOT_OPEN and not closed[end]:
                fit |= SUIT_MASKS[v]
        return fit

    def tile_count(self) -> int:
        return self.on_table.bit_count()

    def count(self) -> int:
        """The all-fives count of the open ends (RULES.md#all-fives)."""
        total = 0
        spinner = self.spinner
        spinner_counts = False
        lead = self.lead
        if lead is None:
            return 0
        for end in (WEST, EAST):
            if self.closed[end]:
                continue
            arm = self.arms[end]
            tip = arm[-1].tile if arm else lead.tile
            if tip == spinner:
                spinner_counts = True
                continue
            if tip.is_double:
                if not arm and end == EAST and not self.arms[WEST]:
                    continue  # a double lead alone counts once, from the west
                total += 2 * self.values[end]
            else:
                total += self.values[end]
        for end in (NORTH, SOUTH):
            arm = self.arms[end]
            if arm and not self.closed[end]:
                tip = arm[-1].tile
                total += 2 * self.values[end] if tip.is_double else self.values[end]
        if spinner_counts and spinner is not None:
            total += spinner.pips
        return total

    def is_dead(self) -> bool:
        """Latvian: no open end, or every open end's number is all on the table.

        A dead deal ends (RULES.md#latvian-dominoes).
        """
        on_table = self.on_table
        for end in End:
            value = self.values[end]
            if value == NOT_OPEN or self.closed[end]:
                continue
            full = self.suit_full[value]
            if on_table & full != full:
                return False
        return True

    # -- changing ------------------------------------------------------------

    def place_lead(self, tile: Tile, west: int | None = None) -> None:
        if west is None:
            west = tile.high
        east = tile.other(west)
        self.lead = Laid(tile, west, east)
        self.on_table |= 1 << tile
        self.values[WEST] = west
        self.values[EAST] = east
        if tile.is_double:
            if self.kind == "hub":
                self.values[NORTH] = self.values[SOUTH] = west
            elif self.kind == "spinner":
                self.spinner = tile
                self.spinner_arm = None

    def place(self, p: Placement) -> None:
        """Lay a tile on an open end (the caller has checked that it fits)."""
        end = p.end
        if end is None:
            self.place_lead(p.tile, p.west)
            return
        tile = p.tile
        inner = self.values[end]
        outer = PIPS[tile] - inner
        arm = self.arms[end]
        arm.append(Laid(tile, inner, outer, p.closed))
        self.values[end] = outer
        self.on_table |= 1 << tile
        if p.closed:
            self.closed[end] = True
        if self.kind != "spinner":
            return
        if self.spinner is None:
            if tile.is_double and end in (WEST, EAST):
                self.spinner = tile
                self.spinner_arm = end
                self.spinner_index = len(arm) - 1
            return
        if self.values[NORTH] == NOT_OPEN and self._long_sides_filled():
            self.values[NORTH] = self.values[SOUTH] = self.spinner.high

    def _long_sides_filled(self) -> bool:
        if self.spinner_arm is None:
            return bool(self.arms[WEST]) and bool(self.arms[EAST])
        return len(self.arms[self.spinner_arm]) > self.spinner_index + 1

    def laid_tiles(self) -> list[Laid]:
        """Every tile on the table, the lead first, then arm by arm, inner to outer."""
        out = [self.lead] if self.lead else []
        for arm in self.arms:
            out.extend(arm)
        return out


@cache
def _suits(top: int) -> tuple[int, ...]:
    """``_suits(top)[n]``: every tile of double-``top`` that carries ``n``."""
    every = (1 << set_size(top)) - 1
    return tuple(SUIT_MASKS[n] & every for n in range(top + 1))
