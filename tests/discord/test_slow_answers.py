"""A move whose interaction expired before the croupier could answer (Discord allows three seconds)
is still announced: the answer goes to the channel, since the move itself is stored."""

from __future__ import annotations

import asyncio
from types import TracebackType
from typing import Any

from bot.croupier import Croupier
from bot.store import Store, UnitOfWork
from tests.discord.helpers import Table, row, says, story, table_rows


class Gated:
    """A unit of work that begins only once the gate is open (a database that is slow to answer)."""

    def __init__(self, inner: UnitOfWork, gate: asyncio.Event) -> None:
        self.inner = inner
        self.gate = gate

    async def __aenter__(self) -> Any:
        await self.gate.wait()
        return await self.inner.__aenter__()

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.inner.__aexit__(kind, error, tb)


class SlowStore(Store):
    gate: asyncio.Event | None = None

    def unit_of_work(self, *, read_only: bool = False) -> UnitOfWork:
        inner = super().unit_of_work(read_only=read_only)
        return inner if self.gate is None else Gated(inner, self.gate)  # type: ignore[return-value]


async def test_an_expired_interaction_is_answered_in_the_channel(table: Table) -> None:
    p = table.people
    slow = SlowStore(table.store.engine, table.store._url, table.store.defaults)
    async with table.running(Croupier(store=slow, dice_factory=table.dice.factory, clock=table.clock)):
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
