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
from bot.i18n import Translator


def deal_end_line(score: ScoreView, number: int, tr: Translator, names: Sequence[str]) -> str:
    """How deal ``number`` (from 1, over) ended; ``names`` escaped for message text. A
    partner who went out is named alone, the side that won after."""
    result = score.results[number - 1]
    winners = result.winners
    who = " & ".join(names[s] for s in winners)
    n = len(winners)
    if score.rules.mexican:
        if result.end == DealEnd.DOMINO:
            return tr("Domino! {name} went out and wins round {number}.", name=who, number=number)
        if not winners:
            return tr("Round {number} is blocked: nobody wins it.", number=number)
        return (
            tr(
                "Round {number} is blocked: {name} has the fewest pips and wins it.",
                number=number,
                name=who,
            )
            if n == 1
            else tr(
                "Round {number} is blocked: {name} have the fewest pips and share it.",
                number=number,
                name=who,
            )
        )
    if result.end == "domino":
        out = result.out_seat
        if out is not None and n > 1:
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
    if result.end == "dead":
        return (
            tr("Deal {number} is dead: {name} wins it.", number=number, name=who)
            if n == 1
            else tr("Deal {number} is dead: {name} win it.", number=number, name=who)
        )
    return (
        tr("Deal {number} is blocked: {name} wins it.", number=number, name=who)
        if n == 1
        else tr("Deal {number} is blocked: {name} win it.", number=number, name=who)
    )


def match_end_line(score: ScoreView, tr: Translator, names: Sequence[str]) -> str:
    """Who won the match that is over; ``names`` escaped for message text."""
    if not score.winners:
        return tr("The match is over: a draw.")
    who = " & ".join(names[s] for s in score.winners)
    if score.rules.mexican:
        return (
            tr("The match is over: {name} wins with the lowest total!", name=who)
            if len(score.winners) == 1
            else tr("The match is over: {name} share the lowest total!", name=who)
        )
    return (
        tr("The match is over: {name} wins!", name=who)
        if len(score.winners) == 1
        else tr("The match is over: {name} win!", name=who)
    )
