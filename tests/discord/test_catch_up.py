"""Lines typed while the bot was away are read from the channel's history when it comes back — at its
start, and after a reconnect that lost events — and handled in order, each exactly once, before any turn
deadline that passed meanwhile applies (rules §6: the timeout is for a player who did not move)."""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import timedelta

from tests.discord.helpers import FastBot, Table, asked, story
from tests.discord_emulator import BotMessage, running_client


def answers_to(table: Table, message_id: int) -> list[BotMessage]:
    return [
        m
        for m in table.emu.bot_messages
        if m.action == "create"
        and m.message_reference is not None
        and int(m.message_reference["message_id"]) == message_id
    ]


async def test_a_line_typed_while_the_bot_was_stopped_is_answered_once_before_timeouts(table: Table) -> None:
    p = table.people
    table.dice.will_roll(4, 2)
    async with table.running():
        await table.slash_message(p.moni, "einstellungen", {"zugzeit": "1m"})
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        await table.slash_message(p.anna, "mitmachen")
        await table.slash_message(p.ben, "mitmachen")
    chatter = await table.say(p.ben, "bin gleich wieder da")  # the bot is stopped: nobody reads these
    line = await table.say(p.anna, "weiter")
    table.clock.now += timedelta(minutes=2)  # anna's deadline passed while the bot was away
    table.options = dataclasses.replace(table.options, turn_clock_seconds=0.05)
    async with table.running():
        answer = await table.answer_to(line)
        assert story(answer) == [table.says("v6.freiwurf", player="Anna", face=4, total=4), asked("Anna")]
        await asyncio.sleep(0.3)  # a few rounds of the turn clock: anna moved, so nothing is due
        timed_out = table.says("v6.timed_out", player="Anna")
        assert not any(timed_out in story(m) for m in table.emu.bot_messages)
        assert answers_to(table, chatter) == []
    async with table.running():  # and a third start reads the same history again: nothing twice
        thrown = await table.said(p.anna, "weiter")
        assert story(thrown) == [table.says("v6.thrown", face=2, player="Anna", total=6), asked("Anna")]
    assert len(answers_to(table, line)) == 1
    record = await table.game()
    assert record is not None
    assert record.dice_used == 2
    entries = [entry.message_id for entry in await table.log(record.id)]
    assert entries.count(f"discord:{line}") == 1


class HeldBot(FastBot):
    """A bot whose next IDENTIFY waits until the test lets it (a reconnect that takes a while)."""

    may_identify: asyncio.Event

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        await self.may_identify.wait()


async def test_lines_lost_in_a_reconnect_are_caught_up_with_the_new_session(table: Table) -> None:
    p = table.people
    table.dice.will_roll(4)
    bot = HeldBot(table.croupier(), table.options)
    bot.may_identify = asyncio.Event()
    bot.may_identify.set()
    async with running_client(bot, table.emu.token):
        await bot.front.caught_up.wait()
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        await table.slash_message(p.anna, "mitmachen")
        bot.may_identify.clear()
        await table.emu.invalidate_sessions()  # the session is gone: events meanwhile reach nobody
        await table.emu.wait_for_gateway("invalid_session")
        line = await table.say(p.anna, "weiter")
        assert not any(
            r.data["t"] == "MESSAGE_CREATE" and r.data["d"]["id"] == str(line)
            for r in table.emu.gateway_log
            if r.kind == "dispatch"
        )
        bot.may_identify.set()
        answer = await table.answer_to(line)
        assert story(answer) == [table.says("v6.freiwurf", player="Anna", face=4, total=4), asked("Anna")]
    assert len(answers_to(table, line)) == 1
