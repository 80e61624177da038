"""Two bot processes on one database: exactly one wins every race, the other is told and writes nothing.

Each "process" is a :class:`Store` of its own (its own engine and connections). On PostgreSQL both
units of work run truly side by side: a barrier makes both read before either writes. On SQLite a
unit of work holds the write lock from its start, so the second one waits for the first; the race
that remains there is between versions loaded earlier, which is what the version column guards.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime

import pytest

from bot.store import DuplicateMessage, GameAlreadyOpen, GameRecord, StaleVersion, Store, TransactionAborted
from engine.game import Seat

NOW = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)
POSTGRES_ONLY = pytest.mark.parametrize(
    "db_backend", [pytest.param("postgresql", marks=pytest.mark.postgres)], indirect=True
)


@pytest.fixture
async def two_processes(db_url: str) -> AsyncIterator[tuple[Store, Store]]:
    first = await Store.open(db_url)
    second = await Store.open(db_url)
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


async def open_game(store: Store, channel: str = "chan") -> GameRecord:
    with store.transaction() as uow:
        tournament = uow.tournaments.create("g", channel, "Cup", "sum", NOW)
        game = uow.games.create(
            tournament.id,
            channel,
            "verflixte6",
            {},
            b"seed",
            "c" * 64,
            {"turn": 1},
            "anna",
            NOW,
            participants=[Seat("anna", "Anna", "playing", 0)],
        )
        uow.commit()
    return game


async def race(*runners: Callable[[threading.Barrier], str]) -> list[str]:
    """Each runner in a thread of its own (two processes' units of work really run side by side)."""
    barrier = threading.Barrier(len(runners), timeout=30)
    results = await asyncio.wait_for(
        asyncio.gather(*(asyncio.to_thread(run, barrier) for run in runners)), timeout=60
    )
    return sorted(results)


@POSTGRES_ONLY
async def test_two_writers_that_read_the_same_version_exactly_one_saves(
    two_processes: tuple[Store, Store],
) -> None:
    game = await open_game(two_processes[0])

    def writer(store: Store, name: str) -> Callable[[threading.Barrier], str]:
        def run(barrier: threading.Barrier) -> str:
            with store.transaction() as uow:
                loaded = uow.games.get(game.id)
                assert loaded is not None
                barrier.wait()  # both have read version 1; now both write
                try:
                    uow.games.save(
                        loaded.id,
                        loaded.version,
                        {"by": name},
                        1,
                        None,
                        None,
                        [Seat("anna", "Anna", "playing", 6)],
                    )
                    uow.log.append(
                        f"msg-{name}", channel="chan", actor="anna", text="weiter", now=NOW, game_id=game.id
                    )
                    uow.commit()
                except StaleVersion:
                    return "stale"
                return f"saved by {name}"

        return run

    results = await race(writer(two_processes[0], "one"), writer(two_processes[1], "two"))
    assert results[1] == "stale"
    assert results[0] in {"saved by one", "saved by two"}
    winner = results[0].removeprefix("saved by ")
    with two_processes[0].transaction() as uow:
        stored = uow.games.get(game.id)
        log = uow.log.of_game(game.id)
    assert stored is not None
    assert (stored.version, stored.snapshot) == (2, {"by": winner})
    assert [entry.message_id for entry in log] == [f"msg-{winner}"]  # the loser wrote nothing


async def test_two_writers_holding_one_loaded_version_exactly_one_saves(
    two_processes: tuple[Store, Store],
) -> None:
    game = await open_game(two_processes[0])

    def writer(store: Store, name: str) -> Callable[[threading.Barrier], str]:
        def run(barrier: threading.Barrier) -> str:
            barrier.wait()
            try:
                with store.transaction() as uow:
                    uow.games.save(game.id, game.version, {"by": name}, 1, None, None, [])
                    uow.commit()
            except StaleVersion:
                return "stale"
            return "saved"

        return run

    assert await race(writer(two_processes[0], "one"), writer(two_processes[1], "two")) == ["saved", "stale"]
    with two_processes[1].transaction() as uow:
        stored = uow.games.get(game.id)
    assert stored is not None
    assert stored.version == 2


async def test_two_processes_opening_a_game_in_one_channel_exactly_one_opens(
    two_processes: tuple[Store, Store], db_backend: str
) -> None:
    with two_processes[0].transaction() as uow:
        tournament = uow.tournaments.create("g", "chan", "Cup", "sum", NOW)
        uow.commit()

    def opener(store: Store, seed: bytes) -> Callable[[threading.Barrier], str]:
        def run(barrier: threading.Barrier) -> str:
            if db_backend == "sqlite":
                barrier.wait()  # SQLite: the second unit of work waits for the lock
            try:
                with store.transaction() as uow:
                    if db_backend == "postgresql":
                        assert uow.games.open_in("chan") is None
                        barrier.wait()  # both saw a free channel
                    uow.games.create(tournament.id, "chan", "killer", {}, seed, "c" * 64, {}, None, NOW)
                    uow.commit()
            except GameAlreadyOpen:
                return "refused"
            return "opened"

        return run

    assert await race(opener(two_processes[0], b"a"), opener(two_processes[1], b"b")) == ["opened", "refused"]
    with two_processes[0].transaction() as uow:
        opened = uow.games.open_in("chan")
        assert opened is not None
        assert len(uow.games.closed_in(tournament.id)) == 0
    assert opened.number == 1


async def test_one_message_delivered_to_two_processes_is_handled_once(
    two_processes: tuple[Store, Store], db_backend: str
) -> None:
    game = await open_game(two_processes[0])

    def handler(store: Store) -> Callable[[threading.Barrier], str]:
        def run(barrier: threading.Barrier) -> str:
            if db_backend == "sqlite":
                barrier.wait()
            try:
                with store.transaction() as uow:
                    if uow.log.find("discord-1") is not None:
                        return "already handled"
                    if db_backend == "postgresql":
                        barrier.wait()  # both found no entry
                    uow.log.append(
                        "discord-1", channel="chan", actor="anna", text="weiter", now=NOW, game_id=game.id
                    )
                    uow.commit()
            except DuplicateMessage:
                return "already handled"
            return "handled"

        return run

    assert await race(handler(two_processes[0]), handler(two_processes[1])) == ["already handled", "handled"]
    with two_processes[0].transaction() as uow:
        assert len(uow.log.of_game(game.id)) == 1


@POSTGRES_ONLY
async def test_two_writers_waiting_for_each_other_one_is_aborted_and_told_so(
    two_processes: tuple[Store, Store],
) -> None:
    # Two units of work that lock the same two log rows in opposite orders: the server ends one of them
    # (deadlock_detected), and the store says so as a conflict to retry, not as a driver error.
    await open_game(two_processes[0])
    with two_processes[0].transaction() as uow:
        first = uow.log.append("m1", channel="chan", actor="anna", text="weiter", now=NOW, delivery="pending")
        second = uow.log.append("m2", channel="chan", actor="anna", text="stopp", now=NOW, delivery="pending")
        uow.commit()

    def writer(store: Store, order: tuple[int, int]) -> Callable[[threading.Barrier], str]:
        def run(barrier: threading.Barrier) -> str:
            try:
                with store.transaction() as uow:
                    uow.delivery.mark([order[0]], "delivered", NOW)
                    barrier.wait()  # each holds one row; now each asks for the other's
                    uow.delivery.mark([order[1]], "delivered", NOW)
                    uow.commit()
            except TransactionAborted as aborted:
                return "aborted" if "deadlock" in aborted.reason else aborted.reason
            return "committed"

        return run

    results = await race(
        writer(two_processes[0], (first.id, second.id)), writer(two_processes[1], (second.id, first.id))
    )
    assert results == ["aborted", "committed"]
