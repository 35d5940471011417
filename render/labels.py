"""Every word the images show, in one replaceable value.

The renderers never spell a word themselves: they take a :class:`Labels`
(English by default) so that a translation layer can pass its own, e.g.
``Labels.translated(Translator.for_locale(locale))``. Templates use
``str.format`` fields named in each comment and are filled in here, after
translation. The defaults are marked with ``N_`` so that message extraction
(keyword ``N_``) finds them.

Numbers are written by :attr:`Labels.number` (English style by default: ``3.4``);
the caller passes the language's own (e.g. ``Translator.number``: ``3,4`` in
Finnish), so that this package needs no locale library.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from typing import Any

from bot.engine.moves import End
from bot.engine.scoring import DealEnd

__all__ = ["ENGLISH", "N_", "Labels", "english_number"]


def N_(message: str) -> str:
    """Mark ``message`` for translation (extraction keyword ``N_``); returns it unchanged."""
    return message


def english_number(value: float) -> str:
    """``35`` for whole numbers, ``2.5`` otherwise (one decimal): the default number format."""
    rounded = round(float(value), 1) + 0.0  # + 0.0: no negative zero
    return str(int(rounded)) if rounded.is_integer() else f"{rounded:.1f}"


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
    """The heading of a latvian session's places (1st, 2nd…) once it is over."""
    first: str = N_("1st")
    second: str = N_("2nd")
    third: str = N_("3rd")
    fourth: str = N_("4th")
    """Places in a latvian session (2–4 players); tied players share the better place."""
    domino: str = N_("Domino")
    blocked: str = N_("Blocked")
    dead: str = N_("Dead")
    target: str = N_("Target reached")
    deal_won: str = N_("{names} won the deal")
    """The summary's caption: who won the deal (names joined with :attr:`name_joiner`)."""
    deal_drawn: str = N_("A drawn deal: nobody won it")
    """The caption of a deal nobody won."""
    lowest_wins: str = N_(
        "Latvian dominoes: the lowest value wins the deal, and the lowest total wins the session"
    )
    """The caption of a latvian summary: low is good."""
    winner: str = N_("Winner: {names}")
    """The match is over and one seat won; ``{names}`` is its name."""
    winners: str = N_("Winners: {names}")
    """Several seats won (a team, or a tie); ``{names}`` joined with :attr:`name_joiner`."""
    name_joiner: str = N_(" & ")
    deal_title: str = N_("Deal {number}")
    """``{number}``: the deal's number, counting from 1."""
    mexican_train: str = N_("Mexican train")
    """Mexican Train: the label of the train everybody may lay on (a row of the station)."""
    engine: str = N_("Engine")
    """Mexican Train: the round's engine double, in the station (``Engine 12``)."""
    round_title: str = N_("Round {number}")
    """Mexican Train: ``{number}`` is the round's number, counting from 1 (summary title)."""
    round_score: str = N_("Round")
    """Mexican Train: the heading of a round's points (the summary's column, the score
    sheet's first column)."""
    round_won: str = N_("{names} won the round")
    """Mexican Train: the summary's caption naming the round's winner."""
    round_drawn: str = N_("Nobody won the round")
    """Mexican Train: the caption of a blocked round with a tie for the fewest pips."""
    mexican_lowest_wins: str = N_(
        "Mexican Train: each player scores the pips left in their hand; the lowest total wins"
    )
    """The caption of a Mexican Train summary: low is good."""
    number: Callable[[float], str] = field(default=english_number, compare=False)
    """Writes a number (scores, totals) the language's way: ``3.4`` in English, ``3,4``
    in Finnish. Not a word: :meth:`translated` leaves it alone."""

    def translated(self, translate: Callable[[str], str]) -> Labels:
        """A copy with every word passed through ``translate`` (e.g. a gettext translator)."""
        words: dict[str, Any] = {
            f.name: translate(getattr(self, f.name)) for f in fields(self) if f.type == "str"
        }
        return replace(self, **words)

    def ordinal(self, place: int) -> str:
        """``1st``, ``2nd``, ``3rd``, ``4th`` (translated); a further place as its number."""
        if 1 <= place <= 4:
            return (self.first, self.second, self.third, self.fourth)[place - 1]
        return str(place)

    def end_name(self, end: End) -> str:
        return (self.west, self.east, self.north, self.south)[end]

    def end_short(self, end: End) -> str:
        return (self.west_short, self.east_short, self.north_short, self.south_short)[end]

    def deal_end(self, end: DealEnd) -> str:
        """How a deal ended, in words: the field named as the end (``domino``, ``blocked``,
        ``dead``, ``target``)."""
        return str(getattr(self, end))


ENGLISH = Labels()
