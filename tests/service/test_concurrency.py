"""Two croupier processes sharing one database never both apply a move.

Each "process" is a Croupier with its own Store (own connection pool), so the only thing keeping them
apart is the database: the unique message id and the version column.
"""

from __future__ import annotations

import asyncio
from typing import Any

import psycopg
import pytest
from sqlalchemy import event

from bot.service.croupier import Croupier, seed_from_text
from bot.store import Store
from engine.game import Join
from tests.service.helpers import Table


async def _two_croupiers(db_url: str) -> tuple[Store, Store, Table, Table]:
    first, second = await Store.open(db_url), await Store.open(db_url)
    seeds = seed_from_text("race")
    one = Table(Croupier(store=first, seed_source=seeds), sender="process-1")
    two = Table(Croupier(store=second, seed_source=seeds), sender="process-2")
    return first, second, one, two


async def test_the_same_message_raced_through_two_processes_is_applied_once(db_url: str) -> None:
    first, second, one, two = await _two_croupiers(db_url)
    try:
        await one.open()
        await one.do("anna", Join("Anna"))
        for round_number in range(5):
            mid = f"race-{round_number}"
            a, b = await asyncio.gather(
                one.say("anna", "weiter", mid=mid), two.say("anna", "weiter", mid=mid)
            )
            assert a.text == b.text
            assert sum(not r.duplicate for r in (a, b)) >= 1
        with first.transaction() as uow:
            record = uow.games.open_in(one.channel)
            assert record is not None
            entries = uow.log.of_game(record.id)
        applied = [e for e in entries if e.message_id.startswith("race-")]
        assert len(applied) == 5
        assert record.dice_used == sum(len(e.dice) for e in entries)
    finally:
        await first.close()
        await second.close()


async def test_different_moves_raced_through_two_processes_are_all_applied_in_turn(db_url: str) -> None:
    first, second, one, two = await _two_croupiers(db_url)
    try:
        await one.open()
        joins = await asyncio.gather(
            *(
                (one if i % 2 else two).do(name, Join(name.capitalize()))
                for i, name in enumerate(("anna", "ben", "cleo", "dora"))
            )
        )
        assert all(reply.ok for reply in joins)
        with second.transaction() as uow:
            record = uow.games.open_in(one.channel)
        assert record is not None
        assert sorted(p.player for p in record.participants) == ["anna", "ben", "cleo", "dora"]
        assert record.version == 1 + 4  # opened at version 1, one version per applied move
    finally:
        await first.close()
        await second.close()


@pytest.mark.parametrize(
    "db_backend", [pytest.param("postgresql", marks=pytest.mark.postgres)], indirect=True
)
async def test_a_move_the_database_aborted_to_break_a_deadlock_is_run_again_once(db_url: str) -> None:
    # Two processes acknowledging answers while they write can wait for each other; PostgreSQL then ends
    # one transaction (deadlock_detected). The croupier runs that unit of work again: the move is applied
    # once and answered, not lost in an error.
    store = await Store.open(db_url)
    table = Table(Croupier(store=store, seed_source=seed_from_text("deadlock")))
    aborted: list[str] = []

    def abort_the_first_save(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if not aborted and statement.lstrip().startswith("WITH saved AS"):
            aborted.append(statement)
            raise psycopg.errors.DeadlockDetected("deadlock detected")

    try:
        await table.open()
        await table.do("anna", Join("Anna"))
        event.listen(store.engine, "before_cursor_execute", abort_the_first_save)
        reply = await table.say("anna", "weiter", mid="the-move")
        event.remove(store.engine, "before_cursor_execute", abort_the_first_save)
        assert len(aborted) == 1  # the first try was aborted …
        assert reply.ok  # … and the second applied and answered it
        assert not reply.duplicate
        with store.transaction(read_only=True) as uow:
            record = uow.games.open_in(table.channel)
            assert record is not None
            entries = uow.log.of_game(record.id)
        assert [e.message_id for e in entries].count("the-move") == 1
        assert record.dice_used == sum(len(e.dice) for e in entries) == 1
    finally:
        await store.close()
