"""Killer's ``conseil`` is a question, not a move: anybody may ask, the answer is private to the asker,
nothing is written (no version, no log entry), and the odds are worked out off the event loop and
outside any transaction (the first table for ten dice takes a while)."""

from __future__ import annotations

import threading

import pytest

from bot.croupier import Croupier
from bot.store import Store
from engine.game import Join, Start
from engine.killer import game as killer_game
from tests.dice import scripted
from tests.faults import harness
from tests.roundtrips import counted
from tests.service.helpers import MODERATOR, Table

SQLITE_ONLY = pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True)


async def started(store: Store) -> Table:
    table = Table(Croupier(store=store, dice_factory=scripted([6, 5, 4, 3, 2, 1] * 10)))
    await table.open("killer")
    await table.do("anna", Join("Anna"))
    await table.do("ben", Join("Ben"))
    assert (await table.do(MODERATOR, Start())).ok
    return table


@pytest.mark.parametrize("asker", ["anna", "ben", "zed"])  # the player to act, another player, a spectator
async def test_advice_is_private_and_writes_nothing(store: Store, asker: str) -> None:
    table = await started(store)
    before = await harness.contents(store)
    with counted(store.engine) as trips:
        reply = await table.say(asker, "conseil")
    assert reply.ok
    assert reply.private
    assert reply.lines
    assert reply.board is None
    assert await harness.contents(store) == before  # no version, no log entry, no game change
    assert [t.statements[0].split()[0] for t in trips.transactions] == ["SELECT"]
    assert all(t.ended != "commit" for t in trips.transactions)


@SQLITE_ONLY
async def test_the_odds_are_worked_out_outside_any_transaction_and_off_the_loop(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await started(store)
    seen: list[tuple[bool, bool]] = []
    real = killer_game.advice
    with counted(store.engine) as trips:

        def watched(state, by):  # type: ignore[no-untyped-def]
            open_now = any(t.ended == "" for t in trips.transactions)
            seen.append((open_now, threading.current_thread() is threading.main_thread()))
            return real(state, by)

        monkeypatch.setattr(killer_game, "advice", watched)
        assert (await table.say("ben", "conseil")).ok
    assert seen == [(False, False)]  # no transaction open; not the event loop's thread
