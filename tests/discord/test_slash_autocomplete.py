"""Autocomplete, answered by the service (``croupier.suggest``): the jokers of the open Durchgang
completing the last item of a comma list, the seated players by id for skip and remove, and the chosen
game's options and values — in the channel's language, and empty rather than late when the store is
slow. Rule ids: V6-S2 (the joker choice)."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.games import GAMES
from bot.service.croupier import Croupier
from engine.verflixte6.jokers.registry import DEFAULT_ENABLED
from tests.discord.helpers import Table, says, story
from tests.discord.test_slow_answers import SlowStore
from tests.discord.test_store_unavailable import shut_down_after
from tests.discord_emulator import InteractionResponse

AUTOCOMPLETE_RESULT = 8


async def typing(
    table: Table, user: int, name: str, options: dict[str, Any], focused: str, subcommand: str | None = None
) -> list[dict[str, str]]:
    """The choices the bot offers while ``user`` types into ``focused``."""
    p = table.people
    sent = await table.emu.autocomplete(
        p.guild, p.channel, user, name, options, focused=focused, subcommand=subcommand
    )
    response: InteractionResponse = await table.emu.wait_for_response(sent)
    assert response.type == AUTOCOMPLETE_RESULT, response
    assert response.data is not None
    return list(response.data["choices"])


def values(choices: list[dict[str, str]]) -> list[str]:
    return [choice["value"] for choice in choices]


async def opened(table: Table, *players: int, kind: str = "verflixte6") -> None:
    p = table.people
    await table.slash_message(p.moni, "durchgang", {"spiel": kind}, subcommand="oeffnen")
    for player in players:
        await table.slash_message(player, "mitmachen")


async def test_V6_S2_jokers_complete_the_last_item_of_the_list(table: Table) -> None:
    p = table.people
    async with table.running():
        assert await typing(table, p.anna, "joker", {"joker": ""}, "joker", "waehlen") == []  # no game
        await opened(table, p.anna, p.ben)
        everything = await typing(table, p.anna, "joker", {"joker": ""}, "joker", "waehlen")
        none = {"name": says("choice.no_jokers"), "value": "keine"}
        assert everything == [*({"name": n, "value": n} for n in DEFAULT_ENABLED), none]
        second = DEFAULT_ENABLED[1]
        typed = f"{DEFAULT_ENABLED[0]}, {second[:3].lower()}"
        completed = await typing(table, p.anna, "joker", {"joker": typed}, "joker", "waehlen")
        assert values(completed)[0] == f"{DEFAULT_ENABLED[0]}, {second}"
        assert all(value.startswith(f"{DEFAULT_ENABLED[0]}, ") for value in values(completed))
        assert DEFAULT_ENABLED[0] not in [v.split(", ")[1] for v in values(completed)]  # listed already
        picked = values(completed)[0]
        chose = await table.slash_message(p.anna, "joker", {"joker": picked}, subcommand="waehlen")
        assert story(chose) == [says("v6.jokers_chosen", player="Anna", jokers=[DEFAULT_ENABLED[0], second])]


async def test_the_none_choice_speaks_the_channels_language(table: Table) -> None:
    p = table.people
    async with table.running():
        await table.slash_message(p.moni, "einstellungen", {"sprache": "fr"})
        await opened(table, p.anna)
        choices = await typing(table, p.anna, "joker", {"joker": ""}, "joker", "waehlen")
        assert choices[-1] == {"name": says("choice.no_jokers", "fr"), "value": "keine"}


async def test_skip_and_remove_offer_the_seated_players_by_id(table: Table) -> None:
    p = table.people
    async with table.running():
        await opened(table, p.anna, p.ben, p.carl)
        role = says("role.jungfrau")
        seated = await typing(table, p.moni, "durchgang", {"spieler": ""}, "spieler", "ueberspringen")
        assert seated == [
            {"name": f"{name} ({role})", "value": str(player)}
            for name, player in (("Anna", p.anna), ("Ben", p.ben), ("Carl", p.carl))
        ]
        ben = await typing(table, p.moni, "durchgang", {"spieler": "be"}, "spieler", "entfernen")
        assert values(ben) == [str(p.ben)]
        removed = await table.slash_message(
            p.moni, "durchgang", {"spieler": values(ben)[0]}, subcommand="entfernen"
        )
        assert story(removed)[0] == says("v6.removed", player="Ben")
        left = await typing(table, p.moni, "durchgang", {"spieler": ""}, "spieler", "ueberspringen")
        assert values(left) == [str(p.anna), str(p.carl)]


async def test_the_options_of_the_chosen_game_complete(table: Table) -> None:
    p = table.people
    async with table.running():

        async def options(kind: str, typed: str) -> list[str]:
            given = {"spiel": kind, "optionen": typed}
            return values(await typing(table, p.moni, "durchgang", given, "optionen", "oeffnen"))

        order = next(spec for spec in GAMES["verflixte6"].options if spec.name == "order")
        assert await options("verflixte6", "ord") == [f"order={value}" for value in order.values]
        assert await options("verflixte6", f"order={order.values[-1][:2]}") == [f"order={order.values[-1]}"]
        modes = next(spec for spec in GAMES["killer"].options if spec.name == "modes")
        first, second = modes.values[0], modes.values[1]
        assert await options("killer", f"dice=6 modes={first},{second[:2]}") == [
            f"dice=6 modes={first},{second}"
        ]
        joker = next(name for name in DEFAULT_ENABLED if " " in name)
        quoted = await options("verflixte6", f"jokers={joker[:4]}")
        assert quoted == [f'jokers="{joker}"']  # quoted, so the text splits as meant
        opened_with = await table.slash_message(
            p.moni, "durchgang", {"spiel": "verflixte6", "optionen": quoted[0]}, subcommand="oeffnen"
        )
        assert opened_with.embeds
        record = await table.game()
        assert record is not None
        assert record.options == {"jokers": joker}


async def test_a_slow_store_answers_with_no_choices_in_time(table: Table) -> None:
    p = table.people
    slow = SlowStore(table.store.engine, table.store._url, table.store.defaults)
    croupier = Croupier(store=slow, dice_factory=table.dice.factory, clock=table.clock)
    async with table.running(croupier), shut_down_after(slow):
        await opened(table, p.anna)
        slow.gate = asyncio.Event()  # every unit of work waits from now on
        sent = await table.emu.autocomplete(
            p.guild, p.channel, p.anna, "joker", {"joker": ""}, focused="joker", subcommand="waehlen"
        )
        response = await table.emu.wait_for_response(sent)
        slow.gate.set()
    assert response.type == AUTOCOMPLETE_RESULT
    assert response.data is not None
    assert response.data["choices"] == []
    assert response.after < table.emu.interaction_window
