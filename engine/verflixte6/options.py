"""Reading the moderator's options for a new Durchgang, from JSON values or chat strings alike.

``jokers`` lists the enabled jokers ("Rattenlord, ALL IN"); entries that all start with ``+`` or ``-``
adjust the default set instead ("+Sekante"). ``order`` is ``signup`` or ``shuffled``; ``parallel`` a
boolean or yes/no/ja/nein/1/0.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from engine.commands import fold
from engine.errors import InvalidCommand, OptionChecks
from engine.verflixte6.jokers import registry
from engine.verflixte6.state import ORDERS, SHUFFLED, SIGNUP, Options

KNOWN = ("jokers", "order", "parallel")

_ORDER_WORDS = {
    "signup": SIGNUP,
    "sign up": SIGNUP,
    "sign-up": SIGNUP,
    "anmeldung": SIGNUP,
    "shuffled": SHUFFLED,
    "shuffle": SHUFFLED,
    "random": SHUFFLED,
    "gemischt": SHUFFLED,
    "zufall": SHUFFLED,
    "zufaellig": SHUFFLED,
}
_YES = {"1", "yes", "y", "true", "on", "ja", "j"}
_NO = {"0", "no", "n", "false", "off", "nein"}
_NONE = {"", "keine", "kein", "none", "-"}
_SPLIT = re.compile(r"[,;\n]")


def parse_options(options: Mapping[str, Any]) -> Options:
    """The options, validated; every bad one is refused at once."""
    checks = OptionChecks()
    for key in options:
        if key not in KNOWN:
            checks.refuse(InvalidCommand("unknown_option", option=str(key), valid=list(KNOWN)))
    jokers = checks.value(lambda: _jokers(options.get("jokers")), registry.DEFAULT_ENABLED)
    order = checks.value(lambda: _order(options.get("order", SIGNUP)), SIGNUP)
    parallel = checks.value(lambda: _parallel(options.get("parallel", False)), False)
    checks.done()
    return Options(jokers=jokers, order=order, parallel=parallel)


def _jokers(value: Any) -> tuple[str, ...]:
    if value is None:
        return registry.DEFAULT_ENABLED
    if isinstance(value, str):
        entries = [entry.strip() for entry in _SPLIT.split(value)]
    elif isinstance(value, list | tuple):
        entries = [str(entry).strip() for entry in value]
    else:
        raise InvalidCommand(
            "bad_option_value", option="jokers", value=repr(value), valid=list(registry.NAMES)
        )
    entries = [entry for entry in entries if entry]
    if not entries or (len(entries) == 1 and fold(entries[0]) in _NONE):
        return ()
    signed = [entry[0] in "+-" for entry in entries]
    if all(signed):
        enabled = set(registry.DEFAULT_ENABLED)
        for entry in entries:
            name = registry.require(entry[1:])
            if entry[0] == "+":
                enabled.add(name)
            else:
                enabled.discard(name)
    elif any(signed):
        raise InvalidCommand(
            "bad_option_value", option="jokers", value=", ".join(entries), valid=["+X", "-X"]
        )
    else:
        enabled = {registry.require(entry) for entry in entries}
    return tuple(name for name in registry.NAMES if name in enabled)


def _order(value: Any) -> str:
    order = _ORDER_WORDS.get(fold(str(value)))
    if order is None:
        raise InvalidCommand("bad_option_value", option="order", value=str(value), valid=list(ORDERS))
    return order


def _parallel(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    word = fold(str(value))
    if word in _YES:
        return True
    if word in _NO:
        return False
    raise InvalidCommand("bad_option_value", option="parallel", value=str(value), valid=["yes", "no"])
