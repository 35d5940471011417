"""Board geometry, checked on the boxes themselves (no image decoding).

The geometry is computed from the table as somebody sees it (a ``TableView``);
random games are checked as the public sees them (hidden face-down tiles
unknown) and as the whole layout (every tile known).
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import pairwise

import pytest

from bot.engine.deal import Deal
from bot.engine.layout import Laid, Layout
from bot.engine.match import new_match, play
from bot.engine.moves import End, Move, Placement
from bot.engine.rules import Rules
from bot.engine.tiles import tile
from bot.engine.view import TableView, layout_view, table_view
from render.geometry import (
    MIN_WIDTH,
    UNITS,
    WIDEN_STEP,
    BoardGeometry,
    Box,
    PlacedTile,
    board_geometry,
)
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


def geometry_of(layout: Layout, packed: bool = False) -> BoardGeometry:
    """The geometry of a whole layout, every tile known."""
    return board_geometry(layout_view(layout), layout.kind, packed=packed)


def halves(placed: PlacedTile) -> list[tuple[Box, int | None]]:
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
    """Some half of ``outer`` touches a half of ``inner`` showing the same number.

    A hidden face-down tile's far half is unknown (``None``): its near half still joins.
    """
    return any(
        share_edge(a, b) and m == n and m is not None
        for a, m in halves(inner)
        for b, n in halves(outer)
    )


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


def check(table: TableView, g: BoardGeometry) -> None:
    """Everything a board's geometry promises, for one table."""
    assert g.unit % 2 == 0
    boxes = [p.box for p in g.tiles]
    assert all(b.inside(g.width, g.height) for b in boxes)
    assert {(b.w, b.h) for b in boxes} <= {(2 * g.unit, g.unit), (g.unit, 2 * g.unit)}
    assert overlapping_pairs(boxes) == []
    seen = [table.lead, *(x for arm in table.arms for x in arm)] if table.lead else []
    assert Counter(p.tile for p in g.tiles) == Counter(x.tile for x in seen)
    for p in g.tiles:
        if p.tile is None:  # hidden: face down, its far number unknown
            assert p.closed
            assert None in (p.first, p.second)

    assert {m.end for m in g.ends} == set(table.ends) | set(table.closed)
    for mark in g.ends:
        assert mark.box.inside(g.width, g.height)
        assert mark.closed == (mark.end in table.closed)
        assert mark.value == table.ends.get(mark.end)
    assert overlapping_pairs([m.box for m in g.ends] + boxes) == []

    for end in End:
        chain = [g.tiles[0], *(p for p in g.tiles if p.chain == end)]
        for inner, outer in pairwise(chain):
            assert joined(inner, outer), (end, inner, outer)
        mark = next((m for m in g.ends if m.end == end), None)
        if mark is not None:
            assert label_at_its_end(mark.box, chain, g.unit), (end, mark, chain[-1])

    if g.tiles:  # cropped: a margin of half a unit above and below, no band of felt
        extent = _extent(g)
        assert extent.y == g.unit // 2
        assert g.height - extent.bottom == g.unit // 2
        assert abs(extent.x - (g.width - extent.right)) <= 1  # centred across


def gap(a: Box, b: Box) -> int:
    """How far apart two boxes are (0 when they touch or overlap)."""
    return max(a.x - b.right, b.x - a.right, a.y - b.bottom, b.y - a.bottom, 0)


def label_at_its_end(label: Box, chain: list[PlacedTile], unit: int) -> bool:
    """An end's label sits next to the chain's last tile (within half a unit: the free
    slot where the next tile goes), and no tile further back along the chain (the other
    end of its row, say) is nearer to it."""
    last = chain[-1].box
    near = gap(label, last)
    return near <= unit // 2 and all(gap(label, p.box) >= near for p in chain[:-2])


def test_a_label_away_from_its_end_is_caught() -> None:
    """The check above can fail: the same board with the west label moved to the
    other end of its row."""
    layout = Layout("line", 6)
    layout.place(Placement(tile(6, 6), None))
    for t in (tile(6, 5), tile(5, 4), tile(4, 3), tile(3, 2)):
        layout.place(Placement(t, End.WEST))
    g = geometry_of(layout)
    west = next(m for m in g.ends if m.end == End.WEST)
    chain = [g.tiles[0], *(p for p in g.tiles if p.chain == End.WEST)]
    assert label_at_its_end(west.box, chain, g.unit)
    lead = g.tiles[0].box
    moved = Box(lead.right + g.unit, lead.y, west.box.w, west.box.h)  # east of the lead
    assert not label_at_its_end(moved, chain, g.unit)


@pytest.mark.parametrize(("game", "options"), GAMES, ids=lambda x: str(x))
def test_every_move_of_random_games(game: str, options: dict[str, object]) -> None:
    rules = Rules.make(game, **options)
    for seed in SEEDS:
        rng = random.Random(seed)
        state = new_match(rules, rng)
        while not state.deal.over:
            state = play(state, rng.choice(state.legal_moves()))
            deal = state.deal
            for table in (table_view(deal, None), layout_view(deal.layout)):
                check(table, board_geometry(table, rules.layout, packed=rules.set > 6))


@pytest.mark.parametrize("kind", ["line", "spinner"])
@pytest.mark.parametrize("top", [6, 12])
def test_a_whole_set_on_the_table(top: int, kind: str) -> None:
    deal = full_deal(top, kind, 2)  # type: ignore[arg-type]
    assert deal.layout.tile_count() == {6: 28, 12: 91}[top]
    for packed in (False, True):
        g = geometry_of(deal.layout, packed)
        check(layout_view(deal.layout), g)
        assert g.height <= round(g.width * 0.6)  # no taller than the frame's bound


def test_a_91_tile_line_stays_phone_shaped() -> None:
    g = geometry_of(full_deal(12, "line").layout)
    assert len(g.tiles) == 91
    assert g.width <= 1400


def test_no_lead_no_tiles() -> None:
    g = geometry_of(Layout("line", 6))
    assert g.tiles == ()
    assert g.ends == ()
    assert g.width > 0
    assert g.height > 0


def test_lead_reads_west_to_east() -> None:
    layout = Layout("line", 6)
    layout.place(Placement(tile(6, 4), None, west=4))
    (lead,) = geometry_of(layout).tiles
    assert (lead.first, lead.second) == (4, 6)
    assert not lead.vertical


def test_a_double_lead_stands_across_the_line() -> None:
    layout = Layout("line", 6)
    layout.place(Placement(tile(5, 5), None))
    layout.place(Placement(tile(5, 2), End.EAST))
    lead, east = geometry_of(layout).tiles
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
    g = geometry_of(layout)
    centre = g.tiles[0]
    assert centre.tile == tile(4, 4)
    assert abs(centre.box.x + centre.box.w // 2 - g.width // 2) <= g.unit  # near the middle
    west = [p.tile for p in g.tiles if p.chain == End.WEST]
    assert west == [tile(6, 4), tile(6, 1)]  # walking out from the spinner through the lead
    north = [p for p in g.tiles if p.chain == End.NORTH]
    assert [p.tile for p in north] == [tile(4, 2)]
    assert north[0].box.bottom == centre.box.y
    check(layout_view(layout), g)


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
    assert [p.box for p in geometry_of(layout).tiles] == [p.box for p in geometry_of(twin).tiles]
    assert geometry_of(layout).ends == geometry_of(twin).ends
    # Hidden (as the public sees it) it has the same shape again.
    public = board_geometry(table_view(deal, None), "hub")
    assert [p.box for p in public.tiles] == [p.box for p in geometry_of(layout).tiles]


def test_closed_end_hides_its_number() -> None:
    deal, _, end = _latvian_with_closed_tile()
    mark = next(m for m in board_geometry(table_view(deal, None), "hub").ends if m.end == end)
    assert mark.closed
    assert mark.value is None


def test_latvian_several_doubles_at_once() -> None:
    layout = Layout("hub", 6)
    layout.place(Placement(tile(1, 1), None))
    for p in Move((Placement(tile(1, 4), End.WEST), Placement(tile(1, 6), End.NORTH))).placements:
        layout.place(p)
    layout.place(Placement(tile(4, 4), End.WEST))
    layout.place(Placement(tile(6, 6), End.NORTH))
    check(layout_view(layout), geometry_of(layout))


def test_box_overlap_ignores_touching_edges() -> None:
    a = Box(0, 0, 10, 10)
    assert not a.overlaps(Box(10, 0, 10, 10))
    assert not a.overlaps(Box(0, 10, 10, 10))
    assert a.overlaps(Box(9, 9, 10, 10))
    assert a.inside(10, 10)
    assert not Box(1, 0, 10, 10).inside(10, 10)


def test_units_are_even_and_shrink() -> None:
    assert all(unit % 2 == 0 for unit in UNITS)
    assert list(UNITS) == sorted(UNITS, reverse=True)


def _extent(g: BoardGeometry) -> Box:
    boxes = [p.box for p in g.tiles] + [m.box for m in g.ends]
    x, y = min(b.x for b in boxes), min(b.y for b in boxes)
    return Box(x, y, max(b.right for b in boxes) - x, max(b.bottom for b in boxes) - y)


def test_an_early_board_is_cropped_to_its_tiles() -> None:
    """Three tiles fill the frame at the largest unit instead of sitting in a green field."""
    layout = Layout("line", 6)
    layout.place(Placement(tile(6, 6), None))
    layout.place(Placement(tile(6, 3), End.EAST))
    layout.place(Placement(tile(6, 5), End.WEST))
    g = geometry_of(layout)
    assert g.unit == UNITS[0]
    extent = _extent(g)
    assert g.width == MIN_WIDTH
    assert g.height == extent.h + g.unit  # half a unit of felt above and below, no more
    assert g.height < round(MIN_WIDTH * 0.6) // 2
    assert extent.w >= g.width // 2


@pytest.mark.parametrize("shape", [0.6, 0.5, 0.64])
@pytest.mark.parametrize(("game", "options"), GAMES[:4] + GAMES[6:9] + GAMES[10:12])
def test_the_frame_is_cropped_and_zooms_out_step_by_step(
    game: str, options: dict[str, object], shape: float
) -> None:
    """Move after move the picture keeps its width (until the smallest unit, when it
    widens), is no taller than the frame's bound, and the tiles get smaller by at most
    a third at a time (a new arm of a pinwheel, 64 to 44 px; a row's turn, 64 to 56
    px, in a line) and mostly by a step of 2 px: the board does not jump
    around. A free label slot that a double only half fills can give one step
    back; a spinner that becomes the centre re-lays the whole picture."""
    rules = Rules.make(game, **options)
    for seed in SEEDS:
        rng = random.Random(seed)
        state = new_match(rules, rng)
        before: tuple[BoardGeometry, TableView] | None = None
        while not state.deal.over:
            state = play(state, rng.choice(state.legal_moves()))
            table = table_view(state.deal, None)
            g = board_geometry(table, rules.layout, shape=shape, packed=rules.set > 6)
            assert g.unit in UNITS
            assert g.height <= round(g.width * shape)  # cropped below the bound
            assert g.width == MIN_WIDTH or g.unit == UNITS[-1]
            extent = _extent(g)
            assert extent.w <= g.width
            assert extent.h <= g.height
            if before is not None:
                last, last_table = before
                rerooted = (table.spinner, table.spinner_arm) != (
                    last_table.spinner,
                    last_table.spinner_arm,
                )
                if not rerooted:
                    assert g.unit >= last.unit * 2 / 3  # never more than a third smaller
                    assert last.width - g.width <= WIDEN_STEP
            before = g, table
