"""Slash-command names and descriptions in the users' languages, read from the discord catalogues.

Every :class:`locale_str` the commands declare carries ``key=`` (``discord.cmd.mitmachen.name`` …);
the translator answers with that key's template in the locale's language, or None to keep the base.
Which language a Discord locale gets is the registry's (each language names the locales it serves); a
language offered as a choice carries ``language=`` instead and is named as CLDR names it there.
Names are checked against Discord's rule for command names, so a catalogue slip cannot break a sync.
"""

from __future__ import annotations

import unicodedata

import discord
from babel import Locale
from discord import app_commands

from bot import texts
from bot.texts import cldr

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


def language_name(code: str, lang: str) -> str:
    """A registered language as ``lang`` calls it ("Niederländisch" in German), from CLDR."""
    own = texts.LANGUAGES[code]
    locale = Locale.parse(own.locale)
    name = str(cldr.locale_of(lang).languages.get(locale.language, own.name))
    return name[:1].upper() + name[1:]


class CatalogueTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        lang = texts.LANGUAGES.of_discord(locale.value)
        if lang is None:
            return None
        named = string.extras.get("language")
        if named is not None:
            return language_name(named, lang)
        if not key:
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
