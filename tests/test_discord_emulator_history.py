"""Message history and edits in the emulator, as discord.py reads and changes them (the live table)."""

from __future__ import annotations

import discord
import pytest

from tests.discord_emulator import DiscordEmulator, running_client
from tests.discord_emulator.fixtures import discord_emulator  # noqa: F401  (the fixture)

READY_QUICKLY = 0.05


@pytest.fixture
async def emu(discord_emulator: DiscordEmulator) -> DiscordEmulator:  # noqa: F811
    return discord_emulator


def client() -> discord.Client:
    intents = discord.Intents.default()
    intents.message_content = True
    return discord.Client(
        intents=intents, guild_ready_timeout=READY_QUICKLY, allowed_mentions=discord.AllowedMentions.none()
    )


async def test_history_pages_like_discord(emu: DiscordEmulator) -> None:
    guild = await emu.add_guild("Spielhalle")
    channel_id = await emu.add_channel(guild, "tisch")
    anna = await emu.add_member(guild, "anna")
    said = [await emu.send_message(channel_id, anna, f"Zug {n}") for n in range(1, 131)]
    async with running_client(client(), emu.token) as bot:
        channel = bot.get_channel(channel_id)
        assert isinstance(channel, discord.TextChannel)
        newest = [m.content async for m in channel.history(limit=3)]
        assert newest == ["Zug 130", "Zug 129", "Zug 128"]
        after = [m.content async for m in channel.history(after=discord.Object(said[9]), limit=120)]
        assert after == [f"Zug {n}" for n in range(11, 131)]  # oldest first, across two pages
        before = [m.content async for m in channel.history(before=discord.Object(said[4]))]
        assert before == ["Zug 4", "Zug 3", "Zug 2", "Zug 1"]
        around = [m.content async for m in channel.history(around=discord.Object(said[49]), limit=5)]
        assert sorted(around) == ["Zug 48", "Zug 49", "Zug 50", "Zug 51", "Zug 52"]
        everything = [m.id async for m in channel.history(limit=None, oldest_first=True)]
        assert everything == said
        single = await channel.fetch_message(said[41])
        assert single.content == "Zug 42"
        with pytest.raises(discord.NotFound):
            await channel.fetch_message(12345)
    pages = [r for r in emu.requests if r.operation == "list_messages"]
    assert [r.query.get("limit") for r in pages if "after" in r.query][:2] == ["100", "20"]
    for page in pages:
        ids = [int(m["id"]) for m in page.response]
        assert ids == sorted(ids, reverse=True)  # Discord answers newest first, whatever the anchor


async def test_history_limits_are_discords(emu: DiscordEmulator) -> None:
    guild = await emu.add_guild("Spielhalle")
    channel_id = await emu.add_channel(guild, "tisch")
    async with running_client(client(), emu.token) as bot:
        route = discord.http.Route("GET", "/channels/{channel_id}/messages", channel_id=channel_id)
        for params in ({"limit": 101}, {"limit": 0}, {"before": 1, "after": 2}):
            with pytest.raises(discord.HTTPException) as refused:
                await bot.http.request(route, params=params)
            assert refused.value.status == 400


async def test_the_live_table_is_edited_in_place(emu: DiscordEmulator) -> None:
    guild = await emu.add_guild("Spielhalle")
    channel_id = await emu.add_channel(guild, "tisch")
    anna = await emu.add_member(guild, "anna")
    async with running_client(client(), emu.token) as bot:
        channel = bot.get_channel(channel_id)
        assert isinstance(channel, discord.TextChannel)
        view = discord.ui.View()
        view.add_item(discord.ui.Button(label="Würfeln", custom_id="wurf"))
        table = await channel.send("Tisch", embed=discord.Embed(title="Stand", description="—"), view=view)
        await emu.next_message(channel_id)
        await table.edit(
            content=f"Am Zug: <@{anna}>",
            embed=discord.Embed(title="Stand", description="Anna 12"),
            view=None,
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(anna)]),
        )
        edited = await emu.next_message(channel_id, action="edit")
        assert edited.via == "channel_edit"
        assert edited.embeds[0]["description"] == "Anna 12"
        assert edited.components == []
        assert edited.pings.users == (anna,)  # allowed_mentions of the edit let Anna be pinged
        await table.edit(content=f"Am Zug: <@{anna}>", allowed_mentions=discord.AllowedMentions.none())
        quiet = await emu.next_message(channel_id, action="edit")
        assert not quiet.pings.anyone
        fetched = await channel.fetch_message(table.id)
        assert fetched.embeds[0].description == "Anna 12"
        assert fetched.edited_at is not None
        assert [m["id"] for m in emu.messages_in(channel_id)] == [str(table.id)]  # one message, kept current
