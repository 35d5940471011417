"""The words of the stats commands, every one translated here.

Each answer takes one form (docs/LEADERBOARDS.md, "What players see"):

- a leaderboard page is a picture (:func:`board_card`, drawn by ``render.cards``): its
  columns line up. Where the picture cannot be shown (drawing or attaching it failed)
  the same page is text (:func:`board_embed`); the picture's alt text
  (:func:`board_alt`) reads it out;
- a player's stats (:func:`card_embed`) and the match history (:func:`history_embed`)
  are text: sentences per game, recent results, dates.

Dates are written one way, the language's (``Translator.date``), and the history says
how long ago a match ended (``Translator.ago``). Player names are the users' own text:
escaped in message text (:func:`plain`), drawn as typed in pictures.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import discord

from bot.i18n import N_, Translator
from bot.stats import (
    BoardPage,
    ClosedSeason,
    HistoryPage,
    MatchSeat,
    MatchSummary,
    PlayerCard,
    PlayerResult,
)
from render.cards import BoardCard, BoardLine

from .markup import plain
from .texts import PERIOD_NAMES, game_name

COLOUR = discord.Colour.from_rgb(246, 190, 40)
EMBED_TEXT_LIMIT = 4000
ALT_TEXT_LIMIT = 1024
"""Discord's limit on an attachment's description (its alt text)."""

OUTCOME_NAMES = {"win": N_("Won"), "draw": N_("Draw"), "loss": N_("Lost")}


RATING_NOTE = N_(
    "Rating: a cautious estimate of skill. It rises as you win, and as the bot grows "
    "surer of how well you play."
)
UNRATED_NOTE = N_(
    "— means not rated yet: a rating comes with a finished match against another person "
    "(matches against the AI alone don't count)."
)
NOT_RATED_NOTE = N_(
    "Not rated yet: a rating comes with a finished match against another person. "
    "Matches against the AI count in the stats, unrated."
)


def _number(value: float, tr: Translator) -> str:
    """``12``, ``3.4`` in English; ``3,4`` in Finnish, Danish and Latvian."""
    return tr.number(value)


def _rating(value: float | None, tr: Translator) -> str:
    if value is None:
        return "—"
    text = tr.number(abs(value), fixed=True)  # 21.0 beside 18.9, not 21
    return f"−{text}" if round(value, 1) < 0 else text


def _signed(value: float, tr: Translator) -> str:
    text = tr.number(abs(value))
    return f"−{text}" if round(value, 1) < 0 else f"+{text}"


def limited(lines: Sequence[str], limit: int = EMBED_TEXT_LIMIT) -> str:
    """``lines`` joined, as many as fit ``limit`` characters (then "…")."""
    out: list[str] = []
    size = 0
    for line in lines:
        size += len(line) + 1
        if size > limit:
            out.append("…")
            break
        out.append(line)
    return "\n".join(out)


# -- leaderboard ----------------------------------------------------------------------------------


def _board_heads(
    page: BoardPage, tr: Translator, period: str, closed: ClosedSeason | None = None
) -> tuple[str, str, str]:
    """A page's title, its subtitle (season or period, order, players) and its page line.

    A live board names its season (and the period, when it is not the whole season); a
    closed season's board (``closed``) names the season and its span."""
    title = tr("{game} leaderboard", game=game_name(page.game, tr))
    by = tr("by place points") if page.order == "places" else tr("by rating")
    if closed is not None:
        parts = [tr("Season {number} (closed)", number=closed.number), season_span(closed, tr)]
    elif page.season is not None:
        parts = [tr("Season {number}", number=page.season)]
        if period != "all":
            parts.append(tr(PERIOD_NAMES[period]))
    else:
        parts = [tr(PERIOD_NAMES[period])]
    subtitle = " · ".join([*parts, by, tr.plural("{n} player", "{n} players", page.total)])
    return title, subtitle, tr("page {page} of {pages}", page=page.page + 1, pages=page.pages)


def season_span(closed: ClosedSeason, tr: Translator) -> str:
    """``Mar 3, 2025 – Mar 10, 2025``; ``until Mar 10, 2025`` for a first season."""
    if closed.started_at is None:
        return tr("until {end}", end=tr.date(closed.ended_at))
    return tr("{start} – {end}", start=tr.date(closed.started_at), end=tr.date(closed.ended_at))


def _board_note(page: BoardPage, tr: Translator) -> str:
    """What the rating is, once; what "—" means, when the page shows one."""
    unrated = any(e.rating is None for e in page.entries)
    return f"{tr(RATING_NOTE)} {tr(UNRATED_NOTE)}" if unrated else tr(RATING_NOTE)


def board_card(
    page: BoardPage,
    tr: Translator,
    period: str,
    viewer: int | None,
    closed: ClosedSeason | None = None,
) -> BoardCard:
    """A leaderboard page as a picture's data (the viewer's own line outlined); a closed
    season's board with ``closed``."""
    latvian = page.game == "latvian"
    title, subtitle, page_line = _board_heads(page, tr, period, closed)
    # the picture has no draws column (the text has): at 10 px shown, six number columns
    # leave a name too little room in Finnish
    headings = [tr("Rating"), tr("Matches"), tr("Wins"), tr("Win rate")]
    if latvian:
        headings.append(tr("Place pts"))
    lines: list[BoardLine] = []
    for e in page.entries:
        cells = [
            _rating(e.rating.ordinal if e.rating else None, tr),
            _number(e.matches, tr),
            _number(e.wins, tr),
            tr.percent(e.win_rate),
        ]
        if latvian:
            cells.append(_number(e.place_points, tr))
        lines.append(BoardLine(e.position, e.name, tuple(cells), highlight=e.user_id == viewer))
    return BoardCard(
        title=title,
        subtitle=subtitle,
        page=page_line,
        name_heading=tr("Player"),
        headings=tuple(headings),
        lines=tuple(lines),
        footer=_board_note(page, tr),
        empty=tr("No counted matches here yet. Finish a match to get on the board!"),
    )


def _board_lines(page: BoardPage, tr: Translator, escape: bool) -> list[str]:
    out = []
    for e in page.entries:
        facts = [
            tr("rating {value}", value=_rating(e.rating.ordinal if e.rating else None, tr)),
            tr.plural("{n} match", "{n} matches", e.matches),
            tr.plural("{n} win", "{n} wins", e.wins),
            tr.plural("{n} draw", "{n} draws", e.draws),
            tr.percent(e.win_rate),
        ]
        if page.game == "latvian":
            facts.append(tr("{n} place pts", n=_number(e.place_points, tr)))
        name = plain(e.name) if escape else e.name
        position = f"**{e.position}.**" if escape else f"{e.position}."
        out.append(f"{position} {name} — " + " · ".join(facts))
    return out


def board_embed(
    page: BoardPage, tr: Translator, period: str, closed: ClosedSeason | None = None
) -> discord.Embed:
    """A leaderboard page as text: the subtitle, a line per player, the note; the page
    line alone in the footer."""
    title, subtitle, page_line = _board_heads(page, tr, period, closed)
    lines = _board_lines(page, tr, escape=True) or [
        tr("No counted matches here yet. Finish a match to get on the board!")
    ]
    note = _board_note(page, tr)
    body = limited(lines, EMBED_TEXT_LIMIT - len(subtitle) - len(note) - 8)
    embed = discord.Embed(
        title=title, description=f"{subtitle}\n\n{body}\n\n*{note}*", colour=COLOUR
    )
    embed.set_footer(text=page_line)
    return embed


def board_alt(
    page: BoardPage, tr: Translator, period: str, closed: ClosedSeason | None = None
) -> str:
    """The picture's alt text: the page read out (cut to Discord's limit)."""
    title, subtitle, page_line = _board_heads(page, tr, period, closed)
    lines = [f"{title}. {subtitle} · {page_line}.", *_board_lines(page, tr, escape=False)]
    return limited(lines, ALT_TEXT_LIMIT - 2)


# -- player card ----------------------------------------------------------------------------------


def _result_text(result: PlayerResult, tr: Translator) -> str:
    if result.outcome == "loss" and result.sides > 2:
        outcome = tr("place {rank} of {sides}", rank=result.rank, sides=result.sides)
    else:
        outcome = tr(OUTCOME_NAMES[result.outcome])
    parts = [game_name(result.game, tr), outcome, tr("{n} pts", n=_number(result.points, tr))]
    if result.place is not None:
        parts.append(tr("{n} place pts", n=_number(result.place, tr)))
    return " · ".join(parts)


def card_embed(card: PlayerCard, tr: Translator, guild_name: str) -> discord.Embed:
    """A player's stats as text: a field per game (with its matches against the AI),
    the rating trend, recent results; the notes once, in the footer."""
    if card.season is None:
        since = tr("all time")
    elif card.season.number > 1:
        since = tr(
            "season {number}, since {date}",
            number=card.season.number,
            date=tr.date(card.season.reset_at),
        )
    else:
        since = tr("since the reset on {date}", date=tr.date(card.season.reset_at))
    embed = discord.Embed(
        title=plain(tr("{name}'s stats", name=card.name)),
        description=plain(f"{guild_name} · {since}" if guild_name else since),
        colour=COLOUR,
    )
    unrated = False
    for s in card.standings:
        ordinal = s.rating.ordinal if s.rating else None
        position = card.positions.get(s.game)
        if position is not None:
            rating = tr(
                "rating {value}, #{position} of {of}",
                value=_rating(ordinal, tr),
                position=position[0],
                of=position[1],
            )
        else:
            rating = tr("not rated yet")
            unrated = True
        facts = [
            rating,
            tr.plural("{n} match", "{n} matches", s.matches),
            tr.plural("{n} win", "{n} wins", s.wins),
            tr.plural("{n} draw", "{n} draws", s.draws),
            tr("win rate {rate}", rate=tr.percent(s.win_rate)),
            tr("{n} points per match", n=_number(round(s.points_per_match, 1), tr)),
            tr("best streak {n}", n=s.best_streak),
        ]
        if s.game == "latvian":
            facts.append(tr("{n} place pts", n=_number(s.place_points, tr)))
        value = " · ".join(facts)
        ai = card.against_ai.get(s.game)
        if ai is not None and ai.matches:
            value += "\n" + tr(
                "against the AI (unrated): {matches}, {wins}",
                matches=tr.plural("{n} match", "{n} matches", ai.matches),
                wins=tr.plural("{n} win", "{n} wins", ai.wins),
            )
        embed.add_field(name=game_name(s.game, tr), value=value, inline=False)
    trend = [r.rating.ordinal for r in card.trend if r.rating is not None]
    if trend:
        first = card.trend[0].rating_before
        change = trend[-1] - (first if first is not None else trend[0])
        trend_line = tr(
            "{game}: {value} after {n} rated matches ({change})",
            game=game_name(card.trend_game, tr),
            value=_rating(trend[-1], tr),
            n=len(trend),
            change=_signed(change, tr),
        )
        embed.add_field(name=tr("Rating trend"), value=trend_line, inline=False)
    lines = []
    for r in card.recent:
        detail = f" ({_signed(r.change, tr)})" if r.change is not None else ""
        lines.append(f"{tr.date(r.finished_at)} · {_result_text(r, tr)}{detail}")
    if lines:
        embed.add_field(name=tr("Recent results"), value=limited(lines, 1000), inline=False)
    # one paragraph: a footer shows no line breaks everywhere (SimCord's preview drops them)
    notes = [tr(RATING_NOTE)] + ([tr(NOT_RATED_NOTE)] if unrated else [])
    embed.set_footer(text=" ".join(notes))
    return embed


# -- history ----------------------------------------------------------------------------------


def _seat_text(seat: MatchSeat, tr: Translator) -> str:
    name = tr("{name} (AI)", name=seat.name) if seat.user_id is None else seat.name
    text = f"{plain(name)} {_number(seat.total, tr)}"
    return f"**{text}**" if seat.won else text


def winners_text(match: MatchSummary, tr: Translator) -> str:
    """Who won a stored match, for message text (names escaped)."""
    winners = match.winners
    if not winners:
        return tr("a draw")
    names = tr(" & ").join(
        plain(tr("{name} (AI)", name=s.name) if s.user_id is None else s.name) for s in winners
    )
    return tr("won by {names}", names=names)


def history_embed(page: HistoryPage, tr: Translator, now: datetime) -> discord.Embed:
    """A page of the match history: each match, how long ago it ended (at ``now``)."""
    lines = []
    for m in page.entries:
        head = tr(
            "`#{id}` **{game}** · {ago} · {winners}",
            id=m.id,
            game=game_name(m.game, tr),
            ago=tr.ago(m.finished_at, now),
            winners=plain(winners_text(m, tr)),
        )
        seats = " · ".join(_seat_text(s, tr) for s in m.seats)
        lines.append(f"{head}\n{seats}")
    embed = discord.Embed(
        title=tr("Match history"),
        description=limited(lines) or tr("No finished matches on this server yet."),
        colour=COLOUR,
    )
    embed.set_footer(
        text=" · ".join(
            [
                tr.plural("{n} match", "{n} matches", page.total),
                tr("page {page} of {pages}", page=page.page + 1, pages=page.pages),
                tr("Pick a match below to download its record."),
            ]
        )
    )
    return embed
