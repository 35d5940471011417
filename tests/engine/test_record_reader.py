"""The strict record reader (RECORD.md "What the reader accepts") and the replay command
under hostile input: every refused form is a fault at its place, and no input at all
ends in a traceback or an exit status other than 0, 1 or 2.
"""

from __future__ import annotations

import copy
import io
import json
import os
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import (
    RecordError,
    Rules,
    call_time,
    legal_moves,
    load_record,
    match_record,
    new_match,
    next_deal,
    play,
)
from bot.engine.__main__ import main
from bot.engine.record import read_json

RECORDS = Path(__file__).parent / "records"
ROOT = Path(__file__).resolve().parents[2]

Doc = dict[str, Any]


def record(name: str) -> Doc:
    doc: Doc = json.loads((RECORDS / f"{name}.json").read_text(encoding="utf-8"))
    return {k: v for k, v in doc.items() if not k.startswith("_")}


BLOCK = record("block_points_domino")
"""Moves: 1 seat 0 leads 6-6; 2 seat 1 6-5 east; 3 seat 0 6-4; 4 seat 1 5-3; 5 seat 0 4-1."""
LATVIAN = record("latvian_hub_doubles_closed")
"""Move 6 is seat 1 laying 2-2 west and 5-5 south face down (the tiles form)."""


def replay(data: str | bytes) -> tuple[int, str, str]:
    """The command, in-process, on ``data`` as standard input."""
    out, err = io.StringIO(), io.StringIO()
    stdin = io.BytesIO(data) if isinstance(data, bytes) else io.StringIO(data)
    with redirect_stdout(out), redirect_stderr(err):
        status = main(["replay", "-"], stdin=stdin)
    return status, out.getvalue(), err.getvalue()


def fault_of(doc: Any) -> dict[str, Any]:
    status, out, err = replay(json.dumps(doc))
    assert (status, err) == (1, ""), out
    printed: dict[str, Any] = json.loads(out)["error"]
    return printed


def change(base: Doc, edit: Callable[[Doc], Any]) -> Doc:
    doc = copy.deepcopy(base)
    edit(doc)
    return doc


def move(doc: Doc, index: int, deal: int = 0) -> dict[str, Any]:
    found: dict[str, Any] = doc["deals"][deal]["moves"][index]
    return found


# -- the refused forms, one by one -------------------------------------------------------

REFUSED: list[tuple[str, Doc, Callable[[Doc], Any], int | None, int | None, str]] = [
    # tiles are exactly a-b in ASCII digits
    ("tile-spaces", BLOCK, lambda d: move(d, 1).update(tile="6 - 5"), 1, 2, "not a tile"),
    ("tile-arabic-digits", BLOCK, lambda d: move(d, 1).update(tile="٦-5"), 1, 2, "not a tile"),
    ("tile-leading-zero", BLOCK, lambda d: move(d, 1).update(tile="06-5"), 1, 2, "not a tile"),
    ("tile-slash", BLOCK, lambda d: move(d, 1).update(tile="6/5"), 1, 2, "not a tile"),
    ("tile-13", BLOCK, lambda d: move(d, 1).update(tile="13-5"), 1, 2, "not a tile"),
    ("tile-number", BLOCK, lambda d: move(d, 1).update(tile=65), 1, 2, "not a tile"),
    (
        "hand-tile-padded",
        BLOCK,
        lambda d: d["deals"][0]["hands"][0].__setitem__(0, " 6-6"),
        1,
        None,
        "not a tile",
    ),
    (
        "stock-tile-fullwidth",
        BLOCK,
        lambda d: d["deals"][0]["stock"].__setitem__(0, "０-０"),
        1,
        None,
        "not a tile",
    ),
    # end names exactly, lowercase
    ("end-capitalised", BLOCK, lambda d: move(d, 1).update(end="East"), 1, 2, "not an end"),
    ("end-padded", BLOCK, lambda d: move(d, 1).update(end=" east"), 1, 2, "not an end"),
    ("end-abbreviated", BLOCK, lambda d: move(d, 1).update(end="e"), 1, 2, "not an end"),
    ("end-number", BLOCK, lambda d: move(d, 1).update(end=1), 1, 2, "not an end"),
    # stock (and hands, moves) are required
    ("no-stock", BLOCK, lambda d: d["deals"][0].pop("stock"), 1, None, "stock"),
    ("no-hands", BLOCK, lambda d: d["deals"][0].pop("hands"), 1, None, "hands"),
    ("no-moves", BLOCK, lambda d: d["deals"][0].pop("moves"), 1, None, "moves"),
    ("no-seat", BLOCK, lambda d: move(d, 1).pop("seat"), 1, 2, "seat"),
    ("no-tile", BLOCK, lambda d: move(d, 1).pop("tile"), 1, 2, "needs a tile"),
    # a null is not a key left out
    ("null-end", BLOCK, lambda d: move(d, 1).update(end=None), 1, 2, "end is null"),
    ("null-closed", BLOCK, lambda d: move(d, 1).update(closed=None), 1, 2, "closed is null"),
    ("null-seat", BLOCK, lambda d: move(d, 1).update(seat=None), 1, 2, "seat is null"),
    ("null-leader", BLOCK, lambda d: d["deals"][0].update(leader=None), 1, None, "null"),
    ("null-time-up", BLOCK, lambda d: d["deals"][0].update(time_up=None), 1, None, "null"),
    ("null-stock", BLOCK, lambda d: d["deals"][0].update(stock=None), 1, None, "null"),
    ("null-seats", BLOCK, lambda d: d.update(seats=None), None, None, "seats is null"),
    ("null-format", BLOCK, lambda d: d.update(format=None), None, None, "format is null"),
    ("null-rules", BLOCK, lambda d: d.update(rules=None), None, None, "rules is null"),
    ("null-rule", BLOCK, lambda d: d["rules"].update(target=None), None, None, "target is null"),
    # unknown keys in rules are faults (elsewhere they are ignored)
    ("rules-unknown", BLOCK, lambda d: d["rules"].update(speed=2), None, None, "'speed'"),
    # the tiles form: latvian only, never with tile, each entry with its own end
    (
        "tiles-in-block",
        BLOCK,
        lambda d: d["deals"][0]["moves"].__setitem__(
            1, {"seat": 1, "tiles": [{"tile": "6-5", "end": "east"}]}
        ),
        1,
        2,
        "only for latvian",
    ),
    ("tiles-and-tile", LATVIAN, lambda d: move(d, 5).update(tile="2-2"), 1, 6, "never both"),
    ("end-beside-tiles", LATVIAN, lambda d: move(d, 5).update(end="west"), 1, 6, "each entry"),
    (
        "closed-beside-tiles",
        LATVIAN,
        lambda d: move(d, 5).update(closed=True),
        1,
        6,
        "each entry",
    ),
    ("tiles-empty", LATVIAN, lambda d: move(d, 5).update(tiles=[]), 1, 6, "at least one"),
    ("tiles-null", LATVIAN, lambda d: move(d, 5).update(tiles=None), 1, 6, "tiles is null"),
    (
        "tiles-twice",
        LATVIAN,
        lambda d: move(d, 5).update(tiles=[{"tile": "2-2", "end": "west"}] * 2),
        1,
        6,
        "2-2 is named twice",
    ),
    # the lead names no end and is never face down
    ("lead-with-end", BLOCK, lambda d: move(d, 0).update(end="west"), 1, 1, "no end"),
    ("lead-face-down", LATVIAN, lambda d: move(d, 0).update(closed=True), 1, 1, "face down"),
    # closed is a boolean, and only latvian lays face down
    ("closed-string", LATVIAN, lambda d: move(d, 1).update(closed="true"), 1, 2, "true or false"),
    ("closed-in-block", BLOCK, lambda d: move(d, 1).update(closed=True), 1, 2, "only latvian"),
    # Mexican Train: train is for its moves only; a block deal is not a Mexican Train round
    ("train-in-block", BLOCK, lambda d: move(d, 1).update(train=1), 1, 2, "Mexican Train"),
    (
        "train-in-tiles",
        LATVIAN,
        lambda d: move(d, 5)["tiles"][0].update(train="mexican"),
        1,
        6,
        "Mexican Train",
    ),
    ("mexican", BLOCK, lambda d: d["rules"].update(game="mexican"), 1, None, "miss 0-7"),
    ("scoring-rounds", BLOCK, lambda d: d["rules"].update(scoring="rounds"), None, None, "rounds"),
    # time_up: a boolean, for time-limited latvian sessions only
    ("time-up-block", BLOCK, lambda d: d["deals"][0].update(time_up=True), 1, None, "time limit"),
    ("time-up-no-limit", LATVIAN, lambda d: d["deals"][0].update(time_up=True), 1, None, "time"),
    (
        "time-up-string",
        LATVIAN,
        lambda d: d["deals"][0].update(time_up="yes"),
        1,
        None,
        "true or false",
    ),
    ("time-limit-block", BLOCK, lambda d: d["rules"].update(time_limit=30), None, None, "latvian"),
    ("time-limit-zero", LATVIAN, lambda d: d["rules"].update(time_limit=0), None, None, "minutes"),
    # numbers are whole numbers, not booleans or floats
    ("seat-true", BLOCK, lambda d: move(d, 1).update(seat=True), 1, 2, "seat must be"),
    ("seat-float", BLOCK, lambda d: move(d, 1).update(seat=1.0), 1, 2, "seat must be"),
    ("seat-out", BLOCK, lambda d: move(d, 1).update(seat=2), 1, 2, "seat must be"),
    ("leader-string", BLOCK, lambda d: d["deals"][0].update(leader="0"), 1, None, "leader"),
    ("hand-float", BLOCK, lambda d: d["rules"].update(hand=3.0), None, None, "whole number"),
    ("target-huge", BLOCK, lambda d: d["rules"].update(target=10**30), None, None, "target"),
]


@pytest.mark.parametrize(
    ("base", "edit", "deal", "move_number", "phrase"),
    [pytest.param(*case[1:], id=case[0]) for case in REFUSED],
)
def test_a_form_the_reader_does_not_accept_is_a_fault_at_its_place(
    base: Doc,
    edit: Callable[[Doc], Any],
    deal: int | None,
    move_number: int | None,
    phrase: str,
) -> None:
    error = fault_of(change(base, edit))
    assert (error["deal"], error["move"]) == (deal, move_number), error["message"]
    assert phrase in error["message"]


@pytest.mark.parametrize(
    "edit",
    [
        pytest.param(lambda d: d["deals"][0].update(_note="hi"), id="unknown-deal-key"),
        pytest.param(lambda d: move(d, 1).update(comment=[1, 2]), id="unknown-move-key"),
        pytest.param(lambda d: d.update(_comment={"x": None}), id="unknown-top-key"),
        pytest.param(lambda d: move(d, 1).update(closed=False), id="closed-false"),
        pytest.param(lambda d: move(d, 2).pop("end", None), id="end-left-out-one-fit"),
        pytest.param(lambda d: d.pop("seats"), id="no-seats"),
        pytest.param(lambda d: d["deals"][0].update(leader=0), id="leader-as-fixed"),
        pytest.param(lambda d: d["deals"][0].update(time_up=False), id="time-up-false"),
    ],
)
def test_what_the_reader_accepts(edit: Callable[[Doc], Any]) -> None:
    status, out, err = replay(json.dumps(change(BLOCK, edit)))
    assert (status, err) == (0, ""), out


def test_a_latvian_tiles_list_of_one_is_the_single_form() -> None:
    doc = change(
        LATVIAN,
        lambda d: d["deals"][0]["moves"].__setitem__(
            1, {"seat": 1, "tiles": [{"tile": "1-2", "end": "west"}]}
        ),
    )
    assert replay(json.dumps(doc)) == replay(json.dumps(LATVIAN))
    assert replay(json.dumps(doc))[0] == 0


def test_a_key_written_twice_is_a_fault_of_the_record() -> None:
    text = json.dumps(BLOCK).replace('"seat": 1,', '"seat": 1, "seat": 0,', 1)
    status, out, _ = replay(text)
    assert status == 1
    assert json.loads(out)["error"] == {
        "deal": None,
        "move": None,
        "message": "an object names 'seat' twice: which one counts?",
    }


# -- time-limited latvian sessions ------------------------------------------------------------


def time_limited(seed: int, deals: int | None = None) -> Doc:
    """A latvian session limited in time, time called during its first deal."""
    rules = Rules.make("latvian", time_limit=30, deals=deals)
    rng = random.Random(seed)
    state = new_match(rules, rng)
    state = play(state, legal_moves(state)[0])
    state = call_time(state)
    while not state.deal.over:
        state = play(state, rng.choice(legal_moves(state)))
    assert state.over
    doc = match_record(state)
    assert doc["deals"][0]["time_up"] is True
    return json.loads(json.dumps(doc))


def test_a_time_limited_session_ends_after_the_deal_time_ran_out_in() -> None:
    doc = time_limited(1)
    assert doc["rules"]["time_limit"] == 30
    assert "deals" not in doc["rules"]
    status, out, _ = replay(json.dumps(doc))
    assert status == 0
    summary = json.loads(out)
    assert summary["over"] is True
    assert len(summary["deals"]) == 1
    assert summary["places"] is not None
    assert summary["winners"]


def test_time_up_in_a_deal_in_progress_ends_the_session_after_it() -> None:
    rules = Rules.make("latvian", time_limit=30)
    state = call_time(new_match(rules, random.Random(2)))
    doc = json.loads(json.dumps(match_record(state)))
    assert doc["deals"][0] == {**doc["deals"][0], "time_up": True, "moves": []}
    summary = json.loads(replay(json.dumps(doc))[1])
    assert summary["over"] is False
    assert summary["deals"][0]["end"] == "open"


def test_a_deal_after_time_ran_out_is_a_fault_of_that_deal() -> None:
    doc = time_limited(3)
    doc["deals"].append(copy.deepcopy(doc["deals"][0]))
    del doc["deals"][1]["time_up"]
    error = fault_of(doc)
    assert (error["deal"], error["move"]) == (2, None)
    assert "already over" in error["message"]


def test_without_time_up_a_time_limited_session_goes_on() -> None:
    doc = time_limited(4)
    del doc["deals"][0]["time_up"]
    summary = json.loads(replay(json.dumps(doc))[1])
    assert summary["over"] is False  # no deals limit: only time ends it


def test_a_time_limited_session_with_a_number_of_deals_ends_at_either() -> None:
    rules = Rules.make("latvian", time_limit=30, deals=1)
    rng = random.Random(5)
    state = new_match(rules, rng)
    while not state.deal.over:
        state = play(state, rng.choice(legal_moves(state)))
    assert state.over  # one deal: over without time_up
    doc = json.loads(json.dumps(match_record(state)))
    assert "time_up" not in doc["deals"][0]
    assert json.loads(replay(json.dumps(doc))[1])["over"] is True


# -- numbers too long, text that is not JSON or not UTF-8 ---------------------------------------

LONG = "9" * 5000  # beyond Python's 4300-digit limit on reading an int
LONGISH = "9" * 1000  # within it, still no record value


@pytest.mark.parametrize("digits", [LONG, LONGISH, "-" + LONG])
@pytest.mark.parametrize(
    ("old", "deal", "move_number", "phrase"),
    [
        ('"seat": 1', 1, 2, "seat must be a seat from 0 to 1, not a number"),
        ('"hand": 3', None, None, "rules: hand is a number"),
        ('"game": "block"', None, None, "rules: game is a number"),
        ('"tile": "6-5"', 1, 2, "is not a tile"),
        ('"end": "east"', 1, 2, "is not an end"),
        ('"format": "domino-record/1"', None, None, "unknown format a number"),
    ],
)
def test_a_very_long_number_anywhere_is_a_fault_at_its_place(
    digits: str, old: str, deal: int | None, move_number: int | None, phrase: str
) -> None:
    text = json.dumps(BLOCK)
    assert old in text
    key = old.split(":")[0]
    status, out, err = replay(text.replace(old, f"{key}: {digits}", 1))
    assert (status, err) == (1, "")
    error = json.loads(out)["error"]
    assert (error["deal"], error["move"]) == (deal, move_number)
    assert phrase in error["message"]
    assert len(error["message"]) < 200


def test_a_very_long_number_in_an_ignored_key_is_ignored() -> None:
    text = json.dumps({"_comment": 0, **BLOCK}).replace('"_comment": 0', f'"_comment": {LONG}')
    assert replay(text)[0] == 0


@pytest.mark.parametrize(
    "text",
    ['{"deals": NaN}', '{"deals": [Infinity]}', '{"deals": -Infinity}', "\ufeff{}", ""],
)
def test_what_is_not_json_is_a_usage_error(text: str) -> None:
    status, out, err = replay(text)
    assert (status, out) == (2, "")
    assert "not JSON" in err


@pytest.mark.parametrize(
    "data",
    [b'{"format": "\xff"}', b"\xc3", b"\xed\xa0\x80{}", b'{"a": "\x80"}'],
    ids=["ff", "cut-short", "encoded-surrogate", "lone-continuation"],
)
def test_bytes_that_are_not_utf8_are_a_usage_error(data: bytes) -> None:
    status, out, err = replay(data)
    assert (status, out) == (2, "")
    assert "not UTF-8" in err


def test_text_with_a_lone_surrogate_is_not_utf8_either() -> None:
    status, out, err = replay('{"format": "\udcff"}')  # as surrogateescape reads \xff
    assert (status, out) == (2, "")
    assert "not UTF-8" in err


def test_an_escaped_lone_surrogate_in_a_string_is_quoted_back_safely() -> None:
    status, out, _ = replay(json.dumps({**BLOCK, "format": "\ud800"}))
    assert status == 1
    assert out.isascii()
    assert "unknown format" in json.loads(out)["error"]["message"]


def test_a_path_the_system_cannot_open_is_a_usage_error(capsys: pytest.CaptureFixture[str]):
    assert main(["replay", "nul\x00.json"]) == 2
    assert main(["replay", str(RECORDS)]) == 2  # a folder
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("cannot read") == 2


# -- as a command: bytes on standard input --------------------------------------------------


def command(data: bytes, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "bot.engine", "replay", "-"],
        input=data,
        capture_output=True,
        cwd=ROOT,
        timeout=60,
        check=False,
        env={**os.environ, **(env or {})},
    )


@pytest.mark.parametrize("locale", ["C.UTF-8", "C"])
@pytest.mark.parametrize(
    ("data", "status"),
    [
        pytest.param(b'{"format": "\xff"}', 2, id="invalid-utf8"),
        pytest.param(b"\xff\xfe{\x00}\x00", 2, id="utf16"),
        pytest.param(b"\x00\x00", 2, id="nul"),
        pytest.param(
            json.dumps(BLOCK).replace('"seat": 1', f'"seat": {LONG}').encode(), 1, id="long"
        ),
        pytest.param(json.dumps({**BLOCK, "format": "\ud800"}).encode(), 1, id="surrogate"),
        pytest.param(json.dumps({**BLOCK, "format": "é"}, ensure_ascii=False).encode(), 1, id="é"),
        pytest.param(json.dumps(BLOCK).encode(), 0, id="sound"),
    ],
)
def test_the_command_answers_any_bytes_without_a_traceback(
    data: bytes, status: int, locale: str
) -> None:
    done = command(data, {"LC_ALL": locale, "PYTHONIOENCODING": ""})
    assert b"Traceback" not in done.stderr
    assert done.returncode == status, done.stderr
    if status == 2:
        assert done.stdout == b""
        assert done.stderr
    else:
        assert done.stderr == b""
        assert done.stdout.isascii()
        json.loads(done.stdout)


# -- mutation fuzzing ------------------------------------------------------------------------


def played_records() -> list[Doc]:
    """Records of seeded random matches of every game, some finished, some in progress."""
    out = []
    for i, (game, options) in enumerate(
        [
            ("block", {}),
            ("block", {"players": 4, "teams": True}),
            ("draw", {"players": 3}),
            ("draw", {"layout": "spinner", "scoring": "penalty"}),
            ("allfives", {}),
            ("latvian", {"players": 3}),
            ("latvian", {"time_limit": 20}),
        ]
    ):
        rng = random.Random(i)
        state = new_match(Rules.make(game, **options), rng)
        for _ in range(rng.randrange(20, 120)):
            if state.over:
                break
            if state.deal.over:
                state = next_deal(state, rng)
            else:
                state = play(state, rng.choice(legal_moves(state)))
        out.append(json.loads(json.dumps(match_record(state, ["a"] * state.rules.players))))
    return out


POOL: list[Doc] = [
    record(p.stem)
    for p in sorted(RECORDS.glob("*.json"))
    if "error" not in json.loads(p.read_text(encoding="utf-8"))["_expect"]
] + played_records()

KEYS = [
    "format", "rules", "seats", "deals", "hands", "stock", "leader", "moves", "time_up",
    "seat", "tile", "tiles", "end", "closed", "train", "game", "set", "players", "teams",
    "scoring", "target", "layout", "hand", "blocked_scoring", "time_limit", "_x",
]  # fmt: skip
HUGE = "@@HUGE@@"
WORDS = [
    "6-4", "4-6", "6-6", "0-0", "12-12", "6 -4", "٦-٤", "east", "East", "west", "north",
    "south", "block", "draw", "allfives", "latvian", "mexican", "points", "spinner",
    "domino-record/1", HUGE,
]  # fmt: skip
VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 30),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=6),
    st.sampled_from(WORDS),
    st.lists(st.sampled_from([0, 1, "6-4", "east", None]), max_size=3),
    st.builds(dict),
    st.builds(lambda: {"tile": "6-6", "end": "east"}),
)


def nodes(doc: Any) -> Iterator[tuple[Any, Any]]:
    """Every (container, key or index) in the tree."""
    stack = [doc]
    while stack:
        node = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for key, value in list(items):
            yield node, key
            if isinstance(value, dict | list):
                stack.append(value)


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    doc = copy.deepcopy(draw(st.sampled_from(POOL)))
    for _ in range(draw(st.integers(1, 3))):
        spots = list(nodes(doc))
        if not spots:
            break
        parent, key = draw(st.sampled_from(spots))
        action = draw(st.sampled_from(["delete", "replace", "replace", "insert", "twice", "swap"]))
        if action == "delete":
            del parent[key]
        elif action == "replace":
            parent[key] = draw(VALUES)
        elif action == "insert" and isinstance(parent, dict):
            parent[draw(st.sampled_from(KEYS))] = draw(VALUES)
        elif action == "insert":
            parent.insert(key, draw(VALUES))
        elif action == "twice" and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
        elif action == "swap" and isinstance(parent, list) and len(parent) > 1:
            other = draw(st.integers(0, len(parent) - 1))
            parent[key], parent[other] = parent[other], parent[key]
    text = json.dumps(doc, ensure_ascii=draw(st.booleans()))
    text = text.replace(f'"{HUGE}"', draw(st.sampled_from([LONG, "-" + LONG, LONGISH, "1e400"])))
    data = text.encode("utf-8")
    damage = draw(st.sampled_from(["none", "none", "none", "cut", "byte", "insert"]))
    if damage != "none" and data:
        at = draw(st.integers(0, len(data) - 1))
        if damage == "cut":
            data = data[:at]
        elif damage == "byte":
            data = data[:at] + bytes([draw(st.integers(0, 255))]) + data[at + 1 :]
        else:
            data = data[:at] + draw(st.binary(min_size=1, max_size=4)) + data[at:]
    return data


def check_answer(data: bytes) -> int:
    """What RECORD.md promises of any input: exit 0, 1 or 2, with the output each says."""
    try:
        status, out, err = replay(data)
    except BaseException as e:  # a traceback, had it been the command
        raise AssertionError(f"{type(e).__name__}: {e} on {data[:300]!r}") from e
    assert status in (0, 1, 2)
    if status == 2:
        assert out == ""
        assert err.strip()
        return status
    assert err == ""
    assert out.endswith("\n")
    assert out.count("\n") == 1
    assert out.isascii()
    printed = json.loads(out)
    if status == 0:
        assert set(printed) == {"sides", "deals", "totals", "over", "winners", "places"}
        assert len(printed["deals"]) == len(read_json(data.decode())["deals"])
        return status
    assert set(printed) == {"error"}
    error = printed["error"]
    assert set(error) == {"deal", "move", "message"}
    message = error["message"]
    assert isinstance(message, str)
    assert message.strip()
    assert len(message) < 400
    assert "Traceback" not in message
    assert not message.startswith(("<", "Error", "ValueError", "KeyError", "TypeError"))
    doc = read_json(data.decode())
    if error["deal"] is not None:
        deals = doc["deals"]
        assert 1 <= error["deal"] <= len(deals)
        if error["move"] is not None:
            assert 1 <= error["move"] <= len(deals[error["deal"] - 1]["moves"])
    else:
        assert error["move"] is None
    return status


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=mutated())
def test_any_mutation_of_a_record_gets_an_answer_never_a_traceback(data: bytes) -> None:
    check_answer(data)


def test_the_pool_replays() -> None:
    assert len(POOL) >= 30
    for doc in POOL:
        assert check_answer(json.dumps(doc).encode()) == 0


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=st.sampled_from(POOL), data=st.data())
def test_load_record_raises_only_record_errors_on_python_values(
    base: Doc, data: st.DataObject
) -> None:
    """``state_from_json`` on any Python value, huge ints included: a RecordError or a state."""
    doc = copy.deepcopy(base)
    spots = list(nodes(doc))
    for _ in range(data.draw(st.integers(1, 3))):
        parent, key = data.draw(st.sampled_from(spots))
        value = data.draw(st.one_of(VALUES, st.just(10**5000), st.just(-(10**5000))))
        parent[key] = value
        spots = list(nodes(doc))
        if not spots:
            break
    try:
        load_record(doc)
    except RecordError as e:
        message = e.message
    else:
        return
    assert message
    assert str(message)
