"""The band above the board: a title, table facts and one chip per player (one per team
in a partnership game: the team's score once, each partner's name and tiles in it).

A name too long for its chip is split before it is cut: ``Bot 1 (AI, normal)`` shows
``Bot 1`` in bold and ``AI, normal`` (or ``AI``) beside it in small muted letters
(:func:`split_name`), so an AI seat keeps its number and its kind."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from functools import lru_cache

from PIL import Image

from bot.engine.view import PlayerView

from . import sprites, theme
from .canvas import ascent, draw_box, draw_stripe, draw_text, line_height
from .theme import Colour

REFERENCE_WIDTH = 800
"""The sizes of :class:`HeaderSizes` are for a picture this wide (twice what Discord
shows) and scale with the picture, so the header looks the same in Discord's preview
whatever the board's width: names 12 px tall there, scores 15 px."""


@dataclass(frozen=True, slots=True)
class HeaderSizes:
    """The header's sizes for one picture width (the defaults: :data:`REFERENCE_WIDTH`)."""

    pad: int = 10
    info: int = 36
    chip: int = 68
    team_chip: int = 84
    """A team's chip holds a line per partner."""
    radius: int = 8
    title: int = 24
    fact_label: int = 20
    fact_value: int = 24
    name: int = 24
    name_min: int = 20
    """10 px as Discord shows an 800 px picture: a longer name is split or cut, never smaller."""
    score: int = 30
    tiles: int = 20
    icon: int = 14
    """The unit of the face-down tile before the tiles in hand: always even."""
    stripe: int = 6
    outline: int = 3


@lru_cache(maxsize=32)
def header_sizes(width: int) -> HeaderSizes:
    scale = width / REFERENCE_WIDTH
    reference = HeaderSizes()
    sizes = {f.name: max(1, round(getattr(reference, f.name) * scale)) for f in fields(reference)}
    sizes["icon"] = max(1, round(reference.icon / 2 * scale)) * 2
    return HeaderSizes(**sizes)


@dataclass(frozen=True, slots=True)
class Chip:
    """One player as the header shows them."""

    name: str
    tiles: int
    score: str
    colour: Colour
    to_move: bool


@dataclass(frozen=True, slots=True)
class Team:
    """A side of a partnership game as the header shows it: its seats, its score once."""

    seats: tuple[int, ...]
    score: str


def split_name(name: str) -> tuple[str, str]:
    """``Bot 1 (AI, normal)`` -> ``("Bot 1", "AI, normal")``: a trailing part in
    parentheses becomes a note that may be drawn smaller or shortened; else no note."""
    if name.endswith(")") and " (" in name:
        base, _, rest = name[:-1].rpartition(" (")
        if base.strip() and rest.strip():
            return base, rest
    return name, ""


def short_note(note: str) -> str:
    """A note's first part (``AI, normal`` -> ``AI``): the level may be dropped for room."""
    return note.split(",")[0].strip()


def seat_colour(seat: int, teams: bool) -> Colour:
    """Team colours with partnerships, else one colour per seat."""
    if teams:
        return theme.TEAM_COLOURS[seat % 2]
    return theme.SEAT_COLOURS[seat % len(theme.SEAT_COLOURS)]


def format_score(value: float) -> str:
    """``35`` for whole numbers, ``2.5`` otherwise."""
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def seat_chips(
    board: PlayerView, names: Sequence[str], totals: Sequence[float] | None
) -> tuple[list[Chip], list[float]]:
    """The chip of each seat of the public ``board`` and each side's total (``totals``,
    by default the view's). A seat's own view is refused, and so are names and totals
    that do not match the seats and the sides."""
    if board.seat is not None:
        raise ValueError("the board is public: draw it from public_view(state), not a seat's view")
    rules = board.rules
    if len(names) != rules.players:
        raise ValueError(f"{rules.players} seats need {rules.players} names, not {len(names)}")
    sides = rules.sides
    side_totals = list(totals) if totals is not None else list(board.totals)
    if len(side_totals) != len(sides):
        raise ValueError(f"{len(sides)} sides need {len(sides)} totals, not {len(side_totals)}")
    chips = [
        Chip(
            name=names[seat],
            tiles=board.hand_sizes[seat],
            score=format_score(side_totals[rules.side_of(seat)]),
            colour=seat_colour(seat, rules.teams),
            to_move=not board.deal_over and seat == board.turn,
        )
        for seat in range(rules.players)
    ]
    return chips, side_totals


def _rows(players: int) -> list[int]:
    """How many chips each row holds: one row up to 4 players, else two."""
    if players <= 4:
        return [players]
    first = (players + 1) // 2
    return [first, players - first]


def header_height(
    players: int, has_info: bool, width: int = REFERENCE_WIDTH, teams: bool = False
) -> int:
    """How tall the header is over a picture ``width`` pixels wide (``teams``: one chip
    per team, a line per partner)."""
    z = header_sizes(width)
    info = z.info + z.pad // 2 if has_info else 0
    if teams:
        return z.pad + info + z.team_chip + z.pad
    rows = len(_rows(players))
    return z.pad + info + rows * z.chip + (rows - 1) * (z.pad // 2) + z.pad


def header_share(players: int, has_info: bool, teams: bool = False) -> float:
    """The header's height as a share of the picture's width."""
    return header_height(players, has_info, REFERENCE_WIDTH, teams) / REFERENCE_WIDTH


def draw_header(
    im: Image.Image,
    width: int,
    chips: Sequence[Chip],
    title: str | None,
    facts: Sequence[tuple[str, str]],
    teams: Sequence[Team] = (),
) -> None:
    """Draw the header across the top ``width`` pixels of ``im`` (already sized for it).

    With ``teams`` (a partnership game) the header has one chip per team: the team's
    score once, a line per partner (their name and tiles in hand); the chips' own
    scores are not drawn."""
    z = header_sizes(width)
    height = header_height(len(chips), bool(title or facts), width, bool(teams))
    im.paste(theme.index(theme.PANEL), (0, 0, width, height))
    y = z.pad
    if title or facts:
        _draw_info(im, z, width, y, title, facts)
        y += z.info + z.pad // 2
    if teams:
        chip_w = (width - z.pad * (len(teams) + 1)) // len(teams)
        for i, team in enumerate(teams):
            x = z.pad + i * (chip_w + z.pad)
            _draw_team(im, z, x, y, chip_w, team, [chips[seat] for seat in team.seats])
        return
    seat = 0
    for count in _rows(len(chips)):
        chip_w = (width - z.pad * (count + 1)) // count
        for i in range(count):
            _draw_chip(im, z, z.pad + i * (chip_w + z.pad), y, chip_w, chips[seat])
            seat += 1
        y += z.chip + z.pad // 2


def _draw_info(
    im: Image.Image,
    z: HeaderSizes,
    width: int,
    y: int,
    title: str | None,
    facts: Sequence[tuple[str, str]],
) -> None:
    value_top = y + (z.info - line_height(z.fact_value, True)) // 2
    baseline = value_top + ascent(z.fact_value, True)
    label_top = baseline - ascent(z.fact_label)
    x = width - z.pad
    for label, value in reversed(facts):
        x -= draw_text(
            im, value, x, value_top, z.fact_value, bold=True, background=theme.PANEL, align="right"
        )
        x -= z.pad * 2 // 3
        x -= draw_text(
            im,
            label,
            x,
            label_top,
            z.fact_label,
            colour=theme.TEXT_MUTED,
            background=theme.PANEL,
            align="right",
        )
        x -= z.pad * 2
    if title:
        text, size = sprites.fit_text(title, x - 2 * z.pad, z.title, True, z.name_min)
        top = baseline - ascent(size, True)
        draw_text(im, text, z.pad, top, size, bold=True, background=theme.PANEL)


def _draw_frame(
    im: Image.Image,
    z: HeaderSizes,
    box: tuple[int, int, int, int],
    colour: Colour,
    score: str,
    to_move: bool,
) -> int:
    """A chip's box (``x, y, w, h``; outlined in gold for the side to move), its colour
    stripe and its score at the right. Returns the score's width."""
    x, y, w, h = box
    draw_box(
        im,
        x,
        y,
        w,
        h,
        radius=z.radius,
        fill=theme.CHIP,
        background=theme.PANEL,
        gold=z.outline if to_move else 0,
    )
    draw_stripe(im, x + z.pad, y + z.pad, h - 2 * z.pad, colour, theme.CHIP, z.stripe)
    return draw_text(
        im,
        score,
        x + w - z.pad - z.outline,
        y + (h - line_height(z.score, True)) // 2,
        z.score,
        bold=True,
        colour=theme.GOLD if to_move else theme.TEXT,
        background=theme.CHIP,
        align="right",
    )


def _draw_chip(im: Image.Image, z: HeaderSizes, x: int, y: int, w: int, chip: Chip) -> None:
    score_w = _draw_frame(im, z, (x, y, w, z.chip), chip.colour, chip.score, chip.to_move)
    inset = z.pad
    left = x + inset + z.stripe + z.pad
    name_h = line_height(z.name, True)
    second_h = max(line_height(z.tiles, True), 2 * z.icon)
    top = y + (z.chip - (name_h + second_h)) // 2
    room = w - (left - x) - score_w - 2 * inset
    name, size, note = fit_name(chip.name, room, z.name, z.name_min)
    draw_text(
        im,
        name,
        left,
        top + name_h - line_height(size, True),
        size,
        bold=True,
        background=theme.CHIP,
    )
    second = top + name_h
    count_end = _draw_tiles(im, z, left, second, second_h, chip.tiles)
    if note:  # the part of a long name put aside: beside the tiles in hand
        note_x = count_end + z.pad
        note = _fit_note(note, x + w - inset - z.outline - score_w - z.pad - note_x, z.tiles)
        draw_text(
            im,
            note,
            note_x,
            second + (second_h - line_height(z.tiles)) // 2,
            z.tiles,
            colour=theme.TEXT_MUTED,
            background=theme.CHIP,
        )


def _draw_tiles(im: Image.Image, z: HeaderSizes, x: int, top: int, band: int, tiles: int) -> int:
    """The tiles in hand from ``x``: a face-down tile and their count, centred in a band
    ``band`` tall from ``top``. Returns where the count ends."""
    icon = sprites.tile_sprite(0, 0, True, z.icon, "back", theme.CHIP)
    im.paste(icon.image, (x, top + (band - 2 * z.icon) // 2), icon.mask)
    count_x = x + z.icon + z.pad * 2 // 3
    return count_x + draw_text(
        im,
        str(tiles),
        count_x,
        top + (band - line_height(z.tiles, True)) // 2,
        z.tiles,
        bold=True,
        colour=theme.TEXT_MUTED,
        background=theme.CHIP,
    )


def fit_name(name: str, room: int, size: int, min_size: int) -> tuple[str, int, str]:
    """The name to draw in bold, fitted to ``room`` (its text and size), and a note put
    aside: the whole name if it fits at a readable size (``min_size``), else its part
    before the parentheses and the note in them."""
    fitted, got = sprites.fit_text(name, room, size, True, min_size)
    if fitted == name:
        return name, got, ""
    base, note = split_name(name)
    return (*sprites.fit_text(base, room, size, True, min_size), note)


def _fit_note(note: str, room: int, size: int) -> str:
    """The note if it fits, else its first part (``AI``), else nothing."""
    for text in (note, short_note(note)):
        if sprites.text_width(text, size, False) <= room:
            return text
    return ""


def _draw_team(
    im: Image.Image, z: HeaderSizes, x: int, y: int, w: int, team: Team, chips: Sequence[Chip]
) -> None:
    """One team's chip: its colour, a line per partner (name, tiles in hand), its score."""
    to_move = any(chip.to_move for chip in chips)
    h = z.team_chip
    colour = chips[0].colour if chips else theme.TEXT
    score_w = _draw_frame(im, z, (x, y, w, h), colour, team.score, to_move)
    inset = z.pad
    left = x + inset + z.stripe + z.pad
    right = x + w - inset - z.outline - score_w - 2 * z.pad  # the tiles' column ends here
    line = (h - 2 * (z.pad // 2)) // max(1, len(chips))
    for i, chip in enumerate(chips):
        top = y + z.pad // 2 + i * line
        count_w = sprites.text_width(str(chip.tiles), z.tiles, True)
        icon_x = right - count_w - z.pad * 2 // 3 - z.icon
        _draw_tiles(im, z, icon_x, top, line, chip.tiles)
        room = icon_x - z.pad - left
        name, size, note = fit_name(chip.name, room, z.name, z.name_min)
        name_top = top + (line - line_height(size, True)) // 2
        name_w = draw_text(
            im,
            name,
            left,
            name_top,
            size,
            bold=True,
            colour=theme.GOLD if chip.to_move else theme.TEXT,
            background=theme.CHIP,
        )
        if note:
            note_x = left + name_w + z.pad * 2 // 3
            note = _fit_note(note, icon_x - z.pad - note_x, z.tiles)
            baseline = name_top + ascent(size, True)
            draw_text(
                im,
                note,
                note_x,
                baseline - ascent(z.tiles),
                z.tiles,
                colour=theme.TEXT_MUTED,
                background=theme.CHIP,
            )
