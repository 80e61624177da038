"""A plan for a game in a thread of its own (``Croupier.plan_open``, asked by a front end that makes
threads) writes nothing: in a home that planned a thread before, it is made in a reading unit of work —
on SQLite no ``BEGIN IMMEDIATE`` — and a home whose setting turned threads off since gets its game
opened in place all the same. And an opening's live table is drawn from what the opening wrote, not
read back. On SQLite and PostgreSQL."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, event

from bot.service.croupier import Croupier, Incoming
from bot.store import Store
from bot.store.db import SQLITE_BEGIN
from tests.roundtrips import counted
from tests.service.helpers import GUILD, MODERATOR, Table

HOME = "home-1"


@contextmanager
def begun(engine: Engine) -> Iterator[list[str]]:
    """How each transaction begins: "IMMEDIATE" (SQLite's write lock), "DEFERRED" (a reader), or ""
    (PostgreSQL, which has no such lock)."""
    modes: list[str] = []

    def begin(connection: Any) -> None:
        sqlite = engine.dialect.name == "sqlite"
        modes.append(connection.get_execution_options().get(SQLITE_BEGIN, "IMMEDIATE") if sqlite else "")

    event.listen(engine, "begin", begin)
    try:
        yield modes
    finally:
        event.remove(engine, "begin", begin)


def asked_in_text_channel(table: Table) -> Incoming:
    """``/durchgang öffnen`` typed in a text channel, where games get threads unless turned off."""
    return dataclasses.replace(table.msg(MODERATOR), channel=HOME, place="text")


async def test_a_homes_second_plan_is_a_read_without_the_write_lock(store: Store) -> None:
    table = Table(Croupier(store=store))
    first = await table.croupier.plan_open(asked_in_text_channel(table), "verflixte6", {})
    assert first.ok
    assert first.thread_title  # a thread is wanted: nothing was opened
    with counted(store.engine) as trips, begun(store.engine) as modes:
        second = await table.croupier.plan_open(asked_in_text_channel(table), "verflixte6", {})
    assert second.thread_title == first.thread_title
    (transaction,) = trips.transactions
    assert transaction.ended == "rollback"
    assert all(s.startswith("SELECT") for s in transaction.statements), transaction.statements
    assert modes == ["DEFERRED" if store.dialect == "sqlite" else ""]


async def test_a_home_that_turned_threads_off_since_gets_the_game_in_place(store: Store) -> None:
    table = Table(Croupier(store=store))
    assert (await table.croupier.plan_open(asked_in_text_channel(table), "verflixte6", {})).thread_title
    with store.transaction() as uow:
        uow.settings.set(GUILD, HOME, threads=False)
        uow.commit()
    with counted(store.engine) as trips:
        opened = await table.croupier.plan_open(asked_in_text_channel(table), "verflixte6", {})
    assert opened.ok
    assert not opened.thread_title
    assert [t.ended for t in trips.transactions] == ["rollback", "commit"]  # the read, then the opening
    with store.transaction(read_only=True) as uow:
        assert uow.games.open_in(HOME) is not None


async def test_an_openings_live_table_is_not_read_back(store: Store) -> None:
    table = Table(Croupier(store=store))
    planned = await table.croupier.plan_open(asked_in_text_channel(table), "verflixte6", {})
    thread = dataclasses.replace(
        asked_in_text_channel(table), channel="thread-1", parent=HOME, place="thread"
    )
    with counted(store.engine) as trips:
        opened = await table.croupier.open_game(thread, "verflixte6", {}, live_message="thread-1")
    assert opened.thread_title == planned.thread_title
    assert opened.live is not None
    assert opened.live.message == "thread-1"
    assert opened.live.joinable
    (transaction,) = trips.transactions
    logged = next(i for i, s in enumerate(transaction.statements) if s.startswith("INSERT INTO command_log"))
    assert not any(s.startswith("SELECT games") for s in transaction.statements[logged:]), (
        transaction.statements
    )
