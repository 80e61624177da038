"""Acknowledged deliveries and channel reads ride on the process's next write; they get a transaction of
their own only once the process wrote nothing for a whole period, at most one per period, and on
PostgreSQL that transaction does not wait for the disk (docs/reliability.md). On SQLite and PostgreSQL,
with the process's clock set by the test (nothing here waits)."""

from __future__ import annotations

import dataclasses

from sqlalchemy import select

from bot.discord.options import ACKNOWLEDGE_AFTER_SECONDS
from bot.service.acknowledgements import Acknowledgements
from bot.service.croupier import Croupier
from bot.store import Store
from bot.store.repositories.tables import log_t
from engine.game import Join
from tests.dice import scripted
from tests.roundtrips import counted
from tests.service.helpers import GUILD, Table

PERIOD = ACKNOWLEDGE_AFTER_SECONDS


class Monotonic:
    """The process's monotonic clock, moved by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def tracked_table(store: Store, clock: Monotonic) -> Table:
    croupier = Croupier(store=store, dice_factory=scripted([3, 4, 5]), _acks=Acknowledgements(clock))
    return Table(croupier)


async def tracked_join(table: Table, player: str) -> int:
    """``player`` signs up from a front end that acknowledges its answers; answers the log id."""
    msg = dataclasses.replace(table.msg(player), tracked=True)
    reply = await table.croupier.execute(msg, Join(player.capitalize()))
    assert reply.ok
    assert reply.log_id is not None
    return reply.log_id


def delivery_of(store: Store, log_id: int) -> str | None:
    with store.engine.connect() as connection:
        return connection.execute(select(log_t.c.delivery).where(log_t.c.id == log_id)).scalar_one()


async def test_an_acknowledgement_rides_on_the_next_write_and_adds_no_transaction(store: Store) -> None:
    clock = Monotonic()
    table = tracked_table(store, clock)
    await table.open()
    anna = await tracked_join(table, "anna")
    table.croupier.acknowledge(anna)  # the front end posted anna's answer
    with counted(store.engine) as trips:
        await tracked_join(table, "ben")
    (transaction,) = trips.transactions
    assert transaction.ended == "commit"
    assert sum(s.startswith("UPDATE command_log SET delivery") for s in transaction.statements) == 1
    assert table.croupier.acknowledgements_waiting == 0
    assert delivery_of(store, anna) == "delivered"


async def test_waiting_acknowledgements_get_one_transaction_of_their_own_after_a_quiet_period(
    store: Store,
) -> None:
    clock = Monotonic()
    table = tracked_table(store, clock)
    await table.open()
    ben = await tracked_join(table, "ben")  # the process's last write
    table.croupier.acknowledge(ben)
    assert table.croupier.acknowledgements_due_in(PERIOD) == PERIOD
    clock.now += PERIOD - 0.5
    assert table.croupier.acknowledgements_due_in(PERIOD) == 0.5  # a move now would take it along
    clock.now += 0.5
    assert table.croupier.acknowledgements_due_in(PERIOD) == 0.0
    with counted(store.engine) as trips:
        assert await table.croupier.flush_acknowledgements() == 1
    (transaction,) = trips.transactions
    assert transaction.ended == "commit"
    relaxed = [s for s in transaction.statements if s.startswith("SET LOCAL synchronous_commit TO OFF")]
    assert len(relaxed) == (1 if store.dialect == "postgresql" else 0)  # no wait for the WAL flush
    assert delivery_of(store, ben) == "delivered"
    # At most one such transaction per period: the next answer delivered right after waits a whole one.
    table.croupier.acknowledge(await tracked_join(table, "carl"))
    clock.now += 1.0
    assert table.croupier.acknowledgements_due_in(PERIOD) == PERIOD - 1.0


async def test_a_write_that_does_not_commit_hands_the_acknowledgements_back(store: Store) -> None:
    clock = Monotonic()
    table = tracked_table(store, clock)
    await table.open()
    joined = dataclasses.replace(table.msg("anna"), tracked=True)
    anna = (await table.croupier.execute(joined, Join("Anna"))).log_id
    assert anna is not None
    table.croupier.acknowledge(anna)
    clock.now += 3.0
    again = await table.croupier.execute(joined, Join("Anna"))  # redelivered: answered from the log
    assert again.duplicate
    assert table.croupier.acknowledgements_waiting == 1  # handed back for the next write
    assert table.croupier.acknowledgements_due_in(PERIOD) == PERIOD - 3.0  # nothing was written
    assert delivery_of(store, anna) == "pending"
    await tracked_join(table, "ben")
    assert delivery_of(store, anna) == "delivered"


async def test_channel_reads_ride_on_the_next_write(store: Store) -> None:
    clock = Monotonic()
    table = tracked_table(store, clock)
    await table.open()
    table.croupier.note_reads_later({(GUILD, table.channel): "777"})
    with counted(store.engine) as trips:
        await tracked_join(table, "anna")
    (transaction,) = trips.transactions
    assert any(s.startswith("INSERT INTO channel_reads") for s in transaction.statements)
    assert table.croupier.acknowledgements_waiting == 0
    (point,) = await table.croupier.catch_up_points()
    assert point.read == "777"
