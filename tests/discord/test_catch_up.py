"""Lines typed while the bot was away are read from the channel's history when it comes back — at its
start, and after a reconnect that lost events — and handled in order, each exactly once, before any turn
deadline that passed meanwhile applies (rules §6: the timeout is for a player who did not move). The read
starts where the channel was last read, goes page by page up to a ceiling, and does not happen without
the Message Content intent. Several shards: test_shards.py."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from datetime import timedelta

import pytest

from bot.discord import catch_up
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


def history_reads(table: Table) -> list[dict[str, str]]:
    """The queries of the bot's reads of the table channel's history, in order."""
    channel = str(table.people.channel)
    return [
        r.query
        for r in table.emu.requests
        if r.method == "GET"
        and r.route == "/channels/{channel_id}/messages"
        and r.params["channel_id"] == channel
    ]


async def test_a_restart_reads_on_from_the_newest_line_read_not_from_the_last_move(table: Table) -> None:
    """Chatter read after the last move is not read again: how far the channel was read is kept (at the
    latest when the bot stops), and the next start reads from there."""
    p = table.people
    table.dice.will_roll(4)
    async with table.running():
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        await table.slash_message(p.anna, "mitmachen")
        await table.said(p.anna, "weiter")
        chatter = [await table.say(p.ben, f"schöner Wurf {n}") for n in range(3)]
        await table.emu.gateway.records.wait(  # the bot read the last of it (chatter gets no answer)
            lambda r: r.kind == "dispatch" and r.data["d"].get("id") == str(chatter[-1]), consume=False
        )
        await asyncio.sleep(0.3)
    with table.store.transaction(read_only=True) as uow:
        [point] = uow.forum.catch_up_points()
    assert point.read == str(chatter[-1])
    before = len(history_reads(table))
    async with table.running():
        pass
    assert [q.get("after") for q in history_reads(table)[before:]] == [str(chatter[-1])]


async def test_a_catch_up_reads_pages_up_to_its_ceiling_and_says_where_it_stopped(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    """A gap longer than the ceiling (1,000 messages): read in Discord's pages of 100, then a warning
    naming the channel; the move at its start is answered."""
    p = table.people
    table.dice.will_roll(6)
    async with table.running():
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        await table.slash_message(p.anna, "mitmachen")
    line = await table.say(p.anna, "weiter")
    for n in range(catch_up.HISTORY_CEILING + 49):
        await table.say(p.ben, f"Plauderei {n}")
    before = len(history_reads(table))
    with caplog.at_level(logging.WARNING, logger="bot.discord.catch_up"):
        async with table.running():
            answer = await table.answer_to(line)
            assert story(answer) == [table.says("v6.freiwurf", player="Anna", face=6, total=6), asked("Anna")]
    pages = history_reads(table)[before:]
    assert [int(q["limit"]) for q in pages] == [100] * (catch_up.HISTORY_CEILING // 100)
    stopped = [r.getMessage() for r in caplog.records if "ceiling" in r.getMessage()]
    assert len(stopped) == 1
    assert str(p.channel) in stopped[0]
    assert str(catch_up.HISTORY_CEILING) in stopped[0]


async def test_without_message_content_nothing_is_read_back(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    """The history would show only empty messages: the start reads none of it, and says why once."""
    p = table.people
    table.options = dataclasses.replace(table.options, message_content=False)
    async with table.running():
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
    await table.say(p.anna, "weiter")
    with caplog.at_level(logging.INFO, logger="bot.discord.catch_up"):
        async with table.running():
            pass
    assert history_reads(table) == []
    said = [r.getMessage() for r in caplog.records if "Message Content" in r.getMessage()]
    assert len(said) == 1
