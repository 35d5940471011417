"""What one seat knows about the deal in play, worked out from its :class:`PlayerView` alone.

Everything here is read from the view: the seat's own hand, the table, the hand
sizes and the public history (plays, passes and how many tiles each draw took).
From the history it rebuilds, step by step, which tiles fitted the table each
time a seat passed or drew: at that moment the seat held none of them (the tiles
drawn before the last one of a draw did not fit either). Tiles a seat drew
later may fit those numbers again, so each seat's story is kept in order for the
sampler (:mod:`bot.engine.ai.determinize`), which needs it to split the unseen
tiles consistently.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ..deal import LATVIAN_LEAD_ORDER
from ..layout import Layout
from ..moves import End, Move, Placement
from ..rules import Rules
from ..tiles import DOUBLES_MASK, SUIT_MASKS, TILES, Tile, heaviest_key, mask_of, set_size, tile
from ..view import PlayerView, SeenDraw, SeenPass, SeenPlay


class Void(NamedTuple):
    """The seat passed, or began to draw: it held none of the tiles in ``fit``."""

    fit: int


class Drawn(NamedTuple):
    """The seat drew and kept ``kept`` tiles, none of them in ``fit`` (the last one,
    which fitted and was laid at once, is not counted)."""

    kept: int
    fit: int


class Laid(NamedTuple):
    """The seat laid a tile everyone saw (not the forced last tile of a draw)."""

    tile: Tile


class LaidHidden(NamedTuple):
    """The seat laid a face-down tile the viewer cannot see, on ``end``; it is one of
    the tiles in ``allowed`` (it carried the end's number). ``forced``: it was the
    tile that ended a draw, so it came from the stock just now."""

    end: End
    allowed: int
    forced: bool


Step = Void | Drawn | Laid | LaidHidden


@dataclass(slots=True)
class Choice:
    """A tile another seat chose to lay in view: what fitted the table then, and the
    tiles it laid in view afterwards. ``exact``: the seat drew nothing and laid no
    hidden tile afterwards, so its hand then was its hand now plus ``later`` (both
    change as the history is read). ``ends``: the numbers open on the table then (bit
    ``n`` for number ``n``); ``exposed``: the number the tile left open where it was
    laid."""

    seat: int
    tile: Tile
    fit: int
    ends: int
    exposed: int
    later: int = 0
    exact: bool = True


@dataclass(frozen=True, slots=True)
class HiddenTile:
    """A face-down tile of another seat: its end and the tiles it may be."""

    seat: int
    end: End
    allowed: int


@dataclass(slots=True)
class Knowledge:
    """The public facts of the deal in play plus the viewer's own hand, as bit masks."""

    rules: Rules
    seat: int
    """The viewing seat."""
    hand: int
    """The viewer's hand (a tile mask)."""
    hand_sizes: tuple[int, ...]
    every: int
    """Every tile of the set."""
    unseen: int
    """Tiles the viewer cannot see: other hands, the stock, hidden face-down tiles."""
    stories: tuple[tuple[Step, ...], ...]
    """Per seat, what the history says about its hand, in order (empty for the viewer)."""
    not_dealt: int
    """Tiles the lead proves were in no hand when the deal was dealt."""
    hidden: tuple[HiddenTile, ...]
    """Face-down tiles laid by other seats, in the order they were laid."""
    placements: tuple[Placement | None, ...]
    """Every tile laid so far, in order; ``None`` for a hidden face-down tile (the next
    one of :attr:`hidden`)."""
    layout: Layout
    """The table as the viewer sees it (a hidden face-down tile stands in as its end's double)."""
    voids: tuple[int, ...]
    """Per seat, tiles it surely does not hold now (a tile mask)."""
    played: tuple[int, ...]
    """Per seat, the tiles it was seen to lay this deal."""
    passes: int
    """Passes since the last tile was laid."""
    leader: int
    play_points: tuple[int, ...]
    """All fives: what each side scored by counts so far this deal."""
    forced: Tile | None
    """A tile the viewer drew and must lay now."""
    legal: tuple[Move, ...]
    """The viewer's legal moves."""
    base_totals: tuple[float, ...]
    """Each side's match total before this deal."""
    choices: tuple[Choice, ...] = ()
    """Tiles other seats chose to lay (single visible tiles, not forced): what the
    sampler may weigh worlds by (:mod:`bot.engine.ai.determinize`)."""

    @property
    def partner(self) -> int | None:
        """The viewer's partner, in a game with teams."""
        return (self.seat + 2) % 4 if self.rules.teams else None


def read_view(seen: PlayerView) -> Knowledge:
    """Work out what ``seen``'s seat knows. The view must be a seat's, not a spectator's."""
    if seen.seat is None:
        raise ValueError("a spectator's view has no hand to play")
    rules = seen.rules
    n = rules.players
    me = seen.seat
    every = (1 << set_size(rules.set)) - 1
    hand = mask_of(seen.hand)

    layout = Layout(rules.layout or "line", rules.set)
    stories: list[list[Step]] = [[] for _ in range(n)]
    played = [0] * n
    visible = 0
    placements: list[Placement | None] = []
    hidden: list[HiddenTile] = []
    passes = 0
    leader = seen.turn
    side_points = [0] * len(rules.sides)
    history = seen.history
    lead_west = seen.table.lead.inner if seen.table.lead is not None else None
    choices: list[Choice] = []
    for i, event in enumerate(history):
        if isinstance(event, SeenPlay):
            fit_before = layout.fit_mask() & every
            ends_before = mask_of(layout.values[e] for e in layout.open_ends())
            if event.seat != me:
                for c in choices:
                    if c.seat == event.seat:
                        for p in event.placements:
                            if p.tile is None:
                                c.exact = False
                            else:
                                c.later |= 1 << p.tile
            if not placements:
                leader = event.seat
            prev = history[i - 1] if i else None
            forced = isinstance(prev, SeenDraw) and prev.seat == event.seat
            side_points[rules.side_of(event.seat)] += event.points
            several = len(event.placements) > 1
            for p in event.placements:
                placement: Placement | None
                if p.end is None:  # the lead
                    assert p.tile is not None
                    west = lead_west if lead_west is not None else p.tile.high
                    placement = Placement(p.tile, None, False, west)
                    layout.place(placement)
                else:
                    value = layout.values[p.end]
                    if p.tile is None:
                        double = tile(value, value)
                        allowed = (1 << double) if several else SUIT_MASKS[value] & every
                        hidden.append(HiddenTile(event.seat, p.end, allowed))
                        stories[event.seat].append(LaidHidden(p.end, allowed, forced))
                        placement = None
                        layout.place(Placement(double, p.end, True))
                    else:
                        placement = Placement(p.tile, p.end, p.closed)
                        layout.place(placement)
                if p.tile is not None:
                    visible |= 1 << p.tile
                    played[event.seat] |= 1 << p.tile
                    if not forced:
                        stories[event.seat].append(Laid(p.tile))
                        if not several and event.seat != me and placements:
                            exposed = layout.values[p.end] if p.end is not None else 0
                            choices.append(
                                Choice(event.seat, p.tile, fit_before, ends_before, exposed)
                            )
                placements.append(placement)
            passes = 0
        elif isinstance(event, SeenDraw):
            for c in choices:
                if c.seat == event.seat:
                    c.exact = False
            fit = layout.fit_mask() & every
            nxt = history[i + 1] if i + 1 < len(history) else None
            # the last tile drawn was laid at once, or the viewer must lay it now
            at_once = (isinstance(nxt, SeenPlay) and nxt.seat == event.seat) or (
                nxt is None and event.seat == seen.turn and seen.forced is not None
            )
            stories[event.seat].append(Drawn(event.count - at_once, fit))
        else:
            assert isinstance(event, SeenPass)
            stories[event.seat].append(Void(layout.fit_mask() & every))
            passes += 1
    layout.on_table = visible
    stories[me] = []

    unseen = every & ~hand & ~visible
    not_dealt = _not_dealt(rules, placements, seen, every)
    voids = tuple(_current_void(story) if s != me else 0 for s, story in enumerate(stories))
    return Knowledge(
        rules=rules,
        seat=me,
        hand=hand,
        hand_sizes=seen.hand_sizes,
        every=every,
        unseen=unseen,
        stories=tuple(tuple(s) for s in stories),
        not_dealt=not_dealt,
        hidden=tuple(hidden),
        placements=tuple(placements),
        layout=layout,
        voids=voids,
        played=tuple(played),
        passes=passes,
        leader=leader,
        play_points=tuple(side_points),
        forced=seen.forced,
        legal=seen.legal_moves,
        base_totals=tuple(t - p for t, p in zip(seen.totals, side_points, strict=True)),
        choices=tuple(choices),
    )


def _current_void(story: tuple[Step, ...] | list[Step]) -> int:
    """Tiles the seat surely lacks now: what fitted at its passes and draws since it
    last kept a drawn tile (those tiles did not fit at their own draw either)."""
    void = 0
    for step in story:
        if type(step) is Drawn:
            void = (void | step.fit) if step.kept == 0 else step.fit
        elif type(step) is Void:
            void |= step.fit
    return void


def _not_dealt(
    rules: Rules, placements: list[Placement | None], seen: PlayerView, every: int
) -> int:
    """Tiles no hand was dealt, proved by the lead where the rules fix it
    (RULES.md#block-game and #latvian-dominoes):
    the doubles that would have led before it, or, with no double dealt, every double
    and every heavier tile."""
    if rules.game == "allfives":
        return 0
    first = placements[0] if placements else None
    if first is not None:
        lead = first.tile
    elif seen.legal_moves and len({m.tile for m in seen.legal_moves}) == 1:
        lead = seen.legal_moves[0].tile
    else:
        return 0
    if rules.game == "latvian":
        order = LATVIAN_LEAD_ORDER
        before = order[: order.index(lead.low)] if lead.is_double else order
        return sum(1 << tile(k, k) for k in before) & every
    if lead.is_double:
        return sum(1 << tile(k, k) for k in range(lead.low + 1, rules.set + 1)) & every
    heavier = mask_of(
        t for t in TILES[: every.bit_length()] if heaviest_key(t) > heaviest_key(lead)
    )
    return (heavier | DOUBLES_MASK) & every
