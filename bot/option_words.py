"""The options a moderator types after a command (``/open verflixte6 jokers=Rattenlord,ALL IN``,
``/settings language=fr``), read the same way by every front end.

A value runs from its ``key=`` to the next ``key=``: joker names hold spaces ("ALL IN", "Push your
Pony"), and a moderator copies them from the rules page without quotes. A quoted value
(``jokers="Rattenlord,ALL IN"``) ends with its closing quote. A word before any ``key=``, or after a
quoted value, is a flag set to "yes".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

_KEY = re.compile(r"^(?P<key>[A-Za-z_][\w-]*)=(?P<value>.*)$", re.DOTALL)
_WORD = re.compile(r"""(?:"[^"]*"|'[^']*'|[^\s"'])+""")
_QUOTED = re.compile(r""""([^"]*)"|'([^']*)'""")

Pair = tuple[str, str | None]  # (key, value); None: a flag


@dataclass(frozen=True)
class Word:
    """A word of an options text, its quotes taken off; ``quoted``: it had some (its value is whole)."""

    text: str
    quoted: bool = False


def split(text: str) -> list[Word]:
    """The words of an options text, a quoted part keeping its spaces; at whitespace alone when the
    quotes do not pair."""
    if text.count('"') % 2 or text.count("'") % 2:
        return [Word(word) for word in text.split()]
    return [_word(match.group(0)) for match in _WORD.finditer(text)]


def _word(raw: str) -> Word:
    if '"' not in raw and "'" not in raw:
        return Word(raw)
    return Word(_QUOTED.sub(lambda quoted: quoted.group(1) or quoted.group(2) or "", raw), quoted=True)


def pairs(words: Iterable[Word]) -> list[Pair]:
    """``jokers=Rattenlord,ALL`` ``IN`` ``order=shuffled`` → ``[("jokers", "Rattenlord,ALL IN"),
    ("order", "shuffled")]``: each ``key=`` takes the words up to the next ``key=``."""
    found: list[Pair] = []
    open_value = False  # whether the last option's value may go on with the next word
    for word in words:
        started = _KEY.match(word.text)
        if started is not None:
            found.append((started["key"].lower(), started["value"].strip()))
            open_value = not word.quoted
        elif open_value and found:
            key, value = found[-1]
            found[-1] = (key, f"{value} {word.text}".strip())
            open_value = not word.quoted
        elif word.text.strip():
            found.append((word.text.strip().lower(), None))
    return found


def options(words: Iterable[Word]) -> dict[str, str]:
    """The options in ``words`` (already split), a flag as "yes"; a key given twice keeps the last."""
    return {key: "yes" if value is None else value for key, value in pairs(words)}


def parse_options(text: str) -> dict[str, str]:
    """``order=shuffled jokers=Rattenlord,ALL IN`` → ``{"order": "shuffled",
    "jokers": "Rattenlord,ALL IN"}``."""
    return options(split(text))
