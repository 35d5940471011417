"""The public table message and the lobby: embeds, buttons and the board image.

Everything here is public: it reads the game's snapshot
(:class:`~bot.games.snapshot.Snapshot`: hand sizes, never hands). Player names are
the users' own text: in message text they are escaped (:func:`plain`), so a
name with ``**`` or ``@everyone`` is shown as typed and pings nobody; images
draw them as they are. :mod:`cogs.domino.announcer` sends these messages.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable

import discord

from bot.engine.view import StationView
from bot.games.errors import train_word
from bot.games.moves_text import end_name
from bot.games.service import REMATCH_LIFE
from bot.games.session import FINISHED, LOBBY, PLAYING
from bot.games.snapshot import MatchSnapshot, Snapshot
from bot.i18n import N_, Translator
from render.board import render_board
from render.summary import render_summary

from .items import RematchButton, ReviewButton, TableButton, sent_view
from .markup import plain
from .narrate import Feed
from .texts import ai_level_name, game_name, image_labels, rules_summary

COLOUR = discord.Colour.from_rgb(46, 125, 50)


def seat_label(
    game: Snapshot, seat: int, tr: Translator, escape: Callable[[str], str] = str
) -> str:
    """A seat's name as drawn in images (as typed); ``escape`` it for message text."""
    s = game.seats[seat]
    name = escape(s.name)
    if s.is_ai:
        return tr("{name} (AI, {level})", name=name, level=ai_level_name(s.ai or "", tr))
    return name


def seat_text(game: Snapshot, seat: int, tr: Translator) -> str:
    """A seat's name for message text: markdown and mentions escaped."""
    return seat_label(game, seat, tr, plain)


def seat_line(game: Snapshot, seat: int, tr: Translator) -> str:
    """``2. Bob``, a seat by number and name (``2. —`` while it is empty)."""
    return f"{seat + 1}. {seat_text(game, seat, tr) if seat < len(game.seats) else '—'}"


def text_names(game: Snapshot) -> list[str]:
    """Every seat's name, escaped for message text."""
    return [plain(s.name) for s in game.seats]


def lobby_embed(game: Snapshot, tr: Translator, lines: list[str]) -> discord.Embed:
    rules = game.rules
    embed = discord.Embed(
        title=tr("{game}: a table is open", game=game_name(rules.game, tr)),
        description=rules_summary(rules, tr),
        colour=COLOUR,
    )
    seats = "\n".join(seat_line(game, seat, tr) for seat in range(rules.players))
    embed.add_field(name=tr("Seats"), value=seats, inline=False)
    if rules.teams:
        embed.add_field(name=tr("Partners"), value=teams_text(game, tr), inline=False)
    if game.timer:
        embed.add_field(name=tr("Turn timer"), value=tr("{n} s", n=game.timer))
    if lines:
        embed.add_field(name=tr("Latest"), value="\n".join(lines), inline=False)
    embed.set_footer(text=tr("Game #{id}", id=game.id))
    return embed


def teams_text(game: Snapshot, tr: Translator) -> str:
    """Who partners whom: one line a team, its seats by number (an empty seat as —)."""
    rules = game.rules
    lines = []
    for side, seats in enumerate(rules.sides):
        members = " & ".join(seat_line(game, seat, tr) for seat in seats)
        lines.append(tr("Team {n}: {members}", n=side + 1, members=members))
    return "\n".join(lines)


def lobby_view(game: Snapshot, tr: Translator) -> discord.ui.View:
    full = game.full
    return sent_view(
        TableButton(game.id, "join", tr("Join"), discord.ButtonStyle.success, full),
        TableButton(game.id, "leave", tr("Leave"), discord.ButtonStyle.secondary),
        TableButton(game.id, "addbot", tr("Add AI"), discord.ButtonStyle.secondary, full),
        TableButton(game.id, "start", tr("Start"), discord.ButtonStyle.primary, not full),
    )


def table_embed(game: Snapshot, tr: Translator, told: Feed) -> discord.Embed:
    match = game.match
    assert match is not None
    board = match.board
    rules = game.rules
    title = tr(
        N_("{game} — round {number} of {rounds}")
        if rules.mexican
        else N_("{game} — deal {number}"),
        game=game_name(rules.game, tr),
        number=match.deal_number,
        rounds=rules.deals or match.deal_number,
    )
    embed = discord.Embed(title=title, description=rules_summary(rules, tr), colour=COLOUR)
    sizes = board.hand_sizes
    totals = match.totals
    rows = []
    for seat in range(rules.players):
        marker = "▶" if game.turn == seat else "•"
        tiles = tr.plural("{n} tile", "{n} tiles", sizes[seat])
        name = seat_text(game, seat, tr)
        if rules.teams:
            row = tr(
                "{marker} **{name}** (team {n}): {tiles}",
                marker=marker,
                name=name,
                n=rules.side_of(seat) + 1,
                tiles=tiles,
            )
        else:
            row = tr(
                "{marker} **{name}**: {tiles} · {score}",
                marker=marker,
                name=name,
                tiles=tiles,
                score=tr("{n} pts", n=_number(totals[rules.side_of(seat)], tr)),
            )
        rows.append(row)
    embed.add_field(name=tr("Players"), value="\n".join(rows), inline=False)
    if rules.teams:
        scores = [
            tr("Team {n}: {score}", n=side + 1, score=tr("{n} pts", n=_number(total, tr)))
            for side, total in enumerate(totals)
        ]
        embed.add_field(name=tr("Score"), value=" · ".join(scores), inline=False)
    table = board.table
    ends = [f"{end_name(e, tr)} {number}" for e, number in table.ends.items()]
    closed = [tr("{end} closed", end=end_name(e, tr)) for e in table.closed]
    if table.lead is not None and board.station is None:
        embed.add_field(name=tr("Open ends"), value=" · ".join(ends + closed) or "—")
    if board.station is not None:
        embed.add_field(
            name=tr("Trains"), value=trains_text(game, match, board.station, tr), inline=False
        )
    if rules.draws:
        embed.add_field(name=tr("Boneyard"), value=str(board.boneyard_size))
    if match.fives:
        embed.add_field(name=tr("Count"), value=str(table.count))
    if told.lines:
        embed.add_field(name=feed_title(game, told, tr), value="\n".join(told.lines), inline=False)
    if game.status == FINISHED:
        embed.add_field(
            name=tr("Rematch"),
            value=tr(
                "The same seats and rules: each player clicks Rematch within {n} minutes.",
                n=int(REMATCH_LIFE.total_seconds() // 60),
            ),
            inline=False,
        )
    turn = game.turn_seat
    if match.over:
        embed.set_footer(text=tr("Game #{id} · the match is over", id=game.id))
    elif turn is not None:
        embed.set_footer(text=tr("Game #{id} · {name} to play", id=game.id, name=plain(turn.name)))
    if board.station is None:
        embed.set_image(url="attachment://board.png")
    # Mexican Train's station is a tall picture of many trains: Discord shows an embed's
    # image in at most 400 x 300 px, an attachment beside the embed about 400 px wide
    # on a phone (render/station.py holds its print to 10 px there).
    return embed


def feed_title(game: Snapshot, told: Feed, tr: Translator) -> str:
    """The feed's heading: whose last turn it starts from."""
    if told.since is None or told.since >= len(game.seats):
        return tr("Latest")
    return tr("Since {name}'s last turn", name=seat_text(game, told.since, tr))


def trains_text(game: Snapshot, match: MatchSnapshot, station: StationView, tr: Translator) -> str:
    """Mexican Train's trains in words (public): each train's end number and marker, the
    engine, and the double that must be satisfied, if one waits."""
    names = text_names(game)
    engine = match.stories[-1].engine
    lines = [tr("Engine: {tile}", tile=engine)]
    for train in station.trains:
        word = train_word(train.train, names).label(tr)
        if train.marker:
            lines.append(tr("{train}: ends in {number}, marker out", train=word, number=train.end))
        else:
            lines.append(tr("{train}: ends in {number}", train=word, number=train.end))
    waiting = station.unsatisfied
    if waiting is not None and not match.board.deal_over:
        lines.append(
            tr(
                "**The double {number}-{number} on {train} must be satisfied.**",
                number=station.train(waiting).end,
                train=train_word(waiting, names).text(tr),
            )
        )
    return "\n".join(lines)


def table_view(game: Snapshot, tr: Translator) -> discord.ui.View:
    if game.status == PLAYING:
        return sent_view(
            TableButton(game.id, "hand", tr("Show my hand"), discord.ButtonStyle.primary)
        )
    if game.status == FINISHED:
        return sent_view(RematchButton(game.id, tr("Rematch")), ReviewButton(game.id, tr("Review")))
    return sent_view()


def finished_embed(game: Snapshot, tr: Translator, lines: list[str]) -> discord.Embed:
    embed = discord.Embed(
        title=tr("{game}: game over", game=game_name(game.rules.game, tr)),
        description="\n".join(lines) or tr("The game was ended."),
        colour=COLOUR,
    )
    embed.set_footer(text=tr("Game #{id}", id=game.id))
    return embed


def _number(x: float, tr: Translator | None = None) -> str:
    """``x`` in ``tr``'s language (``3,4`` in Finnish; English ``3.4`` without one)."""
    return (tr or Translator()).number(x)


async def board_file(game: Snapshot, tr: Translator) -> discord.File:
    """The board image of the deal in play (drawn off the event loop)."""
    match = game.match
    assert match is not None
    names = [seat_label(game, i, tr) for i in range(len(game.seats))]
    # the tiles laid since the last turn of the seat to move, numbered as the feed tells
    png = await asyncio.to_thread(
        render_board,
        match.board,
        names=names,
        totals=match.totals,
        labels=image_labels(tr),
        recent=match.recent,
    )
    return discord.File(io.BytesIO(png), filename="board.png")


async def table_message(
    game: Snapshot, tr: Translator, told: Feed
) -> tuple[discord.Embed, discord.ui.View, list[discord.File]]:
    """The table (or lobby, or final) message: its embed, buttons (none once the game
    is over) and image."""
    if game.status == LOBBY:
        return lobby_embed(game, tr, told.lines), lobby_view(game, tr), []
    if game.match is None or game.status not in (PLAYING, FINISHED):
        return finished_embed(game, tr, told.lines), sent_view(), []
    file = await board_file(game, tr)
    return table_embed(game, tr, told), table_view(game, tr), [file]


async def summary_file(game: Snapshot, number: int, tr: Translator) -> discord.File | None:
    """The summary image of deal ``number`` (from 1), or None if it is not over."""
    score = game.match.summary(number) if game.match is not None else None
    if score is None:
        return None
    names = [seat_label(game, i, tr) for i in range(len(game.seats))]
    png = await asyncio.to_thread(render_summary, score, names, labels=image_labels(tr))
    return discord.File(io.BytesIO(png), filename=f"deal-{number}.png")


def deal_over_line(game: Snapshot, number: int, tr: Translator) -> str:
    """The line above a finished deal's summary (a Mexican Train round's)."""
    if game.rules.mexican:
        return tr("**Round {number} is over.**", number=number)
    return tr("**Deal {number} is over.**", number=number)


def turn_ping(game: Snapshot, user_id: int, tr: Translator) -> str:
    """The turn ping: whose turn, and what they need to know to move (public facts only):
    the ends to play on and the count; in Mexican Train the double that must be
    satisfied, or the end of the player's own train."""
    match = game.match
    seat = game.turn
    if match is None or seat is None:
        return tr("<@{user}>, it's your turn.", user=user_id)
    station = match.board.station
    if station is not None:
        if station.unsatisfied is not None:
            return tr(
                "<@{user}>, it's your turn: the double {number}-{number} must be satisfied.",
                user=user_id,
                number=station.train(station.unsatisfied).end,
            )
        return tr(
            "<@{user}>, it's your turn: your train ends in {number}.",
            user=user_id,
            number=station.train(seat).end,
        )
    table = match.board.table
    if table.lead is None:
        return tr("<@{user}>, it's your turn to lead.", user=user_id)
    ends = " · ".join(f"{end_name(e, tr)} {number}" for e, number in table.ends.items())
    if match.fives:
        return tr(
            "<@{user}>, it's your turn: the ends show {ends} (count {count}).",
            user=user_id,
            ends=ends,
            count=table.count,
        )
    if not ends:
        return tr("<@{user}>, it's your turn.", user=user_id)
    return tr("<@{user}>, it's your turn: the ends show {ends}.", user=user_id, ends=ends)
