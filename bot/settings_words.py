"""Reading ``/settings key=value …``: per-channel language, moderator role, turn timeout, whether games
opened in a text channel get a thread of their own (``threads=on|off``), and whether the channel's
tournament is on the web (``web=on|off``, a flag the moderator action turns into a web token)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.texts import LANGUAGES
from engine.errors import InvalidCommand

_KEYS = {
    "language": "language",
    "lang": "language",
    "sprache": "language",
    "langue": "language",
    "moderator": "moderator_role",
    "moderator_role": "moderator_role",
    "role": "moderator_role",
    "timeout": "turn_timeout_seconds",
    "turn_timeout": "turn_timeout_seconds",
    "threads": "threads",
    "thread": "threads",
    "fils": "threads",
    "web": "web",
}
_ON = frozenset({"on", "yes", "true", "1", "an", "ein", "ja", "oui", "marche"})
_OFF = frozenset({"off", "no", "false", "0", "aus", "nein", "non", "arret", "arrêt"})
_MAX_TIMEOUT = 14 * 24 * 3600

# The keys as help texts and refusals name them, each with what its value is: the one place the
# /help listing (bot/spelling.py) and the refusals below read, so they name only keys /settings reads.
USAGE: tuple[tuple[str, str], ...] = (
    ("language", "|".join(LANGUAGES)),
    ("moderator", "ROLE"),
    ("timeout", "SECONDS"),
    ("threads", "on|off"),
)
KEYS: tuple[str, ...] = tuple(key for key, _ in USAGE)  # each a key of _KEYS, together every field


def usage() -> str:
    """``language=de|en|fr moderator=ROLE timeout=SECONDS threads=on|off``: every setting as /settings
    reads it."""
    return " ".join(f"{key}={value}" for key, value in USAGE)


def parse_settings(options: Mapping[str, str]) -> dict[str, Any]:
    """Validated settings fields; InvalidCommand naming the bad key or value otherwise."""
    if not options:
        raise InvalidCommand("settings_missing", valid=list(KEYS))
    fields: dict[str, Any] = {}
    for key, value in options.items():
        field = _KEYS.get(key.lower())
        if field is None:
            raise InvalidCommand("unknown_setting", setting=key, valid=list(KEYS))
        if field == "language":
            if value.lower() not in LANGUAGES:
                raise InvalidCommand("unknown_language", language=value, valid=list(LANGUAGES))
            fields[field] = value.lower()
        elif field in ("web", "threads"):
            word = value.strip().lower()
            if word not in _ON | _OFF:
                raise InvalidCommand(f"{field}_switch", value=value, valid=["on", "off"])
            fields[field] = word in _ON
        elif field == "turn_timeout_seconds":
            seconds = _seconds(value)
            if seconds is None or not 0 <= seconds <= _MAX_TIMEOUT:
                raise InvalidCommand("bad_timeout", value=value, max=_MAX_TIMEOUT)
            fields[field] = seconds
        else:
            fields[field] = value.strip()[:100] or None
    return fields


def _seconds(text: str) -> int | None:
    """``90``, ``90s``, ``15m``, ``2h``, ``1d`` → seconds."""
    text = text.strip().lower()
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    factor = units.get(text[-1:], 0) if text else 0
    number = text[:-1] if factor else text
    if not number.isdigit():
        return None
    return int(number) * (factor or 1)
