"""A move whose interaction expired before the croupier could answer (Discord allows three seconds)
is still announced: the answer goes to the channel, since the move itself is stored."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from typing import TypeVar

from bot.service.croupier import Croupier
from bot.store import Store, UnitOfWork
from tests.discord.helpers import Table, row, says, story, table_rows
from tests.discord.test_store_unavailable import shut_down_after

T = TypeVar("T")


class SlowStore(Store):
    """A store whose units of work begin only once the gate is open (a database slow to answer)."""

    gate: asyncio.Event | None = None

    async def run(self, work: Callable[[UnitOfWork], T], *, read_only: bool = False) -> T:
        if self.gate is not None:
            await self.gate.wait()
        return await super().run(work, read_only=read_only)


async def test_an_expired_interaction_is_answered_in_the_channel(table: Table) -> None:
    p = table.people
    slow = SlowStore(table.store.engine, table.store._url, table.store.defaults)
    croupier = Croupier(store=slow, dice_factory=table.dice.factory, clock=table.clock)
    async with table.running(croupier), shut_down_after(slow):
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        slow.gate = asyncio.Event()
        sent = await table.emu.slash_command(p.guild, p.channel, p.anna, "mitmachen")
        state = table.emu.interactions.pop(sent.id)  # the token ran out while the database was slow
        table.emu.interactions_by_token.pop(state.sent.token)
        slow.gate.set()
        joined = says("v6.joined", name="Anna", position=1)
        posted = await table.emu.next_message(p.channel, predicate=lambda m: joined in story(m))
        assert posted.via == "channel"
        assert table_rows(posted) == [row("Anna", "jungfrau", 0, to_act=True)]
    record = await table.game()
    assert record is not None
    assert [seat.player for seat in record.participants] == [str(p.anna)]


async def test_a_move_whose_defer_lost_its_answer_is_answered_by_the_same_process(table: Table) -> None:
    """The defer reached Discord but its answer never came back (a dropped connection): the answer's
    own response is then refused as already acknowledged — by this process's defer, not another
    process — so this process edits the deferred original; nothing waits for a restart."""
    p, emu = table.people, table.emu
    # The acknowledgement is written as soon as the bot is quiet, not ten seconds later (how long it
    # waits for a move to ride on is pinned in test_transactions.py).
    table.options = dataclasses.replace(table.options, acknowledge_after_seconds=0.05)
    slow = SlowStore(table.store.engine, table.store._url, table.store.defaults)
    croupier = Croupier(store=slow, dice_factory=table.dice.factory, clock=table.clock)
    async with table.running(croupier), shut_down_after(slow):
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        slow.gate = asyncio.Event()
        lost = emu.fail_requests(operation="create_interaction_response", then="lose")
        sent = await emu.slash_command(p.guild, p.channel, p.anna, "mitmachen")
        response = await emu.wait_for_response(sent, timeout=4)
        assert response.deferred  # Discord took the defer …
        assert lost.spent  # … and the bot never heard so
        slow.gate.set()
        answers = await emu.wait_for_answers(sent, lambda a: bool(a.edits), timeout=10)
        (answer,) = answers.edits
        assert answer.message_id == response.message_id  # the deferred "thinking…" became the answer
        assert says("v6.joined", name="Anna", position=1) in story(answer)
        assert not [m for m in emu.bot_messages if m.via == "channel" and m.channel_id == p.channel]
        async with asyncio.timeout(5):
            while True:
                with table.store.transaction(read_only=True) as uow:
                    entry = uow.log.find(f"interaction:{sent.id}")
                if entry is not None and entry.delivery == "delivered":
                    break
                await asyncio.sleep(0.02)
