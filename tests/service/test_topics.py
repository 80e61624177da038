"""What a game explains on request comes from the game (``Game.topics`` / ``Game.info``), not from the
service: ``/jokers`` is Die verflixte 6!'s own topic, and ``/rules`` before any game is the default
game's, as the registry says."""

from __future__ import annotations

from bot.games import GAMES, scope_of
from bot.service.croupier import Croupier
from bot.store import Store
from bot.texts import CONSOLE_COMMANDS, render
from engine.verflixte6.jokers import registry
from tests.dice import scripted
from tests.service.helpers import Table


def joker_lines(names: tuple[str, ...], lang: str = "de") -> tuple[str, ...]:
    scope = scope_of(GAMES["verflixte6"])
    return tuple(render(f"v6.joker_info.{name}", {}, lang, str, CONSOLE_COMMANDS, scope) for name in names)


def test_the_registry_knows_the_default_game_and_who_explains_a_topic() -> None:
    assert GAMES.default is GAMES["verflixte6"]
    assert [game.name for game in GAMES.values() if game.default] == ["verflixte6"]
    assert GAMES.explaining("jokers") is GAMES["verflixte6"]
    assert GAMES.explaining("jokers", GAMES["killer"]) is GAMES["verflixte6"]  # Killer has no jokers
    assert GAMES.explaining("no such topic") is None


async def test_the_jokers_of_the_open_durchgang_in_the_order_of_the_rules(store: Store) -> None:
    table = Table(Croupier(store=store, dice_factory=scripted([])))
    assert (await table.open("verflixte6", {"jokers": "Tentakel, Rattenlord"})).ok
    reply = await table.croupier.jokers_reply(table.msg("anna"))
    assert reply.lines == joker_lines(("Rattenlord", "ahris Tentakel"))  # the option named them loosely


async def test_without_a_durchgang_the_jokers_are_those_enabled_by_default(store: Store) -> None:
    table = Table(Croupier(store=store, dice_factory=scripted([])))
    assert (await table.croupier.jokers_reply(table.msg("anna"))).lines == joker_lines(
        registry.DEFAULT_ENABLED
    )


async def test_a_game_without_the_topic_says_so_in_the_words_of_the_game_that_has_it(store: Store) -> None:
    table = Table(Croupier(store=store, dice_factory=scripted([])))
    assert (await table.open("killer", {})).ok  # Killer has no jokers: Die verflixte 6! says so
    reply = await table.croupier.info_reply(table.msg("anna"), "jokers")
    killer = render("game.title", {}, "fr", str, CONSOLE_COMMANDS, scope_of(GAMES["killer"]))
    v6 = scope_of(GAMES["verflixte6"])
    assert reply.lines == (
        render("info.jokers.elsewhere", {"game": killer}, "fr", str, CONSOLE_COMMANDS, v6),
    )


async def test_a_topic_no_game_explains_is_refused(store: Store) -> None:
    table = Table(Croupier(store=store))
    reply = await table.croupier.info_reply(table.msg("anna"), "weather")
    assert not reply.ok
    assert reply.lines == (
        render("error.unknown_command", {"command": "weather"}, "de", str, CONSOLE_COMMANDS),
    )


async def test_before_any_game_the_rules_are_the_default_game_s(store: Store) -> None:
    table = Table(Croupier(store=store))
    reply = await table.croupier.rules_reply(table.msg("anna"))
    default = scope_of(GAMES.default)
    assert reply.lines == (render("help.rules", {}, "de", str, CONSOLE_COMMANDS, default),)
