"""Two croupier processes sharing one database never both apply a move.

Each "process" is a Croupier with its own Store (own connection pool), so the only thing keeping them
apart is the database: the unique message id and the version column.
"""

from __future__ import annotations

import asyncio

from bot.croupier import Croupier, seed_from_text
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
