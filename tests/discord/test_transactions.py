"""What a Discord request costs the database, end to end through the real client: a typed move, a
press and a slash command are ONE transaction each; chit-chat is none, with or without a game; a line
that the channel's game does not read (another game's word, a game word with no game, a near miss) is
at most one read that takes no write lock; and no unit of work is preceded by a connection ping. On
SQLite and PostgreSQL.

Acknowledgements are counted as deployed (:data:`bot.discord.options.ACKNOWLEDGE_AFTER_SECONDS`): the
bot acknowledges each answer it posted, and the acknowledgements ride on the process's next write (one
``UPDATE command_log`` before its commit), adding a statement, never a transaction; only when the
process wrote nothing for that long do they get one of their own. The first test plays a whole
Durchgang at the pace of people, seconds between requests, and counts everything the store saw."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import pytest
from sqlalchemy import Engine, event

from bot.discord.options import ACKNOWLEDGE_AFTER_SECONDS, BotOptions
from bot.service.croupier import Croupier
from bot.service.requests import Waiting
from bot.store.db import SQLITE_BEGIN
from tests.conftest import BACKENDS
from tests.discord.helpers import READY_QUICKLY, Table, custom_id_for, drawn, refusal, says
from tests.discord.test_forum import hall_of
from tests.roundtrips import RoundTrips, Transaction, counted

pytestmark = pytest.mark.parametrize("db_backend", BACKENDS, indirect=True)


CONTINUE = says("choice.continue")  # the button's label, as the game's catalogue names it
STOP = says("choice.stop")
JOIN = drawn("discord.live.join")
PACE_S = 2.0  # between two requests of the game: a player reads the answer, then types or presses
T = TypeVar("T")


@contextmanager
def begun(engine: Engine) -> Iterator[list[str]]:
    """How each transaction the engine begins while the block lasts opens: on SQLite "IMMEDIATE" (the
    write lock from the start) or "DEFERRED" (a reader); "" on PostgreSQL, which has no such lock."""
    modes: list[str] = []

    def begin(connection: Any) -> None:
        if engine.dialect.name == "sqlite":
            modes.append(connection.get_execution_options().get(SQLITE_BEGIN, "IMMEDIATE"))
        else:
            modes.append("")

    event.listen(engine, "begin", begin)
    try:
        yield modes
    finally:
        event.remove(engine, "begin", begin)


def only_reads(trips: RoundTrips, modes: list[str], index: int) -> None:
    """Transaction ``index`` only read: SELECTs, rolled back, and on SQLite no write lock taken."""
    transaction = trips.transactions[index]
    assert transaction.ended == "rollback", transaction
    assert transaction.statements, transaction
    assert all(s.startswith("SELECT") for s in transaction.statements), transaction.statements
    assert modes[index] in ("DEFERRED", ""), modes


def one_transaction(trips: RoundTrips, mark: int) -> Transaction:
    """The single transaction since ``mark``, committed, with its statements."""
    done = trips.since(mark)
    assert len(done) == 1, [t.statements for t in done]
    (transaction,) = done
    assert transaction.ended == "commit", transaction
    return transaction


def acknowledging(transaction: Transaction) -> bool:
    """Whether a transaction only wrote acknowledgements of delivered answers (on PostgreSQL with
    ``synchronous_commit`` off for itself)."""
    writes = [s for s in transaction.statements if not s.startswith("SET LOCAL synchronous_commit")]
    return bool(writes) and all(s.startswith("UPDATE command_log SET delivery") for s in writes)


class Paced:
    """Requests made one after another at :data:`PACE_S`, each with the transactions the store saw from
    its start until the next one's."""

    def __init__(self, trips: RoundTrips) -> None:
        self.trips = trips
        self.requests: list[tuple[str, list[Transaction]]] = []

    async def __call__(self, what: str, request: Awaitable[T]) -> T:
        mark = self.trips.mark
        answered = await request
        await asyncio.sleep(PACE_S)
        self.requests.append((what, self.trips.since(mark)))
        return answered


async def written_on_their_own(croupier: Croupier) -> None:
    """Until the acknowledgements left waiting after the last write are written (a safety net, not a
    measure: they are due :data:`ACKNOWLEDGE_AFTER_SECONDS` after it)."""
    async with asyncio.timeout(ACKNOWLEDGE_AFTER_SECONDS * 3):
        while True:
            if not (await croupier.handle(Waiting())):
                return
            await asyncio.sleep(0.05)


async def ended_since(trips: RoundTrips, mark: int) -> list[Transaction]:
    """The transactions since ``mark`` once every one of them has ended: the flush takes what waits
    before it writes, so nothing waits any more a moment before its COMMIT is counted."""
    async with asyncio.timeout(5):
        while True:
            tail = trips.since(mark)
            if tail and all(t.ended for t in tail):
                return tail
            await asyncio.sleep(0.01)


async def test_a_durchgang_at_human_pace_is_one_transaction_per_request_acknowledgements_included(
    table: Table,
) -> None:
    """Deployed settings (the client's options as shipped; the game in a thread of its own, the default
    of a text channel): every typed move, press and slash command is one transaction, the opening in a
    thread two (its plan reads, the thread is made with no transaction open, then the game is opened
    in it). The acknowledgements of all answers ride along; the one transaction of their own comes
    once the process has written nothing for :data:`ACKNOWLEDGE_AFTER_SECONDS`. Amortised ≤ 1.2.
    The turn clock is a process's timer, not a request's: its round is counted by the test below."""
    table.options = BotOptions(
        guild_ids=table.options.guild_ids, guild_ready_timeout=READY_QUICKLY, turn_clock_seconds=None
    )
    hall = await hall_of(table)
    p, emu, engine = table.people, table.emu, table.store.engine
    table.dice.will_roll(3, 4, 2, 5, 3, 4)
    async with table.running() as bot:
        with counted(engine) as trips, begun(engine) as modes:
            paced = Paced(trips)
            sent, _ = await paced(
                "/durchgang öffnen",
                hall.slash(hall.text, p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen"),
            )
            opened = await emu.next_message(hall.text, predicate=lambda m: m.interaction_id == sent.id)
            thread = int(opened.content.split("<#")[1].split(">")[0])
            live = await hall.live_edit((hall.text, thread), lambda m: bool(m.embeds))  # the thread's start
            await paced("press: Mitmachen", hall.pressed(live, JOIN, p.anna))
            await paced("/mitmachen", hall.public(thread, p.ben, "mitmachen"))
            board = await paced("/zug weiter", hall.public(thread, p.anna, "zug", {"worte": "weiter"}))
            board = await paced("press: weiter", hall.pressed(board, CONTINUE, p.anna))
            board = await paced("press: weiter", hall.pressed(board, CONTINUE, p.anna))
            await paced("press: stopp", hall.pressed(board, STOP, p.anna))
            for word in ("weiter", "weiter", "weiter"):
                await paced(f"typed: {word}", hall.said(thread, p.ben, word))
            last_write = time.monotonic()
            await paced("typed: stopp", hall.said(thread, p.ben, "stopp"))
            await paced("/tabelle", hall.public(thread, p.carl, "tabelle"))
            quiet = trips.mark
            await written_on_their_own(bot.front.croupier)
            assert time.monotonic() - last_write >= ACKNOWLEDGE_AFTER_SECONDS
            tail = await ended_since(trips, quiet)

    refused = [m.content for m in emu.bot_messages if m.content.startswith("⚠️")]
    assert refused == []
    (_, opening), *rest = paced.requests
    assert [t.ended for t in opening] == ["rollback", "commit"], opening  # the plan, then the opening
    assert all(s.startswith("SELECT") for s in opening[0].statements), opening[0].statements
    for what, transactions in rest:
        assert len(transactions) == 1, (what, [t.statements for t in transactions])
        assert not acknowledging(transactions[0]), what
    *played, (_, (standings,)) = rest
    assert all(transactions[0].ended == "commit" for _, transactions in played)
    only_reads(trips, modes, trips.transactions.index(standings))  # /tabelle: a read, no write lock
    statements = [s for _, transactions in played for s in transactions[0].statements]
    ridden = sum(s.startswith("UPDATE command_log SET delivery") for s in statements)
    assert ridden >= len(played) - 1  # each answer's acknowledgement rode on a later request
    assert len(tail) == 1, [t.statements for t in tail]
    assert acknowledging(tail[0]), tail[0].statements
    assert tail[0].ended == "commit"
    with table.store.transaction(read_only=True) as uow:
        assert uow.delivery.pending(table.clock.now) == ()  # every answer is acknowledged
    requests = len(paced.requests)
    total = sum(len(transactions) for _, transactions in paced.requests) + len(tail)
    print(f"{table.store.dialect}: {total} transactions for {requests} requests = {total / requests:.2f}")
    assert total / requests <= 1.2


async def test_a_round_of_the_turn_clock_with_nothing_due_only_reads(table: Table) -> None:
    """The turn clock's round (every half minute by default): with no deadline passed and nobody to
    remind it reads, without the write lock, and writes nothing."""
    table.dice.will_roll(3)
    p, engine = table.people, table.store.engine
    async with table.running() as bot:
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        await table.slash_message(p.anna, "mitmachen")
        await table.said(p.anna, "weiter")  # a deadline a day away
        with counted(engine) as trips, begun(engine) as modes:
            assert await bot.front.tick() == 0
        assert len(trips.transactions) == 2, [t.statements for t in trips.transactions]
        for index in range(2):
            only_reads(trips, modes, index)


async def test_a_typed_move_a_press_and_a_slash_command_are_one_transaction_each(table: Table) -> None:
    p = table.people
    table.dice.will_roll(3, 4)
    async with table.running() as bot:
        with counted(table.store.engine) as trips:
            mark = trips.mark
            await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
            one_transaction(trips, mark)

            mark = trips.mark
            await table.slash_message(p.anna, "mitmachen")
            one_transaction(trips, mark)

            await bot.front.outbox.idle()  # the sign-up's answer is out, its acknowledgement waiting
            mark = trips.mark
            board = await table.said(p.anna, "weiter")
            typed = one_transaction(trips, mark)
            # One read of the channel (settings and open game together), then the move's writes — and
            # the acknowledgement of the answers posted before (the opening, the sign-up), riding along.
            # On SQLite the writer knows the channel is as its own sign-up left it
            # (bot.service.warm_channels): no read at all.
            reads = 0 if table.store.dialect == "sqlite" else 1
            assert sum(s.startswith("SELECT") for s in typed.statements) == reads, typed.statements
            assert not reads or typed.statements[0].startswith("SELECT")
            assert sum(s.startswith("UPDATE command_log") for s in typed.statements) == 1, typed.statements

            mark = trips.mark
            await table.pressed(board, custom_id_for(board, CONTINUE), p.anna)
            one_transaction(trips, mark)
            assert trips.pings == 0


async def test_chit_chat_costs_nothing_with_or_without_a_game(table: Table) -> None:
    p = table.people
    table.dice.will_roll(5)
    async with table.running():
        with counted(table.store.engine) as trips:
            mark = trips.mark
            await table.say(p.anna, "na, spielt heute jemand?")  # no game in the channel yet
            await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
            one_transaction(trips, mark)  # only the opening touched the store

            await table.slash_message(p.anna, "mitmachen")
            mark = trips.mark
            await table.say(p.ben, "viel Glück, Anna!")  # a game is open: still chit-chat
            await table.say(p.anna, "ich bin so weit")
            await table.said(p.anna, "weiter")  # answered after the chit-chat (one lock per channel)
            one_transaction(trips, mark)
            assert trips.pings == 0


async def test_a_line_the_channel_s_game_does_not_read_is_one_read_without_the_write_lock(
    table: Table,
) -> None:
    p = table.people
    table.dice.will_roll(3)
    engine = table.store.engine
    async with table.running():
        with counted(engine) as trips, begun(engine) as modes:
            mark = trips.mark
            await table.say(p.anna, "weiter")  # Die verflixte 6!'s word, and no game in the channel
            await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
            assert len(trips.since(mark)) == 2, [t.statements for t in trips.since(mark)]
            only_reads(trips, modes, mark)
            assert trips.transactions[mark + 1].ended == "commit"  # the opening
            assert modes[mark + 1] in ("IMMEDIATE", "")

            await table.slash_message(p.anna, "mitmachen")
            mark = trips.mark
            await table.say(p.ben, "attaque anna")  # Killer's word in a Durchgang's channel
            near = await table.said(p.anna, "wieter")  # a near miss from the player to act
            assert near.content == refusal("error.did_you_mean", word="weiter")
            assert len(trips.since(mark)) == 2, [t.statements for t in trips.since(mark)]
            only_reads(trips, modes, mark)
            only_reads(trips, modes, mark + 1)

            mark = trips.mark
            await table.said(p.anna, "weiter")  # the channel's game reads it: straight to the writer
            one_transaction(trips, mark)
            assert modes[mark] in ("IMMEDIATE", "")
            assert trips.pings == 0


async def test_the_hint_that_no_game_is_open_writes_nothing(table: Table) -> None:
    """ "weiter" with no game open is answered once per player and a few minutes: each such line is
    one read, the hint included; who was told is remembered without a write."""
    p = table.people
    engine = table.store.engine
    async with table.running():
        with counted(engine) as trips, begun(engine) as modes:
            mark = trips.mark
            told = await table.said(p.anna, "weiter")
            assert told.content == table.refusal("error.nothing_open")
            await table.say(p.anna, "weiter")  # not answered again
            await table.said(p.ben, "weiter")
            assert len(trips.since(mark)) == 3, [t.statements for t in trips.since(mark)]
            for index in range(mark, mark + 3):
                only_reads(trips, modes, index)
            assert trips.pings == 0
