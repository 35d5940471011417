"""A competition's standings as pictures (``render.standings``), in words and numbers.

:func:`standings_cards` puts the standings in words: a picture for every
:data:`~render.standings.LINES_A_PICTURE` players (a club night of up to 64 is up to 7
pictures, all attachments of one message); each picture's alt text reads its lines out.
:func:`standings_files` draws them off the event loop; it gives no files when drawing
fails (the caller then sends the standings as text).
"""

from __future__ import annotations

import asyncio
import io
import logging
from dataclasses import dataclass

import discord

from bot.competitions.competition import Competition
from bot.competitions.service import Held
from bot.i18n import N_, Translator
from render.standings import LINES_A_PICTURE, StandingLine, StandingsCard, render_standings

from .markup import plain
from .stats_texts import ALT_TEXT_LIMIT
from .texts import game_name

log = logging.getLogger(__name__)

TIE_RULE_LOWER = N_(
    "Points: place points (4 for 1st, 3 for 2nd, 2 for 3rd, 1 for 4th). Ties: the lower "
    "game total first, then head to head (who finished ahead at shared tables), then the "
    "place is shared."
)
TIE_RULE_HIGHER = N_(
    "Points: place points (4 for 1st, 3 for 2nd, 2 for 3rd, 1 for 4th). Ties: the higher "
    "game total first, then head to head (who finished ahead at shared tables), then the "
    "place is shared."
)


def points_text(value: float, tr: Translator) -> str:
    """``4``, ``2.5`` (``2,5`` in Finnish, Danish and Latvian)."""
    return tr.number(value, 1) if value != int(value) else str(int(value))


def lower_wins(c: Competition) -> bool:
    """Whether the competition's game counts a lower total as better (from its results)."""
    results = (t.result for r in c.rounds for t in r.tables if t.result is not None)
    return next((result.lower_wins for result in results), True)


def shown_round(c: Competition) -> int:
    """The round the standings are after: the last one done (else the one in play)."""
    done = [r.number for r in c.rounds if r.done]
    if done:
        return done[-1]
    return c.current.number if c.current is not None else 0


@dataclass(frozen=True, slots=True)
class Picture:
    """One picture of the standings: its card and its alt text."""

    card: StandingsCard
    alt: str


def standings_cards(held: Held, tr: Translator, viewer: int | None = None) -> list[Picture]:
    """The standings in pictures of :data:`LINES_A_PICTURE` players, best first."""
    c = held.competition
    final = c.status == "finished"
    title = (
        tr("Final standings")
        if final
        else tr("Round {round} of {rounds}", round=shown_round(c), rounds=c.format.rounds)
    )
    entrants = len(c.entrants)
    subtitle = " · ".join(
        [
            tr("Standings"),
            game_name(str(c.format.options.get("game", "latvian")), tr),
            tr.plural("{n} player", "{n} players", entrants),
        ]
    )
    scored = [r for r in c.rounds if any(t.result is not None for t in r.tables)]
    earned: dict[tuple[int, int], float] = {}
    for r in scored:
        for t in r.tables:
            if t.result is not None:
                for p, pp in zip(t.result.players, t.result.place_points(), strict=True):
                    earned[(r.number, p)] = pp
    sign = -1 if lower_wins(c) else 1
    lines = []
    for s in c.standings():
        lines.append(
            StandingLine(
                rank=s.rank,
                name=held.name_of(s.player),
                cells=(
                    points_text(s.points, tr),
                    points_text(sign * s.margin + 0.0, tr),
                    str(s.rounds),
                ),
                per_round=tuple(
                    points_text(earned[(r.number, s.player)], tr)
                    if (r.number, s.player) in earned
                    else "—"
                    for r in scored
                ),
                highlight=s.player == viewer,
            )
        )
    pages = max(1, -(-len(lines) // LINES_A_PICTURE))
    footer = tr(TIE_RULE_LOWER if lower_wins(c) else TIE_RULE_HIGHER)
    out = []
    for page in range(pages):
        chunk = tuple(lines[page * LINES_A_PICTURE : (page + 1) * LINES_A_PICTURE])
        card = StandingsCard(
            title=title,
            subtitle=subtitle,
            name_heading=tr("Player"),
            headings=(tr("Points"), tr("Total"), tr("Played")),
            round_headings=tuple(tr("R{round}", round=r.number) for r in scored),
            lines=chunk,
            footer=footer,
            page=tr("page {page} of {pages}", page=page + 1, pages=pages) if pages > 1 else "",
            empty=tr("Nobody has checked in yet."),
        )
        out.append(Picture(card, _alt(card, tr)))
    return out


def _alt(card: StandingsCard, tr: Translator) -> str:
    """The picture read out: its title, then one line a player."""
    lines = [card.title]
    for line in card.lines:
        lines.append(
            tr(
                "{rank}. {name}: {points} place points ({rounds} rounds)",
                rank=line.rank,
                name=line.name,
                points=line.cells[0],
                rounds=line.cells[2],
            )
        )
    text = "\n".join(lines)
    return text if len(text) <= ALT_TEXT_LIMIT else text[: ALT_TEXT_LIMIT - 1] + "…"


async def standings_files(
    held: Held, tr: Translator, viewer: int | None = None
) -> list[discord.File]:
    """The standings' pictures as attachments (none if drawing failed)."""
    pictures = standings_cards(held, tr, viewer)
    try:
        pngs = [await asyncio.to_thread(render_standings, p.card) for p in pictures]
    except Exception:
        log.exception("competition %d: drawing the standings failed", held.id)
        return []
    many = len(pngs) > 1
    return [
        discord.File(
            io.BytesIO(png),
            filename=f"standings-{held.id}-{n}.png" if many else f"standings-{held.id}.png",
            description=p.alt,
        )
        for n, (png, p) in enumerate(zip(pngs, pictures, strict=True), start=1)
    ]


LEADERS = 3
"""The players the short standings under a picture name."""


def leaders_text(held: Held, tr: Translator) -> str:
    """The standings in one line, for the text beside the pictures: the first few."""
    top = held.competition.standings()[:LEADERS]
    leaders = ", ".join(
        tr(
            "{rank}. {name} {points}",
            rank=s.rank,
            name=plain(held.name_of(s.player)),
            points=points_text(s.points, tr),
        )
        for s in top
    )
    return tr("**Standings**: {leaders}", leaders=leaders or "—")
