"""Injected REST failures in the emulator, and how the real discord.py client lives through them: it retries
500/502/504 five times and waits out a 429, gives up with a 403, and never hears back from a hung request."""

from __future__ import annotations

import asyncio
import math
import time

import aiohttp
import discord
import pytest

from tests.discord_emulator import DiscordEmulator, quick_retries, running_client
from tests.discord_emulator.fixtures import discord_emulator, quick_discord_retries  # noqa: F401  (fixtures)

READY_QUICKLY = 0.05


@pytest.fixture
async def emu(discord_emulator: DiscordEmulator) -> DiscordEmulator:  # noqa: F811
    return discord_emulator


@pytest.fixture
async def channels(emu: DiscordEmulator) -> tuple[int, int]:
    guild = await emu.add_guild("Spielhalle")
    return await emu.add_channel(guild, "tisch"), await emu.add_channel(guild, "nebentisch")


def client() -> discord.Client:
    return discord.Client(
        intents=discord.Intents.default(),
        guild_ready_timeout=READY_QUICKLY,
        allowed_mentions=discord.AllowedMentions.none(),
    )


def text(bot: discord.Client, channel_id: int) -> discord.TextChannel:
    channel = bot.get_channel(channel_id)
    assert isinstance(channel, discord.TextChannel)
    return channel


def posts(emu: DiscordEmulator) -> list[tuple[int, str | None]]:
    return [(r.status, r.injected) for r in emu.requests if r.operation == "create_message"]


@pytest.mark.usefixtures("quick_discord_retries")
async def test_a_500_is_retried_by_discord_py_and_the_message_sent_once(
    emu: DiscordEmulator, channels: tuple[int, int]
) -> None:
    tisch, _ = channels
    async with running_client(client(), emu.token) as bot:
        fault = emu.fail_requests(operation="create_message", status=500, times=2)
        message = await text(bot, tisch).send("Zug 1")
        assert posts(emu) == [(500, "status 500"), (500, "status 500"), (200, None)]
        assert fault.spent
        assert len(fault.hits) == 2
        assert [m["id"] for m in emu.messages_in(tisch)] == [str(message.id)]  # failures created nothing


@pytest.mark.usefixtures("quick_discord_retries")
async def test_discord_py_gives_up_after_five_tries_then_the_emulator_recovers(
    emu: DiscordEmulator, channels: tuple[int, int]
) -> None:
    tisch, _ = channels
    async with running_client(client(), emu.token) as bot:
        emu.fail_requests(method="POST", route="/channels/{channel_id}/messages", status=502, times=5)
        with pytest.raises(discord.DiscordServerError) as gave_up:
            await text(bot, tisch).send("Zug 1")
        assert gave_up.value.status == 502
        assert "502 Bad Gateway" in gave_up.value.text  # an edge page, not JSON
        assert len(posts(emu)) == 5
        await text(bot, tisch).send("Zug 1, nochmal")
        assert [m["content"] for m in emu.messages_in(tisch)] == ["Zug 1, nochmal"]


async def test_a_429_is_waited_out_for_its_retry_after(
    emu: DiscordEmulator, channels: tuple[int, int]
) -> None:
    tisch, _ = channels
    async with running_client(client(), emu.token) as bot:
        emu.fail_requests(operation="create_message", status=429, retry_after=0.3)
        started = time.monotonic()
        await text(bot, tisch).send("Zug 1")
        assert time.monotonic() - started >= 0.3  # discord.py slept the retry_after (no shortening here)
        limited = next(r for r in emu.requests if r.status == 429)
        assert limited.response == {
            "message": "You are being rate limited.",
            "retry_after": 0.3,
            "global": False,
        }
        emu.fail_requests(operation="create_message", status=429, retry_after=0.05, is_global=True)
        with quick_retries():
            await text(bot, tisch).send("Zug 2")
        assert [m["content"] for m in emu.messages_in(tisch)] == ["Zug 1", "Zug 2"]


async def test_a_403_by_channel_is_final_and_only_there(
    emu: DiscordEmulator, channels: tuple[int, int]
) -> None:
    tisch, nebentisch = channels
    async with running_client(client(), emu.token) as bot:
        emu.fail_requests(channel=tisch, status=403, times=2)
        await text(bot, nebentisch).send("anderswo geht es")
        with pytest.raises(discord.Forbidden) as refused:
            await text(bot, tisch).send("hier nicht")
        assert refused.value.code == 50013
        with pytest.raises(discord.Forbidden):
            await text(bot, tisch).typing().__aenter__()
        await text(bot, tisch).send("jetzt wieder")
        assert [m["content"] for m in emu.messages_in(tisch)] == ["jetzt wieder"]


async def test_a_hung_request_is_dropped_or_done_late_or_its_answer_lost(
    emu: DiscordEmulator, channels: tuple[int, int]
) -> None:
    tisch, _ = channels
    async with running_client(client(), emu.token) as bot:
        emu.fail_requests(operation="create_message", hang=0.2, then="drop")
        with pytest.raises(aiohttp.ClientError):
            await text(bot, tisch).send("verloren")
        assert emu.messages_in(tisch) == []  # dropped before Discord did anything
        late = emu.fail_requests(operation="create_message", hang=math.inf, then="process")
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(text(bot, tisch).send("angekommen, Antwort verloren"), 0.2)
        late.release()
        await emu.next_message(tisch)  # Discord did it after all: the bot must not assume it failed
        assert [m["content"] for m in emu.messages_in(tisch)] == ["angekommen, Antwort verloren"]
        emu.fail_requests(operation="create_message", hang=0.1, then="fail", status=403)
        with pytest.raises(discord.Forbidden):
            await text(bot, tisch).send("erst warten, dann nein")
        lost = emu.fail_requests(operation="create_message", then="lose")
        with pytest.raises((aiohttp.ClientError, OSError)):
            await text(bot, tisch).send("getan, Antwort verloren")
        assert lost.spent
        assert emu.messages_in(tisch)[-1]["content"] == "getan, Antwort verloren"  # done at once


@pytest.mark.usefixtures("quick_discord_retries")
async def test_interaction_callbacks_fail_and_are_retried_within_the_window(
    emu: DiscordEmulator, channels: tuple[int, int]
) -> None:
    tisch, _ = channels
    guild = emu.world.channel(tisch).guild_id
    assert guild is not None
    anna = await emu.add_member(guild, "anna")
    bot = client()
    tree = discord.app_commands.CommandTree(bot)

    @tree.command(name="wurf", description="Würfeln", guild=discord.Object(guild))
    async def wurf(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("6")

    async with running_client(bot, emu.token):
        await tree.sync(guild=discord.Object(guild))
        emu.fail_requests(operation="create_interaction_response", channel=tisch, status=500)
        sent = await emu.slash_command(guild, tisch, anna, "wurf")
        response = await emu.wait_for_response(sent)
        assert response.type == 4
        assert response.after < emu.interaction_window
        callbacks = [r.status for r in emu.requests if r.operation == "create_interaction_response"]
        assert callbacks == [500, 200]
