"""Reading a child process's lines in a test, without hanging on a child that never says
what the test waits for (tests/e2e/test_shards.py, tests/e2e/test_owner.py)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def start(script: Path, *args: str, stderr: IO[Any] | int) -> subprocess.Popen[str]:
    """``python script ARGS`` from the repository's root, lines in and out as text."""
    return subprocess.Popen(
        [sys.executable, str(script), *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


async def next_line(
    proc: subprocess.Popen[str], end: float, who: str, wanted: str, tail: Callable[[], str]
) -> str:
    """The next line ``proc`` prints. The test fails, with ``tail()`` (what the child said
    last), if the loop's clock passes ``end`` or the child exits before ``wanted``."""
    assert proc.stdout is not None
    loop = asyncio.get_running_loop()
    while True:
        left = end - loop.time()
        if left <= 0:
            pytest.fail(f"{who} never said {wanted}: {tail()}")
        try:
            line = await asyncio.wait_for(loop.run_in_executor(None, proc.stdout.readline), left)
        except TimeoutError:
            continue
        if not line:
            proc.wait(timeout=10)
            pytest.fail(f"{who} exited ({proc.returncode}) before {wanted}: {tail()}")
        return line
