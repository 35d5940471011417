"""Every word the images show, in one replaceable value.

The renderers never spell a word themselves: they take a :class:`Labels`
(English by default) so that a translation layer can pass its own, e.g.
``Labels.translated(Translator.for_locale(locale))``. Templates use
``str.format`` fields named in each comment and are filled in here, after
translation. The defaults are marked with ``N_`` so that message extraction
(keyword ``N_``) finds them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields, replace

from bot.engine.moves import End
from bot.engine.scoring import DealEnd

__all__ = ["ENGLISH", "N_", "Labels"]


def N_(message: str) -> str:
    """Mark ``message`` for translation (extraction keyword ``N_``); returns it unchanged."""
    return message


@dataclass(frozen=True, slots=True)
class Labels:
    """The words drawn in images. Build a translated one with ``Labels(west=..., ...)``."""

    west: str = N_("west")
    east: str = N_("east")
    north: str = N_("north")
    south: str = N_("south")
    west_short: str = N_("W")
    east_short: str = N_("E")
    north_short: str = N_("N")
    south_short: str = N_("S")
    """Short end names, for end labels too narrow for the full name (e.g. ``N 11``)."""
    closed: str = N_("closed")
    """Marks a closed end: ``{end name} closed``."""
    boneyard: str = N_("Boneyard")
    count: str = N_("Count")
    """The all-fives count of the open ends."""
    hand: str = N_("Hand")
    pips: str = N_("Pips")
    deal_score: str = N_("Deal")
    total: str = N_("Total")
    place: str = N_("Place")
    """Latvian place points at the end of a session."""
    domino: str = N_("Domino")
    blocked: str = N_("Blocked")
    dead: str = N_("Dead")
    target: str = N_("Target reached")
    drawn: str = N_("Drawn deal")
    winner: str = N_("Winner: {names}")
    """The match is over and one seat won; ``{names}`` is its name."""
    winners: str = N_("Winners: {names}")
    """Several seats won (a team, or a tie); ``{names}`` joined with :attr:`name_joiner`."""
    name_joiner: str = N_(" & ")
    deal_title: str = N_("Deal {number}")
    """``{number}``: the deal's number, counting from 1."""

    def translated(self, translate: Callable[[str], str]) -> Labels:
        """A copy with every word passed through ``translate`` (e.g. a gettext translator)."""
        return replace(self, **{f.name: translate(getattr(self, f.name)) for f in fields(self)})

    def end_name(self, end: End) -> str:
        return (self.west, self.east, self.north, self.south)[end]

    def end_short(self, end: End) -> str:
        return (self.west_short, self.east_short, self.north_short, self.south_short)[end]

    def deal_end(self, end: DealEnd) -> str:
        return {
            "domino": self.domino,
            "blocked": self.blocked,
            "dead": self.dead,
            "target": self.target,
        }[end]


ENGLISH = Labels()
