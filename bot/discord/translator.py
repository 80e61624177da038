"""Slash-command names and descriptions in the users' languages, read from the discord catalogues.

Every :class:`locale_str` the commands declare carries ``key=`` (``discord.cmd.mitmachen.name`` …);
the translator answers with that key's template in the locale's language, or None to keep the base.
Names are checked against Discord's rule for command names, so a catalogue slip cannot break a sync.
"""

from __future__ import annotations

import unicodedata

import discord
from discord import app_commands

from bot import texts

LOCALES: dict[discord.Locale, str] = {
    discord.Locale.german: "de",
    discord.Locale.american_english: "en",
    discord.Locale.british_english: "en",
    discord.Locale.french: "fr",
}
_NAME_LOCATIONS = frozenset(
    {
        app_commands.TranslationContextLocation.command_name,
        app_commands.TranslationContextLocation.group_name,
        app_commands.TranslationContextLocation.parameter_name,
    }
)
NAME_MAX = 32
DESCRIPTION_MAX = 100
CHOICE_MAX = 100


def valid_name(name: str) -> bool:
    """Discord's ``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, lower case where a case exists."""
    if not 1 <= len(name) <= NAME_MAX or name != name.lower():
        return False
    return all(ch in "-_" or unicodedata.category(ch)[0] in "LN" or _indic(ch) for ch in name)


def _indic(ch: str) -> bool:
    return "DEVANAGARI" in unicodedata.name(ch, "") or "THAI" in unicodedata.name(ch, "")


def localized(key: str, lang: str, scope: texts.Scope | None = None) -> str | None:
    """The catalogue's own entry for ``key`` in ``lang`` (no fallback to another language)."""
    return texts.catalogue(lang, scope).get(key)


class CatalogueTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        lang = LOCALES.get(locale)
        if not key or lang is None:
            return None
        text = localized(key, lang, string.extras.get("scope"))
        if text is None:
            return None
        if context.location in _NAME_LOCATIONS:
            return text if valid_name(text) else None
        limit = (
            CHOICE_MAX
            if context.location is app_commands.TranslationContextLocation.choice_name
            else DESCRIPTION_MAX
        )
        return text[:limit]
