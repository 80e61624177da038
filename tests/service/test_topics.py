"""What a game explains on request comes from the game (``Game.topics`` / ``Game.info``), not from the
service or a front end: ``/info jokers`` is Die verflixte 6!'s own topic, a game without it says so in
the owner's words, and ``/rules`` before any game is the default game's, as the registry says. Every
bad question is answered clearly and changes nothing."""

from __future__ import annotations

from bot.games import GAMES, scope_of
from bot.service.croupier import Croupier
from bot.store import Store
from bot.texts import CONSOLE_COMMANDS, render
from engine.verflixte6.jokers import registry
from tests.dice import scripted
from tests.service.helpers import Table, seen, snapshot_of

V6 = scope_of(GAMES["verflixte6"])


def v6(key: str, lang: str = "de", **facts: object) -> str:
    return render(key, facts, lang, str, CONSOLE_COMMANDS, V6)


def common(key: str, lang: str = "de", **facts: object) -> str:
    return render(key, facts, lang, str, CONSOLE_COMMANDS)


def joker_lines(names: tuple[str, ...], lang: str = "de") -> tuple[str, ...]:
    return tuple(v6(f"v6.joker_info.{name}", lang) for name in names)


def test_the_games_declare_their_topics_with_catalogue_keys() -> None:
    assert GAMES.default is GAMES["verflixte6"]
    assert [game.name for game in GAMES.values() if game.default] == ["verflixte6"]
    (jokers,) = GAMES["verflixte6"].topics
    assert (jokers.name, jokers.title, jokers.summary, jokers.elsewhere) == (
        "jokers",
        "info.jokers.title",
        "info.jokers.summary",
        "info.jokers.elsewhere",
    )
    assert GAMES["killer"].topics == ()  # Killer explains nothing beyond its rules


async def test_the_jokers_of_the_open_durchgang_in_the_order_of_the_rules(store: Store) -> None:
    table = Table(Croupier(store=store, dice_factory=scripted([])))
    assert (await table.open("verflixte6", {"jokers": "Tentakel, Rattenlord"})).ok
    reply = seen(await table.croupier.info_reply(table.msg("anna"), "jokers"))
    assert reply.ok
    assert reply.title == v6("info.jokers.title")
    assert reply.lines == joker_lines(("Rattenlord", "ahris Tentakel"))  # the option named them loosely
    by_title = seen(await table.croupier.info_reply(table.msg("anna"), "die JOKER"))  # the title, as spelt
    assert by_title.lines == reply.lines


async def test_without_a_durchgang_the_jokers_are_those_enabled_by_default_and_said_so(store: Store) -> None:
    table = Table(Croupier(store=store, dice_factory=scripted([])))
    reply = seen(await table.croupier.info_reply(table.msg("anna"), "jokers"))
    assert reply.ok
    assert reply.lines == (
        common("common.topic_unopened", game=v6("game.title")),
        *joker_lines(registry.DEFAULT_ENABLED),
    )


async def test_the_open_game_lists_its_topics_and_killer_says_it_has_none(store: Store) -> None:
    table = Table(Croupier(store=store, dice_factory=scripted([])))
    assert (await table.open("verflixte6", {})).ok
    listed = seen(await table.croupier.info_reply(table.msg("anna")))
    entry = common(
        "common.topic_entry",
        topic="jokers",
        title=v6("info.jokers.title"),
        summary=v6("info.jokers.summary"),
    )
    assert listed.lines == (common("common.topics_of", game=v6("game.title")), entry)
    killer = Table(Croupier(store=store, dice_factory=scripted([])), channel="killer-table")
    assert (await killer.open("killer", {})).ok
    none = seen(await killer.croupier.info_reply(killer.msg("anna")))
    title = render("game.title", {}, "fr", str, CONSOLE_COMMANDS, scope_of(GAMES["killer"]))
    assert none.lines == (common("common.topics_none", "fr", game=title),)


async def test_a_game_without_the_topic_says_so_in_the_words_of_the_game_that_has_it(store: Store) -> None:
    table = Table(Croupier(store=store, dice_factory=scripted([])))
    assert (await table.open("killer", {})).ok  # Killer has no jokers: Die verflixte 6! says so
    before = await snapshot_of(store)
    reply = seen(await table.croupier.info_reply(table.msg("anna"), "jokers"))
    killer = render("game.title", {}, "fr", str, CONSOLE_COMMANDS, scope_of(GAMES["killer"]))
    assert (reply.ok, reply.error_code) == (False, "topic_elsewhere")
    assert reply.lines == (v6("info.jokers.elsewhere", "fr", game=killer),)
    assert await snapshot_of(store) == before  # nothing changed


async def test_a_topic_no_game_explains_is_refused_with_the_nearest_one(store: Store) -> None:
    table = Table(Croupier(store=store))
    reply = seen(await table.croupier.info_reply(table.msg("anna"), "weather"))
    assert (reply.ok, reply.error_code) == (False, "unknown_topic")
    assert reply.lines == (common("error.unknown_topic", topic="weather"),)
    near = seen(await table.croupier.info_reply(table.msg("anna"), "jokrs"))
    assert near.lines == (
        common("error.unknown_topic", topic="jokrs"),
        common("error.did_you_mean", word="jokers"),
    )


async def test_topics_are_suggested_while_typed_in_the_channels_language(store: Store) -> None:
    table = Table(Croupier(store=store, dice_factory=scripted([])))
    assert (await table.open("verflixte6", {})).ok
    offered = await table.croupier.suggest(table.msg("anna"), "topics", "jo")
    assert [(s.name, s.value) for s in offered] == [
        (f"{v6('info.jokers.title')} — {v6('info.jokers.summary')}", "jokers")
    ]
    assert await table.croupier.suggest(table.msg("anna"), "topics", "xyz") == []


async def test_before_any_game_the_rules_are_the_default_game_s(store: Store) -> None:
    table = Table(Croupier(store=store))
    reply = seen(await table.croupier.rules_reply(table.msg("anna")))
    default = scope_of(GAMES.default)
    assert reply.lines == (render("help.rules", {}, "de", str, CONSOLE_COMMANDS, default),)
