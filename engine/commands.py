"""Shared tools for reading the forum words: normalisation and lenient name matching.

Each game keeps its own vocabulary (``engine/verflixte6/words.py``, ``engine/killer/words.py``); what
they share — folding case, umlauts and punctuation, and suggesting the closest name — lives here.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable, Mapping

_UMLAUTS = {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"}
_PUNCTUATION = re.compile(r"[^\w@<>#!&\- ]+")
_SPACES = re.compile(r"\s+")


def fold(text: str) -> str:
    """Lower-case, spell umlauts as ae/oe/ue/ss, drop other accents and punctuation, squeeze spaces.

    ``fold("Weiter mit Joker: Jules Törtchen!") == "weiter mit joker jules toertchen"``
    """
    text = text.casefold()
    text = "".join(_UMLAUTS.get(ch, ch) for ch in text)
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = text.replace("'", "").replace("´", "").replace("`", "").replace("’", "")
    text = _PUNCTUATION.sub(" ", text)
    return _SPACES.sub(" ", text).strip()


def closest(word: str, candidates: Iterable[str], limit: int = 3) -> list[str]:
    """The candidates that look most like ``word`` (by folded spelling), best first."""
    by_fold: dict[str, str] = {}
    for candidate in candidates:
        by_fold.setdefault(fold(candidate), candidate)
    matches = difflib.get_close_matches(fold(word), list(by_fold), n=limit, cutoff=0.5)
    if not matches:
        # Fall back on substring hits so "sekante" still suggests "Senigmas Sekante".
        folded = fold(word)
        matches = [f for f in by_fold if folded and (folded in f or f in folded)][:limit]
    return [by_fold[m] for m in matches]


def lookup(word: str, aliases: Mapping[str, str]) -> str | None:
    """The canonical name for ``word`` given folded aliases → canonical names, or None."""
    return aliases.get(fold(word))
