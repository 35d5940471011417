"""A game review in words: the picture's card (``render.review``) and the reply's lines,
in the asker's language. Everything comes from the service's :class:`ReviewShown`, the
public values of a finished deal."""

from __future__ import annotations

from bot.engine.review import DealReview, MoveRow
from bot.games.moves_text import describe
from bot.i18n import N_, Translator
from bot.review import ReviewShown
from render.review import MistakePicture, ReviewCard, SeatLine

from .markup import plain
from .texts import game_name, image_labels

UNIT_WORDS = {
    "points": N_("points"),
    "wins": N_("deals won"),
    "penalty": N_("penalty points"),
    "minus": N_("minus points"),
    "pips": N_("pips"),
}
NOTES = {
    "open_playouts": N_(
        "With all hands open, this game is valued by playing the deal out many times, "
        "not solved exactly."
    ),
    "known_horizon": N_(
        "Mexican Train's search looks a few moves ahead and estimates the rest of the round."
    ),
    "known_candidates": N_("Where a player had very many moves, only the likeliest were compared."),
}
REVIEW_FILE = "review.png"


def accuracy_text(accuracy: float | None, tr: Translator) -> str:
    if accuracy is None:
        return tr("no choices to make")
    return tr("accuracy {value}%", value=tr.number(accuracy))


def cost_text(cost: float, unit: str, tr: Translator) -> str:
    return tr("{cost} {unit}", cost=tr.number(cost), unit=tr(UNIT_WORDS[unit]))


def review_title(shown: ReviewShown, tr: Translator) -> str:
    return tr("Review · match #{id} · deal {deal}", id=shown.match_id, deal=shown.deal)


def review_card(shown: ReviewShown, tr: Translator) -> ReviewCard:
    review = shown.review
    names = shown.names
    pictures = []
    for mistake in shown.mistakes:
        row = review.rows[mistake.row]
        pos = mistake.position
        pictures.append(
            MistakePicture(
                heading=_heading(row, review, names, tr),
                caption=_better_line(row, review, names, tr),
                board=pos.board,
                hand=pos.hand,
                played=row.played,
                better=row.known_best,
                played_key=tr("played"),
                better_key=tr("better"),
            )
        )
    return ReviewCard(
        title=review_title(shown, tr),
        subtitle=tr(
            "{game}, deal {deal} of {deals}",
            game=game_name(shown.rules.game, tr),
            deal=shown.deal,
            deals=shown.deals,
        ),
        names=names,
        teams=shown.rules.teams,
        seats=tuple(
            SeatLine(s.seat, names[s.seat], accuracy_text(s.accuracy, tr)) for s in review.seats
        ),
        chart_title=tr(
            "What each move cost, in {unit} (bars: from what the player could know; "
            "white marks: with all hands open)",
            unit=tr(UNIT_WORDS[review.unit]),
        ),
        chart=review.series,
        mistakes=tuple(pictures),
        no_mistakes=tr("No mistakes: every move was a best move."),
        footer=_footer(review, tr),
        labels=image_labels(tr),
    )


def review_lines(shown: ReviewShown, tr: Translator) -> str:
    """The reply's text: the title, each seat's accuracy, the biggest mistake, the notes."""
    review = shown.review
    names = [plain(n) for n in shown.names]
    lines = [f"**{review_title(shown, tr)}**"]
    lines.append(
        " · ".join(f"{names[s.seat]}: {accuracy_text(s.accuracy, tr)}" for s in review.seats)
    )
    if review.mistakes:
        row = review.rows[review.mistakes[0]]
        lines.append(
            tr(
                "Biggest mistake: {line}",
                line=_heading(row, review, names, tr)
                + " — "
                + _better_line(row, review, names, tr),
            )
        )
    else:
        lines.append(tr("No mistakes: every move was a best move."))
    lines.extend(tr(NOTES[n]) for n in review.notes if n in NOTES)
    return "\n".join(lines)


def _heading(
    row: MoveRow, review: DealReview, names: tuple[str, ...] | list[str], tr: Translator
) -> str:
    return tr(
        "Move {number}, {name}: {cost} lost",
        number=row.index + 1,
        name=names[row.seat],
        cost=cost_text(row.known_cost, review.unit, tr),
    )


def _better_line(
    row: MoveRow, review: DealReview, names: tuple[str, ...] | list[str], tr: Translator
) -> str:
    played = describe(row.played, tr, names)
    better = describe(row.known_best, tr, names)
    if row.open_cost > 0 and row.open_best != row.known_best:
        return tr(
            "played {played}; {better} was better. With all hands open: {open} ({cost}).",
            played=played,
            better=better,
            open=describe(row.open_best, tr, names),
            cost=cost_text(row.open_cost, review.unit, tr),
        )
    if row.open_cost > 0:
        return tr(
            "played {played}; {better} was better (with all hands open: {cost}).",
            played=played,
            better=better,
            cost=cost_text(row.open_cost, review.unit, tr),
        )
    return tr(
        "played {played}; {better} looked better, though with all hands open it cost nothing.",
        played=played,
        better=better,
    )


def _footer(review: DealReview, tr: Translator) -> str:
    lines = [
        tr(
            "100% accuracy: every move was a best move from what the player could know "
            "(up to {worlds} sampled deals a move).",
            worlds=review.worlds,
        )
    ]
    lines.extend(tr(NOTES[n]) for n in review.notes if n in NOTES)
    return "\n".join(lines)
