"""The match-record replay command (``python -m bot.engine replay``), against RECORD.md.

Every record lives in ``records/`` as a JSON file that carries its own expectation:

- ``_expect``: the whole summary the command must print, worked out by hand from
  RULES.md (the reasoning is in ``_comment``), or ``{"error": {deal, move, message}}``
  for a record that breaks the rules; ``message`` is then a key phrase the printed
  message must contain (the whole message when ``_message`` is ``"exact"``).
- ``_xfail``: present on a record the engine gets wrong; the reason names the bug.

Top-level keys starting with ``_`` are not part of the record format; the replay
command ignores unknown top-level keys.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.engine import load_record, match_record, replay_summary
from bot.engine.__main__ import main

RECORDS = Path(__file__).parent / "records"
ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(RECORDS.glob("*.json"))


def _load(path: Path) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return doc


def _is_error(path: Path) -> bool:
    return "error" in _load(path)["_expect"]


def _params(paths: list[Path]) -> list[Any]:
    params = []
    for path in paths:
        doc = _load(path)
        marks = []
        if "_xfail" in doc:
            marks.append(pytest.mark.xfail(strict=True, reason=doc["_xfail"]))
        params.append(pytest.param(path, id=path.stem, marks=marks))
    return params


VALID = [p for p in FILES if not _is_error(p)]
INVALID = [p for p in FILES if _is_error(p)]


def _strict(obj: Any) -> str:
    """JSON text with sorted keys: tells 4 from 4.0 and true from 1."""
    return json.dumps(obj, sort_keys=True)


def _run(argv: list[str], capsys: pytest.CaptureFixture[str], stdin: str | None = None):
    status = main(argv, stdin=io.StringIO(stdin) if stdin is not None else None)
    out, err = capsys.readouterr()
    return status, out, err


def _single_json_line(out: str) -> Any:
    """The command prints exactly one JSON object on one line, and nothing else."""
    assert out.endswith("\n")
    assert out.count("\n") == 1, out
    return json.loads(out)


def _check_error(printed: Any, doc: dict[str, Any]) -> None:
    want = doc["_expect"]["error"]
    assert set(printed) == {"error"}
    got = printed["error"]
    assert set(got) == {"deal", "move", "message"}
    assert (got["deal"], got["move"]) == (want["deal"], want["move"]), got["message"]
    assert isinstance(got["message"], str)
    if doc.get("_message") == "exact":
        assert got["message"] == want["message"]
    else:
        assert want["message"] in got["message"]


# -- the records ---------------------------------------------------------------------


def test_there_are_records_of_both_kinds() -> None:
    assert len(VALID) >= 25
    assert len(INVALID) >= 30
    for path in FILES:
        doc = _load(path)
        assert doc["_comment"], path.name
        assert set(doc) <= {
            "_comment",
            "_expect",
            "_message",
            "_xfail",
            "format",
            "rules",
            "seats",
            "deals",
        }


@pytest.mark.parametrize("path", _params(VALID))
def test_valid_record_replays_to_its_summary(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = _load(path)
    status, out, err = _run(["replay", str(path)], capsys)
    assert (status, err) == (0, "")
    printed = _single_json_line(out)
    assert printed == doc["_expect"]
    assert _strict(printed) == _strict(doc["_expect"])


@pytest.mark.parametrize("path", _params(INVALID))
def test_illegal_record_reports_the_fault(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = _load(path)
    status, out, err = _run(["replay", str(path)], capsys)
    assert err == ""
    printed = _single_json_line(out)
    _check_error(printed, doc)
    assert status == 1


@pytest.mark.parametrize("path", _params(VALID))
def test_round_trip_replays_to_the_same_summary(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``match_record(load_record(doc))`` is a record of the same match."""
    doc = _load(path)
    state = load_record(doc)
    again = json.loads(json.dumps(match_record(state, seats=doc.get("seats"))))
    assert replay_summary(load_record(again)) == doc["_expect"]

    # The written record keeps the deals as dealt and the moves as played.
    assert len(again["deals"]) == len(doc["deals"])
    for mine, theirs in zip(doc["deals"], again["deals"], strict=True):
        assert [sorted(map(_canon, h)) for h in mine["hands"]] == [
            sorted(map(_canon, h)) for h in theirs["hands"]
        ]
        assert [_canon(t) for t in mine["stock"]] == [_canon(t) for t in theirs["stock"]]
        assert len(mine["moves"]) == len(theirs["moves"])
        for index, (written, rewritten) in enumerate(
            zip(mine["moves"], theirs["moves"], strict=True)
        ):
            assert rewritten["seat"] == written["seat"]
            laid, relaid = _placements(written), _placements(rewritten)
            assert set(laid) == set(relaid)
            for tile, (end, closed) in laid.items():
                assert relaid[tile][1] == closed
                if end is not None:  # a record may leave out an end that is clear
                    assert relaid[tile][0] == end
            if index == 0 or "train" in written:  # a lead keeps the orientation it was
                assert rewritten["tile"] == written["tile"]  # written in; a car touches first
    if "seats" in doc:
        assert again["seats"] == doc["seats"]

    # And the command reads it from standard input.
    status, out, err = _run(["replay", "-"], capsys, stdin=json.dumps(again))
    assert (status, err) == (0, "")
    assert _strict(_single_json_line(out)) == _strict(doc["_expect"])


def _canon(text: str) -> str:
    a, b = sorted(int(x) for x in text.split("-"))
    return f"{a}-{b}"


def _placements(move: dict[str, Any]) -> dict[str, tuple[str | int | None, bool]]:
    """Each tile a move lays (canonical a-b) with its end (or Mexican Train's train) and
    whether it lies face down."""
    return {
        _canon(e["tile"]): (e.get("end", e.get("train")), e.get("closed", False))
        for e in move.get("tiles", [move])
    }


# -- the command, in-process -------------------------------------------------------------


def test_standard_input_reports_faults_too(capsys: pytest.CaptureFixture[str]) -> None:
    doc = _load(RECORDS / "bad_wrong_seat.json")
    status, out, err = _run(["replay", "-"], capsys, stdin=json.dumps(doc))
    assert (status, err) == (1, "")
    _check_error(_single_json_line(out), doc)


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        pytest.param("[]", "JSON object", id="array"),
        pytest.param('"block"', "JSON object", id="string"),
        pytest.param('{"rules": {"game": "block"}}', "deals", id="no-deals"),
        pytest.param('{"deals": [{"hands": []}]}', "rules", id="no-rules"),
    ],
)
def test_json_that_is_no_record_is_a_record_fault(
    text: str, phrase: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = _run(["replay", "-"], capsys, stdin=text)
    assert (status, err) == (1, "")
    printed = _single_json_line(out)
    assert printed["error"]["deal"] is None
    assert printed["error"]["move"] is None
    assert phrase in printed["error"]["message"]


def test_no_such_file_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.json"
    status, out, err = _run(["replay", str(missing)], capsys)
    assert (status, out) == (2, "")
    assert str(missing) in err


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("", id="empty"),
        pytest.param("{", id="truncated"),
        pytest.param("not json", id="prose"),
    ],
)
def test_not_json_is_a_usage_error(
    text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "record.json"
    path.write_text(text, encoding="utf-8")
    status, out, err = _run(["replay", str(path)], capsys)
    assert (status, out) == (2, "")
    assert "not JSON" in err


def test_not_json_on_standard_input_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(["replay", "-"], capsys, stdin="{")
    assert (status, out) == (2, "")
    assert "not JSON" in err


def test_not_utf8_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "record.json"
    path.write_bytes(b'{"format": "\xff"}')
    status, out, err = _run(["replay", str(path)], capsys)
    assert (status, out) == (2, "")
    assert err


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param([], id="none"),
        pytest.param(["replay"], id="no-path"),
        pytest.param(["check", "x.json"], id="unknown-command"),
        pytest.param(["replay", "a.json", "b.json"], id="two-paths"),
    ],
)
def test_wrong_arguments_are_a_usage_error(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = _run(argv, capsys)
    assert (status, out) == (2, "")
    assert "usage" in err


# -- the command, as a command ---------------------------------------------------------


def _command(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize(
    "name", ["block_points_match_target", "allfives_target_mid_deal", "latvian_session_ties"]
)
def test_command_prints_the_summary(name: str) -> None:
    path = RECORDS / f"{name}.json"
    done = _command("replay", str(path))
    assert (done.returncode, done.stderr) == (0, "")
    assert _strict(_single_json_line(done.stdout)) == _strict(_load(path)["_expect"])


def test_command_reads_standard_input() -> None:
    path = RECORDS / "block_penalty_finnish.json"
    done = _command("replay", "-", stdin=path.read_text(encoding="utf-8"))
    assert (done.returncode, done.stderr) == (0, "")
    assert _strict(_single_json_line(done.stdout)) == _strict(_load(path)["_expect"])


@pytest.mark.parametrize("name", ["bad_does_not_fit", "bad_tile_missing", "bad_rules_unknown_game"])
def test_command_reports_a_rule_fault(name: str) -> None:
    path = RECORDS / f"{name}.json"
    done = _command("replay", str(path))
    assert (done.returncode, done.stderr) == (1, "")
    _check_error(_single_json_line(done.stdout), _load(path))


def test_command_no_such_file(tmp_path: Path) -> None:
    done = _command("replay", str(tmp_path / "nope.json"))
    assert (done.returncode, done.stdout) == (2, "")
    assert "nope.json" in done.stderr
    assert "Traceback" not in done.stderr


def test_command_not_json(tmp_path: Path) -> None:
    path = tmp_path / "record.json"
    path.write_text("{ not json", encoding="utf-8")
    done = _command("replay", str(path))
    assert (done.returncode, done.stdout) == (2, "")
    assert "not JSON" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    "args", [(), ("replay",), ("show", "x.json")], ids=["none", "no-path", "bad"]
)
def test_command_wrong_arguments(args: tuple[str, ...]) -> None:
    done = _command(*args)
    assert (done.returncode, done.stdout) == (2, "")
    assert "usage" in done.stderr


def test_command_survives_deeply_nested_json(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text('{"deals": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    done = _command("replay", str(path))
    assert "Traceback" not in done.stderr
    if done.returncode == 2:  # treated as unreadable: a usage error
        assert done.stdout == ""
        assert done.stderr
    else:  # a fault of the record as a whole
        assert done.returncode == 1
        printed = _single_json_line(done.stdout)
        assert printed["error"]["deal"] is None
        assert printed["error"]["move"] is None
