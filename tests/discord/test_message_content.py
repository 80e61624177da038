"""Message Content is optional: with DISCORD_MESSAGE_CONTENT=false the bot never asks for the
privileged intent, and when Discord refuses it (close code 4014) the bot starts again without it,
says so in one log line, and is played with the buttons and ``/zug``."""

from __future__ import annotations

import asyncio
import logging
from typing import Any, ClassVar

import pytest
from pydantic import SecretStr

from bot.discord.endpoint import use_endpoints
from bot.discord.options import BotOptions
from bot.discord.runner import INTENTS_REFUSED, WITHOUT_MESSAGE_CONTENT, serve
from bot.service.croupier import Croupier
from bot.settings import Settings
from bot.store import Store
from tests.dice import Dice
from tests.discord.conftest import MODERATOR_ROLE
from tests.discord.helpers import Clock, FastBot, People, Table, in_place, says, story
from tests.discord_emulator import GUILD_MEMBERS, MESSAGE_CONTENT, DiscordEmulator

GUILDS_AND_MESSAGES = (1 << 0) | (1 << 9)


async def seated(emu: DiscordEmulator) -> People:
    guild = await emu.add_guild("Spelunke")
    moderators = await emu.add_role(guild, MODERATOR_ROLE)
    nobody = await emu.add_member(guild, "nobody")
    return People(
        guild=guild,
        channel=await emu.add_channel(guild, "verflixte-6"),
        moni=await emu.add_member(guild, "moni", nick="Moni", roles=[moderators]),
        anna=await emu.add_member(guild, "anna", nick="Anna"),
        ben=await emu.add_member(guild, "ben", nick="Ben"),
        carl=nobody,
        ada=nobody,
        eve=nobody,
        moderators=moderators,
    )


class Started:
    """A client factory for ``serve`` that keeps the clients it made."""

    def __init__(self) -> None:
        self.clients: list[FastBot] = []

    def __call__(self, croupier: Croupier, options: BotOptions) -> FastBot:
        self.clients.append(FastBot(croupier, options))
        return self.clients[-1]

    async def ready(self, count: int, task: asyncio.Task[int]) -> FastBot:
        async with asyncio.timeout(10):
            while len(self.clients) < count or not self.clients[-1].is_ready():
                if task.done():
                    raise AssertionError(f"serve ended early with {task.result()}")
                await asyncio.sleep(0.01)
        return self.clients[-1]


async def test_a_refused_intent_restarts_without_it_and_buttons_and_zug_still_play(
    croupier_store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with DiscordEmulator(allowed_privileged_intents=GUILD_MEMBERS) as strict:
        use_endpoints(strict.api_base, strict.gateway_url)
        people = await seated(strict)
        options = BotOptions(guild_ids=(people.guild,), turn_clock_seconds=None, guild_ready_timeout=0.05)
        table = Table(strict, croupier_store, people, Dice(), Clock(), options)
        in_place(croupier_store, people)
        table.dice.will_roll(4, 2)
        started = Started()
        task = asyncio.create_task(serve(table.croupier(), strict.token, options, client_factory=started))
        try:
            bot = await started.ready(2, task)
            assert not bot.intents.message_content
            identify = await strict.wait_for_identify()
            assert identify.data["intents"] == GUILDS_AND_MESSAGES  # no privileged intent at all
            p = people
            await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
            await table.slash_message(p.anna, "mitmachen")
            freiwurf = await table.slash_message(p.anna, "zug", {"worte": "weiter"})
            assert story(freiwurf)[0] == says("v6.freiwurf", player="Anna", face=4, total=4)
            await table.say(p.anna, "weiter")  # typed: the bot sees no text, so nothing happens
            thrown = await table.slash_message(p.anna, "zug", {"worte": "weiter"})
            assert story(thrown)[0] == says("v6.thrown", player="Anna", face=2, total=6)
            record = await table.game()
            assert record is not None
            assert record.dice_used == 2  # the typed line moved nothing
        finally:
            for client in started.clients:
                await client.close()
            assert await asyncio.wait_for(task, 10) == 0
    warned = [
        r for r in caplog.records if r.levelno >= logging.WARNING and "Message Content" in r.getMessage()
    ]
    assert [r.getMessage() for r in warned] == [WITHOUT_MESSAGE_CONTENT]
    assert len(started.clients) == 2


async def test_with_the_setting_off_the_bot_never_asks(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    settings = Settings(discord_token=SecretStr("t"), discord_message_content=False)
    assert BotOptions.from_settings(settings).message_content is False
    assert BotOptions.from_settings(Settings(discord_token=SecretStr("t"))).message_content is True
    table.options = BotOptions(
        guild_ids=(table.people.guild,),
        turn_clock_seconds=None,
        guild_ready_timeout=0.05,
        message_content=False,
    )
    async with table.running():
        identify = await table.emu.wait_for_identify()
        assert not identify.data["intents"] & MESSAGE_CONTENT
    assert not [r for r in caplog.records if "Message Content" in r.getMessage()]


class Refusing:
    """A client Discord refuses privileged intents to, whatever it asks for."""

    made: ClassVar[list[BotOptions]] = []

    def __init__(self, croupier: Croupier, options: BotOptions) -> None:
        Refusing.made.append(options)

    async def __aenter__(self) -> Refusing:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        return None

    async def start(self, token: str) -> None:
        import discord

        raise discord.PrivilegedIntentsRequired(0)


async def test_a_refusal_without_message_content_ends_in_one_line(
    table: Table, capsys: pytest.CaptureFixture[str]
) -> None:
    Refusing.made = []
    code = await serve(table.croupier(), "token", table.options, client_factory=Refusing)  # type: ignore[arg-type]
    assert code == 1
    assert [options.message_content for options in Refusing.made] == [True, False]  # one retry, not more
    assert capsys.readouterr().err.strip() == f"croupier: {INTENTS_REFUSED}"
