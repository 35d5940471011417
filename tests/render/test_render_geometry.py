"""Board geometry, checked on the boxes themselves (no image decoding)."""

from __future__ import annotations

import random
from itertools import islice, pairwise

import pytest

from bot.engine.deal import Deal
from bot.engine.layout import NOT_OPEN, Laid, Layout
from bot.engine.match import new_match, play
from bot.engine.moves import End, Move, Placement
from bot.engine.rules import Rules
from bot.engine.tiles import tile
from render.geometry import BoardGeometry, Box, PlacedTile, board_geometry, grid_sizes
from render.samples import full_deal

GAMES = [
    ("block", {"set": 6, "players": 2}),
    ("block", {"set": 6, "players": 4, "teams": True}),
    ("block", {"set": 6, "players": 3, "layout": "spinner"}),
    ("draw", {"set": 6, "players": 4}),
    ("draw", {"set": 9, "players": 5, "layout": "spinner"}),
    ("draw", {"set": 9, "players": 6}),
    ("block", {"set": 12, "players": 8}),
    ("draw", {"set": 12, "players": 2}),
    ("draw", {"set": 12, "players": 3, "layout": "spinner"}),
    ("block", {"set": 12, "players": 2, "hand": 45}),
    ("allfives", {"players": 2}),
    ("allfives", {"players": 4, "teams": True}),
    ("latvian", {"players": 2}),
    ("latvian", {"players": 3}),
    ("latvian", {"players": 4}),
]
SEEDS = range(3)


def halves(placed: PlacedTile) -> list[tuple[Box, int]]:
    b = placed.box
    if placed.vertical:
        top = Box(b.x, b.y, b.w, b.h // 2)
        bottom = Box(b.x, b.y + b.h // 2, b.w, b.h // 2)
        return [(top, placed.first), (bottom, placed.second)]
    left = Box(b.x, b.y, b.w // 2, b.h)
    right = Box(b.x + b.w // 2, b.y, b.w // 2, b.h)
    return [(left, placed.first), (right, placed.second)]


def share_edge(a: Box, b: Box) -> bool:
    """The boxes touch along a piece of edge (not just a corner)."""
    across = min(a.bottom, b.bottom) - max(a.y, b.y)
    along = min(a.right, b.right) - max(a.x, b.x)
    return (across > 0 and (a.right == b.x or b.right == a.x)) or (
        along > 0 and (a.bottom == b.y or b.bottom == a.y)
    )


def joined(inner: PlacedTile, outer: PlacedTile) -> bool:
    """Some half of ``outer`` touches a half of ``inner`` showing the same number."""
    return any(share_edge(a, b) and m == n for a, m in halves(inner) for b, n in halves(outer))


def overlapping_pairs(boxes: list[Box]) -> list[tuple[Box, Box]]:
    """Pairs of boxes that overlap (a sweep along x keeps this fast)."""
    ordered = sorted(boxes, key=lambda b: b.x)
    found = []
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            if b.x >= a.right:
                break
            if a.overlaps(b):
                found.append((a, b))
    return found


def check(layout: Layout, g: BoardGeometry) -> None:
    """Everything a board's geometry promises, for one layout."""
    assert g.unit % 2 == 0
    boxes = [p.box for p in g.tiles]
    assert all(b.inside(g.width, g.height) for b in boxes)
    assert {(b.w, b.h) for b in boxes} <= {(2 * g.unit, g.unit), (g.unit, 2 * g.unit)}
    assert overlapping_pairs(boxes) == []
    assert sorted(p.tile for p in g.tiles) == sorted(laid.tile for laid in layout.laid_tiles())

    shown = {End(e) for e in End if layout.values[e] != NOT_OPEN}
    assert {m.end for m in g.ends} == shown
    for mark in g.ends:
        assert mark.box.inside(g.width, g.height)
        assert mark.closed == layout.closed[mark.end]
        assert mark.value == (None if mark.closed else layout.values[mark.end])
    assert overlapping_pairs([m.box for m in g.ends] + boxes) == []

    for end in End:
        chain = [g.tiles[0], *(p for p in g.tiles if p.chain == end)]
        for inner, outer in pairwise(chain):
            assert joined(inner, outer), (end, inner, outer)


@pytest.mark.parametrize(("game", "options"), GAMES, ids=lambda x: str(x))
def test_every_move_of_random_games(game: str, options: dict[str, object]) -> None:
    rules = Rules.make(game, **options)
    for seed in SEEDS:
        rng = random.Random(seed)
        state = new_match(rules, rng)
        while not state.deal.over:
            state = play(state, rng.choice(state.legal_moves()))
            layout = state.deal.layout
            check(layout, board_geometry(layout))


@pytest.mark.parametrize("kind", ["line", "spinner"])
@pytest.mark.parametrize("top", [6, 12])
def test_a_whole_set_on_the_table(top: int, kind: str) -> None:
    deal = full_deal(top, kind, 2)  # type: ignore[arg-type]
    assert deal.layout.tile_count() == {6: 28, 12: 91}[top]
    g = board_geometry(deal.layout)
    check(deal.layout, g)
    assert g.width / g.height <= 16 / 9


def test_a_91_tile_line_stays_phone_shaped() -> None:
    g = board_geometry(full_deal(12, "line").layout)
    assert len(g.tiles) == 91
    assert g.width <= 1400


def test_no_lead_no_tiles() -> None:
    g = board_geometry(Layout("line", 6))
    assert g.tiles == ()
    assert g.ends == ()
    assert g.width > 0
    assert g.height > 0


def test_lead_reads_west_to_east() -> None:
    layout = Layout("line", 6)
    layout.place(Placement(tile(6, 4), None, west=4))
    (lead,) = board_geometry(layout).tiles
    assert (lead.first, lead.second) == (4, 6)
    assert not lead.vertical


def test_a_double_lead_stands_across_the_line() -> None:
    layout = Layout("line", 6)
    layout.place(Placement(tile(5, 5), None))
    layout.place(Placement(tile(5, 2), End.EAST))
    lead, east = board_geometry(layout).tiles
    assert lead.vertical
    assert not east.vertical
    assert (east.first, east.second) == (5, 2)


def test_spinner_on_an_arm_is_the_centre() -> None:
    layout = Layout("spinner", 6)
    for p in (
        Placement(tile(6, 4), None, west=6),
        Placement(tile(4, 4), End.EAST),
        Placement(tile(6, 1), End.WEST),
        Placement(tile(4, 3), End.EAST),
        Placement(tile(4, 2), End.NORTH),
    ):
        layout.place(p)
    g = board_geometry(layout)
    centre = g.tiles[0]
    assert centre.tile == tile(4, 4)
    assert centre.box.x + centre.box.w // 2 == g.width // 2
    west = [p.tile for p in g.tiles if p.chain == End.WEST]
    assert west == [tile(6, 4), tile(6, 1)]  # walking out from the spinner through the lead
    north = [p for p in g.tiles if p.chain == End.NORTH]
    assert [p.tile for p in north] == [tile(4, 2)]
    assert north[0].box.bottom == centre.box.y
    check(layout, g)


def _latvian_with_closed_tile() -> tuple[Deal, Laid, End]:
    rules = Rules.make("latvian", players=2)
    for seed in range(200):
        rng = random.Random(seed)
        state = new_match(rules, rng)
        while not state.deal.over:
            moves = state.legal_moves()
            closing = [m for m in moves if m.placements[0].closed and not m.tile.is_double]
            state = play(state, closing[0] if closing and rng.random() < 0.5 else rng.choice(moves))
            layout = state.deal.layout
            for end in End:
                arm = layout.arms[end]
                if arm and arm[-1].closed and not state.deal.over:
                    return state.deal, arm[-1], end
    raise AssertionError("no closed tile in 200 games")


def test_a_face_down_double_has_the_shape_of_any_face_down_tile() -> None:
    deal, laid, end = _latvian_with_closed_tile()
    layout = deal.layout
    twin = layout.copy()
    double = tile(laid.inner, laid.inner)
    twin.arms[end][-1] = Laid(double, laid.inner, laid.inner, True)
    twin.values[end] = laid.inner
    assert [p.box for p in board_geometry(layout).tiles] == [
        p.box for p in board_geometry(twin).tiles
    ]
    assert board_geometry(layout).ends == board_geometry(twin).ends


def test_closed_end_hides_its_number() -> None:
    deal, _, end = _latvian_with_closed_tile()
    mark = next(m for m in board_geometry(deal.layout).ends if m.end == end)
    assert mark.closed
    assert mark.value is None


def test_latvian_several_doubles_at_once() -> None:
    layout = Layout("hub", 6)
    layout.place(Placement(tile(1, 1), None))
    for p in Move((Placement(tile(1, 4), End.WEST), Placement(tile(1, 6), End.NORTH))).placements:
        layout.place(p)
    layout.place(Placement(tile(4, 4), End.WEST))
    layout.place(Placement(tile(6, 6), End.NORTH))
    check(layout, board_geometry(layout))


def test_box_overlap_ignores_touching_edges() -> None:
    a = Box(0, 0, 10, 10)
    assert not a.overlaps(Box(10, 0, 10, 10))
    assert not a.overlaps(Box(0, 10, 10, 10))
    assert a.overlaps(Box(9, 9, 10, 10))
    assert a.inside(10, 10)
    assert not Box(1, 0, 10, 10).inside(10, 10)


def test_grid_sizes_grow_with_even_units() -> None:
    sizes = list(islice(grid_sizes(), 40))
    assert all(unit % 2 == 0 for _, _, unit in sizes)
    widths = [w for w, _, _ in sizes]
    assert widths == sorted(widths)
    assert all(w / h <= 16 / 9 for w, h, _ in sizes)
