"""Slash command texts in the user's language: discord.py's translator over our catalogs.

Discord shows a command's description, its options' descriptions and its choices
in the user's client language when the synced commands carry localizations.
:class:`CatalogTranslator` fills them from the gettext catalogs for the locales
Discord has and we translate (Finnish and Danish; Discord has no Latvian locale).
Command and option *names* stay English: they are what people type and what the
docs and tests use.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation, TranslationContextTypes, locale_str

from bot.i18n import DEFAULT_LANGUAGE, Translator

# The Discord locales we have catalogs for, and their language.
DISCORD_LOCALES = {discord.Locale.finnish: "fi", discord.Locale.danish: "da"}

TRANSLATED = frozenset(
    {
        TranslationContextLocation.command_description,
        TranslationContextLocation.group_description,
        TranslationContextLocation.parameter_description,
        TranslationContextLocation.choice_name,
    }
)


class CatalogTranslator(app_commands.Translator):
    """Translates ``locale_str`` descriptions and choice names through the catalogs."""

    async def translate(
        self, string: locale_str, locale: discord.Locale, context: TranslationContextTypes
    ) -> str | None:
        language = DISCORD_LOCALES.get(locale)
        if language is None or language == DEFAULT_LANGUAGE:
            return None
        if context.location not in TRANSLATED:
            return None
        return Translator(language)(string.message)
