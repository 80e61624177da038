"""A list picked from what a game offers (Discord's ``/joker wählen``) is said in the game's own words:
the service prefixes it as the game's ``Candidates.prefix`` says ("Joker:"), so no front end writes a
game's words. Rule id: V6-S2 (the joker choice)."""

from __future__ import annotations

from bot.games import GAMES, scope_of
from bot.service.croupier import Croupier
from bot.store import Store
from bot.texts import CONSOLE_COMMANDS, render
from engine.game import Join, Start
from tests.dice import scripted
from tests.service.helpers import MODERATOR, Table, seen, snapshot_of


async def test_V6_S2_picked_jokers_are_said_with_the_game_s_prefix(store: Store) -> None:
    table = Table(Croupier(store=store, dice_factory=scripted([])))
    assert (await table.open("verflixte6", {"jokers": "Rattenlord, ALL IN, Beefmaker"})).ok
    assert (await table.do("anna", Join("Anna"))).ok
    chose = seen(await table.croupier.pick(table.msg("anna"), "jokers", "Rattenlord, ALL IN"))
    assert chose.ok, chose.text
    said = render(
        "v6.jokers_chosen",
        {"player": "Anna", "jokers": ["Rattenlord", "ALL IN"]},
        "de",
        str,
        CONSOLE_COMMANDS,
        scope_of(GAMES["verflixte6"]),
    )
    assert chose.lines[0] == said


async def test_a_pick_in_a_game_that_offers_none_is_refused_and_changes_nothing(store: Store) -> None:
    table = Table(Croupier(store=store, dice_factory=scripted([])))
    idle = seen(await table.croupier.pick(table.msg("anna"), "jokers", "Rattenlord"))
    assert not idle.ok  # no game: said so
    assert (await table.open("killer", {})).ok
    assert (await table.do("anna", Join("Anna"))).ok
    assert (await table.do("ben", Join("Ben"))).ok
    assert (await table.do(MODERATOR, Start())).ok
    before = await snapshot_of(store)
    refused = seen(await table.croupier.pick(table.msg("anna"), "jokers", "Rattenlord"))
    assert (refused.ok, refused.error_code) == (False, "not_a_command")
    assert await snapshot_of(store) == before
