"""The message catalogs: complete, faithful to their placeholders, and up to date with the code."""

from __future__ import annotations

import io
import re
import string
from pathlib import Path

import pytest

babel = pytest.importorskip("babel", reason="Babel (a dev dependency) reads the catalogs")

from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir  # noqa: E402
from babel.messages.frontend import parse_mapping_cfg  # noqa: E402
from babel.messages.mofile import write_mo  # noqa: E402
from babel.messages.plurals import get_plural  # noqa: E402
from babel.messages.pofile import read_po  # noqa: E402

from bot.i18n import DEFAULT_LANGUAGE, LANGUAGES, Translator, missing_catalogs  # noqa: E402
from cogs.domino.cog import MESSAGE_LIMIT  # noqa: E402
from cogs.domino.texts import RULES_TEXT  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ROOT / "bot" / "locales"
TEMPLATE = LOCALES / "dominobot.pot"
TRANSLATED = [lang for lang in LANGUAGES if lang != DEFAULT_LANGUAGE]


def load(path: Path, locale: str | None = None):
    with path.open("rb") as f:
        return read_po(f, locale=locale)


def catalog(lang: str):
    return load(LOCALES / lang / "LC_MESSAGES" / "dominobot.po", lang)


def entries(cat):
    return [m for m in cat if m.id]


def key(message) -> str:
    return message.id[0] if isinstance(message.id, tuple) else message.id


def fields(text: str) -> set[str]:
    """The ``str.format`` fields of ``text`` (``{name}``, ``{n}`` …)."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def markup(text: str) -> tuple[int, int, int]:
    """What a translation must keep: bold markers, code ticks and mentions."""
    return text.count("**"), text.count("`"), len(re.findall(r"<@\{?\w+\}?>", text))


@pytest.fixture(scope="module")
def extracted() -> set[str]:
    """Every msgid the code marks today, found by Babel with babel.cfg (as `make messages`)."""
    with (ROOT / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)
    return {
        message[0] if isinstance(message, tuple) else message
        for _, _, message, _, _ in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=DEFAULT_KEYWORDS
        )
    }


def test_every_language_has_a_catalog():
    for lang in TRANSLATED:
        assert (LOCALES / lang / "LC_MESSAGES" / "dominobot.po").is_file(), lang


def test_the_template_is_up_to_date_with_the_code(extracted):
    template = {key(m) for m in entries(load(TEMPLATE))}
    assert extracted - template == set(), "new messages: run `make messages` and translate them"
    assert template - extracted == set(), "stale messages: run `make messages`"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_catalog_holds_exactly_the_template_messages(lang):
    template = {key(m) for m in entries(load(TEMPLATE))}
    have = {key(m) for m in entries(catalog(lang))}
    assert template - have == set(), f"missing in {lang}: run `make messages`"
    assert have - template == set(), f"obsolete in {lang}: run `make messages`"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_plural_forms_are_babels_own(lang):
    cat = catalog(lang)
    expected = get_plural(lang)
    assert cat.num_plurals == expected.num_plurals
    header = dict(cat.mime_headers)
    assert header["Plural-Forms"] == str(expected)
    assert header["Language"] == lang


def test_latvian_has_three_plural_forms():
    assert get_plural("lv").num_plurals == 3
    assert catalog("lv").num_plurals == 3
    tr = Translator("lv")
    forms = {n: tr.plural("{n} tile", "{n} tiles", n) for n in (0, 1, 2, 10, 11, 21, 22)}
    assert forms[1] == "1 kauliņš"
    assert forms[21] == "21 kauliņš"
    assert forms[11] == "11 kauliņi"
    assert forms[2] == "2 kauliņi"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_and_none_is_fuzzy(lang):
    cat = catalog(lang)
    assert not cat.fuzzy, "the header is marked fuzzy"
    bad = []
    for m in entries(cat):
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        if m.fuzzy or not all(s.strip() for s in strings):
            bad.append(key(m))
    assert bad == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_plural_entries_have_every_form(lang):
    cat = catalog(lang)
    for m in entries(cat):
        if m.pluralizable:
            assert isinstance(m.string, tuple)
            assert len(m.string) == cat.num_plurals, key(m)
        else:
            assert isinstance(m.string, str), key(m)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_the_placeholders_and_markup(lang):
    bad = []
    for m in entries(catalog(lang)):
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        wanted = set().union(*(fields(i) for i in ids))
        for text in filter(None, strings):  # an empty one fails the test above
            if fields(text) != wanted or markup(text) != markup(ids[0]):
                bad.append((key(m), text))
    assert bad == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_catalog_passes_babels_checks_and_compiles(lang):
    cat = catalog(lang)
    problems = [(key(m), [str(e) for e in errors]) for m, errors in cat.check()]
    assert problems == []
    out = io.BytesIO()
    write_mo(out, cat)
    assert out.getvalue()


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_compiled_catalog_is_the_one_the_bot_reads(lang):
    tr = Translator(lang)
    cat = catalog(lang)
    for m in entries(cat):
        if not m.pluralizable and m.string:
            assert tr(m.id) == m.string, f"{lang}: stale .mo? run `make catalogs` ({m.id!r})"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", list(RULES_TEXT))
def test_each_rules_explanation_fits_one_discord_message(lang, game):
    text = Translator(lang)(RULES_TEXT[game])
    assert len(text) <= MESSAGE_LIMIT
    if lang != DEFAULT_LANGUAGE:
        assert text != RULES_TEXT[game]


def test_the_checks_catch_a_broken_translation():
    assert fields("{name} drew {n} tiles") == {"name", "n"}
    assert fields("{name} nosti laattoja") != fields("{name} drew {n} tiles")
    assert markup("**Deal {number} is over.**") != markup("Jako {number} on päättynyt.")
    assert markup("<@{user}>, it's your turn.") == (0, 0, 1)


def test_the_bot_finds_every_compiled_catalog():
    assert missing_catalogs() == []
