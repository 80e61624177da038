"""Choices for an option while it is being typed (Discord's autocomplete): what the open game offers
for it (a comma list of jokers, say, its last item completed); the seated players, by id; a game's
options and their values; and the word a mistyped one probably meant (the topics of
:mod:`bot.service.topics`). Read-only: a suggestion changes nothing, and a front end shows what it is given.
No game is named here: each says what it offers (``Game.suggest``, ``Game.topics``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.games import GAMES, language_of
from bot.option_words import Word, pairs, split
from bot.service.rendering import Narrator
from bot.store import UnitOfWork
from engine.commands import closest, fold
from engine.game import Candidates, Game, OptionSpec

SHOWN_MAX = 25  # Discord shows at most 25 choices
TEXT_MAX = 100  # … each name and value at most 100 characters long


@dataclass(frozen=True)
class Suggestion:
    name: str  # what the list shows, in the channel's language
    value: str  # what the option then holds


def suggestions_in(
    uow: UnitOfWork, narrator: Narrator, guild: str, channel: str, home: str, what: str, typed: str
) -> list[Suggestion]:
    """The seated players of the channel's open game, or what it offers for ``what``, that fit what
    was typed so far."""
    state = uow.channels.state(guild, channel, home)
    record = state.game
    game = GAMES.get(record.kind) if record is not None else None
    if record is None or game is None:
        return []
    loaded = game.load(record.snapshot)
    lang = language_of(state)
    if what == "players":
        return fitting(_players(narrator, game, loaded, lang), typed)
    offered = game.suggest(loaded, what)
    if offered is None:
        return []
    none = narrator.line(offered.none_label, {}, lang, game=game, literal=True) if offered.none else ""
    return listing(offered, typed, none)


def picked_line_in(uow: UnitOfWork, guild: str, channel: str, home: str, what: str, picked: str) -> str:
    """The line a list picked from what the open game offers for ``what`` is said as, in the game's own
    words (``Candidates.prefix``: "Joker: Rattenlord, ALL IN"); the list as it is where the game
    offers nothing for ``what`` (the game then reads it as any typed line)."""
    record = uow.channels.state(guild, channel, home).game
    game = GAMES.get(record.kind) if record is not None else None
    offered = (
        game.suggest(game.load(record.snapshot), what) if record is not None and game is not None else None
    )
    return f"{offered.prefix} {picked}".strip() if offered is not None else picked.strip()


def _players(narrator: Narrator, game: Game[Any], state: Any, lang: str) -> list[Suggestion]:
    found = []
    for seat in game.table(state):
        role = narrator.line(f"role.{seat.role}", {}, lang, game=game, literal=True)
        found.append(Suggestion(f"{seat.name} ({role})", seat.player))
    return found


def fitting(candidates: Iterable[Suggestion], typed: str) -> list[Suggestion]:
    """Those whose name starts with what was typed first, then those that merely contain it (a
    topic, say: ``od`` → Pig's ``odds``)."""
    key = fold(typed)
    listed = [c for c in candidates if len(c.value) <= TEXT_MAX]
    first = [c for c in listed if fold(c.name).startswith(key) or fold(c.value).startswith(key)]
    then = [c for c in listed if c not in first and (key in fold(c.name) or key in fold(c.value))]
    return [_clipped(c) for c in [*first, *then][:SHOWN_MAX]]


def nearest(typed: str, candidates: Sequence[Suggestion]) -> Suggestion | None:
    """The candidate a mistyped word probably meant ("did you mean …?"): the closest value, else the
    closest name; None when none looks like it (:func:`engine.commands.closest`)."""
    for part in ("value", "name"):
        by_part = {getattr(c, part): c for c in candidates}
        found = closest(typed, by_part, limit=1)
        if found:
            return by_part[found[0]]
    return None


def _clipped(suggestion: Suggestion) -> Suggestion:
    name = suggestion.name
    return Suggestion(name if len(name) <= TEXT_MAX else name[: TEXT_MAX - 1] + "…", suggestion.value)


def listing(offered: Candidates, typed: str, none_label: str) -> list[Suggestion]:
    """``Rattenlord, AL`` → ``Rattenlord, ALL IN``: the last item of the comma list completed with
    the offered values not listed yet, while the list has room; the game's "none" (shown as
    ``none_label``) while nothing is listed."""
    head, comma, last = typed.rpartition(",")
    listed = [item.strip() for item in head.split(",") if item.strip()] if comma else []
    taken = {fold(item) for item in listed}
    free = [value for value in offered.values if fold(value) not in taken]
    lead = ", ".join(listed)
    candidates = (
        []
        if offered.limit and len(listed) >= offered.limit
        else [
            Suggestion(f"{lead}, {value}" if lead else value, f"{lead}, {value}" if lead else value)
            for value in free
        ]
    )
    shown = _completing(candidates, lead, last)
    key = fold(last)
    says_none = fold(none_label).startswith(key) or fold(offered.none).startswith(key)
    if offered.none and not listed and says_none:
        shown = [*shown[: SHOWN_MAX - 1], Suggestion(none_label, offered.none)]
    return shown


def _completing(candidates: Sequence[Suggestion], lead: str, last: str) -> list[Suggestion]:
    """The candidates whose completed last item fits the typed one (a prefix first, then within)."""
    key = fold(last)
    skip = len(lead) + 2 if lead else 0

    def item(suggestion: Suggestion) -> str:
        return fold(suggestion.value[skip:])

    listed = [c for c in candidates if len(c.value) <= TEXT_MAX]
    first = [c for c in listed if item(c).startswith(key)]
    then = [c for c in listed if c not in first and key in item(c)]
    return [_clipped(c) for c in [*first, *then][:SHOWN_MAX]]


# --- a game's options (``/durchgang öffnen optionen``) ------------------------------------------------


def options(kind: str, typed: str) -> list[Suggestion]:
    """``order=sh`` → ``order=shuffled``; ``jokers=Rattenlord,AL`` → ``jokers="Rattenlord,ALL IN"``;
    ``pa`` → ``parallel=yes``, ``parallel=no``: the options of the game ``kind`` names, completing the
    last one; those before it are kept as typed. Values are read as the command reads them
    (:mod:`bot.option_words`: a value runs to the next ``key=``), so ``jokers=ALL I`` completes the
    joker "ALL IN"; after a one-word value, a further word starts the next option (``order=shuffled pa``)."""
    game = GAMES.get(kind)
    if game is None:
        return []
    given = pairs(_words(typed))
    done, last = (given, None) if not typed.strip() or typed[-1:].isspace() else (given[:-1], given[-1])
    specs_by_name = {spec.name: spec for spec in game.options}
    if last is not None and last[1] is not None and " " in last[1]:
        spec = specs_by_name.get(last[0])
        head, _, word = last[1].rpartition(" ")
        if spec is None or not spec.multi:  # "order=shuffled pa": the value ended, "pa" starts an option
            done, last = [*done, (last[0], head)], (word.lower(), None)
    names = {key for key, _ in done}
    lead = " ".join(_shown(key, value) for key, value in done)
    key, value = last if last is not None else ("", None)
    specs = [spec for spec in game.options if spec.name not in names or spec.name == key]
    if value is not None:
        spec = next((s for s in specs if s.name == key), None)
        words_now = [] if spec is None else _values(spec, value)
    else:
        words_now = [
            f"{spec.name}={v}" for spec in specs if spec.name.startswith(key) for v in spec.values or ("",)
        ]
    texts = [f"{lead} {word}".strip() for word in (_quoted(word) for word in words_now)]
    return [Suggestion(text, text) for text in texts if len(text) <= TEXT_MAX][:SHOWN_MAX]


def _shown(key: str, value: str | None) -> str:
    """An option given before the one being completed, as the suggestion repeats it."""
    return key if value is None else _quoted(f"{key}={value}")


def _values(spec: OptionSpec, typed: str) -> list[str]:
    if not spec.multi:
        key = fold(typed)
        fits = [v for v in spec.values if fold(v).startswith(key)]
        return [f"{spec.name}={v}" for v in fits or [v for v in spec.values if key in fold(v)]]
    head, comma, last = typed.rpartition(",")
    listed = [item.strip() for item in head.split(",") if item.strip()] if comma else []
    taken = {fold(item.lstrip("+-")) for item in listed}
    sign = last.strip()[:1] if last.strip()[:1] in ("+", "-") else ""
    key = fold(last.strip().lstrip("+-"))
    free = [v for v in spec.values if fold(v) not in taken]
    fits = [v for v in free if fold(v).startswith(key)] or [v for v in free if key in fold(v)]
    return [f"{spec.name}={','.join([*listed, sign + v])}" for v in fits]


def _words(typed: str) -> list[Word]:
    """The words of an options text as :func:`bot.option_words.split` reads them, an unclosed quote
    closed."""
    for attempt in (typed, typed + '"', typed + "'"):
        if attempt.count('"') % 2 == 0 and attempt.count("'") % 2 == 0:
            return split(attempt)
    return split(typed)


def _quoted(word: str) -> str:
    """``jokers=ALL IN,Beefmaker`` → ``jokers="ALL IN,Beefmaker"``, so the text splits as meant."""
    key, sep, value = word.partition("=")
    if sep and " " in value:
        return f'{key}="{value}"'
    return word
