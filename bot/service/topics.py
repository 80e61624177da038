"""What a game explains on request (``/info``, ``/info odds``): listed and answered from what the
game declares (:class:`engine.game.Topic`, ``Game.info``), so that no front end — and nothing here —
names a game or a topic.

The channel's open game answers about its own topics and its own state. With no game open, every
registered game's topics are offered (the channel's last game's first, then the default game's), each
answered as its game would be opened without options, and the answer says so. A topic the open game
does not have, a topic no game has, and a near miss ("did you mean …?") are refused with a clear
sentence; nothing is ever written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.games import GAMES, language_of
from bot.replies import Reply
from bot.service.rendering import Narrator
from bot.service.suggestions import Suggestion, fitting, nearest
from bot.store import ChannelState, UnitOfWork
from engine.commands import fold
from engine.game import Game, Topic


def answer_in(uow: UnitOfWork, narrator: Narrator, guild: str, channel: str, home: str, asked: str) -> Reply:
    """The topic ``asked`` of the channel's game, or the list of its topics when nothing was asked."""
    return answer(narrator, uow.channels.state(guild, channel, home), asked)


def suggestions_in(
    uow: UnitOfWork, narrator: Narrator, guild: str, channel: str, home: str, typed: str
) -> list[Suggestion]:
    """The topics the channel's game explains, as an autocomplete offers them: the value is the
    topic's name, the label its title and summary in the channel's language."""
    state = uow.channels.state(guild, channel, home)
    return fitting(offered(narrator, state), typed)


def answer(narrator: Narrator, channel: ChannelState, asked: str) -> Reply:
    """``/info`` (``asked`` empty) or ``/info asked`` in a channel, as the module says."""
    lang = language_of(channel)
    asked = asked.strip()
    record = channel.game
    game = GAMES.get(record.kind) if record is not None else None
    if not asked:
        return _listing(narrator, channel, game, lang)
    if record is not None and game is not None:
        topic = _find(narrator, game, asked, lang)
        if topic is not None:
            return _explained(narrator, game, topic, game.load(record.snapshot), lang)
        owner = next((g for g in _ordered(channel) if _named(g, asked)), None)
        if owner is not None:
            return _elsewhere(narrator, game, owner, asked, lang)
        return _unknown(narrator, asked, offered(narrator, channel), lang)
    for candidate in _ordered(channel):
        topic = _find(narrator, candidate, asked, lang)
        if topic is not None:
            about = narrator.line("game.title", {}, lang, game=candidate)
            first = narrator.line("common.topic_unopened", {"game": about}, lang)
            return _explained(narrator, candidate, topic, None, lang, first=first)
    return _unknown(narrator, asked, offered(narrator, channel), lang)


@dataclass(frozen=True)
class Explained:
    """One topic as a page shows it: its name, its title and summary, and its entries."""

    name: str
    title: str
    summary: str
    lines: tuple[str, ...]


def explained(narrator: Narrator, game: Game[Any], state: Any, lang: str) -> tuple[Explained, ...]:
    """Every topic of ``game`` about its ``state``, as the web's game page lists them."""
    return tuple(
        Explained(
            topic.name,
            narrator.line(topic.title, {}, lang, game=game, literal=True),
            narrator.line(topic.summary, {}, lang, game=game, literal=True),
            tuple(
                narrator.line(line.key, line.facts, lang, game=game) for line in game.info(state, topic.name)
            ),
        )
        for topic in game.topics
    )


def offered(narrator: Narrator, channel: ChannelState) -> list[Suggestion]:
    """Every topic the channel's game explains (with no game open, every game's), labelled in the
    channel's language: "The odds — How often a roll loses the turn, and the target"."""
    lang = language_of(channel)
    found: list[Suggestion] = []
    taken: set[str] = set()
    for game, topic in _topics(channel):
        if topic.name in taken:  # the first game that declares a topic answers it
            continue
        taken.add(topic.name)
        title = narrator.line(topic.title, {}, lang, game=game, literal=True)
        summary = narrator.line(topic.summary, {}, lang, game=game, literal=True)
        found.append(Suggestion(f"{title} — {summary}", topic.name))
    return found


# --- inside -----------------------------------------------------------------------------------------


def _ordered(channel: ChannelState) -> list[Game[Any]]:
    """The games a channel without an open game hears about: its last game, the default, the rest."""
    last = GAMES.get(channel.last_kind) if channel.last_kind is not None else None
    games = [last, GAMES.default, *GAMES.values()]
    return list(dict.fromkeys(game for game in games if game is not None))


def _topics(channel: ChannelState) -> list[tuple[Game[Any], Topic]]:
    record = channel.game
    game = GAMES.get(record.kind) if record is not None else None
    games = [game] if game is not None else _ordered(channel)
    return [(one, topic) for one in games for topic in one.topics]


def _find(narrator: Narrator, game: Game[Any], asked: str, lang: str) -> Topic | None:
    """The game's topic ``asked`` names: its name, or its title in the channel's language."""
    key = fold(asked)
    named = _named(game, asked)
    if named is not None:
        return named
    titled = (
        t for t in game.topics if fold(narrator.line(t.title, {}, lang, game=game, literal=True)) == key
    )
    return next(titled, None)


def _named(game: Game[Any], asked: str) -> Topic | None:
    """The game's topic by its name (another game's topics are known by name only)."""
    key = fold(asked)
    return next((topic for topic in game.topics if fold(topic.name) == key), None)


def _explained(
    narrator: Narrator, game: Game[Any], topic: Topic, state: Any, lang: str, *, first: str = ""
) -> Reply:
    title = narrator.line(topic.title, {}, lang, game=game, literal=True)
    lines = [narrator.line(line.key, line.facts, lang, game=game) for line in game.info(state, topic.name)]
    return Reply(ok=True, lines=tuple([first, *lines] if first else lines), title=title, language=lang)


def _listing(narrator: Narrator, channel: ChannelState, game: Game[Any] | None, lang: str) -> Reply:
    if game is not None:
        name = narrator.line("game.title", {}, lang, game=game)
        if not game.topics:
            return narrator.simple("common.topics_none", {"game": name}, lang)
        lines = [narrator.line("common.topics_of", {"game": name}, lang)]
        lines += [_entry(narrator, game, topic, lang) for topic in game.topics]
        return Reply(ok=True, lines=tuple(lines), language=lang)
    lines = [narrator.line("common.topics_any", {}, lang)]
    taken: set[str] = set()
    for owner, topic in _topics(channel):
        if topic.name not in taken:
            taken.add(topic.name)
            lines.append(_entry(narrator, owner, topic, lang, named=True))
    return Reply(ok=True, lines=tuple(lines), language=lang)


def _entry(narrator: Narrator, game: Game[Any], topic: Topic, lang: str, *, named: bool = False) -> str:
    facts = {
        "topic": topic.name,
        "title": narrator.line(topic.title, {}, lang, game=game),
        "summary": narrator.line(topic.summary, {}, lang, game=game),
    }
    if named:
        facts["game"] = narrator.line("game.title", {}, lang, game=game)
    # The facts are the game's own sentences and a declared name: nothing typed to escape.
    key = "common.topic_entry_of" if named else "common.topic_entry"
    return narrator.line(key, facts, lang, literal=True)


def _elsewhere(narrator: Narrator, game: Game[Any], owner: Game[Any], asked: str, lang: str) -> Reply:
    """A topic of another game than the open one: the owner's own sentence where it declares one
    ("Killer is played without jokers"), else the croupier's."""
    topic = _named(owner, asked)
    assert topic is not None
    here = narrator.line("game.title", {}, lang, game=game)
    if topic.elsewhere:
        line = narrator.line(topic.elsewhere, {"game": here}, lang, game=owner)
    else:
        there = narrator.line("game.title", {}, lang, game=owner)
        facts = {"topic": topic.name, "owner": there, "game": here}
        line = narrator.line("error.topic_elsewhere", facts, lang, literal=True)
    return Reply(ok=False, lines=(line,), language=lang, error_code="topic_elsewhere")


def _unknown(narrator: Narrator, asked: str, topics: Sequence[Suggestion], lang: str) -> Reply:
    """No game has the topic: said with the closest one offered here, if one looks like it."""
    lines = [narrator.line("error.unknown_topic", {"topic": asked}, lang)]
    near = nearest(asked, topics)
    if near is not None:
        lines.append(narrator.line("error.did_you_mean", {"word": near.value}, lang))
    return Reply(ok=False, lines=tuple(lines), language=lang, error_code="unknown_topic")
