"""A select's chosen value comes from the client: only plain ASCII digits are a number."""

from __future__ import annotations

import discord
import pytest

from cogs.domino.items import chosen_number


def chosen(value: str, digits: int = 4) -> int | None:
    item: discord.ui.Select[discord.ui.View] = discord.ui.Select(
        custom_id="domino:s:1:1.0:0", options=[discord.SelectOption(label="x", value="0")]
    )
    item._values = [value]  # what discord.py stores from the interaction's data
    return chosen_number(item, digits)


@pytest.mark.parametrize("value", ["2", "0", "0017"])
def test_plain_digits_are_the_number(value: str) -> None:
    assert chosen(value) == int(value)


@pytest.mark.parametrize("value", ["\u00b2", "\u0663", "-1", "1.5", "", " 1", "12345"])
def test_anything_else_is_no_number(value: str) -> None:
    # superscript two and Arabic-Indic three are str.isdigit(), but int() refuses the first
    assert chosen(value) is None
