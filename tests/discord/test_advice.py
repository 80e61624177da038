"""Killer's advice (``conseil``) is for the asker alone: typed in the channel — where any reply is seen by
everyone — it is answered by direct message; with the asker's direct messages closed, a short note in the
channel says so, never the advice. The board stays as it is (K5-A1 advice)."""

from __future__ import annotations

from tests.discord.helpers import Table, says, story, title
from tests.discord_emulator import BotMessage

DM_CLOSED = 50007


def killer_says(key: str) -> str:
    return says(key, "fr", "killer")


async def started_killer(table: Table) -> BotMessage:
    p = table.people
    # anna 6 6 6 6 6, ben 3 1 1 1 1: the setup rolls of the two players
    table.dice.will_roll(6, 6, 6, 6, 6)
    await table.slash_message(p.moni, "durchgang", {"spiel": "killer"}, subcommand="oeffnen")
    await table.slash_message(p.anna, "mitmachen")
    await table.slash_message(p.ben, "mitmachen")
    return await table.slash_message(p.moni, "durchgang", subcommand="starten")


async def test_a_spectators_advice_is_never_posted_publicly(table: Table) -> None:
    p = table.people
    async with table.running() as bot:
        board = await started_killer(table)
        before = [m.message_id for m in table.emu.bot_messages]
        asked = await table.say(p.carl, "conseil")
        dm = await table.emu.dm_channel(p.carl)
        private = await table.emu.next_message(dm)
        assert private.embeds, private.message
        assert private.embeds[0]["title"] == title(1, "fr", "killer")
        advice = story(private)
        assert advice  # the odds, for carl alone
        await bot.front.outbox.idle(5)
        public = [
            m for m in table.emu.bot_messages if m.message_id not in before and m.channel_id == p.channel
        ]
        assert public == []  # nothing in the channel: no answer, no board stripped or redrawn
        assert not any(
            m.message_reference is not None and int(m.message_reference["message_id"]) == asked
            for m in table.emu.bot_messages
        )
        assert table.emu.message(board.message_id)["components"] == board.components
        shown = [m.get("content", "") + str(m.get("embeds")) for m in table.emu.messages_in(p.channel)]
        assert not any(line in text for line in advice for text in shown)


async def test_with_direct_messages_closed_a_note_says_so_and_the_advice_stays_private(table: Table) -> None:
    p = table.people
    async with table.running():
        await started_killer(table)
        dm = await table.emu.dm_channel(p.carl)
        table.emu.fail_requests(
            channel=dm, status=403, code=DM_CLOSED, message="Cannot send messages to this user"
        )
        asked = await table.say(p.carl, "conseil")
        note = await table.answer_to(asked)
        assert note.content == table.says("discord.private.dm_closed", "fr", None)
        assert not note.embeds
        assert not note.pings.anyone
        assert table.emu.messages_in(dm) == []
