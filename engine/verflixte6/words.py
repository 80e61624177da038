"""The forum words of "Die verflixte 6!" read into commands, as leniently as a human croupier reads them.

Case, umlaut spellings (ä/ae), punctuation, extra spaces and courtesy words ("weiter bitte!") do not
matter; joker names may drop the possessive ("Anaconda" for "Oces Anaconda"). A line that is not
a command is chit-chat and gives None; a line that starts like a command but cannot be read raises
InvalidCommand with a code the catalogue explains (an unknown joker comes with suggestions).
"""

from __future__ import annotations

import re
from functools import lru_cache

from engine.commands import Accepts, distance, fold
from engine.commands import near_miss as _near_miss
from engine.errors import InvalidCommand
from engine.game import Command
from engine.verflixte6.commands import (
    ChooseJokers,
    Continue,
    Decline,
    Fight,
    Keep,
    PlayJoker,
    Repeat,
    Retreat,
    Rob,
    Stop,
)
from engine.verflixte6.jokers import registry

_COURTESY = frozenset(
    {"bitte", "gerne", "gern", "danke", "please", "croupier", "jetzt", "dann", "ok", "okay"}
)
_NOBODY = frozenset(
    {"nicht", "niemand", "niemanden", "keinen", "keine", "keiner", "nichts", "none", "nobody"}
)
JOKERS_PREFIX = "Joker:"  # what a list of jokers is said after ("Joker: A, B, C")
NO_JOKERS = "keine"  # the word for "no jokers" ("Joker: keine"); the others below are read too
_NO_JOKERS = frozenset({NO_JOKERS, "kein", "keiner", "none", "nichts", "ohne", "-"})

# Whole-line answers (after "ich" and courtesy words are dropped), folded.
_PHRASES: dict[tuple[str, ...], type[Command]] = {}
for _spellings, _command in (
    (("stopp", "stop", "stoppe", "stoppen"), Stop),
    (("kaempfen", "kaempfe", "kampf", "kampfen", "kampfe", "fight"), Fight),
    (("kneifen", "kneife", "ablehnen", "lehne ab", "nicht kaempfen", "kein kampf"), Decline),
    (
        ("zuruecktreten", "zurucktreten", "trete zurueck", "trete zuruck", "ruecktritt", "rucktritt"),
        Retreat,
    ),
    (("behalten", "behalte", "behalte es", "behalte sie"), Keep),
    (("wiederholen", "wiederhole", "wiederholung"), Repeat),
):
    for _phrase in _spellings:
        _PHRASES[tuple(_phrase.split())] = _command

_JOKER_LIST = re.compile(
    r"^\s*(?:meine\s+)?joker(?:s|wahl)?\b\s*:?\s*(?P<rest>.*)$", re.IGNORECASE | re.DOTALL
)
_JOKER_SEPARATORS = re.compile(r"\s*(?:[,;/+&]|\bund\b|\band\b|\bsowie\b)\s*", re.IGNORECASE)
_ROB = re.compile(
    r"^\s*(?:ich\s+)?(?:raube|raub|rauben)\b\s*(?:(?:bei|von)\s+)?(?P<target>.*?)[\s.!?]*$",
    re.IGNORECASE | re.DOTALL,
)
_WEITER_JOKER = re.compile(
    r"^\s*(?:ich\s+)?weiter\s+(?:mit\s+)?(?:(?:dem|meinem)\s+)?(?:joker\b\s*:?\s*)?(?P<name>.*?)[\s.!?]*$",
    re.IGNORECASE | re.DOTALL,
)
_ROB_WORDS = frozenset({"raube", "raub", "rauben"})


def _words(text: str) -> list[str]:
    words = fold(text).replace("!", " ").split()
    if words and words[0] == "ich":
        words = words[1:]
    return words


def _polite(words: list[str]) -> list[str]:
    return [w for w in words if w not in _COURTESY]


# Players type the same few lines ("weiter", "stopp") over and over; the reading depends on the text
# alone (the joker registry is a constant) and commands are frozen, so one copy serves every repeat.
# A line that cannot be read raises afresh each time (lru_cache keeps no exceptions).
@lru_cache(maxsize=1024)
def parse(text: str) -> Command | None:
    """The command in one chat line, None for chit-chat; InvalidCommand when it cannot be read."""
    words = _words(text)
    if not words:
        return None
    head = words[0]
    if head in ("joker", "jokers", "jokerwahl") or words[:2] == ["meine", "joker"]:
        return _joker_list(text)
    if head == "weiter":
        return _weiter(text, words[1:])
    if head in _ROB_WORDS:
        return _rob(text, words[1:])
    if words[:2] == ["kein", "raub"]:
        return Rob(None) if not _polite(words[2:]) else None
    phrase = _PHRASES.get(tuple(_polite(words)))
    if phrase is not None:
        return phrase()
    return None


def _joker_list(text: str) -> ChooseJokers:
    match = _JOKER_LIST.match(text)
    rest = match.group("rest") if match else ""
    parts = [part.strip(" .!?:-") for part in _JOKER_SEPARATORS.split(rest)]
    parts = [part for part in parts if part and fold(part)]
    if not parts:
        raise InvalidCommand("joker_list_missing")
    if len(parts) == 1 and fold(parts[0]) in _NO_JOKERS:
        return ChooseJokers(())
    names: list[str] = []
    for part in parts:
        name = registry.resolve(part)
        if name is not None:
            names.append(name)
            continue
        several = registry.segment(part)
        if several is None:
            registry.require(part)  # raises unknown_joker with suggestions
            raise AssertionError("unreachable")  # pragma: no cover
        names.extend(several)
    return ChooseJokers(tuple(names))


def _weiter(text: str, rest: list[str]) -> Command | None:
    """``weiter``, ``weiter mit Joker X``, ``weiter mit X``, ``weiter X``; other tails are chit-chat."""
    if not _polite(rest):
        return Continue()
    announced = rest[0] in ("mit", "joker")
    tail = rest
    while tail and tail[0] in ("mit", "dem", "meinem", "joker"):
        tail = tail[1:]
    tail = _polite(tail)
    if not tail:
        raise InvalidCommand("joker_missing")
    name = registry.resolve(" ".join(tail))
    if name is not None:
        return PlayJoker(name)
    several = _several_jokers(text, tail)
    if several:  # "weiter mit Joker Rattenlord und Monokel": one joker per step
        raise InvalidCommand("one_joker_per_step", jokers=list(several))
    if announced:
        match = _WEITER_JOKER.match(text)
        registry.require(match.group("name") if match else " ".join(tail))  # raises unknown_joker
    return None


def _several_jokers(text: str, tail: list[str]) -> tuple[str, ...]:
    """The jokers a ``weiter`` line names when it names more than one, else ()."""
    match = _WEITER_JOKER.match(text)
    named = match.group("name") if match else " ".join(tail)
    parts = [part for part in _JOKER_SEPARATORS.split(named) if fold(part)]
    if len(parts) > 1:
        names = [registry.resolve(part) for part in parts]
        return tuple(n for n in names if n is not None) if all(names) else ()
    found = registry.segment(" ".join(tail))
    return found if found is not None and len(found) > 1 else ()


def _rob(text: str, rest: list[str]) -> Rob:
    if not rest:
        raise InvalidCommand("victim_missing")
    if _polite(rest) and all(w in _NOBODY for w in _polite(rest)):
        return Rob(None)
    match = _ROB.match(text)
    target_words = (match.group("target") if match else "").strip().lstrip(":,;").split()
    while target_words and fold(target_words[-1]) in _COURTESY:
        target_words.pop()
    target = " ".join(target_words).lstrip("@").strip()
    if not target:
        raise InvalidCommand("victim_missing")
    several = [part.strip().lstrip("@") for part in _JOKER_SEPARATORS.split(target) if part.strip()]
    if len(several) > 1:  # V6-N5: the whole robbery comes from one victim
        raise InvalidCommand("rob_split", names=several)
    return Rob(target)


# The words a near miss is compared with (folded spelling → the word shown to the player).
NEAR_MISSES: dict[str, str] = {
    "weiter": "weiter",
    "stopp": "stopp",
    "joker": "Joker",
    "raube": "raube",
    "raube nicht": "raube nicht",
    "kaempfen": "kämpfen",
    "kneifen": "kneifen",
    "zuruecktreten": "zurücktreten",
    "behalten": "behalten",
    "wiederholen": "wiederholen",
}


def near_miss(text: str, accepts: Accepts | None = None) -> str | None:
    """The word a line that is no command probably meant ("wieter" → "weiter"), or None; also
    „raube nicht“ for a robbery of "nich" (see :func:`_nobody_meant`). ``accepts``: only words of
    commands it takes (those valid now, :func:`engine.commands.valid_now`)."""
    return _near_miss(text, parse, NEAR_MISSES, lead=("ich",), accepts=accepts) or _nobody_meant(
        text, accepts
    )


def _nobody_meant(text: str, accepts: Accepts | None = None) -> str | None:
    """``raube nich``: reads as robbing someone called "nich" — the service asks only once no player
    answered to that name — but one letter off "nicht" it meant „raube nicht“."""
    words = _words(text)
    if len(words) != 2 or words[0] not in _ROB_WORDS or words[1] in _NOBODY:
        return None
    if accepts is not None and not accepts(Rob(None)):
        return None
    return NEAR_MISSES["raube nicht"] if distance(words[1], "nicht", 1) <= 1 else None
