"""Nothing is lost between the store and Discord, and nobody is told twice: a move whose answer got a 403
or a 500 is shown once posting works again; a post whose answer never came back is looked for before it
is tried again; an answer an earlier process left pending is delivered at the next start — unless the
channel shows it already (a crash between posting and acknowledging); a thread that is gone ends the
trying. The log records each answer's delivery. No network call is made under the channel lock: a post
Discord holds up does not hold up the next move in that channel."""

from __future__ import annotations

import asyncio
import dataclasses
import math
from collections.abc import Callable

import pytest
from sqlalchemy import update

from bot.store import LogEntry
from bot.store.repositories.tables import log_t
from tests.discord.helpers import Table, asked, says, story
from tests.discord_emulator import BotMessage, Fault
from tests.discord_emulator.fixtures import quick_discord_retries  # noqa: F401  (the fixture)

QUICK = {"retry_start_seconds": 0.05, "retry_cap_seconds": 0.2, "acknowledge_after_seconds": 0.05}


@pytest.fixture
def quick(table: Table) -> Table:
    table.options = dataclasses.replace(table.options, **QUICK)
    return table


def answers_to(table: Table, message_id: int) -> list[BotMessage]:
    return [
        m
        for m in table.emu.bot_messages
        if m.action == "create"
        and m.message_reference is not None
        and int(m.message_reference["message_id"]) == message_id
    ]


async def entry_of(table: Table, message_id: str) -> LogEntry | None:
    with table.store.transaction(read_only=True) as uow:
        return uow.log.find(message_id)


async def settled(table: Table, message_id: str, timeout: float = 5.0) -> LogEntry:  # noqa: ASYNC109
    """The log entry once it is written and its delivery is no longer pending."""
    async with asyncio.timeout(timeout):
        while True:
            entry = await entry_of(table, message_id)
            if entry is not None and entry.delivery != "pending":
                return entry
            await asyncio.sleep(0.02)


async def opened(table: Table) -> None:
    p = table.people
    await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
    await table.slash_message(p.anna, "mitmachen")


def freiwurf(face: int) -> Callable[[BotMessage], bool]:
    expected = [says("v6.freiwurf", player="Anna", face=face, total=face), asked("Anna")]
    return lambda message: story(message) == expected


@pytest.mark.parametrize("status", [403, 500])
@pytest.mark.usefixtures("quick_discord_retries")
async def test_a_move_whose_answer_failed_is_shown_once_posting_works_again(
    quick: Table, status: int
) -> None:
    """A 500 is retried with backoff; a 403 holds the channel until the probe (shortened here) finds
    the post goes through again."""
    table, p = quick, quick.people
    table.options = dataclasses.replace(table.options, hold_probe_seconds=0.1)
    table.dice.will_roll(4)
    async with table.running():
        await opened(table)
        # a 500 is tried five times by discord.py itself before the croupier's own retry takes over
        failing = table.emu.fail_requests(
            operation="create_message", channel=p.channel, status=status, times=10 if status == 500 else 2
        )
        line = await table.say(p.anna, "weiter")
        answer = await table.answer_to(line)
        assert freiwurf(4)(answer)
        assert failing.spent
        entry = await settled(table, f"discord:{line}")
        assert entry.delivery == "delivered"
        assert entry.delivered_at is not None
        assert len(answers_to(table, line)) == 1
    record = await table.game()
    assert record is not None
    assert record.dice_used == 1  # applied once, whatever the retries


async def test_a_post_whose_answer_never_came_is_not_posted_twice(quick: Table) -> None:
    table, p = quick, quick.people
    table.dice.will_roll(4)
    async with table.running() as bot:
        await opened(table)
        bot.front.delivery.post_timeout = 0.3
        late = table.emu.fail_requests(
            operation="create_message", channel=p.channel, hang=0.6, then="process"
        )
        line = await table.say(p.anna, "weiter")
        answer = await table.answer_to(line)  # Discord posted it, but the bot never heard back
        assert late.spent
        entry = await settled(table, f"discord:{line}")
        assert entry.delivery == "delivered"
        await asyncio.sleep(0.3)
        assert [m.message_id for m in answers_to(table, line)] == [answer.message_id]
        looked = [
            r
            for r in table.emu.requests
            if r.operation == "list_messages" and r.path.endswith(f"/{p.channel}/messages")
        ]
        assert looked  # it read the channel before trying again


async def test_an_answer_left_pending_is_delivered_at_the_next_start(quick: Table) -> None:
    table, p = quick, quick.people
    table.dice.will_roll(4)
    async with table.running():
        await opened(table)
        table.emu.fail_requests(operation="create_message", channel=p.channel, status=403, times=1_000)
        line = await table.say(p.anna, "weiter")
        await asyncio.sleep(0.3)  # the bot keeps trying; Discord keeps refusing; then the bot stops
    assert answers_to(table, line) == []
    left = await entry_of(table, f"discord:{line}")
    assert left is not None
    assert left.delivery == "pending"
    table.emu.clear_failures()  # a moderator gave the bot its permission back
    async with table.running():
        answer = await table.answer_to(line)
        assert freiwurf(4)(answer)
        assert (await settled(table, f"discord:{line}")).delivery == "delivered"
    assert len(answers_to(table, line)) == 1


async def test_a_crash_between_posting_and_acknowledging_never_tells_twice(quick: Table) -> None:
    table, p = quick, quick.people
    table.dice.will_roll(4)
    async with table.running():
        await opened(table)
        line = await table.say(p.anna, "weiter")
        await table.answer_to(line)
        await settled(table, f"discord:{line}")
    with table.store.engine.begin() as connection:  # as if the process died before acknowledging it
        back = {"delivery": "pending", "delivered_at": None}
        connection.execute(update(log_t).where(log_t.c.message_id == f"discord:{line}").values(**back))
    async with table.running() as bot:
        await bot.front.outbox.idle(5)
        entry = await settled(table, f"discord:{line}")
        assert entry.delivery == "delivered"
    assert len(answers_to(table, line)) == 1


async def test_a_deleted_thread_makes_an_answer_undeliverable(quick: Table) -> None:
    table, p = quick, quick.people
    table.dice.will_roll(4)
    async with table.running():
        await opened(table)
        table.emu.fail_requests(
            operation="create_message", channel=p.channel, status=404, code=10003, message="Unknown Channel"
        )
        line = await table.say(p.anna, "weiter")
        entry = await settled(table, f"discord:{line}")
        assert entry.delivery == "undeliverable"
        assert entry.delivered_at is None
    assert answers_to(table, line) == []


async def written(table: Table, message_id: str, timeout: float = 5.0) -> LogEntry:  # noqa: ASYNC109
    """The log entry once it is written, delivered or not (a safety net, not a measure)."""
    async with asyncio.timeout(timeout):
        while True:
            entry = await entry_of(table, message_id)
            if entry is not None:
                return entry
            await asyncio.sleep(0.02)


async def taken(fault: Fault, timeout: float = 5.0) -> None:  # noqa: ASYNC109
    """Until a request reached the emulator and ``fault`` holds it (a safety net, not a measure)."""
    async with asyncio.timeout(timeout):
        while True:
            if fault.spent:
                return
            await asyncio.sleep(0.02)


async def test_a_post_discord_holds_up_does_not_hold_up_the_next_move_in_its_channel(quick: Table) -> None:
    table, p = quick, quick.people
    table.dice.will_roll(4, 2)
    async with table.running():
        await opened(table)
        held = table.emu.fail_requests(
            operation="create_message", channel=p.channel, hang=math.inf, then="process"
        )
        first = await table.say(p.anna, "weiter")
        await taken(held)  # the answer to the first throw hangs in Discord …
        second = await table.say(p.anna, "weiter")
        stored = await written(table, f"discord:{second}")  # … while the second is applied
        assert stored.dice == [2]
        assert held.hits == []  # the first post is still held: nothing answered it yet
        assert answers_to(table, first) == []
        held.release()
        later = await table.answer_to(second)
        assert story(later) == [says("v6.thrown", face=2, player="Anna", total=6), asked("Anna")]
        (earlier,) = answers_to(table, first)
        assert freiwurf(4)(earlier)
        posted = [m.message_id for m in table.emu.bot_messages if m.action == "create"]
        assert posted.index(earlier.message_id) < posted.index(later.message_id)  # in the order played
    record = await table.game()
    assert record is not None
    assert record.dice_used == 2
