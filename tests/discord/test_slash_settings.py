"""``/einstellungen web`` and ``threads`` on Discord: the web switch answers with the page's address
(WEB_BASE_URL, also when the bot is started from the settings) and hides it again; the thread switch is
stored as the channel's ``threads`` setting; both offer localised on/off choices."""

from __future__ import annotations

import asyncio
import dataclasses

from pydantic import SecretStr

from bot.discord.options import BotOptions
from bot.discord.runner import serve_settings
from bot.service.croupier import Croupier
from bot.settings import Settings
from bot.texts import render
from tests.discord.conftest import MODERATOR_ROLE
from tests.discord.helpers import FastBot, Table, note, refusal, says
from tests.discord_emulator import BotMessage

BASE = "https://dice.example.org"


def token_of(table: Table) -> str | None:
    with table.store.transaction(read_only=True) as uow:
        return uow.web.token(str(table.people.guild), str(table.people.channel))


def threads_of(table: Table) -> bool:
    with table.store.transaction(read_only=True) as uow:
        return uow.settings.get(str(table.people.guild), str(table.people.channel)).threads


def listed_of(table: Table) -> bool:
    with table.store.transaction(read_only=True) as uow:
        return uow.web.is_listed(str(table.people.guild), str(table.people.channel))


def address_in(message: BotMessage) -> str:
    return next(word for word in message.embeds[0]["description"].split() if "/t/" in word)


async def test_web_on_answers_with_the_address_and_off_hides_it(table: Table) -> None:
    p = table.people
    croupier = Croupier(
        store=table.store, dice_factory=table.dice.factory, clock=table.clock, web_base_url=BASE
    )
    async with table.running(croupier):
        on = await table.slash_message(p.moni, "einstellungen", {"web": "on"})
        token = token_of(table)
        assert token is not None
        url = f"{BASE}/t/{token}"
        assert on.embeds[0]["description"].splitlines() == [
            render("web.switched_on", {"url": url}, "de"),
            render("web.unlisted_note", {}, "de"),  # unlisted unless a moderator lists it
        ]
        assert address_in(on) == url  # as it is, so Discord makes it a link
        again = await table.slash_message(p.moni, "einstellungen", {"web": "on"})
        assert address_in(again) == url  # the same address while it is on
        off = await table.slash_message(p.moni, "einstellungen", {"web": "off"})
        assert off.embeds[0]["description"] == says("web.switched_off", game=None)
        assert token_of(table) is None
        _, refused = await table.slash(p.anna, "einstellungen", {"web": "on"})
        assert refused.ephemeral
        assert note(refused) == refusal("error.not_moderator", game=None)
        assert token_of(table) is None


async def test_liste_lists_the_channel_on_the_start_page_and_off_unlists_it(table: Table) -> None:
    p = table.people
    async with table.running():
        await table.slash_message(p.moni, "einstellungen", {"web": "on"})
        assert listed_of(table) is False  # on the web, unlisted
        on = await table.slash_message(p.moni, "einstellungen", {"liste": "on"})
        assert on.embeds[0]["description"] == says("web.listed_on", game=None)
        assert listed_of(table) is True
        _, refused = await table.slash(p.anna, "einstellungen", {"liste": "off"})
        assert note(refused) == refusal("error.not_moderator", game=None)
        off = await table.slash_message(p.moni, "einstellungen", {"liste": "off"})
        assert off.embeds[0]["description"] == says("web.listed_off", game=None)
        assert listed_of(table) is False


async def test_threads_off_is_stored_for_the_channel(table: Table) -> None:
    p = table.people
    async with table.running():
        await table.slash_message(p.moni, "einstellungen", {"threads": "on"})  # the table plays in place
        assert threads_of(table) is True
        off = await table.slash_message(p.moni, "einstellungen", {"threads": "off", "sprache": "en"})
        shown = says("common.settings_changed", "en", None, settings="language=en, threads=off")
        assert off.embeds[0]["description"] == shown
        assert threads_of(table) is False
        await table.slash_message(p.moni, "einstellungen", {"threads": "on"})
        assert threads_of(table) is True


async def test_the_switches_offer_localised_on_and_off(table: Table) -> None:
    async with table.running():
        synced = {c["name"]: c for c in table.emu.synced_commands(table.people.guild)}
    options = {o["name"]: o for o in synced["einstellungen"]["options"]}
    for name in ("web", "threads"):
        choices = options[name]["choices"]
        assert [c["value"] for c in choices] == ["on", "off"]
        for choice in choices:
            localized = choice["name_localizations"]
            for locale, lang in (("de", "de"), ("en-US", "en"), ("fr", "fr")):
                assert localized[locale] == says(f"discord.choice.switch.{choice['value']}", lang, None)
        assert options[name]["name_localizations"]["fr"] == says(f"discord.param.{name}.name", "fr", None)


async def test_the_bot_started_from_the_settings_hands_out_web_base_url(table: Table, db_url: str) -> None:
    p = table.people
    settings = Settings(
        discord_token=SecretStr(table.emu.token),
        discord_api_base=table.emu.api_base,
        discord_gateway_url=table.emu.gateway_url,
        discord_guild_ids=[p.guild],
        moderator_role=MODERATOR_ROLE,
        web_base_url=f"{BASE}/",
    )
    started: list[FastBot] = []

    def factory(croupier: Croupier, options: BotOptions) -> FastBot:
        quick = dataclasses.replace(options, turn_clock_seconds=None, guild_ready_timeout=0.05)
        started.append(FastBot(croupier, quick))
        return started[-1]

    task = asyncio.create_task(serve_settings(settings, db_url, client_factory=factory))
    try:
        async with asyncio.timeout(10):
            while not started or not started[-1].is_ready():
                assert not task.done(), task.result()
                await asyncio.sleep(0.01)
        on = await table.slash_message(p.moni, "einstellungen", {"web": "on"})
        assert address_in(on) == f"{BASE}/t/{token_of(table)}"
    finally:
        for client in started:
            await client.close()
        assert await asyncio.wait_for(task, 10) == 0
