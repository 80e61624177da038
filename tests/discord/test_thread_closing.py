"""A finished game's thread is closed for good (V6-R6 close): archived and locked, and a text channel home
gets its result line exactly once — whatever Discord answers meanwhile. Each step is retried with the
answers' backoff while it fails, recorded in the store once done (``games.thread_closed_at``,
``result_posted_at``), and redone at the next start when the bot stopped before it was done."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest
from sqlalchemy import update

from bot.store.repositories.tables import games_t
from tests.discord.helpers import Table, drawn, story, title
from tests.discord.test_forum import Hall, hall_of
from tests.discord_emulator import BotMessage, Fault
from tests.discord_emulator.fixtures import quick_discord_retries  # noqa: F401  (the fixture)

QUICK = {"retry_start_seconds": 0.05, "retry_cap_seconds": 0.2, "acknowledge_after_seconds": 0.05}
DISCORD_PY_TRIES = 5  # discord.py tries a 500 five times before the croupier's own retry takes over


@pytest.fixture
async def quick(table: Table) -> Hall:
    table.options = dataclasses.replace(table.options, **QUICK)
    return await hall_of(table)


async def opened_in_thread(hall: Hall, home: int) -> int:
    """A Durchgang opened from ``home`` with anna signed up; answers its thread."""
    p = hall.table.people
    sent, _ = await hall.slash(home, p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
    pointer = await hall.emu.next_message(home, predicate=lambda m: m.interaction_id == sent.id)
    thread = int(pointer.content.split("<#")[1].split(">")[0])
    await hall.public(thread, p.anna, "mitmachen")
    return thread


def left_to_close(table: Table) -> dict[int, tuple[bool, bool]]:
    """The finished games whose closing is not all done: (thread closed, result line posted)."""
    with table.store.transaction(read_only=True) as uow:
        return {u.game_id: (u.thread_closed, u.result_posted) for u in uow.forum.unclosed(table.clock.now)}


async def all_closed(table: Table, timeout: float = 5.0) -> None:  # noqa: ASYNC109
    """Until the store records every closing step done (a safety net, not a measure)."""
    async with asyncio.timeout(timeout):
        while True:
            if not left_to_close(table):
                return
            await asyncio.sleep(0.02)


async def failed_at_least(hall: Hall, fault: Fault, hits: int) -> None:
    """Until ``fault`` answered ``hits`` requests (the bot kept trying)."""
    await hall.emu.requests.wait(lambda _: len(fault.hits) >= hits, consume=False, what=f"{hits} failures")


async def locked(hall: Hall, thread: int) -> None:
    await hall.emu.wait_for_gateway(
        "dispatch",
        lambda r: (
            r.data["t"] == "THREAD_UPDATE"
            and r.data["d"]["id"] == str(thread)
            and r.data["d"]["thread_metadata"]["locked"]
        ),
    )


def result_lines(hall: Hall, thread: int) -> list[dict[str, object]]:
    """The result lines in the text channel that link ``thread``."""
    bot = str(hall.emu.bot_id)
    return [
        m
        for m in hall.emu.messages_in(hall.text)
        if m["author"]["id"] == bot and "🏁" in str(m["content"]) and f"<#{thread}>" in str(m["content"])
    ]


def expected_result(hall: Hall, thread: int) -> str:
    ahead = hall.table.says("discord.thread.result", title=title(1), players=["Anna"], points=0)
    return drawn("discord.thread.result_post", result=ahead, thread=f"<#{thread}>")


@pytest.mark.usefixtures("quick_discord_retries")
async def test_a_close_refused_with_500_ends_archived_and_locked_once_discord_takes_it(quick: Hall) -> None:
    hall, p = quick, quick.table.people
    async with hall.table.running():
        thread = await opened_in_thread(hall, hall.lobby)
        refusing = hall.emu.fail_requests(
            operation="update_channel", channel=thread, status=500, times=DISCORD_PY_TRIES + 2
        )
        await hall.public(thread, p.moni, "durchgang", subcommand="schliessen")
        await locked(hall, thread)
        assert refusing.spent  # discord.py's five tries, then the croupier's own retries
        metadata = hall.emu.thread(thread)["thread_metadata"]
        assert (metadata["archived"], metadata["locked"]) == (True, True)
        await all_closed(hall.table)
    assert [
        m for m in hall.emu.messages_in(thread) if m["content"] == drawn("discord.thread.cannot_lock")
    ] == []


@pytest.mark.usefixtures("quick_discord_retries")
async def test_a_result_line_that_failed_is_posted_once_at_the_next_start(quick: Hall) -> None:
    hall, p = quick, quick.table.people
    async with hall.table.running():
        thread = await opened_in_thread(hall, hall.text)
        failing = hall.emu.fail_requests(
            operation="create_message", channel=hall.text, status=500, times=1_000
        )
        await hall.public(thread, p.moni, "durchgang", subcommand="schliessen")
        await locked(hall, thread)
        await failed_at_least(hall, failing, DISCORD_PY_TRIES + 1)  # the croupier tried again, in vain
    assert result_lines(hall, thread) == []
    (game,) = left_to_close(hall.table).items()
    assert game[1] == (True, False)  # the thread is closed; its line is still owed
    hall.emu.clear_failures()
    async with hall.table.running():
        posted: BotMessage = await hall.emu.next_message(
            hall.text, predicate=lambda m: f"<#{thread}>" in m.content and m.via == "channel"
        )
        assert posted.content == expected_result(hall, thread)
        assert not posted.pings.anyone
        await all_closed(hall.table)
    assert len(result_lines(hall, thread)) == 1


async def test_a_result_line_posted_but_not_recorded_is_not_posted_again(quick: Hall) -> None:
    hall, p = quick, quick.table.people
    async with hall.table.running():
        thread = await opened_in_thread(hall, hall.text)
        await hall.public(thread, p.moni, "durchgang", subcommand="schliessen")
        await all_closed(hall.table)
    assert [m["content"] for m in result_lines(hall, thread)] == [expected_result(hall, thread)]
    with hall.table.store.engine.begin() as connection:  # as if the process died before recording it
        connection.execute(update(games_t).values(result_posted_at=None))
    assert list(left_to_close(hall.table).values()) == [(True, False)]
    async with hall.table.running() as bot:
        await all_closed(hall.table)
        await bot.front.outbox.idle(5)
    assert len(result_lines(hall, thread)) == 1
    looked = [
        r
        for r in hall.emu.requests
        if r.operation == "list_messages" and r.path.endswith(f"/{hall.text}/messages")
    ]
    assert looked  # the start read the channel for its line before posting it


@pytest.mark.usefixtures("quick_discord_retries")
async def test_a_bot_stopped_before_the_close_finishes_it_at_its_next_start(quick: Hall) -> None:
    """An archived thread takes no change but being unarchived: the close unarchives it, then archives
    and locks it."""
    hall, p = quick, quick.table.people
    async with hall.table.running():
        thread = await opened_in_thread(hall, hall.lobby)
        failing = hall.emu.fail_requests(operation="update_channel", channel=thread, status=500, times=1_000)
        closed = await hall.public(thread, p.moni, "durchgang", subcommand="schliessen")
        assert story(closed) == [  # V6-R6: anna never threw her Freiwurf
            hall.table.says("v6.did_not_play", player="Anna"),
            hall.table.says("v6.closed_empty"),
        ]
        await failed_at_least(hall, failing, DISCORD_PY_TRIES)  # the final reply went out, the close not
    metadata = hall.emu.thread(thread)["thread_metadata"]
    assert (metadata["archived"], metadata["locked"]) == (False, False)
    assert list(left_to_close(hall.table).values()) == [(False, True)]  # a forum takes no result line
    hall.emu.clear_failures()
    await hall.emu.archive_thread(thread)  # and Discord archived the quiet thread (not locked) meanwhile
    async with hall.table.running():
        await locked(hall, thread)
        await all_closed(hall.table)
    metadata = hall.emu.thread(thread)["thread_metadata"]
    assert (metadata["archived"], metadata["locked"]) == (True, True)
    unarchived = [
        r for r in hall.emu.requests if r.operation == "update_channel" and r.json == {"archived": False}
    ]
    assert len(unarchived) == 1
    assert hall.emu.message(thread)["embeds"][0]["description"] == drawn("discord.live.finished")
