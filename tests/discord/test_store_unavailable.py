"""When the database cannot be reached, a command gets "try again", chit-chat stays unanswered, nothing
changes, and the bot goes on once the database is back. A line longer than a Discord message is read
as the service reads it, its first LINE_MAX characters, with or without the database."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import TypeVar

import pytest

from bot.service import croupier as croupier_module
from bot.service.croupier import Croupier
from bot.service.moves import LINE_MAX, Reading, read_line
from bot.store import Store, StoreUnavailable, UnitOfWork
from engine.game import Game
from tests.discord.helpers import Table, asked, note, refusal, says, story

T = TypeVar("T")


class FlakyStore(Store):
    """A store whose units of work cannot begin while it is ``down``, as when the server is gone."""

    down = False

    async def run(self, work: Callable[[UnitOfWork], T], *, read_only: bool = False) -> T:
        if self.down:
            raise StoreUnavailable(
                "postgresql://croupier:***@db/croupier", "connection refused", "is it running?"
            )
        return await super().run(work, read_only=read_only)


async def test_store_outage_answers_try_again_and_the_bot_keeps_running(table: Table) -> None:
    p = table.people
    flaky = FlakyStore(table.store.engine, table.store._url, table.store.defaults)
    table.dice.will_roll(4)
    croupier = Croupier(store=flaky, dice_factory=table.dice.factory, clock=table.clock)
    async with table.running(croupier), shut_down_after(flaky):
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        await table.slash_message(p.anna, "mitmachen")
        flaky.down = True
        chat = await table.say(p.anna, "gleich geht's los")
        refused = await table.said(p.anna, "weiter")
        assert refused.content == says("error.store_unavailable", game=None)
        assert not refused.embeds
        _, slash = await table.slash(p.ben, "mitmachen")
        assert slash.ephemeral
        assert note(slash) == says("error.store_unavailable", game=None)
        flaky.down = False
        record = await table.game()
        assert record is not None
        assert record.dice_used == 0
        assert len(record.participants) == 1
        thrown = await table.said(p.anna, "weiter")
        assert story(thrown) == [says("v6.freiwurf", player="Anna", face=4, total=4), asked("Anna")]
        answered = [m.message_reference for m in table.emu.bot_messages if m.message_reference]
        assert all(int(ref["message_id"]) != chat for ref in answered)


async def test_a_long_line_during_an_outage_is_read_only_as_far_as_the_games_read(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord lets Nitro members send 4,000 characters. With the store out, the front end asks whether
    a line is a command before it answers "try again": it reads what the service reads of the line
    (its first LINE_MAX characters), so the parsers never work through the rest, and both agree."""
    p = table.people
    flaky = FlakyStore(table.store.engine, table.store._url, table.store.defaults)
    croupier = Croupier(store=flaky, dice_factory=table.dice.factory, clock=table.clock)
    lengths: list[int] = []

    def reading(game: Game[object], text: str) -> Reading:
        lengths.append(len(text))
        return read_line(game, text)

    monkeypatch.setattr(croupier_module, "read_line", reading)
    long_chat = ("gleich geht's los " * 250)[:4_000].strip()
    stop_first = (
        "stopp" + " " * (4_000 - len("stopp") - len("weiter")) + "weiter"
    )  # a command in its first part
    async with table.running(croupier), shut_down_after(flaky):
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        await table.slash_message(p.anna, "mitmachen")
        await table.slash_message(p.moni, "durchgang", subcommand="starten")
        flaky.down = True
        lengths.clear()
        chat = await table.say(p.anna, long_chat)
        refused = await table.said(p.anna, stop_first)
        assert refused.content == says("error.store_unavailable", game=None)
        assert lengths
        assert max(lengths) <= LINE_MAX
        flaky.down = False
        too_long = await table.said(p.anna, stop_first)  # the service, reached, reads it the same way
        assert too_long.content == refusal("error.line_too_long", game=None, limit=LINE_MAX, length=4_000)
        record = await table.game()
        assert record is not None
        assert record.dice_used == 0
        answered = [m.message_reference for m in table.emu.bot_messages if m.message_reference]
        assert all(int(ref["message_id"]) != chat for ref in answered)


@contextlib.asynccontextmanager
async def shut_down_after(store: Store) -> AsyncIterator[None]:
    """The wrapping store's threads end with the test (the engine belongs to the fixture's store)."""
    try:
        yield
    finally:
        await asyncio.to_thread(store.workers.shutdown)
