"""``/info [thema]``: one command for whatever the channel's game explains on request, its option
completed from that game's own topics in the channel's language. Pig (tests/games/pig), installed as a
plugin and named by no front-end file, has its odds answered like Die verflixte 6! has its jokers;
every bad question gets a private, clear refusal and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from bot.discord.commands import DiscordSpelling
from bot.games import GAMES
from bot.service.rendering import Narrator
from tests.discord.helpers import Table, embeds_of, note, synced_ids
from tests.discord_emulator import InteractionResponse
from tests.games.plugins import pig_plugin  # noqa: F401  (the fixture)

AUTOCOMPLETE_RESULT = 8


async def topics_offered(table: Table, user: int, typed: str) -> list[dict[str, str]]:
    p = table.people
    sent = await table.emu.autocomplete(p.guild, p.channel, user, "info", {"thema": typed}, focused="thema")
    response: InteractionResponse = await table.emu.wait_for_response(sent)
    assert response.type == AUTOCOMPLETE_RESULT, response
    assert response.data is not None
    return list(response.data["choices"])


async def info(table: Table, user: int, topic: str | None = None) -> InteractionResponse:
    options: dict[str, Any] = {} if topic is None else {"thema": topic}
    _, response = await table.slash(user, "info", options)
    assert response.ephemeral, response  # for the asker alone
    return response


def said(table: Table, key: str, lang: str, game: str | None, facts: dict[str, Any]) -> str:
    """:meth:`Table.says` for sentences with a fact named ``game``."""
    line = Narrator().line(key, facts, lang, game=GAMES[game] if game is not None else None)
    return DiscordSpelling(synced_ids(table.emu, table.people.guild)).spell(line, lang)


async def version(table: Table) -> int:
    record = await table.game()
    assert record is not None
    return record.version


@pytest.mark.usefixtures("pig_plugin")
async def test_pig_s_odds_are_offered_and_answered_without_a_front_end_edit(table: Table) -> None:
    p = table.people
    async with table.running():
        await table.slash_message(
            p.moni, "durchgang", {"spiel": "pig", "optionen": "target=50"}, subcommand="oeffnen"
        )
        await table.slash_message(p.anna, "mitmachen")
        lang = GAMES["pig"].language  # the channel sets none: Pig's own
        title, summary = (
            table.says("info.odds.title", lang, "pig"),
            table.says("info.odds.summary", lang, "pig"),
        )
        assert await topics_offered(table, p.anna, "") == [{"name": f"{title} — {summary}", "value": "odds"}]
        assert await topics_offered(table, p.anna, "od") == [
            {"name": f"{title} — {summary}", "value": "odds"}
        ]
        assert await topics_offered(table, p.anna, "jokers") == []  # not this game's

        odds = embeds_of(await info(table, p.ben, "odds"))  # anyone may ask, seated or not
        assert [(embed["title"], embed["description"]) for embed in odds] == [
            (title, table.says("info.odds", lang, "pig", target=50))
        ]

        listed = embeds_of(await info(table, p.anna))
        assert listed[0]["description"].splitlines() == [
            said(table, "common.topics_of", lang, None, {"game": table.says("game.title", lang, "pig")}),
            table.says("common.topic_entry", lang, None, topic="odds", title=title, summary=summary),
        ]


@pytest.mark.usefixtures("pig_plugin")
async def test_a_bad_topic_is_refused_privately_and_changes_nothing(table: Table) -> None:
    p = table.people
    async with table.running():
        await table.slash_message(p.moni, "durchgang", {"spiel": "pig"}, subcommand="oeffnen")
        await table.slash_message(p.anna, "mitmachen")
        before = await version(table)
        lang = GAMES["pig"].language
        near = await info(table, p.anna, "odsd")
        assert note(near) == "⚠️ " + "\n".join(
            [
                table.says("error.unknown_topic", lang, None, topic="odsd"),
                table.says("error.did_you_mean", lang, None, word="odds"),
            ]
        )
        elsewhere = await info(table, p.anna, "jokers")  # Die verflixte 6!'s topic: its own words
        pig = table.says("game.title", lang, "pig")
        assert note(elsewhere) == "⚠️ " + said(
            table, "info.jokers.elsewhere", lang, "verflixte6", {"game": pig}
        )
        assert await version(table) == before


async def test_the_jokers_of_a_durchgang_through_info_in_the_channels_language(table: Table) -> None:
    p = table.people
    async with table.running():
        await table.slash_message(p.moni, "einstellungen", {"sprache": "fr"})
        offered = await topics_offered(table, p.anna, "")  # no game open: every game's topics
        title = table.says("info.jokers.title", "fr")
        assert {"name": f"{title} — {table.says('info.jokers.summary', 'fr')}", "value": "jokers"} in offered
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        jokers = embeds_of(await info(table, p.anna, "jokers"))
        assert jokers[0]["title"] == title
        assert table.says("v6.joker_info.Rattenlord", "fr") in jokers[0]["description"].splitlines()
