"""Names as readers see them: without invisible characters, and never two that look alike.

``Anna``, ``anna``, ``Аnna`` (a Cyrillic А) and ``An\\u200bna`` (a zero-width space inside) are four
participants — the croupier tells them apart by id, and every action goes by id — but a reader of
the standings, a correction, an export, the web page or the running table saw four "Anna"s. So every
name shown goes through :func:`distinguished`:

* invisible characters are dropped (:func:`visible`): format characters (zero-width spaces and joiners,
  direction marks and overrides, soft hyphens, tags) and the fillers that show as nothing — except a
  zero-width joiner between two symbols, and the tags after a black flag, which build one emoji;
* names that look alike — the same confusable skeleton (:func:`skeleton`, Unicode's UTS #39 over the
  table in :mod:`bot.confusables`), case-folded — get a short suffix each, two letters such as
  `` (KX)``. The letters come from a hash of the participant's id, so a player has the same suffix in
  every view — the running table, the standings, a correction, the web page — whoever else is shown
  beside them, and the id itself is not shown. A suffix that would make the name look like another
  one shown beside it gets a letter more.

Only what is shown changes: the stored names, and what players type to name each other, stay as they
are.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Mapping
from functools import lru_cache

from bot.confusables import LOOKS_LIKE

_PROTOTYPE = {char: prototype for prototype, chars in LOOKS_LIKE.items() for char in chars}
# Letters that show as nothing, though Unicode files them as letters or marks (Hangul fillers, the
# combining grapheme joiner, Khmer inherent vowels, Mongolian variation selectors).
_BLANK = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u3164\uffa0")
_ZWJ = "\u200d"
_BLACK_FLAG = "\U0001f3f4"
_TAGS = range(0xE0020, 0xE0080)
EMPTY = "?"  # a name of invisible characters only: something must show
SUFFIX_LETTERS = 2
_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ"


def _invisible(char: str) -> bool:
    return char in _BLANK or unicodedata.category(char) == "Cf"


@lru_cache(maxsize=4096)
def visible(name: str) -> str:
    """``name`` without the characters that show as nothing (see the module's docstring)."""
    if name.isascii():
        return name
    kept: list[str] = []
    for index, char in enumerate(name):
        if not _invisible(char):
            kept.append(char)
        elif char == _ZWJ and _symbol(name, index - 1) and _symbol(name, index + 1):
            kept.append(char)  # 👩‍💻: one emoji
        elif ord(char) in _TAGS and _BLACK_FLAG in kept:
            kept.append(char)  # 🏴 and its tag letters: a subdivision's flag
    shown = "".join(kept).strip()
    return shown or EMPTY


def _symbol(name: str, index: int) -> bool:
    return 0 <= index < len(name) and unicodedata.category(name[index]) == "So"


def skeleton(text: str) -> str:
    """UTS #39's skeleton: decomposed, each character replaced by its prototype, decomposed again."""
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(_PROTOTYPE.get(char, char) for char in decomposed))


@lru_cache(maxsize=4096)
def looks(name: str) -> frozenset[str]:
    """What ``name`` looks like, case-folded: the skeleton of its NFKC case fold (full-width and
    mathematical letters are letters), and its skeleton folded — both, since Unicode takes a capital I
    for an l ("Ida" looks like "lda") while folding first takes it for an i ("Ida" looks like "ida").
    Two names look alike when they share one."""
    shown = visible(name)
    folded = unicodedata.normalize("NFKC", shown).casefold()
    return frozenset({skeleton(skeleton(shown).casefold()), skeleton(folded)})


def distinguished(names: Mapping[str, str]) -> dict[str, str]:
    """The names to show, by participant id (in the mapping's order): visible, and with a suffix on
    each of a group that looks alike. Each call gets its own dict, the caller may change it."""
    return dict(_distinguished(tuple(names.items())))


@lru_cache(maxsize=512)
def _distinguished(names: tuple[tuple[str, str], ...]) -> dict[str, str]:
    """:func:`distinguished`, remembered for the same names in the same order (it depends on nothing
    else): every reply about a game shows its table's names, and a move asks for them twice."""
    shown = {player: visible(name) for player, name in names}
    groups = _alike(shown)
    if not groups:
        return shown
    taken = {key for name in shown.values() for key in looks(name)}
    for group in groups:
        for player in group:
            length = SUFFIX_LETTERS
            while True:
                candidate = f"{shown[player]} ({_label(player, length)})"
                if not looks(candidate) & taken or length >= len(_ALPHABET):
                    break
                length += 1
            shown[player] = candidate
            taken |= looks(candidate)
    return shown


_SUFFIXED = re.compile(r"^(.*?)( \([A-Z]{2,}\))$", re.DOTALL)


def shortened(name: str, limit: int) -> str:
    """A shown name cut to ``limit`` characters (an ellipsis marking the cut) without losing its
    look-alike suffix: where names are cut short, the suffix is what tells two apart."""
    if len(name) <= limit:
        return name
    found = _SUFFIXED.match(name)
    base, suffix = (found.group(1), found.group(2)) if found else (name, "")
    room = max(1, limit - len(suffix) - 1)
    return base[:room] + "…" + suffix


def _alike(shown: Mapping[str, str]) -> list[list[str]]:
    """The groups of two or more participants whose names look alike, each in the mapping's order."""
    first_with: dict[str, str] = {}
    parent = {player: player for player in shown}

    def root(player: str) -> str:
        while parent[player] != player:
            parent[player] = parent[parent[player]]
            player = parent[player]
        return player

    for player, name in shown.items():
        for key in looks(name):
            other = first_with.setdefault(key, player)
            if other != player:
                parent[root(player)] = root(other)
    groups: dict[str, list[str]] = {}
    for player in shown:
        groups.setdefault(root(player), []).append(player)
    return [group for group in groups.values() if len(group) > 1]


def _label(player: str, length: int) -> str:
    """``length`` letters from a hash of the participant's id: the same in every view, and telling
    nothing of the id. Capital letters without I and O, which look like digits."""
    number = int.from_bytes(hashlib.sha256(player.encode()).digest()[:16], "big")
    letters = []
    for _ in range(length):
        number, index = divmod(number, len(_ALPHABET))
        letters.append(_ALPHABET[index])
    return "".join(letters)
