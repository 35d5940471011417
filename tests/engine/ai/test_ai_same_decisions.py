"""Every level decides as recorded: ``benchmarks/ai_decisions.py``'s decisions on fixed
positions (20 a game, in 13 games; the hard level on a budget of 20,000 work units),
recorded by the code before the unused experiments were taken out of the AI. Each
decision is its move and the rng's state after it.

A change meant to alter how the AI plays records the file anew::

    python benchmarks/ai_decisions.py record tests/engine/ai/decisions.json \\
        --positions 20 --work 20000
"""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.ai_decisions import decisions

RECORDED = Path(__file__).with_name("decisions.json")


def test_every_level_decides_as_recorded() -> None:
    doc = json.loads(RECORDED.read_text())
    found = decisions(doc["positions"], doc["work"], 1, doc["games"])
    assert found.keys() == doc["decisions"].keys()
    differ = [f"{k}: {v} now {found[k]}" for k, v in doc["decisions"].items() if found[k] != v]
    assert not differ, "\n".join(differ[:10])
