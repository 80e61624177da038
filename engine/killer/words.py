"""The French forum words of Killer, read leniently (case, accents, punctuation, extra spaces).

* ``garde 6 6 5`` = ``garde 6,6,5`` = ``garde 665`` (dice show one digit each, so a run of digits is
  unambiguous); ``garde le 6 et le 5`` too; ``garde tout`` keeps the whole roll; ``garde`` alone,
  a 0, a 7, or ``garde les 6`` (how many?) is malformed.
* ``auto`` (or ``garde auto``), ``passe``, ``haut``/``plus``, ``bas``/``moins``, ``conseil`` are
  whole-line words: inside a longer sentence they are chit-chat.
* ``attaque NAME`` / ``attaque @NAME`` / ``attaque <@id>``; ``attaque`` alone names no one.

A line that is no command returns None; a command word with unusable arguments raises
:class:`InvalidCommand`.
"""

from __future__ import annotations

import re

from engine.commands import Accepts, fold
from engine.commands import near_miss as _near_miss
from engine.errors import InvalidCommand
from engine.game import Command
from engine.killer.commands import Advice, Attack, Auto, Direction, Keep, KeepAll, Pass
from engine.numbers import digits

_KEEP = frozenset({"garde", "garder", "gardes", "jgarde"})
_ALL = frozenset({"tout", "tous", "toutes"})
_FILLERS = frozenset({"le", "la", "l", "de", "et", "mon", "ce"})
_PLURALS = frozenset({"les", "des", "mes", "ces"})  # "garde les 6": how many? each die must be given
_WHOLE_LINE: dict[str, Command] = {
    "auto": Auto(),
    "automatique": Auto(),
    "garde auto": Auto(),
    "passe": Pass(),
    "je passe": Pass(),
    "passer": Pass(),
    "haut": Direction("high"),
    "plus": Direction("high"),
    "en haut": Direction("high"),
    "bas": Direction("low"),
    "moins": Direction("low"),
    "en bas": Direction("low"),
    "conseil": Advice(),
    "conseils": Advice(),
    "un conseil": Advice(),
}
_ATTACK = re.compile(r"^\W*(?:je\s+|j\W?\s*)?attaque[rs]?(?:\s+(.*))?$", re.IGNORECASE | re.DOTALL)


def parse(text: str) -> Command | None:
    folded = " ".join(word for word in (w.strip("!&#-") for w in fold(text).split()) if word)
    if not folded:
        return None
    whole = _WHOLE_LINE.get(folded)
    if whole is not None:
        return whole
    words = folded.split()
    if words[0] == "je" and len(words) > 1:
        words = words[1:]
    if words[0] in _KEEP:
        return _keep(words[1:])
    attack = _ATTACK.match(text.strip())
    if attack:
        target = (attack.group(1) or "").strip().strip(".,;:!?").strip()
        return Attack(target or None)
    return None


def _keep(args: list[str]) -> Command:
    if args and args[0] in _ALL:
        return KeepAll()
    values: list[int] = []
    for word in args:
        if word in _FILLERS:
            continue
        if word in _PLURALS:
            raise InvalidCommand("killer_keep_each", word=word)
        if not digits(word):
            raise InvalidCommand("killer_bad_keep", word=word)
        for digit in word:
            value = int(digit)
            if not 1 <= value <= 6:
                raise InvalidCommand("killer_bad_die", value=value)
            values.append(value)
    if not values:
        raise InvalidCommand("killer_keep_none")
    return Keep(tuple(values))


# The words a near miss is compared with (folded spelling → the word shown to the player).
NEAR_MISSES: dict[str, str] = {
    "garde": "garde",
    "garde tout": "garde tout",
    "auto": "auto",
    "attaque": "attaque",
    "attack": "attaque",
    "passe": "passe",
    "haut": "haut",
    "bas": "bas",
    "conseil": "conseil",
}


def near_miss(text: str, accepts: Accepts | None = None) -> str | None:
    """The word a line that is no command probably meant ("atack ben" → "attaque"), or None;
    ``accepts``: only words of commands it takes (those valid now)."""
    return _near_miss(text, parse, NEAR_MISSES, lead=("je",), accepts=accepts)
