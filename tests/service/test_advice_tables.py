"""The croupier service answers Killer's ``conseil`` and ``auto`` from the shipped odds tables: the
first question after start builds no solver, whatever the number of dice (K5-A1 advice), and a file
that cannot be used costs speed, never an answer."""

from __future__ import annotations

import logging
import threading

import pytest

from bot.service import odds_tables
from bot.service.croupier import Croupier
from bot.store import Store
from engine.game import Join, Start
from engine.killer import odds
from tests.dice import scripted
from tests.roundtrips import counted
from tests.service.helpers import MODERATOR, Table


class NoSolver(odds.Solver):
    def __init__(self, dice: int, goal: odds.Goal, progress: odds.Progress | None = None) -> None:
        raise AssertionError(f"a solver was built for {dice} dice, goal {goal}")


async def started(store: Store, dice: int) -> Table:
    table = Table(Croupier(store=store, dice_factory=scripted([6, 5, 4, 3, 2, 1] * 40)))
    assert (await table.open("killer", {"dice": dice})).ok
    await table.do("anna", Join("Anna"))
    await table.do("ben", Join("Ben"))
    assert (await table.do(MODERATOR, Start())).ok
    return table


def test_importing_the_service_installs_the_shipped_tables() -> None:
    assert isinstance(odds.solver.source, odds_tables.Shipped)


@pytest.mark.parametrize("dice", [3, 7, 10])
async def test_K5_A1_conseil_and_auto_build_no_solver(
    store: Store, dice: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    fresh = odds.Solvers()  # what a process starts from: nothing built, the shipped file not read yet
    shipped = odds_tables.Shipped()
    opened: list[odds.Goal] = []

    def watched(dice: int, goal: odds.Goal) -> odds.Strategy | None:
        opened.append(goal)
        return shipped(dice, goal)

    fresh.provide(watched)
    monkeypatch.setattr(odds, "solver", fresh)
    monkeypatch.setattr(odds, "Solver", NoSolver)
    table = await started(store, dice)
    player, autos = "anna", 0
    while autos < 30:  # both setup rolls (kept for the sum), then turns (for an attack) until one hits
        asked = await table.say(player, "conseil")
        assert asked.ok
        assert asked.private
        played = await table.say(player, "auto")
        if not played.ok:  # an attack to aim: no keep phase to advise on
            break
        autos += 1
        player = played.to_act or player
    assert autos >= 3
    assert {"sum", "attack"} <= set(opened)


async def test_without_usable_tables_the_solver_answers(
    store: Store, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(odds_tables, "FILE", "no-such-file.bin")
    fresh = odds.Solvers()
    odds_tables.install(fresh)
    monkeypatch.setattr(odds, "solver", fresh)
    table = await started(store, 4)
    with caplog.at_level(logging.WARNING, logger="bot.service.odds_tables"):
        assert (await table.say("anna", "conseil")).ok
    assert "Killer odds tables unusable" in caplog.text
    assert isinstance(fresh(4, "sum"), odds.Solver)


async def test_the_shipped_file_is_read_outside_any_transaction_and_off_the_loop(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reading the file is I/O: like building a solver, it happens before a move's transaction (the
    service's preparation of ``auto``) or, for ``conseil``, off the event loop with none open."""
    table = await started(store, 5)
    seen: list[tuple[bool, bool]] = []
    real = odds_tables.read
    for command in ("auto", "conseil"):
        fresh = odds.Solvers()
        odds_tables.install(fresh)
        monkeypatch.setattr(odds, "solver", fresh)
        with counted(store.engine) as trips:

            def watched() -> odds_tables.Tables | None:
                open_now = any(t.ended == "" for t in trips.transactions)
                seen.append((open_now, threading.current_thread() is threading.main_thread()))
                return real()

            monkeypatch.setattr(odds_tables, "read", watched)
            assert (await table.say("anna", command)).ok
    assert seen == [(False, False), (False, False)]
