"""Interactions and their clock in the emulator: three seconds to acknowledge (10062 after), deferred answers,
followups and edits of the original response while the token lives (15 minutes), ephemeral ones private."""

from __future__ import annotations

import asyncio

import discord
import pytest
from discord import app_commands

from tests.discord_emulator import DiscordEmulator, running_client
from tests.discord_emulator.fixtures import discord_emulator  # noqa: F401  (the fixture)

READY_QUICKLY = 0.05


@pytest.fixture
async def emu(discord_emulator: DiscordEmulator) -> DiscordEmulator:  # noqa: F811
    return discord_emulator


@pytest.fixture
async def place(emu: DiscordEmulator) -> tuple[int, int, int]:
    guild = await emu.add_guild("Spielhalle")
    channel = await emu.add_channel(guild, "tisch")
    anna = await emu.add_member(guild, "anna", nick="Anna")
    return guild, channel, anna


class SlowBot(discord.Client):
    """Commands that answer late, deferred, privately; `delay` is how long the slow ones think."""

    def __init__(self, guild_id: int, delay: float = 0.0) -> None:
        super().__init__(
            intents=discord.Intents.default(),
            guild_ready_timeout=READY_QUICKLY,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.delay = delay
        self.errors: list[BaseException] = []
        self.tree = app_commands.CommandTree(self)
        self.home = home = discord.Object(guild_id)
        tree = self.tree

        @tree.command(name="langsam", description="Denkt nach", guild=home)
        async def langsam(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await asyncio.sleep(self.delay)
            await interaction.followup.send("Zwischenstand: Anna 12")
            await interaction.edit_original_response(content="Fertig: Anna gewinnt")

        @tree.command(name="geheim", description="Nur für dich", guild=home)
        async def geheim(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await interaction.followup.send("Deine Würfel: 3 und 5", ephemeral=True)

        @tree.command(name="spaet", description="Antwortet zu spät", guild=home)
        async def spaet(interaction: discord.Interaction) -> None:
            await asyncio.sleep(self.delay)
            try:
                await interaction.response.send_message("zu spät")
            except discord.HTTPException as error:
                self.errors.append(error)

        @tree.command(name="tafel", description="Eine Tafel mit Knopf", guild=home)
        async def tafel(interaction: discord.Interaction) -> None:
            view = discord.ui.View()
            view.add_item(discord.ui.Button(label="Weiter", custom_id="weiter"))
            await interaction.response.send_message("Tafel", view=view)

    async def setup_hook(self) -> None:
        await self.tree.sync(guild=self.home)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is discord.InteractionType.component:
            await interaction.response.defer()  # type 6: the clicked message will be edited
            await asyncio.sleep(self.delay)
            await interaction.edit_original_response(content="Tafel, weitergeblättert")


def bot(guild_id: int, delay: float = 0.0) -> SlowBot:
    return SlowBot(guild_id, delay)


async def test_a_followup_right_after_a_defer_edits_the_deferred_answer(
    emu: DiscordEmulator, place: tuple[int, int, int]
) -> None:
    """Discord's documented backwards compatibility: the first followup after a deferred response is
    that response (the "thinking…" message edited, no new message); a later one is a new message."""
    guild, channel, anna = place
    async with running_client(bot(guild, delay=0.2), emu.token):
        sent = await emu.slash_command(guild, channel, anna, "langsam")
        answers = await emu.wait_for_answers(sent, lambda a: len(a.edits) == 2)
        assert answers.deferred
        assert answers.response is not None
        assert answers.response.type == 5
        assert answers.response.after < 3
        assert [m.via for m in answers.messages] == ["interaction_deferred", "followup_edit", "webhook_edit"]
        assert answers.followups == []
        first, second = answers.edits
        assert first.message_id == second.message_id == answers.response.message_id  # both @original
        assert first.content == "Zwischenstand: Anna 12"
        assert not first.flags & 128  # no longer loading
        assert second.content == "Fertig: Anna gewinnt"
        assert [m["content"] for m in emu.messages_in(channel)] == ["Fertig: Anna gewinnt"]


async def test_ephemeral_deferred_answers_stay_private(
    emu: DiscordEmulator, place: tuple[int, int, int]
) -> None:
    guild, channel, anna = place
    async with running_client(bot(guild), emu.token):
        sent = await emu.slash_command(guild, channel, anna, "geheim")
        answers = await emu.wait_for_answers(sent, lambda a: len(a.edits) == 1)
        assert answers.deferred
        assert answers.response is not None
        assert answers.response.ephemeral
        assert all(m.ephemeral for m in answers.messages)
        assert answers.edits[0].content == "Deine Würfel: 3 und 5"  # the followup became the answer
        assert emu.messages_in(channel) == []  # nobody else sees any of it
        dispatched = [r.data["t"] for r in emu.gateway_log if r.kind == "dispatch"]
        assert "MESSAGE_CREATE" not in dispatched


async def test_an_answer_after_three_seconds_is_an_unknown_interaction(
    emu: DiscordEmulator, place: tuple[int, int, int]
) -> None:
    guild, channel, anna = place
    emu.interaction_window = 0.2  # Discord's three seconds, shortened
    async with running_client(bot(guild, delay=0.4), emu.token) as client:
        sent = await emu.slash_command(guild, channel, anna, "spaet")
        answers = await emu.wait_for_answers(sent)
        assert answers.late
        assert not answers.acknowledged
        assert answers.refused == (("callback", 404, 10062),)
        await asyncio.sleep(0.05)
        (error,) = client.errors
        assert isinstance(error, discord.NotFound)
        assert error.code == 10062
        with pytest.raises(AssertionError):
            await emu.wait_for_response(sent, timeout=0.1)
    assert emu.messages_in(channel) == []


async def test_a_deferred_update_then_the_clicked_message_is_edited(
    emu: DiscordEmulator, place: tuple[int, int, int]
) -> None:
    guild, channel, anna = place
    async with running_client(bot(guild, delay=0.1), emu.token):
        table = await emu.slash_command(guild, channel, anna, "tafel")
        board = await emu.next_message(channel, predicate=lambda m: m.answering == table.id)
        click = await emu.click(board, "weiter", anna)
        answers = await emu.wait_for_answers(click, lambda a: len(a.edits) == 1)
        assert answers.response is not None
        assert answers.response.type == 6
        assert answers.deferred
        assert answers.edits[0].message_id == board.message_id
        assert answers.edits[0].content == "Tafel, weitergeblättert"


async def test_followups_end_when_the_token_expires(
    emu: DiscordEmulator, place: tuple[int, int, int]
) -> None:
    guild, channel, anna = place
    emu.token_lifetime = 0.2  # Discord's fifteen minutes, shortened
    async with running_client(bot(guild, delay=0.4), emu.token):
        sent = await emu.slash_command(guild, channel, anna, "langsam")
        answers = await emu.wait_for_answers(sent, lambda a: bool(a.refused))
        assert answers.deferred  # acknowledged in time …
        assert answers.refused == (("webhook", 401, 50027),)  # … but the followup came too late
        assert answers.followups == []
