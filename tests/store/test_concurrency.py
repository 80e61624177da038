"""Two bot processes on one database: exactly one wins every race, the other is told and writes nothing.

Each "process" is a :class:`Store` of its own (its own engine and connections). On PostgreSQL both
units of work run truly side by side: a barrier makes both read before either writes. On SQLite a
unit of work holds the write lock from its start, so the second one waits for the first; the race
that remains there is between versions loaded earlier, which is what the version column guards.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime

import pytest

from bot.store import DuplicateMessage, GameAlreadyOpen, GameRecord, StaleVersion, Store
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
    async with store.unit_of_work() as uow:
        tournament = await uow.tournaments.create("g", channel, "Cup", "sum", NOW)
        game = await uow.games.create(
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
        await uow.commit()
    return game


async def race(*runners: Callable[[asyncio.Barrier], Awaitable[str]]) -> list[str]:
    barrier = asyncio.Barrier(len(runners))
    results = await asyncio.wait_for(asyncio.gather(*(run(barrier) for run in runners)), timeout=60)
    return sorted(results)


@POSTGRES_ONLY
async def test_two_writers_that_read_the_same_version_exactly_one_saves(
    two_processes: tuple[Store, Store],
) -> None:
    game = await open_game(two_processes[0])

    def writer(store: Store, name: str) -> Callable[[asyncio.Barrier], Awaitable[str]]:
        async def run(barrier: asyncio.Barrier) -> str:
            async with store.unit_of_work() as uow:
                loaded = await uow.games.get(game.id)
                assert loaded is not None
                await barrier.wait()  # both have read version 1; now both write
                try:
                    await uow.games.save(
                        loaded.id,
                        loaded.version,
                        {"by": name},
                        1,
                        None,
                        None,
                        [Seat("anna", "Anna", "playing", 6)],
                    )
                    await uow.log.append(
                        f"msg-{name}", channel="chan", actor="anna", text="weiter", now=NOW, game_id=game.id
                    )
                    await uow.commit()
                except StaleVersion:
                    return "stale"
                return f"saved by {name}"

        return run

    results = await race(writer(two_processes[0], "one"), writer(two_processes[1], "two"))
    assert results[1] == "stale"
    assert results[0] in {"saved by one", "saved by two"}
    winner = results[0].removeprefix("saved by ")
    async with two_processes[0].unit_of_work() as uow:
        stored = await uow.games.get(game.id)
        log = await uow.log.of_game(game.id)
    assert stored is not None
    assert (stored.version, stored.snapshot) == (2, {"by": winner})
    assert [entry.message_id for entry in log] == [f"msg-{winner}"]  # the loser wrote nothing


async def test_two_writers_holding_one_loaded_version_exactly_one_saves(
    two_processes: tuple[Store, Store],
) -> None:
    game = await open_game(two_processes[0])

    def writer(store: Store, name: str) -> Callable[[asyncio.Barrier], Awaitable[str]]:
        async def run(barrier: asyncio.Barrier) -> str:
            await barrier.wait()
            try:
                async with store.unit_of_work() as uow:
                    await uow.games.save(game.id, game.version, {"by": name}, 1, None, None, [])
                    await uow.commit()
            except StaleVersion:
                return "stale"
            return "saved"

        return run

    assert await race(writer(two_processes[0], "one"), writer(two_processes[1], "two")) == ["saved", "stale"]
    async with two_processes[1].unit_of_work() as uow:
        stored = await uow.games.get(game.id)
    assert stored is not None
    assert stored.version == 2


async def test_two_processes_opening_a_game_in_one_channel_exactly_one_opens(
    two_processes: tuple[Store, Store], db_backend: str
) -> None:
    async with two_processes[0].unit_of_work() as uow:
        tournament = await uow.tournaments.create("g", "chan", "Cup", "sum", NOW)
        await uow.commit()

    def opener(store: Store, seed: bytes) -> Callable[[asyncio.Barrier], Awaitable[str]]:
        async def run(barrier: asyncio.Barrier) -> str:
            if db_backend == "sqlite":
                await barrier.wait()  # SQLite: the second unit of work waits for the lock
            try:
                async with store.unit_of_work() as uow:
                    if db_backend == "postgresql":
                        assert await uow.games.open_in("chan") is None
                        await barrier.wait()  # both saw a free channel
                    await uow.games.create(tournament.id, "chan", "killer", {}, seed, "c" * 64, {}, None, NOW)
                    await uow.commit()
            except GameAlreadyOpen:
                return "refused"
            return "opened"

        return run

    assert await race(opener(two_processes[0], b"a"), opener(two_processes[1], b"b")) == ["opened", "refused"]
    async with two_processes[0].unit_of_work() as uow:
        opened = await uow.games.open_in("chan")
        assert opened is not None
        assert len(await uow.games.closed_in(tournament.id)) == 0
    assert opened.number == 1


async def test_one_message_delivered_to_two_processes_is_handled_once(
    two_processes: tuple[Store, Store], db_backend: str
) -> None:
    game = await open_game(two_processes[0])

    def handler(store: Store) -> Callable[[asyncio.Barrier], Awaitable[str]]:
        async def run(barrier: asyncio.Barrier) -> str:
            if db_backend == "sqlite":
                await barrier.wait()
            try:
                async with store.unit_of_work() as uow:
                    if await uow.log.find("discord-1") is not None:
                        return "already handled"
                    if db_backend == "postgresql":
                        await barrier.wait()  # both found no entry
                    await uow.log.append(
                        "discord-1", channel="chan", actor="anna", text="weiter", now=NOW, game_id=game.id
                    )
                    await uow.commit()
            except DuplicateMessage:
                return "already handled"
            return "handled"

        return run

    assert await race(handler(two_processes[0]), handler(two_processes[1])) == ["already handled", "handled"]
    async with two_processes[0].unit_of_work() as uow:
        assert len(await uow.log.of_game(game.id)) == 1
