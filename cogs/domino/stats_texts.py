"""The words of the stats commands: the embeds (text) and image data of leaderboards,
player cards and the match history, every word translated here.

Player names are the users' own text: escaped in message text (:func:`plain`),
drawn as typed in images.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.i18n import N_, Translator
from bot.stats import BoardPage, HistoryPage, MatchSeat, MatchSummary, PlayerCard, PlayerResult
from render.cards import BoardCard, BoardLine, PlayerCardImage, ResultLine

from .markup import plain
from .texts import game_name

COLOUR = discord.Colour.from_rgb(246, 190, 40)
EMBED_TEXT_LIMIT = 4000

PERIOD_NAMES = {
    "all": N_("All time"),
    "month": N_("Last 30 days"),
    "week": N_("Last 7 days"),
}
OUTCOME_NAMES = {"win": N_("Won"), "draw": N_("Draw"), "loss": N_("Lost")}


RATING_NOTE = N_(
    "Rating: a cautious estimate of skill. It rises as you win, and as the bot grows "
    "surer of how well you play."
)
UNRATED_NOTE = N_(
    "— means not rated yet: a rating comes with a finished match against another person "
    "(matches against the AI alone don't count)."
)


def _number(value: float, tr: Translator) -> str:
    """``12``, ``3.4`` in English; ``3,4`` in Finnish, Danish and Latvian."""
    return tr.number(value)


def _rating(value: float | None, tr: Translator) -> str:
    if value is None:
        return "—"
    text = tr.number(abs(value))
    return f"−{text}" if round(value, 1) < 0 else text


def _signed(value: float, tr: Translator) -> str:
    text = tr.number(abs(value))
    return f"−{text}" if round(value, 1) < 0 else f"+{text}"


def _percent(value: float, tr: Translator) -> str:
    return tr.percent(value)


def _limit(lines: Sequence[str], limit: int = EMBED_TEXT_LIMIT) -> str:
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


def board_texts(
    page: BoardPage, tr: Translator, period: str, viewer: int | None
) -> tuple[discord.Embed, BoardCard]:
    """The embed (the text) and the image data of a leaderboard page."""
    game = game_name(page.game, tr)
    latvian = page.game == "latvian"
    title = tr("{game} leaderboard", game=game)
    period_text = tr(PERIOD_NAMES[period])
    by = tr("by place points") if page.order == "places" else tr("by rating")
    subtitle = " · ".join(
        [
            period_text,
            by,
            tr.plural("{n} player", "{n} players", page.total),
            tr("page {page} of {pages}", page=page.page + 1, pages=page.pages),
        ]
    )
    # the image has no draws column (the text has): at 10 px shown, six number columns
    # leave a name too little room in Finnish
    headings = [tr("Rating"), tr("Matches"), tr("Wins"), tr("Win rate")]
    if latvian:
        headings.append(tr("Place pts"))
    lines: list[BoardLine] = []
    text: list[str] = []
    for e in page.entries:
        ordinal = e.rating.ordinal if e.rating else None
        cells = [
            _rating(ordinal, tr),
            _number(e.matches, tr),
            _number(e.wins, tr),
            _percent(e.win_rate, tr),
        ]
        if latvian:
            cells.append(_number(e.place_points, tr))
        lines.append(BoardLine(e.position, e.name, tuple(cells), highlight=e.user_id == viewer))
        facts = [
            tr("rating {value}", value=_rating(ordinal, tr)),
            tr.plural("{n} match", "{n} matches", e.matches),
            tr.plural("{n} win", "{n} wins", e.wins),
            tr.plural("{n} draw", "{n} draws", e.draws),
            _percent(e.win_rate, tr),
        ]
        if latvian:
            facts.append(tr("{n} place pts", n=_number(e.place_points, tr)))
        text.append(f"**{e.position}.** {plain(e.name)} — " + " · ".join(facts))
    empty = tr("No counted matches here yet. Finish a match to get on the board!")
    footer = f"{tr(RATING_NOTE)} {tr(UNRATED_NOTE)}"
    embed = discord.Embed(title=title, description=_limit(text) or empty, colour=COLOUR)
    embed.set_footer(text=f"{subtitle}\n{footer}")
    card = BoardCard(
        title=title,
        subtitle=subtitle,
        name_heading=tr("Player"),
        headings=tuple(headings),
        lines=tuple(lines),
        footer=footer,
        empty=empty,
    )
    return embed, card


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


def card_texts(
    card: PlayerCard, tr: Translator, guild_name: str
) -> tuple[discord.Embed, PlayerCardImage]:
    """The embed (the text) and the image data of a player's card."""
    title = tr("{name}'s stats", name=plain(card.name))
    since = (
        tr("since the reset on {date}", date=card.season.reset_at.date().isoformat())
        if card.season
        else tr("all time")
    )
    subtitle = f"{guild_name} · {since}"
    embed = discord.Embed(title=plain(title), colour=COLOUR)
    rows: list[tuple[str, ...]] = []
    for s in card.standings:
        ordinal = s.rating.ordinal if s.rating else None
        position = card.positions.get(s.game)
        rating = _rating(ordinal, tr)
        if position is not None:
            rating = tr("{rating} (#{position})", rating=rating, position=position[0])
        rows.append(
            (
                game_name(s.game, tr),
                rating,
                _number(s.matches, tr),
                _number(s.wins, tr),
                _percent(s.win_rate, tr),
                _number(round(s.points_per_match, 1), tr),
                str(s.best_streak),
            )
        )
        facts = [
            tr.plural("{n} match", "{n} matches", s.matches),
            tr.plural("{n} win", "{n} wins", s.wins),
            tr.plural("{n} draw", "{n} draws", s.draws),
            tr("win rate {rate}", rate=_percent(s.win_rate, tr)),
            tr("{n} points per match", n=_number(round(s.points_per_match, 1), tr)),
            tr("best streak {n}", n=s.best_streak),
        ]
        if s.game == "latvian":
            facts.append(tr("{n} place pts", n=_number(s.place_points, tr)))
        if position is not None:
            facts.append(
                tr(
                    "rating {value}, #{position} of {of}",
                    value=_rating(ordinal, tr),
                    position=position[0],
                    of=position[1],
                )
            )
        else:
            facts.append(
                tr(
                    "not rated yet: a rating comes with a finished match against another "
                    "person (matches against the AI alone don't count)"
                )
            )
        embed.add_field(name=game_name(s.game, tr), value=" · ".join(facts), inline=False)
    trend = [r.rating.ordinal for r in card.trend if r.rating is not None]
    trend_game = game_name(card.trend_game, tr)
    if trend:
        first = card.trend[0].rating_before
        change = trend[-1] - (first if first is not None else trend[0])
        trend_line = tr(
            "{game}: {value} after {n} rated matches ({change})",
            game=trend_game,
            value=_rating(trend[-1], tr),
            n=len(trend),
            change=_signed(change, tr),
        )
        embed.add_field(name=tr("Rating trend"), value=trend_line, inline=False)
    recent = []
    lines = []
    for r in card.recent:
        detail = _signed(r.change, tr) if r.change is not None else ""
        text = _result_text(r, tr)
        recent.append(ResultLine(r.outcome, f"{text} · {r.finished_at.date().isoformat()}", detail))
        stamp = int(r.finished_at.timestamp())
        lines.append(f"<t:{stamp}:d> {text}" + (f" ({detail})" if detail else ""))
    if lines:
        embed.add_field(name=tr("Recent results"), value=_limit(lines, 1000), inline=False)
    embed.set_footer(text=subtitle)
    image = PlayerCardImage(
        title=card.name,
        subtitle=subtitle,
        game_heading=tr("Game"),
        headings=(
            tr("Rating"),
            tr("Matches"),
            tr("Wins"),
            tr("Win rate"),
            tr("Pts/match"),
            tr("Best streak"),
        ),
        rows=tuple(rows),
        trend_title=tr("Rating trend · {game}", game=trend_game),
        trend=tuple(trend),
        trend_empty=tr("Not enough rated matches for a trend yet."),
        recent_title=tr("Recent results"),
        recent=tuple(recent),
        footer=tr(RATING_NOTE),
        number=tr.number,
    )
    return embed, image


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


def history_texts(page: HistoryPage, tr: Translator) -> discord.Embed:
    """The embed of a page of the match history."""
    lines = []
    for m in page.entries:
        stamp = int(m.finished_at.timestamp())
        head = tr(
            "`#{id}` **{game}** · <t:{stamp}:R> · {winners}",
            id=m.id,
            game=game_name(m.game, tr),
            stamp=stamp,
            winners=plain(winners_text(m, tr)),
        )
        seats = " · ".join(_seat_text(s, tr) for s in m.seats)
        lines.append(f"{head}\n{seats}")
    embed = discord.Embed(
        title=tr("Match history"),
        description=_limit(lines) or tr("No finished matches on this server yet."),
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
