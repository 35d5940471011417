"""Translation of every user-facing string (gettext catalogs, English as the source).

Call sites mark and translate in one step::

    tr = Translator.for_locale("fi")
    tr("It is {name}'s turn", name=name)
    tr.plural("{name} drew {n} tile", "{name} drew {n} tiles", n, name=name)

``N_("...")`` marks a string to be translated later (e.g. in a table of
constants). Extraction keywords for Babel (``babel.cfg``): ``tr``,
``plural:1,2``, ``N_`` and discord.py's ``locale_str``. The catalogs are
``bot/locales/<lang>/LC_MESSAGES/dominobot.po`` (template ``bot/locales/dominobot.pot``),
compiled to ``.mo`` by ``make catalogs``; ``make messages`` re-extracts them. A
language without a compiled catalog falls back to English.

Numbers are written the language's way with Babel (``tr.number(3.4)`` is ``3,4`` in
Finnish, Danish and Latvian, ``3.4`` in English; ``tr.percent(0.5)``), and so are dates
(``tr.date(when)``: ``Mar 1, 2025``, ``1.3.2025``) and how long ago something happened
(``tr.ago(when, now)``: ``6 minutes ago``, ``6 minuuttia sitten``).
"""

from __future__ import annotations

import gettext
from datetime import date, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any

from babel.dates import format_date, format_timedelta
from babel.numbers import format_decimal, format_percent

DOMAIN = "dominobot"
LOCALE_DIR = Path(__file__).with_name("locales")
DEFAULT_LANGUAGE = "en"
LANGUAGES = ("en", "fi", "da", "lv")
LANGUAGE_NAMES = {"en": "English", "fi": "Suomi", "da": "Dansk", "lv": "Latviešu"}
"""Each language by its own name: shown as is, in every language."""


def N_(message: str) -> str:
    """Mark ``message`` for translation without translating it now."""
    return message


def language_of(locale: object) -> str:
    """Our language for a Discord locale (``"en-US"`` → ``"en"``, ``"fi"`` → ``"fi"``)."""
    text = str(getattr(locale, "value", locale) or "").lower()
    base = text.replace("_", "-").split("-")[0]
    return base if base in LANGUAGES else DEFAULT_LANGUAGE


def missing_catalogs() -> list[str]:
    """The languages whose compiled catalog (``.mo``) is missing: they would show English."""
    return [
        lang
        for lang in LANGUAGES
        if lang != DEFAULT_LANGUAGE and gettext.find(DOMAIN, LOCALE_DIR, [lang]) is None
    ]


@cache
def _catalog(language: str) -> gettext.NullTranslations:
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[language], fallback=True)


class Translator:
    """Translates and fills in messages for one language."""

    __slots__ = ("_catalog", "language")

    def __init__(self, language: str = DEFAULT_LANGUAGE) -> None:
        self.language = language if language in LANGUAGES else DEFAULT_LANGUAGE
        self._catalog = _catalog(self.language)

    @classmethod
    def for_locale(cls, locale: object) -> Translator:
        return cls(language_of(locale))

    def __call__(self, message: str, /, **fields: Any) -> str:
        text = self._catalog.gettext(message)
        return text.format(**fields) if fields else text

    def plural(self, singular: str, plural: str, n: int, /, **fields: Any) -> str:
        return self._catalog.ngettext(singular, plural, n).format(n=n, **fields)

    def number(self, value: float, digits: int = 1, *, fixed: bool = False) -> str:
        """``value`` in this language's format, with at most ``digits`` decimals.

        ``3,4`` in Finnish, Danish and Latvian and ``3.4`` in English; whole numbers
        without decimals (``12``), unless ``fixed`` (``12.0``: numbers in a column that
        read alike); thousands grouped (``1 234`` in Finnish); a value that rounds to zero
        is ``0``, never ``-0``.
        """
        rounded = round(float(value), digits) + 0.0  # + 0.0: no negative zero
        places = ("0" if fixed else "#") * digits
        pattern = "#,##0" + ("." + places if digits > 0 else "")
        return format_decimal(rounded, format=pattern, locale=self.language)

    def percent(self, fraction: float) -> str:
        """``fraction`` as a whole percentage the language's way (``50%``, ``50 %``)."""
        return format_percent(round(float(fraction), 2), locale=self.language)

    def date(self, when: date | datetime) -> str:
        """The day of ``when`` the language's way: ``Mar 1, 2025``, ``1.3.2025``,
        ``1. mar. 2025``, ``2025. gada 1. marts`` (a datetime's own day, as stored: UTC)."""
        day = when.date() if isinstance(when, datetime) else when
        return format_date(day, format="medium", locale=self.language)

    def ago(self, when: datetime, now: datetime) -> str:
        """How long before ``now`` ``when`` was: ``6 minutes ago``, ``6 minuuttia sitten``.

        Babel reads the sign: a negative span is past (``… ago``), a positive one future
        (``in …``). A ``when`` at or after ``now`` (clocks a moment apart) reads as a
        second ago, never as the future.
        """
        span = min(when - now, timedelta(seconds=-1))
        return format_timedelta(span, add_direction=True, locale=self.language)


ENGLISH = Translator(DEFAULT_LANGUAGE)
