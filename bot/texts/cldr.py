"""What CLDR (through Babel) says about a language: which plural form a count takes, and how a decimal
and a percentage are written. The one place for decimal marks.

Each language's rules are read once (its registry entry names the CLDR locale) and the plural form of a
count is remembered: the answers sit on the rendering path, and Babel's own calls cost microseconds.
The croupier writes ordinary spaces where CLDR puts no-break ones ("63,90 %"): its catalogues do so
throughout, and chat clients wrap lines themselves.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from typing import NamedTuple

from babel import Locale, UnknownLocaleError
from babel.numbers import get_decimal_symbol

from bot.texts.languages import LANGUAGES

MINUS = "\u2212"  # the typographic minus every negative number is written with ("−7", never "-7")
CATEGORIES = ("zero", "one", "two", "few", "many", "other")  # CLDR's plural categories, in its order
_NO_BREAK = str.maketrans({"\u00a0": " ", "\u202f": " "})


@cache
def locale_of(lang: str) -> Locale:
    """The CLDR locale of a registered language; a code Babel knows itself; else English."""
    language = LANGUAGES.get(lang)
    try:
        return Locale.parse(language.locale if language is not None else lang)
    except (ValueError, TypeError, UnknownLocaleError):
        return Locale.parse("en")


@lru_cache(maxsize=4096, typed=True)  # typed: 1 and 1.0 may differ ("1 point" but "1.0 points")
def category(lang: str, count: float) -> str:
    """The CLDR plural category of ``count`` in ``lang``: "one", "few", "many", "other" …"""
    return str(locale_of(lang).plural_form(abs(count)))


@cache
def categories(lang: str) -> tuple[str, ...]:
    """The plural categories ``lang`` has, in CLDR's order ("one", "other" for German)."""
    tags = {*locale_of(lang).plural_form.tags, "other"}
    return tuple(tag for tag in CATEGORIES if tag in tags)


def singular(lang: str, count: float) -> bool:
    """Whether ``count`` takes the singular ("one"): French says "0 point", German "0 Punkte"."""
    return category(lang, count) == "one"


def form(lang: str, count: float, words: Sequence[str]) -> str:
    """The word of ``words`` that agrees with ``count``. Two words are the singular and the plural (the
    first for CLDR's "one", the second for every other category); a template that gives one word per
    category the language has (:func:`categories`, in order) gets the category's own."""
    found = category(lang, count)
    if len(words) > 2:
        tags = categories(lang)
        if len(words) == len(tags):
            return words[tags.index(found)]
    if not words:
        return ""
    return words[0] if found == "one" else words[1] if len(words) > 1 else ""


class _Marks(NamedTuple):
    decimal: str
    percent_prefix: str
    percent_suffix: str


@cache
def _marks(lang: str) -> _Marks:
    locale = locale_of(lang)
    pattern = locale.percent_formats[None]
    symbol = str(locale.number_symbols["latn"].get("percentSign", "%"))  # Latin digits, as everywhere

    def spelled(affix: str) -> str:
        return affix.replace("%", symbol).translate(_NO_BREAK)

    return _Marks(str(get_decimal_symbol(locale)), spelled(pattern.prefix[0]), spelled(pattern.suffix[0]))


def decimal(lang: str, value: float, digits: int = 2) -> str:
    """``value`` with ``digits`` decimals and the language's decimal mark: "1,25" in German, French and
    Dutch, "1.25" in English; a typographic minus. No grouping: the croupier's decimals are small."""
    return _decimal(_marks(lang).decimal, value, digits)


def _decimal(mark: str, value: float, digits: int) -> str:
    text = f"{value:.{digits}f}"
    if mark != ".":
        text = text.replace(".", mark)
    return text.replace("-", MINUS)


def percent(lang: str, value: float, digits: int = 2) -> str:
    """A number of percent as the language writes it: "63,90 %" (de, fr), "63.90%" (en), "63,90%" (nl)."""
    marks = _marks(lang)
    return f"{marks.percent_prefix}{_decimal(marks.decimal, value, digits)}{marks.percent_suffix}"


def warm(lang: str) -> None:
    """Read ``lang``'s CLDR data now (at start), so the first sentence waits for nothing."""
    categories(lang)
    _marks(lang)


def forget() -> None:
    """Drop what was read (the registry changed)."""
    for cached in (locale_of, category, categories, _marks):
        cached.cache_clear()


LANGUAGES.on_refresh(forget)
