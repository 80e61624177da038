"""Fixtures of the Discord end-to-end tests: an emulator with one guild and its people, the store,
scripted dice, a settable clock and the client options (guild sync, no background clock)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import discord
import pytest
from discord.gateway import DiscordWebSocket

from bot.discord import endpoint
from bot.discord.options import BotOptions
from bot.store import ChannelDefaults, Store
from tests.dice import Dice
from tests.discord.helpers import READY_QUICKLY, Clock, People, Table, in_place
from tests.discord_emulator import DiscordEmulator
from tests.discord_emulator import permissions as perms
from tests.discord_emulator.fixtures import discord_emulator  # noqa: F401  (the fixture)

MODERATOR_ROLE = "Spielleitung"


@pytest.fixture(autouse=True)
def _restored_endpoints() -> Iterator[None]:
    saved = (discord.http.Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY, endpoint._ask_server_for_gateway)
    yield
    discord.http.Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY, endpoint._ask_server_for_gateway = saved


@pytest.fixture
async def people(discord_emulator: DiscordEmulator) -> People:  # noqa: F811
    emu = discord_emulator
    guild = await emu.add_guild("Spelunke")
    channel = await emu.add_channel(guild, "verflixte-6")
    moderators = await emu.add_role(guild, MODERATOR_ROLE)
    return People(
        guild=guild,
        channel=channel,
        moni=await emu.add_member(guild, "moni", nick="Moni", roles=[moderators]),
        anna=await emu.add_member(guild, "anna", nick="Anna"),
        ben=await emu.add_member(guild, "ben", nick="Ben"),
        carl=await emu.add_member(guild, "carl", nick="Carl"),
        ada=await emu.add_member(guild, "ada", nick="Ada", permissions=perms.ADMINISTRATOR),
        eve=await emu.add_member(guild, "eve", nick="@everyone Eve @here"),
        moderators=moderators,
    )


@pytest.fixture
def db_backend(request: pytest.FixtureRequest) -> str:
    """SQLite unless a test asks for more (``parametrize("db_backend", BACKENDS, indirect=True)``)."""
    return str(getattr(request, "param", "sqlite"))


@pytest.fixture
async def croupier_store(db_url: str) -> AsyncIterator[Store]:
    """The store of the tests' database, with the moderator role as the bot-wide default."""
    store = await Store.open(db_url, defaults=ChannelDefaults(moderator_role=MODERATOR_ROLE))
    try:
        yield store
    finally:
        await store.close()


@pytest.fixture
def table(discord_emulator: DiscordEmulator, croupier_store: Store, people: People) -> Table:  # noqa: F811
    """The tests' channel plays in place (:func:`in_place`)."""
    options = BotOptions(
        guild_ids=(people.guild,), turn_clock_seconds=None, guild_ready_timeout=READY_QUICKLY
    )
    in_place(croupier_store, people)
    return Table(discord_emulator, croupier_store, people, Dice(), Clock(), options)
