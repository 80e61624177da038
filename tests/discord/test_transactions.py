"""What a Discord request costs the database, end to end through the real client: a typed move, a
press and a slash command are ONE transaction each; chit-chat is none, with or without a game; a line
that the channel's game does not read (another game's word, a game word with no game, a near miss) is
at most one read that takes no write lock; and no unit of work is preceded by a connection ping. On
SQLite and PostgreSQL.

How acknowledgements are counted: the bot acknowledges each answer it posted, and those
acknowledgements ride on the next command's own transaction (one ``UPDATE command_log`` before its
commit), so they add a statement, never a transaction. Only when the bot is idle for a while do they
get a transaction of their own; here that wait is made longer than any test, so every transaction
counted is a command's."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import Engine, event

from bot.store.db import SQLITE_BEGIN
from tests.conftest import BACKENDS
from tests.discord.helpers import Table, custom_id_for, refusal, says
from tests.roundtrips import RoundTrips, Transaction, counted

pytestmark = pytest.mark.parametrize("db_backend", BACKENDS, indirect=True)


@pytest.fixture(autouse=True)
def _acknowledgements_ride_along(table: Table) -> None:
    table.options = dataclasses.replace(table.options, acknowledge_after_seconds=3600)


CONTINUE = says("choice.continue")  # the button's label, as the game's catalogue names it


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
