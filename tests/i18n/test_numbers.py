"""Numbers are written each language's way (Babel): in images and in public texts."""

from __future__ import annotations

import pytest

from bot.i18n import Translator
from cogs.domino import stats_texts
from cogs.domino.table import _number as table_number
from cogs.domino.texts import image_labels

DECIMALS = {"en": "3.4", "fi": "3,4", "da": "3,4", "lv": "3,4"}
THOUSANDS = {"en": "1,234.5", "fi": "1\xa0234,5", "da": "1.234,5", "lv": "1\xa0234,5"}
PERCENT = {"en": "50%", "fi": "50\xa0%", "da": "50\xa0%", "lv": "50%"}


@pytest.mark.parametrize("language", DECIMALS)
def test_a_translator_writes_numbers_its_languages_way(language: str) -> None:
    tr = Translator(language)
    assert tr.number(3.4) == DECIMALS[language]
    assert tr.number(3.44) == DECIMALS[language]  # one decimal
    assert tr.number(12.0) == "12"
    assert tr.number(-0.04) == "0"  # never "-0"
    assert tr.number(1234.5) == THOUSANDS[language]
    assert tr.percent(0.5) == PERCENT[language]


@pytest.mark.parametrize("language", DECIMALS)
def test_images_and_texts_use_the_same_format(language: str) -> None:
    tr = Translator(language)
    assert image_labels(tr).number(3.4) == DECIMALS[language]
    assert stats_texts._number(3.4, tr) == DECIMALS[language]
    assert stats_texts._rating(-3.4, tr) == "−" + DECIMALS[language]
    assert stats_texts._rating(None, tr) == "—"
    # ratings in a column read alike: 21.0 beside 18.9, not 21
    assert stats_texts._rating(21, tr) == DECIMALS[language].replace("3", "21").replace("4", "0")
    assert tr.number(21, fixed=True) == stats_texts._rating(21, tr)
    assert stats_texts._signed(3.4, tr) == "+" + DECIMALS[language]
    assert table_number(3.4, tr) == DECIMALS[language]


def test_without_a_translator_the_table_writes_english() -> None:
    assert table_number(2.5) == "2.5"
    assert table_number(35) == "35"
