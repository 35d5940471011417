"""How a deal and a match ended, in one line each (public: results only, no hidden tile).

Shared by whatever tells a result: the table's feed (:mod:`cogs.domino.narrate`), and a
player's hand message (:mod:`cogs.domino.hand_message`), which says how the match, or the deal
before the one in play, ended. Both read the match's public score
(:class:`~bot.engine.view.ScoreView`, from the game's snapshot).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.scoring import DealEnd
from bot.engine.view import ScoreView
from bot.i18n import N_, Translator

SHARED = {
    # (a blocked Mexican Train round, a dead or blocked deal, a Mexican Train match or
    # another match; won by one seat or side): the line
    ("round", True): N_("Round {number} is blocked: {name} has the fewest pips and wins it."),
    ("round", False): N_("Round {number} is blocked: {name} have the fewest pips and share it."),
    ("dead", True): N_("Deal {number} is dead: {name} wins it."),
    ("dead", False): N_("Deal {number} is dead: {name} win it."),
    ("blocked", True): N_("Deal {number} is blocked: {name} wins it."),
    ("blocked", False): N_("Deal {number} is blocked: {name} win it."),
    ("lowest total", True): N_("The match is over: {name} wins with the lowest total!"),
    ("lowest total", False): N_("The match is over: {name} share the lowest total!"),
    ("match", True): N_("The match is over: {name} wins!"),
    ("match", False): N_("The match is over: {name} win!"),
}


def deal_end_line(score: ScoreView, number: int, tr: Translator, names: Sequence[str]) -> str:
    """How deal ``number`` (from 1, over) ended; ``names`` escaped for message text. A
    partner who went out is named alone, the side that won after."""
    result = score.results[number - 1]
    winners = result.winners
    who = " & ".join(names[s] for s in winners)
    alone = len(winners) == 1
    if score.rules.mexican:
        if result.end == DealEnd.DOMINO:
            return tr("Domino! {name} went out and wins round {number}.", name=who, number=number)
        if not winners:
            return tr("Round {number} is blocked: nobody wins it.", number=number)
        return tr(SHARED["round", alone], number=number, name=who)
    if result.end == "domino":
        out = result.out_seat
        if out is not None and len(winners) > 1:
            return tr(
                "Domino! {name} went out: {winners} win deal {number}.",
                name=names[out],
                winners=who,
                number=number,
            )
        return tr("Domino! {name} went out and wins deal {number}.", name=who, number=number)
    if result.end == "target":
        return tr("{name} reached the target.", name=who)
    if not winners:
        return tr("Deal {number} is blocked: a drawn deal.", number=number)
    ended = "dead" if result.end == "dead" else "blocked"
    return tr(SHARED[ended, alone], number=number, name=who)


def match_end_line(score: ScoreView, tr: Translator, names: Sequence[str]) -> str:
    """Who won the match that is over; ``names`` escaped for message text."""
    if not score.winners:
        return tr("The match is over: a draw.")
    who = " & ".join(names[s] for s in score.winners)
    ended = "lowest total" if score.rules.mexican else "match"
    return tr(SHARED[ended, len(score.winners) == 1], name=who)
