"""Message catalogues: every sentence the croupier says, per language, rendered from engine facts.

Catalogues are JSON files named ``<catalogue>.<lang>.json`` beside this module (``common``,
``verflixte6``, ``killer`` …). Each maps a key — an event kind such as ``v6.thrown`` or
``error.<code>`` for a refusal — to a :meth:`str.format` template over the event's facts.

Before formatting, facts named in :data:`PLAYER_FIELDS` (ids of participants) become display names,
and lists become comma-separated text, so catalogues stay plain templates.
"""

from __future__ import annotations

import json
import string
from collections.abc import Callable, Mapping
from functools import cache
from importlib import resources
from typing import Any

LANGUAGES = ("de", "en", "fr")

# How a front end spells its commands; templates say {cmd[join]} so each front end names its own.
CONSOLE_COMMANDS: Mapping[str, str] = {
    name: f"/{name}"
    for name in (
        "close",
        "help",
        "join",
        "jokers",
        "open",
        "rules",
        "settings",
        "start",
        "tournament",
        "verify",
    )
}
PLAYER_FIELDS = frozenset({"player", "victim", "robber", "target", "attacker", "winner", "next_player", "by"})
PLAYER_LIST_FIELDS = frozenset({"players", "victims", "targets", "hit"})


Scope = tuple[str, str]  # (a game's catalogue package, its name): see :func:`catalogue`


@cache
def catalogue(lang: str, scope: Scope | None = None) -> Mapping[str, str]:
    """All templates of one language: the shared catalogues beside this module and, over them, those
    of the game ``scope`` names — its package's ``texts/<lang>.json``, then ``texts/<name>.<lang>.json``
    for what one game of a package with several (Killer's two rule sets) says differently."""
    merged: dict[str, str] = {}
    for entry in sorted(resources.files(__package__).iterdir(), key=lambda e: e.name):
        name = entry.name
        if name.endswith(f".{lang}.json"):
            merged.update(json.loads(entry.read_text(encoding="utf-8")))
    if scope is not None:
        merged.update(game_catalogue(scope, lang))
    return merged


@cache
def game_catalogue(scope: Scope, lang: str) -> Mapping[str, str]:
    """A game's own templates in one language (empty where it has none)."""
    package, name = scope
    folder = resources.files(package) / "texts"
    merged: dict[str, str] = {}
    for entry in (folder / f"{lang}.json", folder / f"{name}.{lang}.json"):
        if entry.is_file():
            merged.update(json.loads(entry.read_text(encoding="utf-8")))
    return merged


def _fallbacks(lang: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys((lang, "en", "de")))


def has(key: str, lang: str, scope: Scope | None = None) -> bool:
    return any(key in catalogue(candidate, scope) for candidate in _fallbacks(lang))


def render(
    key: str,
    facts: Mapping[str, Any],
    lang: str,
    name_of: Callable[[str], str] = str,
    commands: Mapping[str, str] | None = None,
    scope: Scope | None = None,
) -> str:
    """The sentence for ``key`` in ``lang`` (falling back on English, then German).

    ``commands`` names the front end's commands for ``{cmd[…]}`` placeholders (console spelling by
    default); ``scope`` names the game the sentence is about (see :func:`catalogue`).
    """
    template = None
    for candidate in _fallbacks(lang):
        template = catalogue(candidate, scope).get(key)
        if template is not None:
            break
    if template is None:
        details = ", ".join(f"{k}={v}" for k, v in facts.items())
        return f"[{key}{': ' if details else ''}{details}]"
    prepared = _prepare(facts, name_of)
    prepared.setdefault("cmd", _Commands(commands or CONSOLE_COMMANDS))
    if _PLURAL in template:
        return _FORMATTER.vformat(template, (), _Facts(prepared))
    return template.format_map(_Facts(prepared))  # the same result, without the pure-Python parser


def _prepare(facts: Mapping[str, Any], name_of: Callable[[str], str]) -> dict[str, Any]:
    prepared: dict[str, Any] = {}
    for key, value in facts.items():
        if key in PLAYER_FIELDS and isinstance(value, str):
            value = name_of(value)
        elif key in PLAYER_LIST_FIELDS and isinstance(value, list | tuple):
            value = ", ".join(name_of(str(v)) for v in value)
        elif isinstance(value, list | tuple):
            value = ", ".join(str(v) for v in value)
        prepared[key] = value
    return prepared


_PLURAL = ":plural:"


class _Formatter(string.Formatter):
    """str.format plus a plural spec: ``{amount:plural:Auge:Augen}`` → "1 Auge", "2 Augen"."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec.startswith("plural:"):
            _, singular, plural = format_spec.split(":", 2)
            return f"{value} {singular if value in (1, -1) else plural}"
        return str(super().format_field(value, format_spec))

    def get_value(self, key: int | str, args: Any, kwargs: Mapping[str, Any]) -> Any:
        return kwargs[key] if isinstance(key, str) else super().get_value(key, args, kwargs)


_FORMATTER = _Formatter()


class _Commands(dict[str, str]):
    """A front end's command names; an unnamed command falls back on its console spelling."""

    def __missing__(self, key: str) -> str:
        return f"/{key}"


class _Facts(dict[str, Any]):
    """Leaves unknown placeholders visible instead of raising, so a catalogue typo is seen, not fatal."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def signed(value: int) -> str:
    """+3 / −2 / ±0 as the croupier writes changes of pips."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"−{-value}"
    return "±0"
