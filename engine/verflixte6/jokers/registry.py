"""Every joker of the game, in the order the rule text presents them, and lenient lookup by name.

Enabling or disabling a joker by default is its spec's ``enabled_by_default``; adding one is a module
and a line in :data:`JOKERS`.
"""

from __future__ import annotations

import re
from functools import lru_cache

from engine.commands import closest, fold
from engine.errors import InvalidCommand
from engine.verflixte6.jokers import (
    all_in,
    anaconda,
    beefmaker,
    fumo,
    hirtenschutz,
    kaelteschutz,
    monokel,
    pony,
    rattenlord,
    sekante,
    spelunkenbold,
    tentakel,
    toertchen,
    ventil,
)
from engine.verflixte6.jokers.spec import JokerSpec

JOKERS: tuple[JokerSpec, ...] = (
    kaelteschutz.SPEC,
    spelunkenbold.SPEC,
    anaconda.SPEC,
    hirtenschutz.SPEC,
    rattenlord.SPEC,
    all_in.SPEC,
    toertchen.SPEC,
    tentakel.SPEC,
    pony.SPEC,
    monokel.SPEC,
    beefmaker.SPEC,
    ventil.SPEC,
    fumo.SPEC,
    sekante.SPEC,
)

BY_NAME: dict[str, JokerSpec] = {spec.name: spec for spec in JOKERS}
NAMES: tuple[str, ...] = tuple(BY_NAME)
DEFAULT_ENABLED: tuple[str, ...] = tuple(spec.name for spec in JOKERS if spec.enabled_by_default)

_NOT_LETTERS = re.compile(r"[^a-z0-9]+")


def _key(text: str) -> str:
    """Folded and stripped of spaces, hyphens and apostrophes: "ALL-IN", "all in", "Allin" meet."""
    return _NOT_LETTERS.sub("", fold(text))


_SPELLINGS: dict[str, str] = {}  # every spelling → canonical name
for _spec in JOKERS:
    for _spelling in (_spec.name, *_spec.aliases):
        _SPELLINGS.setdefault(_spelling, _spec.name)
_BY_KEY: dict[str, str] = {_key(spelling): name for spelling, name in _SPELLINGS.items()}


def spec(name: str) -> JokerSpec:
    return BY_NAME[name]


# A move that plays or chooses a joker resolves the name the parser already resolved, and players
# type the same few names: the answer depends on the text alone (the tables above are constants).
@lru_cache(maxsize=1024)
def resolve(text: str) -> str | None:
    """The canonical name for a lenient spelling, or None. A "Joker" word around the name is ignored."""
    key = _key(text)
    candidates = [key]
    for affix in ("derjoker", "joker"):
        if key.startswith(affix):
            candidates.append(key[len(affix) :])
        if key.endswith(affix):
            candidates.append(key[: -len(affix)])
    for candidate in candidates:
        if candidate and candidate in _BY_KEY:
            return _BY_KEY[candidate]
    return None


def suggest(text: str) -> list[str]:
    """Canonical names that look like ``text``, best first."""
    found = closest(text, _SPELLINGS, limit=6)
    return list(dict.fromkeys(_SPELLINGS[spelling] for spelling in found))[:3]


def require(text: str) -> str:
    """Like :func:`resolve`, but an unknown name is refused with suggestions (``no_such_joker`` when
    nothing comes close)."""
    name = resolve(text)
    if name is None:
        suggestions = suggest(text)
        if not suggestions:  # nothing close: point at the list of jokers instead of an empty guess
            raise InvalidCommand("no_such_joker", name=text.strip())
        raise InvalidCommand("unknown_joker", name=text.strip(), suggestions=suggestions)
    return name


def segment(text: str) -> tuple[str, ...] | None:
    """Read several names written without separators ("Rattenlord Anaconda Pony"), or None."""
    words = fold(text).split()
    if not words or len(words) > 16:
        return None
    # best[i] = the names covering words[:i], preferring fewer (longer) names.
    best: list[tuple[str, ...] | None] = [None] * (len(words) + 1)
    best[0] = ()
    for end in range(1, len(words) + 1):
        for start in range(end):
            prefix = best[start]
            if prefix is None:
                continue
            name = resolve(" ".join(words[start:end]))
            if name is None:
                continue
            option = (*prefix, name)
            current = best[end]
            if current is None or len(option) < len(current):
                best[end] = option
    return best[len(words)]
