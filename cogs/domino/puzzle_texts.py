"""The daily puzzle's words: the post, the answer, the stats and the settings' replies."""

from __future__ import annotations

from bot.engine.puzzle import Puzzle
from bot.games.moves_text import describe
from bot.i18n import N_, Translator
from bot.puzzles import AnswerOutcome, DailyPuzzle, PuzzleSettings, PuzzleStats

from .markup import plain
from .texts import game_name

NOT_MANAGER = N_("Only members with Manage Server can set up the daily puzzle.")
CANT_POST = N_("I can't post the daily puzzle in {channel}: I need {permissions} there.")
NOT_TEXT = N_("The daily puzzle is posted in a text channel of this server.")


def seat_names(daily: DailyPuzzle, tr: Translator) -> list[str]:
    """Each seat's name: the match's, else "Player 1", "Player 2"…"""
    players = daily.puzzle.rules.players
    if len(daily.names) == players:
        return list(daily.names)
    return [tr("Player {n}", n=seat + 1) for seat in range(players)]


def image_title(puzzle: Puzzle, tr: Translator) -> str:
    return tr("{game}: find the best move", game=game_name(puzzle.rules.game, tr))


def captions(daily: DailyPuzzle, tr: Translator) -> list[str]:
    names = seat_names(daily, tr)
    return [
        tr("{name}, to move", name=name) if seat == daily.puzzle.seat else name
        for seat, name in enumerate(names)
    ]


def move_label(puzzle: Puzzle, choice: int, tr: Translator) -> str:
    return describe(puzzle.choices[choice].move, tr)


def post_text(daily: DailyPuzzle, tr: Translator) -> str:
    """The words of the puzzle's message (public or ephemeral)."""
    name = plain(seat_names(daily, tr)[daily.puzzle.seat])
    return tr(
        "**Daily puzzle** · {game} · {day}\n"
        "All hands are shown: the deal is over. **{name}** to move: find the best move!"
        " Each player answers once, privately.",
        game=game_name(daily.puzzle.rules.game, tr),
        day=daily.day,
        name=name,
    )


def points(value: float, tr: Translator) -> str:
    return tr.plural("{n} point", "{n} points", round(value))


def answer_text(outcome: AnswerOutcome, tr: Translator) -> str:
    puzzle = outcome.daily.puzzle
    best = move_label(puzzle, puzzle.answer, tr)
    margin = points(puzzle.margin, tr)
    if outcome.correct:
        text = tr(
            "✅ Right! **{move}** is the best move: {margin} better than any other.",
            move=best,
            margin=margin,
        )
    else:
        lost = puzzle.best.value - puzzle.choices[outcome.choice].value
        text = tr(
            "❌ Not this time. The best move was **{move}**, {margin} better than any other;"
            " **{yours}** is worth {lost} less.",
            move=best,
            margin=margin,
            yours=move_label(puzzle, outcome.choice, tr),
            lost=points(lost, tr),
        )
    streak = tr.plural(
        "Your streak: {n} puzzle in a row.",
        "Your streak: {n} puzzles in a row.",
        outcome.streak.current,
    )
    return f"{text}\n{streak}"


def stats_text(stats: PuzzleStats, tr: Translator) -> str:
    mine = stats.mine
    lines = [tr("**Your daily puzzles**")]
    if mine.answered:
        lines.append(
            tr(
                "Solved {solved} of {answered} ({accuracy}). Streak {current}, best {best}.",
                solved=mine.solved,
                answered=mine.answered,
                accuracy=tr.percent(mine.solved / mine.answered),
                current=mine.current,
                best=mine.best,
            )
        )
    else:
        lines.append(tr("You have not answered a puzzle here yet: try `/domino puzzle today`."))
    lines.append("")
    lines.append(tr("**Top streaks in this server**"))
    if not stats.top:
        lines.append(tr("Nobody has solved a puzzle here yet."))
    for place, streak in enumerate(stats.top, 1):
        lines.append(
            tr(
                "{place}. <@{user}>: {current} in a row (best {best})",
                place=place,
                user=streak.user_id,
                current=streak.current,
                best=streak.best,
            )
        )
    return "\n".join(lines)


def settings_text(settings: PuzzleSettings, tr: Translator) -> str:
    if not settings.enabled or settings.channel_id is None:
        return tr("The daily puzzle is off in this server.")
    return tr(
        "The daily puzzle is on: posted in <#{channel}> every day at {time} UTC.",
        channel=settings.channel_id,
        time=f"{settings.minute // 60:02d}:{settings.minute % 60:02d}",
    )
