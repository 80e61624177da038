"""Message catalogues: every sentence the croupier says, per language, rendered from engine facts.

Catalogues are JSON files named ``<catalogue>.<lang>.json`` beside this module (``common``,
``verflixte6``, ``killer`` …). Each maps a key — an event kind such as ``v6.thrown`` or
``error.<code>`` for a refusal — to a :meth:`str.format` template over the event's facts.

Before formatting, facts named in :data:`PLAYER_FIELDS` (ids of participants) become display names,
lists become comma-separated text and negative numbers take a typographic minus ("−7"), so catalogues
stay plain templates. A few format specs (:data:`SPECS`) speak each language's way: plurals
(``{n:plural:Auge:Augen}``; French counts 0 as singular), signed changes (``{delta:signed}``),
decimals and percentages (``{p:percent}`` → "63,90 %" / "63.90%"), lists joined with "oder" / "or" /
"ou" (``{valid:quoted_or}``), French elision (``{player:elide:de}`` → "d'anna", "de ben") and its
repeated prepositions (``{victims:or_each:à}`` → "à anna ou à ben"), and codes
said in words (``{scoring:word:scoring}`` → "Summe der Ergebnisse").

Plurals and numbers follow CLDR's rules for the language (:mod:`bot.texts.cldr`); the words that join
lists and the quotes are the catalogue's own (``list.or``, ``list.and``, ``quote.open``,
``quote.close``). The languages are those registered (:mod:`bot.texts.languages`).
"""

from __future__ import annotations

import json
import string
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from functools import cache, lru_cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any, NamedTuple

from bot import markup
from bot.texts import cldr
from bot.texts.cldr import MINUS as MINUS  # what the texts' users write negative numbers with
from bot.texts.languages import DEFAULT as DEFAULT  # the registry, read through here by most
from bot.texts.languages import LANGUAGES as LANGUAGES
from bot.texts.languages import SAFETY_NET

# How a front end spells its commands; templates say {cmd[join]} so each front end names its own.
CONSOLE_COMMANDS: Mapping[str, str] = {
    name: f"/{name}"
    for name in (
        "close",
        "help",
        "info",
        "join",
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
    if scope is None:
        return _shared(lang)
    return {**_shared(lang), **game_catalogue(scope, lang)}


@cache
def _shared(lang: str) -> Mapping[str, str]:
    """The shared catalogues of one language, read once per process (see :func:`load`): the files
    ``<layer>.<lang>.json`` beside this module, and those at the top of the language's own package."""
    merged: dict[str, str] = {}
    for folder in (resources.files(__package__), _pack(lang)):
        if folder is None or not folder.is_dir():
            continue
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            if entry.name.endswith(f".{lang}.json"):
                merged.update(json.loads(entry.read_text(encoding="utf-8")))
    return merged


def _pack(lang: str) -> Traversable | None:
    """The package holding all of a language's catalogues, if its registry entry names one."""
    language = LANGUAGES.get(lang)
    if language is None or language.texts is None:
        return None
    return resources.files(language.texts)


def load(scopes: Iterable[Scope] = ()) -> None:
    """Read every catalogue now — the shared ones and those of the games ``scopes`` name, in every
    language — so that nothing is read from the checkout later: the games' registry does it when it
    loads the games, at start. A process that can no longer read its files (one that dropped its
    rights, a checkout moved or made private under a running bot) still speaks every sentence."""
    wanted = tuple(scopes)
    for lang in LANGUAGES:
        cldr.warm(lang)  # and its plural and number rules
        catalogue(lang)
        for scope in wanted:
            catalogue(lang, scope)


@cache
def game_catalogue(scope: Scope, lang: str) -> Mapping[str, str]:
    """A game's own templates in one language (empty where it has none): ``<lang>.json`` and
    ``<name>.<lang>.json`` in the game package's ``texts`` folder, or in the folder named for that
    package (``engine.verflixte6``) inside the language's own package."""
    package, name = scope
    pack = _pack(lang)
    merged: dict[str, str] = {}
    for folder in (resources.files(package) / "texts", None if pack is None else pack / package):
        if folder is None:
            continue
        for entry in (folder / f"{lang}.json", folder / f"{name}.{lang}.json"):
            if entry.is_file():
                merged.update(json.loads(entry.read_text(encoding="utf-8")))
    return merged


@cache
def _fallbacks(lang: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys((lang, *SAFETY_NET)))


def has(key: str, lang: str, scope: Scope | None = None) -> bool:
    return any(key in catalogue(candidate, scope) for candidate in _fallbacks(lang))


def render(
    key: str,
    facts: Mapping[str, Any],
    lang: str,
    name_of: Callable[[str], str] = str,
    commands: Mapping[str, str] | None = None,
    scope: Scope | None = None,
    *,
    neutral: bool = False,
) -> str:
    """The sentence for ``key`` in ``lang`` (falling back on the :data:`SAFETY_NET`: English, German).

    ``neutral``: in the neutral form of :mod:`bot.markup` (the template's code and strong text as
    spans); the facts then come marked by the caller (:class:`bot.markup.Marked`).

    ``commands`` names the front end's commands for ``{cmd[…]}`` placeholders (console spelling by
    default); ``scope`` names the game the sentence is about (see :func:`catalogue`). Numbers, lists
    and plurals follow the rules of the language the template was found in (see :data:`SPECS`).
    """
    found = _template(key, lang, scope)
    if found is None:
        details = ", ".join(f"{k}={v}" for k, v in facts.items())
        return f"[{key}{': ' if details else ''}{details}]"
    template = markup.template(found[0]) if neutral else found[0]
    return fill(template, facts, found[1], name_of, commands, scope)


@lru_cache(maxsize=8192)
def _template(key: str, lang: str, scope: Scope | None) -> tuple[str, str] | None:
    """The template for ``key`` and the language it was found in (a render looks it up once)."""
    for candidate in _fallbacks(lang):
        template = catalogue(candidate, scope).get(key)
        if template is not None:
            return template, candidate
    return None


@lru_cache(maxsize=4096)
def constant(key: str, lang: str, scope: Scope | None = None) -> str:
    """The sentence for ``key`` over no facts (a role's label on every row of the running table),
    rendered once per language and game: the catalogues do not change while the process runs."""
    return render(key, {}, lang, scope=scope)


def placeholder(word: str, lang: str) -> str:
    """A help text's placeholder for what the user types (``NAME``, ``REASON``, ``ROLE`` …) in
    ``lang``: "NOM", "RAISON", "RÔLE" in French (the catalogues' ``help.arg.<word>``)."""
    return render(f"help.arg.{word.lower()}", {}, lang)


def fill(
    template: str,
    facts: Mapping[str, Any],
    lang: str,
    name_of: Callable[[str], str] = str,
    commands: Mapping[str, str] | None = None,
    scope: Scope | None = None,
) -> str:
    """One template of language ``lang`` filled in with ``facts`` (what :func:`render` does once it
    has found the template); ``scope``: the game whose words ``{…:words_and:…}`` looks up."""
    shape = _shape(template)
    if shape.plain:
        return template
    prepared = _prepare(facts, name_of)
    if shape.commands and "cmd" not in prepared:
        # A mapping that names every key itself (the neutral one) is used as it is.
        complete = commands is not None and hasattr(commands, "__missing__")
        prepared["cmd"] = commands if complete else _Commands(commands or CONSOLE_COMMANDS)
    if shape.custom:
        return _formatter(lang, scope).fill(template, prepared)
    return template.format_map(prepared)  # the same result, without the pure-Python parser


def _prepare(facts: Mapping[str, Any], name_of: Callable[[str], str]) -> _Facts:
    prepared = _Facts(facts)
    for key, value in facts.items():
        kind = type(value)
        if (kind is str and key not in PLAYER_FIELDS) or (kind is int and value >= 0):
            continue  # most facts, text and counts, are written as they are: a copy, not a call
        prepared[key] = _prepared(key, value, name_of)
    return prepared


def _prepared(key: str, value: Any, name_of: Callable[[str], str]) -> Any:
    """One fact as a template writes it: an id as its name, a list as :class:`_Items`, a negative number
    as :class:`_Negative`, anything else as it is."""
    # isinstance with a tuple of types: ``list | tuple`` would build a union on every call.
    if key in PLAYER_FIELDS and isinstance(value, str):
        return name_of(value)
    if key in PLAYER_LIST_FIELDS and isinstance(value, (list, tuple)):
        return _Items(name_of(str(v)) for v in value)
    if isinstance(value, (list, tuple)):
        return _Items(value)
    if isinstance(value, int) and not isinstance(value, bool) and value < 0:
        return _Negative(value)
    return value


class _Negative(int):
    """A negative number: shown with a typographic minus wherever it is written plainly."""

    def __format__(self, spec: str) -> str:
        return number(int(self)) if not spec else int(self).__format__(spec)

    def __str__(self) -> str:
        return number(int(self))


class _Items(tuple[Any, ...]):
    """A list fact: written plainly it is "a, b, c"; the list specs join it the language's way."""

    def __format__(self, spec: str) -> str:
        return ", ".join(_plain(item) for item in self) if not spec else str(self).__format__(spec)


def _plain(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return number(value)
    return format(value, "") if isinstance(value, str) else str(value)  # marked text as its span


def number(value: int) -> str:
    """An integer as the croupier writes it: 7, −7 (typographic minus)."""
    return f"{MINUS}{-value}" if value < 0 else str(value)


def signed(value: int) -> str:
    """+3 / −2 / ±0 as the croupier writes changes of pips."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"{MINUS}{-value}"
    return "±0"


# --- the language-aware format specs ----------------------------------------------------------------
#
# Templates use them like any format spec: ``{amount:plural:Auge:Augen}``. Each takes the language the
# template was written in, the fact's value and the spec's arguments (what follows its name).

_VOWELS = frozenset("aeiouyh")
singular = cldr.singular  # whether a count takes the singular: French says "0 point", German "0 Punkte"


class _Joiners(NamedTuple):
    """The words the list specs join and quote with, from the language's shared catalogue."""

    or_: str
    and_: str
    open: str
    close: str


@cache
def _joiners(lang: str) -> _Joiners:
    def word(key: str) -> str:
        found = _template(key, lang, None)
        return found[0] if found is not None else ""

    return _Joiners(word("list.or"), word("list.and"), word("quote.open"), word("quote.close"))


def _plural(lang: str, value: Any, args: list[str]) -> str:
    return f"{_plain(value)} {cldr.form(lang, value, args)}"


def _pick(lang: str, value: Any, args: list[str]) -> str:
    return cldr.form(lang, value, args)


def _signed(lang: str, value: Any, args: list[str]) -> str:
    return signed(int(value))


decimal = cldr.decimal  # 1.25 with the language's decimal mark: "1,25" in German and French


def _digits(args: list[str]) -> int:
    return int(args[0]) if args and args[0] else 2


def _decimal(lang: str, value: Any, args: list[str]) -> str:
    return cldr.decimal(lang, float(value), _digits(args))


def _percent(lang: str, value: Any, args: list[str]) -> str:
    """A percentage given as a number of percent: "63,90 %" (de, fr), "63.90%" (en)."""
    return cldr.percent(lang, float(value), _digits(args))


def _items(value: Any) -> list[str]:
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return [_plain(value)] if value not in (None, "") else []


def _joined(lang: str, items: list[str], word: str) -> str:
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} {word} {items[-1]}"


def _quoted(lang: str, items: list[str]) -> list[str]:
    joiners = _joiners(lang)
    return [f"{joiners.open}{item}{joiners.close}" for item in items]


def _list_spec(
    conjunction: Callable[[_Joiners], str] | None, quoted: bool
) -> Callable[[str, Any, list[str]], str]:
    """``list``: "a, b, c"; ``or``: "a, b oder c"; ``and``: "a, b und c"; ``quoted_…``: each item in the
    language's quotes. An argument is what an empty list says instead (``{kept:list:aucun}``)."""

    def spec(lang: str, value: Any, args: list[str]) -> str:
        items = _items(value)
        if not items:
            return args[0] if args else ""
        if quoted:
            items = _quoted(lang, items)
        if conjunction is None:
            return ", ".join(items)
        return _joined(lang, items, conjunction(_joiners(lang)))

    return spec


def _or_each(lang: str, value: Any, args: list[str]) -> str:
    """A list joined with "or", its word before every item as French repeats it: ``{victims:or_each:à}``
    → "à anna ou à ben", ``{players:or_each:de}`` → "d'anna ou de ben". A second argument is what an
    empty list says."""
    items = _items(value)
    if not items:
        return args[1] if len(args) > 1 else ""
    word = args[0] if args else ""
    each = [_elide(lang, item, [word]) if word else item for item in items]
    return _joined(lang, each, _joiners(lang).or_)


def _elide(lang: str, value: Any, args: list[str]) -> str:
    """French elision before a name: ``{player:elide:de}`` → "d'anna", "de ben"."""
    word = args[0] if args else "de"
    text = str(value)
    initial = markup.plain(text) if markup.OPEN in text else text  # an item of a list: its span
    first = unicodedata.normalize("NFKD", initial[:1].casefold())[:1]
    if word.endswith("e") and first in _VOWELS:
        return f"{word[:-1]}'{text}"
    return f"{word} {text}"


def _word(lang: str, value: Any, args: list[str], scope: Scope | None = None) -> str:
    """A code as the language says it: ``{scoring:word:scoring}`` → the catalogue's ``scoring.sum``
    ("Summe der Ergebnisse"), the game's own over the shared one; the code itself where neither has a
    word."""
    group = args[0] if args and args[0] else "word"
    return catalogue(lang, scope).get(f"{group}.{value!s}") or markup.escaped(str(value))


def _words_and(lang: str, value: Any, args: list[str], scope: Scope | None = None) -> str:
    """A list of codes, each as the language says it, joined with "and": ``{modes:words_and:mode:none}``
    → "Terminator, Zombie et jets mythiques" (the game's ``mode.<code>``); the second argument is what
    an empty list says."""
    group = args[0] if args and args[0] else "word"
    codes = value if isinstance(value, (list, tuple)) else [value] if value not in (None, "") else []
    items = [_word(lang, str(code), [group], scope) for code in codes]  # codes, not their spans
    if not items:
        return args[1] if len(args) > 1 else ""
    return _joined(lang, items, _joiners(lang).and_)


def _or(joiners: _Joiners) -> str:
    return joiners.or_


def _and(joiners: _Joiners) -> str:
    return joiners.and_


SPECS: Mapping[str, Callable[[str, Any, list[str]], str]] = {
    "plural": _plural,  # {n:plural:Auge:Augen} → "1 Auge", "3 Augen" (French: "0 point"; CLDR's rule)
    "pick": _pick,  # {n:pick:passt:passen} → the word alone, by the same rule
    "signed": _signed,  # {delta:signed} → "+3", "−2", "±0"
    "decimal": _decimal,  # {x:decimal} → "1,25" (de, fr) / "1.25" (en); {x:decimal:1} one digit (CLDR)
    "percent": _percent,  # {p:percent} → "63,90 %" (de, fr) / "63.90%" (en) (CLDR)
    "list": _list_spec(None, quoted=False),  # {kept:list:aucun} → "6, 5" or "aucun"
    "or": _list_spec(_or, quoted=False),  # {names:or} → "cleo oder dora"
    "and": _list_spec(_and, quoted=False),  # {modes:and:keine} → "zombie und mythic" or "keine"
    "quoted_or": _list_spec(_or, quoted=True),  # {valid:quoted_or} → "„weiter“ oder „stopp“"
    "quoted_and": _list_spec(_and, quoted=True),
    "elide": _elide,  # {player:elide:de} → "d'anna" / "de ben" (French)
    "or_each": _or_each,  # {victims:or_each:à} → "à anna ou à ben" (French repeats the preposition)
    "code": lambda lang, value, args: markup.code(value),  # `{seed}` in a neutral template (bot.markup)
}
# Specs that say codes in words: they look them up in the catalogue of the game the sentence is about.
SCOPED_SPECS: Mapping[str, Callable[[str, Any, list[str], Scope | None], str]] = {
    "word": _word,  # {scoring:word:scoring} → the catalogue's "scoring.sum" in the language
    "words_and": _words_and,  # {modes:words_and:mode:keine} → each code as the game says it, with "und"
}


class _Shape(NamedTuple):
    """What filling a template takes: ``plain`` — nothing (no brace: the template is the sentence);
    ``custom`` — one of :data:`SPECS` (else plain ``str.format_map`` renders it); ``commands`` — it
    may name a command (``{cmd[join]}``)."""

    plain: bool
    custom: bool
    commands: bool


@lru_cache(maxsize=8192)
def _shape(template: str) -> _Shape:
    if "{" not in template and "}" not in template:
        return _Shape(plain=True, custom=False, commands=False)
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError:
        custom = False
    else:
        custom = any(
            spec and spec.split(":", 1)[0] in (SPECS.keys() | SCOPED_SPECS.keys()) for _, _, spec, _ in parsed
        )
    return _Shape(plain=False, custom=custom, commands="cmd" in template)


class _Formatter(string.Formatter):
    """str.format plus :data:`SPECS` and :data:`SCOPED_SPECS`, in one language (and, for the latter,
    one game's catalogue)."""

    def __init__(self, lang: str, scope: Scope | None = None) -> None:
        super().__init__()
        self.lang = lang
        self.scope = scope

    def format_field(self, value: Any, format_spec: str) -> str:
        name, *args = format_spec.split(":")
        scoped = SCOPED_SPECS.get(name)
        handler = SPECS.get(name)
        if scoped is None and handler is None:
            return str(super().format_field(value, format_spec))
        try:
            if scoped is not None:
                said = scoped(self.lang, value, args, self.scope)
            else:
                assert handler is not None
                said = handler(self.lang, value, args)
        except (TypeError, ValueError):  # a fact of the wrong kind: show it rather than fail
            said = str(value)
        if isinstance(value, markup.Marked) and name != "code":
            return value.rewrap(said)  # outside text a spec inflected ("d'anna") stays marked
        return said

    def get_value(self, key: int | str, args: Any, kwargs: Mapping[str, Any]) -> Any:
        return kwargs[key] if isinstance(key, str) else super().get_value(key, args, kwargs)

    def fill(self, template: str, facts: Mapping[str, Any]) -> str:
        """``vformat(template, (), facts)``, from the template's fields read once (:func:`_fields`)."""
        fields = _fields(template)
        if fields is None:
            return self.vformat(template, (), facts)
        out: list[str] = []
        for literal, name, conversion, spec in fields:
            out.append(literal)
            if name is not None:
                value = self.convert_field(self.get_field(name, (), facts)[0], conversion)
                out.append(self.format_field(value, spec))
        return "".join(out)


Field = tuple[str, str | None, str | None, str]  # literal text, then a field: its name, conversion, spec


@lru_cache(maxsize=8192)
def _fields(template: str) -> tuple[Field, ...] | None:
    """A template's literal texts and fields, as :meth:`string.Formatter.parse` reads them — once per
    template, not on every render: the catalogue never changes while the process runs. None for what
    only ``vformat`` itself fills the same way: a spec holding a field, an unnamed field (``{}``)."""
    fields = tuple(
        (literal, name, conversion, spec or "")
        for literal, name, spec, conversion in string.Formatter().parse(template)
    )
    for _, name, _, spec in fields:
        if name is not None and ("{" in spec or not name):
            return None
    return fields


@cache
def _formatter(lang: str, scope: Scope | None = None) -> _Formatter:
    return _Formatter(lang, scope)


class _Commands(dict[str, str]):
    """A front end's command names; an unnamed command falls back on its console spelling."""

    def __missing__(self, key: str) -> str:
        return f"/{key}"


class _Facts(dict[str, Any]):
    """Leaves unknown placeholders visible instead of raising, so a catalogue typo is seen, not fatal."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _forget() -> None:
    """Drop every catalogue and template read (the registry of languages changed)."""
    for cached in (catalogue, _shared, game_catalogue, _fallbacks, _template, _formatter, _joiners, constant):
        cached.cache_clear()


LANGUAGES.on_refresh(_forget)
