"""What the emulator refuses or changes for want of a permission, and the 6,000-character total of a
message's embeds on every route — each as the real discord.py client meets it.

- A channel permission overwrite denying the bot Send Messages refuses its posts (403 50013).
- A reply without Read Message History is refused with 403 160002; the same post without the reference
  goes through; the history reads as empty.
- Without Embed Links a post with text loses its embeds, one of embeds alone is refused (403 50013), and
  an edit's embeds are ignored (refused as empty when the edit held nothing else); interaction answers,
  being webhooks, keep theirs.
- More than 6,000 characters of embeds are refused (400) on a channel post, a channel edit, an
  interaction's response, a followup and an edit of the original response.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import discord
import pytest
from discord import app_commands

from tests.discord_emulator import DiscordEmulator, running_client
from tests.discord_emulator import permissions as perms
from tests.discord_emulator.fixtures import discord_emulator  # noqa: F401  (the fixture)

READY_QUICKLY = 0.05
Handler = Callable[[discord.Interaction[Any]], Awaitable[None]]


@pytest.fixture
async def emu(discord_emulator: DiscordEmulator) -> DiscordEmulator:  # noqa: F811
    return discord_emulator


@pytest.fixture
async def place(emu: DiscordEmulator) -> tuple[int, int, int]:
    guild = await emu.add_guild("Spielhalle")
    channel = await emu.add_channel(guild, "tisch")
    anna = await emu.add_member(guild, "anna", nick="Anna")
    return guild, channel, anna


class ProbeBot(discord.Client):
    """One slash command, /probe, that runs whatever the test put in ``handler``."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(
            intents=discord.Intents.default(),
            guild_ready_timeout=READY_QUICKLY,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.handler: Handler | None = None
        self.failures: list[discord.HTTPException] = []
        self.tree = app_commands.CommandTree(self)
        self.home = discord.Object(guild_id)

        @self.tree.command(name="probe", description="Probe", guild=self.home)
        async def probe(interaction: discord.Interaction[Any]) -> None:
            assert self.handler is not None
            try:
                await self.handler(interaction)
            except discord.HTTPException as error:
                self.failures.append(error)

    async def setup_hook(self) -> None:
        await self.tree.sync(guild=self.home)


async def deny(emu: DiscordEmulator, channel: int, permissions: int) -> None:
    await emu.set_overwrites(channel, [perms.Overwrite(emu.bot_id, perms.MEMBER_OVERWRITE, deny=permissions)])


def messageable(bot: discord.Client, channel: int) -> discord.TextChannel:
    found = bot.get_channel(channel)
    assert isinstance(found, discord.TextChannel)
    return found


def big(length: int, title: str = "T") -> discord.Embed:
    return discord.Embed(title=title, description="x" * (length - len(title)))


async def test_an_overwrite_denying_send_messages_refuses_the_bots_posts(
    emu: DiscordEmulator, place: tuple[int, int, int]
) -> None:
    guild, channel, _ = place
    async with running_client(ProbeBot(guild), emu.token) as bot:
        await deny(emu, channel, perms.SEND_MESSAGES)
        with pytest.raises(discord.Forbidden) as refused:
            await messageable(bot, channel).send("Hallo")
        assert refused.value.code == 50013
        await emu.set_overwrites(channel, [])
        await messageable(bot, channel).send("Hallo")


async def test_a_reply_without_read_message_history_is_refused_with_160002(
    emu: DiscordEmulator, place: tuple[int, int, int]
) -> None:
    guild, channel, anna = place
    line = await emu.send_message(channel, anna, "weiter")
    async with running_client(ProbeBot(guild), emu.token) as bot:
        await deny(emu, channel, perms.READ_MESSAGE_HISTORY)
        here = messageable(bot, channel)
        reference = discord.MessageReference(message_id=line, channel_id=channel, fail_if_not_exists=False)
        with pytest.raises(discord.Forbidden) as refused:
            await here.send("Antwort", reference=reference)
        assert refused.value.code == 160002
        posted = await here.send("Antwort")  # the same post, not as a reply, goes through
        assert posted.reference is None
        assert [m async for m in here.history(limit=10)] == []  # and no message is listed


async def test_without_embed_links_embeds_are_dropped_or_refused(
    emu: DiscordEmulator, place: tuple[int, int, int]
) -> None:
    guild, channel, _ = place
    async with running_client(ProbeBot(guild), emu.token) as bot:
        await deny(emu, channel, perms.EMBED_LINKS)
        here = messageable(bot, channel)
        table = discord.Embed(title="Stand", description="Anna 12")
        with_text = await here.send("<@1> ist dran", embed=table)
        assert with_text.content == "<@1> ist dran"
        assert with_text.embeds == []  # dropped, not refused
        with pytest.raises(discord.Forbidden) as refused:
            await here.send(embed=table)  # embeds alone: nothing would be left
        assert refused.value.code == 50013
        edited = await with_text.edit(content="Stand: Anna 13", embed=table)
        assert edited.content == "Stand: Anna 13"
        assert edited.embeds == []  # the embeds of an edit are ignored
        with pytest.raises(discord.HTTPException) as empty:
            await with_text.edit(embed=table)  # an edit of embeds alone is empty
        assert (empty.value.status, empty.value.code) == (400, 50006)

        async def answer(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_message("Stand", embed=table)

        bot.handler = answer
        sent = await emu.slash_command(guild, channel, place[2], "probe")
        answered = await emu.wait_for_answers(sent, lambda a: bool(a.messages))
        assert answered.messages[0].embeds[0]["title"] == "Stand"  # a webhook keeps its embeds


async def test_more_than_6000_characters_of_embeds_are_refused_on_every_route(
    emu: DiscordEmulator, place: tuple[int, int, int]
) -> None:
    guild, channel, anna = place
    too_much = [big(3001), big(3000)]  # 6,001 together, each within its own limits
    just_so = [big(3000), big(3000)]
    async with running_client(ProbeBot(guild), emu.token) as bot:
        here = messageable(bot, channel)
        with pytest.raises(discord.HTTPException) as refused:
            await here.send(embeds=too_much)
        assert refused.value.status == 400
        message = await here.send(embeds=just_so)
        with pytest.raises(discord.HTTPException) as refused:
            await message.edit(embeds=too_much)
        assert refused.value.status == 400

        async def respond(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_message(embeds=too_much)

        async def follow(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_message("Erst das")
            await interaction.followup.send(embeds=too_much)

        async def edit_original(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.edit_original_response(embeds=too_much)

        for handler in (respond, follow, edit_original):
            bot.failures.clear()
            bot.handler = handler
            await emu.slash_command(guild, channel, anna, "probe")
            (error,) = await failed(bot)
            assert error.status == 400, handler.__name__
            assert "6000" in str(error)


async def failed(bot: ProbeBot) -> list[discord.HTTPException]:
    """The errors the handler met, once it met one (a safety net, not a measure)."""
    async with asyncio.timeout(5):
        while True:
            if bot.failures:
                return list(bot.failures)
            await asyncio.sleep(0.02)
