"""Reading ``/settings key=value …``: per-channel language, moderator role, turn timeout, whether a
game opened in a text channel gets a Discord thread of its own (``threads=on|off``), whether the
channel's tournament is on the web (``web=on|off``, a flag the moderator action turns into a web
token) and whether the site's start page lists it (``listed=on|off``; unlisted by default).

:data:`SETTINGS` is the one place a key is described: how it is typed, what it sets, how its value is
read and how the help shows it. The parser, the refusals (``settings_missing``, ``unknown_setting``)
and the ``/help`` listing (:func:`usage`) all read it, so a further key is one more entry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.texts import LANGUAGES, placeholder
from engine.errors import InvalidCommand
from engine.numbers import COUNT_MAX, whole_number

_ON = frozenset({"on", "yes", "true", "1", "an", "ein", "ja", "oui", "marche"})
_OFF = frozenset({"off", "no", "false", "0", "aus", "nein", "non", "arret", "arrêt"})
_MAX_TIMEOUT = 14 * 24 * 3600


def _language(value: str) -> str:
    if value.lower() not in LANGUAGES:
        raise InvalidCommand("unknown_language", language=value, valid=list(LANGUAGES))
    return value.lower()


def _role(value: str) -> str | None:
    return value.strip()[:100] or None


def _timeout(value: str) -> int:
    seconds = _seconds(value)
    if seconds is None or not 0 <= seconds <= _MAX_TIMEOUT:
        raise InvalidCommand("bad_timeout", value=value, max=_MAX_TIMEOUT)
    return seconds


def switch(code: str, setting: str) -> Callable[[str], bool]:
    """An on/off value (``on``, ``off`` and their German and French words), refused with ``code``."""

    def read(value: str) -> bool:
        word = value.strip().lower()
        if word not in _ON | _OFF:
            raise InvalidCommand(code, setting=setting, value=value, valid=["on", "off"])
        return word in _ON

    return read


@dataclass(frozen=True)
class Setting:
    key: str  # as /settings, its refusals and the help name it
    field: str  # what it sets (a ChannelSettings field, or a flag the action handles: ``web``)
    # How the help shows its value: the choices ("on|off", or a function listing them now: the languages
    # registered) or a placeholder word ("ROLE"); see :attr:`value`.
    shown: str | Callable[[], str]
    read: Callable[[str], Any]  # the typed value → the field's value; InvalidCommand when unusable
    aliases: tuple[str, ...] = ()  # other spellings /settings accepts

    @property
    def value(self) -> str:
        """How the help shows the value now: "de|en|fr", "on|off", "ROLE"."""
        return self.shown() if callable(self.shown) else self.shown


SETTINGS: tuple[Setting, ...] = (
    Setting("language", "language", lambda: "|".join(LANGUAGES), _language, ("lang", "sprache", "langue")),
    Setting("moderator", "moderator_role", "ROLE", _role, ("moderator_role", "role")),
    Setting("timeout", "turn_timeout_seconds", "SECONDS", _timeout, ("turn_timeout",)),
    Setting("threads", "threads", "on|off", switch("setting_switch", "threads"), ("thread",)),
    Setting("web", "web", "on|off", switch("web_switch", "web")),
    Setting(
        "listed",
        "listed",
        "on|off",
        switch("listed_switch", "listed"),
        ("list", "index", "gelistet", "verzeichnet", "liste", "listé", "repertorie", "répertorié"),
    ),
)
KEYS: tuple[str, ...] = tuple(setting.key for setting in SETTINGS)
_BY_SPELLING: Mapping[str, Setting] = {
    spelling: setting for setting in SETTINGS for spelling in (setting.key, *setting.aliases)
}


def usage(lang: str = "en") -> str:
    """``language=de|en|fr moderator=ROLE timeout=SECONDS web=on|off``: every setting as /settings
    reads it, placeholder words in ``lang`` ("RÔLE" in French)."""
    return " ".join(f"{setting.key}={_shown(setting.value, lang)}" for setting in SETTINGS)


def _shown(value: str, lang: str) -> str:
    return placeholder(value, lang) if value.isupper() else value


def parse_settings(options: Mapping[str, str]) -> dict[str, Any]:
    """Validated settings fields; InvalidCommand naming the bad key or value otherwise."""
    if not options:
        raise InvalidCommand("settings_missing", valid=list(KEYS))
    fields: dict[str, Any] = {}
    for key, value in options.items():
        setting = _BY_SPELLING.get(key.lower())
        if setting is None:
            raise InvalidCommand("unknown_setting", setting=key, valid=list(KEYS))
        fields[setting.field] = setting.read(value)
    return fields


def described(fields: Mapping[str, Any]) -> str:
    """Changed fields as the user typed their keys: ``language=fr, timeout=90`` (not the stored
    names, ``turn_timeout_seconds``)."""
    keys = {setting.field: setting.key for setting in SETTINGS}
    return ", ".join(f"{keys.get(field, field)}={_read_back(value)}" for field, value in fields.items())


def _read_back(value: Any) -> str:
    """A stored value as /settings takes it: a switch is ``on``/``off``, nothing is ``–``."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return "–" if value is None else str(value)


def _seconds(text: str) -> int | None:
    """``90``, ``90s``, ``15m``, ``2h``, ``1d`` → seconds."""
    text = text.strip().lower()
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    factor = units.get(text[-1:], 0) if text else 0
    number = whole_number(text[:-1] if factor else text, COUNT_MAX)
    return None if number is None else number * (factor or 1)
