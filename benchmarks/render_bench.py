"""How fast the renderer draws, and how big its PNGs are.

Renders boards of random games of every kind at many sizes, full boards of
double-6 (28 tiles) and double-12 (91 tiles), Mexican Train stations of 4 and 8
players late in a round, hands and summaries. For each it
prints the median and p95 milliseconds and the bytes, next to the *floor*: the
time to PNG-encode the finished image alone, which no renderer of that image
can beat. Run it as a script::

    .venv/bin/python benchmarks/render_bench.py [--repeat N] [--cpu] [--examples docs/images]

``--cpu`` times the process's CPU time instead of the wall clock: steadier on a
busy machine. ``--examples DIR`` also writes the pictures of docs/RENDER.md there.
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine.match import MatchState, next_deal, play
from bot.engine.rules import Rules
from bot.engine.tiles import tile
from bot.engine.view import public_view
from render import render_board, render_hand, render_summary
from render.board import draw_board
from render.canvas import to_png
from render.cards import (
    BoardCard,
    BoardLine,
    render_leaderboard,
)
from render.hand import draw_hand
from render.samples import HAND_D12, full_match, mexican_late, random_match
from render.summary import draw_summary

NAMES = ("Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi")
GAMES = (
    ("block d6 2p", Rules.make("block", players=2)),
    ("draw d6 teams", Rules.make("draw", players=4, teams=True)),
    ("block d6 spinner", Rules.make("block", players=3, layout="spinner")),
    ("allfives 4p", Rules.make("allfives", players=4)),
    ("latvian 4p", Rules.make("latvian", players=4)),
    ("draw d9 spinner 4p", Rules.make("draw", set=9, players=4, layout="spinner")),
    ("block d12 8p", Rules.make("block", set=12, players=8)),
    ("draw d12 2p", Rules.make("draw", set=12, players=2)),
)


@dataclass
class Case:
    name: str
    draw: Callable[[], Image.Image]


@dataclass
class Figures:
    median_ms: float
    p95_ms: float
    size: int
    floor_ms: float
    pixels: tuple[int, int]


def measure(case: Case, repeat: int, clock: Callable[[], float] = time.perf_counter) -> Figures:
    """Each round renders once, then encodes the same image again: the floor sample
    is taken right next to the render it is compared with (the machine may be busy)."""
    to_png(case.draw())  # warm the sprite caches, as a running bot has them
    times, floors = [], []
    data, image = b"", None
    for _ in range(repeat):
        start = clock()
        image = case.draw()
        data = to_png(image)
        middle = clock()
        to_png(image)
        floors.append(clock() - middle)
        times.append(middle - start)
    assert image is not None
    return Figures(
        median_ms=statistics.median(times) * 1000,
        p95_ms=percentile(times, 95) * 1000,
        size=len(data),
        floor_ms=statistics.median(floors) * 1000,
        pixels=image.size,
    )


def percentile(values: list[float], p: int) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def board_case(name: str, state: MatchState, title: str = "Block · deal 1") -> Case:
    names = NAMES[: state.rules.players]
    board = public_view(state)
    return Case(name, lambda: draw_board(board, names=names, title=title))


def random_boards() -> list[Case]:
    """Boards of random games, caught at a few points of each deal."""
    cases = []
    for label, rules in GAMES:
        state = random_match(rules, seed=11)
        history = len(state.deal.moves())
        for fraction in (0.3, 0.7, 1.0):
            moves = max(1, round(history * fraction))
            state = random_match(rules, seed=11, moves=moves)
            tiles = state.deal.layout.tile_count()
            cases.append(board_case(f"{label}, {tiles} tiles", state))
    return cases


def finished_match(rules: Rules, seed: int, deals: int) -> MatchState:
    """Up to ``deals`` deals of random play (fewer if the match ends first)."""
    rng = random.Random(seed)
    state = random_match(rules, seed)
    for _ in range(deals - 1):
        if state.over:
            break
        state = next_deal(state, rng)
        while not state.deal.over:
            state = play(state, rng.choice(state.legal_moves()))
    return state


def write_examples(folder: Path) -> None:
    """The pictures shown in docs/RENDER.md."""
    folder.mkdir(parents=True, exist_ok=True)
    teams = Rules.make("block", players=4, teams=True)
    allfives = Rules.make("allfives", players=4, teams=True)
    latvian = Rules.make("latvian", players=3)
    boards = {
        "board_block": (random_match(teams, seed=4, moves=16), "Block · teams · deal 1"),
        "board_allfives_spinner": (random_match(allfives, seed=3, moves=16), "All fives"),
        "board_latvian": (random_match(latvian, seed=210, moves=11), "Latvian · deal 1"),
    }
    for name, (state, title) in boards.items():
        png = render_board(public_view(state), names=NAMES[: state.rules.players], title=title)
        (folder / f"{name}.png").write_bytes(png)
    full = public_view(full_match(12, "line", 2))
    png = render_board(full, names=NAMES[:2], title="Double-12 · all 91 tiles")
    (folder / "board_double12.png").write_bytes(png)
    deal = random_match(Rules.make("draw", set=9, players=3), seed=8, moves=3).deal
    legal = {m.tile for m in deal.legal_moves()}
    (folder / "hand.png").write_bytes(render_hand(deal.hand(deal.turn), legal, top=9))
    state = finished_match(Rules.make("draw", players=4, teams=True, target=25), seed=3, deals=5)
    (folder / "summary.png").write_bytes(render_summary(state, NAMES[:4]))
    state = finished_match(Rules.make("latvian", players=4, deals=2), seed=5, deals=2)
    (folder / "summary_latvian.png").write_bytes(render_summary(state, NAMES[:4]))
    (folder / "leaderboard.png").write_bytes(render_leaderboard(example_board()))
    for name, png in after_pictures().items():
        (folder / f"{name}.png").write_bytes(png)
        (folder / f"{name}-400.png").write_bytes(as_shown(png))
    write_mexican_examples(folder)
    for path in sorted(folder.glob("*.png")):
        print(f"wrote {path} ({path.stat().st_size:,} bytes)")


def write_mexican_examples(folder: Path) -> None:
    """Mexican Train's pictures: 4 and 8 players late in a round (each also as Discord
    shows an attachment, 550 px wide), and the summary of a whole 8-player match."""
    for players in (4, 8):
        png = render_board(
            public_view(mexican_late(players)), names=NAMES[:players], title="Round 1"
        )
        (folder / f"mexican-{players}p.png").write_bytes(png)
        (folder / f"mexican-{players}p-550.png").write_bytes(as_shown(png, 550))
    (folder / "mexican-summary-8p.png").write_bytes(render_summary(mexican_match(), NAMES))


def mexican_match() -> MatchState:
    """A whole Mexican Train match of 8 players: 13 rounds, engines 12 down to 0."""
    return finished_match(Rules.make("mexican", players=8), seed=5, deals=13)


def example_board() -> BoardCard:
    """A leaderboard page as the cog draws it (English)."""
    players: list[tuple[str, float | None, int, int]] = [
        ("Ann", 14.2, 31, 19),
        ("Bob", 9.7, 25, 12),
        ("Carol", 6.1, 18, 9),
    ]
    players += [("Dave", 2.4, 12, 4), ("Eve", None, 3, 1)]
    lines = tuple(
        BoardLine(
            i + 1,
            name,
            (
                "—" if rating is None else f"{rating:.1f}",
                str(matches),
                str(wins),
                f"{round(100 * wins / matches)}%",
            ),
            highlight=name == "Carol",
        )
        for i, (name, rating, matches, wins) in enumerate(players)
    )
    return BoardCard(
        title="Block game leaderboard",
        subtitle="All time · by rating · 5 players",
        page="page 1 of 1",
        name_heading="Player",
        headings=("Rating", "Matches", "Wins", "Win rate"),
        lines=lines,
        footer=(
            "Rating: a cautious estimate of skill. It rises as you win, and as the bot grows "
            "surer of how well you play. — means not rated yet: a rating comes with a "
            "finished match against another person (matches against the AI alone don't count)."
        ),
    )


def early_d6() -> MatchState:
    """Three tiles down: the board as a double-6 deal starts."""
    return random_match(Rules.make("block", players=4, teams=True), seed=4, moves=3)


def mid_d6() -> MatchState:
    """A double-6 teams deal in the middle (13 tiles down): the typical board."""
    return random_match(Rules.make("block", players=4, teams=True), seed=4, moves=14)


def large_d12() -> MatchState:
    """A three-player double-12 draw deal at its end: a big board (79 tiles down)."""
    return random_match(Rules.make("draw", set=12, players=3), seed=2)


HAND_D12_LEGAL = frozenset({tile(10, 10), tile(3, 12), tile(11, 12)})


def after_pictures() -> dict[str, bytes]:
    """The "after" pictures of docs/RENDER.md (the "before" ones are kept as drawn)."""

    def board(state: MatchState) -> bytes:
        names = NAMES[: state.rules.players]
        return render_board(public_view(state), names=names, title="Deal 1")

    return {
        "board-after-early-d6": board(early_d6()),
        "board-after-d12": board(large_d12()),
        "hand-after-d12": render_hand(HAND_D12, HAND_D12_LEGAL, top=12),
    }


def as_shown(png: bytes, width: int = 400) -> bytes:
    """``png`` scaled to ``width`` as Discord shows it (never enlarged)."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    if image.width > width:
        height = round(image.height * width / image.width)
        image = image.resize((width, height), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    image.quantize(256, method=Image.Quantize.FASTOCTREE).save(out, format="PNG", optimize=True)
    return out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=60, help="renders per case (default 60)")
    parser.add_argument("--cpu", action="store_true", help="time CPU time, not the wall clock")
    parser.add_argument("--examples", type=Path, help="also write the docs' example images here")
    args = parser.parse_args()
    if args.examples:
        write_examples(args.examples)

    hand_deal = random_match(Rules.make("draw", players=2), seed=5, moves=4).deal
    hand = hand_deal.hand(hand_deal.turn)
    legal = {m.tile for m in hand_deal.legal_moves()}
    summary_state = finished_match(Rules.make("draw", players=4, teams=True), seed=3, deals=2)
    mexican = mexican_match()
    big = large_d12()
    cases = [
        board_case("mid-deal d6 teams, 13 tiles", mid_d6()),
        board_case(f"end of d12 draw 3p, {big.deal.layout.tile_count()} tiles", big),
        Case("hand d12, 12 tiles", lambda: draw_hand(HAND_D12, HAND_D12_LEGAL, top=12)),
        board_case("FULL d6 line, 28 tiles", full_match(6, "line", 4)),
        board_case("FULL d6 spinner, 28 tiles", full_match(6, "spinner", 4)),
        board_case("FULL d12 line, 91 tiles", full_match(12, "line", 2)),
        board_case("FULL d12 spinner, 91 tiles", full_match(12, "spinner", 8)),
        *random_boards(),
        Case(f"hand, {len(hand)} tiles", lambda: draw_hand(hand, legal)),
        Case("summary, 4 players", lambda: draw_summary(summary_state, NAMES[:4])),
        board_case("mexican 4p, late in a round", mexican_late(4), "Round 1"),
        board_case("mexican 8p, late in a round", mexican_late(8), "Round 1"),
        Case("summary, mexican 8p, 13 rounds", lambda: draw_summary(mexican, NAMES)),
    ]
    print(
        f"{'case':34} {'size':>10} {'median':>8} {'p95':>8} {'floor':>8} {'ratio':>6} {'bytes':>8}"
    )
    for case in cases:
        f = measure(case, args.repeat, time.process_time if args.cpu else time.perf_counter)
        size = f"{f.pixels[0]}x{f.pixels[1]}"
        print(
            f"{case.name:34} {size:>10} {f.median_ms:7.1f}ms {f.p95_ms:7.1f}ms "
            f"{f.floor_ms:7.1f}ms {f.median_ms / f.floor_ms:5.2f}x {f.size:>8,}"
        )


if __name__ == "__main__":
    main()
