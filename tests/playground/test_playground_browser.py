"""The playground in a real browser: ``python -m bot playground`` driven by headless Chromium.

One person plays two seats, as the README says: Alice opens a table with the slash
command, the page switches to Bob, who joins; Alice starts; whoever is first to play
shows their hand and plays a tile, and the board image on the table changes.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
URL = re.compile(r"http://127\.0\.0\.1:\d+/#\S+")
# The preview's own automation status (window.simcordPreview): no action pending.
READY = "() => window.simcordPreview && window.simcordPreview.ready"


@pytest.fixture
def playground(tmp_path: Path) -> Iterator[str]:
    """``python -m bot playground`` in a subprocess; yields its page's address."""
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)
    command = [sys.executable, "-m", "bot", "playground", "--no-browser", "--port", "0"]
    process = subprocess.Popen(
        [*command, "--database", str(tmp_path / "playground.sqlite3")],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert process.stdout is not None
    lines = []
    for line in process.stdout:
        lines.append(line)
        found = URL.search(line)
        if found:
            break
    else:
        process.wait(timeout=30)
        pytest.fail("the playground printed no address:\n" + "".join(lines))
    try:
        yield found.group(0)
    finally:
        process.send_signal(signal.SIGTERM)
        rest, _ = process.communicate(timeout=60)
    assert process.returncode == 0, "".join(lines) + rest
    assert "Playground stopped." in rest
    assert "Traceback" not in rest, rest


def table(page: Any) -> Any:
    """The latest table message (its embed title names the game)."""
    messages = page.locator("article.channel-message")
    return messages.filter(has=page.locator(".embed-title", has_text="Block game")).last


def view_as(page: Any, name: str) -> None:
    page.select_option("#viewer-picker", label=name)
    page.wait_for_function(READY)


def click(scope: Any, page: Any, label: str) -> None:
    scope.get_by_role("button", name=label, exact=True).click()
    page.wait_for_function(READY)
    action = page.evaluate("() => window.simcordPreview.lastAction")
    assert not action["rejected"], action
    assert action["settlement"] == "settled", action


def board_image(page: Any) -> bytes:
    """The pixels of the table's board image, once it has loaded."""
    image = table(page).locator(".embed-card img")
    image.wait_for()
    page.wait_for_function(
        "() => [...document.querySelectorAll('.embed-card img')].every("
        "i => i.complete && i.naturalWidth > 0)"
    )
    return image.screenshot()


def test_one_person_plays_two_seats_in_the_browser(chromium: Path, playground: str):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(chromium), args=CHROMIUM_ARGS)
        # The page's CSP forbids eval, which Playwright's wait_for_function needs.
        context = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
        page = context.new_page()
        page.goto(playground)
        page.wait_for_function(READY)
        assert page.locator("#viewer-picker option").all_inner_texts() == [
            "Alice",
            "Bob",
            "Carol",
            "Dave",
        ]

        # Alice types /domino new and picks the block game.
        composer = page.locator("#channel-composer-input")
        composer.click()
        composer.type("/domino new")
        page.keyboard.press("Enter")
        page.locator(".command-suggestion[data-value=block]").click()
        page.wait_for_function("() => window.simcordPreview.commandPicker.draft?.submittable")
        click(page, page, "Send")
        assert "table is open" in table(page).locator(".embed-title").inner_text()

        view_as(page, "Bob")
        click(table(page), page, "Join")
        view_as(page, "Alice")
        click(table(page), page, "Start")
        assert "deal 1" in table(page).locator(".embed-title").inner_text()
        footer = table(page).locator(".embed-footer").inner_text()
        first = re.search(r"(\w+) to play", footer).group(1)
        assert first in ("Alice", "Bob"), footer
        before = board_image(page)

        view_as(page, first)
        click(table(page), page, "Show my hand")
        hand = page.locator("article.channel-message", has=page.locator(".message-ephemeral-note"))
        moves = hand.last.get_by_role("button", name=re.compile(r"^\d+: \d+-\d+"))
        assert moves.count() >= 1
        label = moves.first.inner_text()
        click(hand.last, page, label)

        tile = label.partition(": ")[2].split()[0]  # "1: 6-4 → east" plays 6-4
        after = table(page).locator(".embed-footer").inner_text()
        fields = table(page).locator(".embed-fields").inner_text()
        if f"{first} to play" in after:
            # the other could not follow and passed: the feed tells what happened since
            # the mover's own move, their pass
            other = "Bob" if first == "Alice" else "Alice"
            assert f"{other} passes" in fields, fields
        else:
            assert f"{first} played {tile}" in fields, fields
        assert board_image(page) != before
        transport = page.evaluate("() => window.simcordPreview.transport")
        assert transport["failures"] == 0, transport
        browser.close()


def feed_of(page: Any) -> tuple[str, str]:
    """The table's feed: its heading and its lines."""
    fields = table(page).locator(".embed-field")
    for i in range(fields.count()):
        field = fields.nth(i)
        name = field.locator(".embed-field-name").inner_text()
        if name.startswith("Since ") or name == "Latest":
            return name, field.locator(".embed-field-value").inner_text()
    return "", ""


def test_a_four_player_game_tells_every_seat_s_move_since_your_turn(
    chromium: Path, playground: str
):
    """Issue 38: Alice against three AI seats, one deal, typed as whole commands; after
    each of her moves the table's feed tells the three AI seats' moves, in order. Issue
    40: once it is over, the table's Review button opens the deal's review."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(chromium), args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
        page = context.new_page()
        page.goto(playground)
        page.wait_for_function(READY)

        composer = page.locator("#channel-composer-input")
        composer.click()
        composer.type("/domino new game:block players:4 scoring:single")
        page.keyboard.press("Escape")  # the command popup, if it opened
        composer.press("Enter")
        page.wait_for_function(READY)
        assert "table is open" in table(page).locator(".embed-title").inner_text()
        for _ in range(3):
            click(table(page), page, "Add AI")
        click(table(page), page, "Start")

        told = 0
        for _ in range(12):
            footer = table(page).locator(".embed-footer").inner_text()
            if "the match is over" in footer:
                break
            assert "Alice to play" in footer, footer
            click(table(page), page, "Show my hand")
            hand = page.locator(
                "article.channel-message", has=page.locator(".message-ephemeral-note")
            ).last
            moves = hand.get_by_role("button", name=re.compile(r"^\d+: \d+-\d+"))
            assert moves.count() >= 1
            click(hand, page, moves.first.inner_text())
            footer = table(page).locator(".embed-footer").inner_text()
            if "the match is over" in footer:
                break
            name, lines = feed_of(page)
            assert name == "Since Alice's last turn", (name, lines)
            seats = [line.split(" ")[:2] for line in lines.splitlines()]
            assert seats == [["Bot", "1"], ["Bot", "2"], ["Bot", "3"]], lines
            told += 1
        assert told >= 1

        # Issue 40: the finished table's Review button answers Alice privately with the
        # review of the deal: a few lines and its picture.
        footer = table(page).locator(".embed-footer").inner_text()
        assert "the match is over" in footer, footer
        click(table(page), page, "Review")
        review = page.locator(
            "article.channel-message",
            has=page.locator(".message-ephemeral-note"),
            has_text="Review · match #",
        ).last
        review.wait_for()
        text = review.inner_text()
        assert "Alice: accuracy" in text or "Alice: no choices" in text, text
        picture = review.locator("img").last
        picture.wait_for()
        page.wait_for_function(
            "() => [...document.querySelectorAll('article.channel-message img')].every("
            "i => i.complete && i.naturalWidth > 0)"
        )
        assert picture.evaluate("i => i.naturalWidth") == 1000
        transport = page.evaluate("() => window.simcordPreview.transport")
        assert transport["failures"] == 0, transport
        browser.close()
