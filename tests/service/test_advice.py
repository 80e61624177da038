"""Killer's ``conseil`` is a question, not a move: anybody may ask, the answer is private to the asker,
nothing is written (no version, no log entry), and the odds are worked out off the event loop and
outside any transaction (the first table for ten dice takes a while). The same table drives ``auto``
and a turn timeout: it is built before their transaction, never inside it."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest

from bot.games import GAMES
from bot.markup import plain
from bot.service.croupier import Croupier
from bot.service.rendering import Narrator
from bot.spelling import CONSOLE
from bot.store import Store
from engine.game import Join, Start
from engine.killer import game as killer_game
from engine.killer import odds
from tests.dice import scripted
from tests.faults import harness
from tests.roundtrips import RoundTrips, counted
from tests.service.helpers import MODERATOR, Table

SQLITE_ONLY = pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True)


def said(key: str, **facts: object) -> str:
    """A sentence as the console's croupier says it in Killer's French; players by display name."""
    return plain(Narrator().line(key, facts, "fr", game=GAMES["killer"]))


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


class Built:
    """Every exact-odds table the solver builds while watched: was a transaction open, and was it
    built on the event loop's thread? The tables start cold, as in a fresh process."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, trips: RoundTrips) -> None:
        self.seen: list[tuple[bool, bool]] = []
        built = self.seen

        class Watched(odds.Solver):
            def __init__(self, dice: int, goal: odds.Goal) -> None:
                open_now = any(t.ended == "" for t in trips.transactions)
                built.append((open_now, threading.current_thread() is threading.main_thread()))
                super().__init__(dice, goal)

        monkeypatch.setattr(odds, "Solver", Watched)
        monkeypatch.setattr(odds, "solver", odds.Solvers())


async def test_auto_has_its_odds_table_built_before_its_transaction(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await started(store)
    with counted(store.engine) as trips:
        built = Built(monkeypatch, trips)
        reply = await table.say("anna", "auto")  # the setup roll 6 5 4 3 2: keep for the best sum
        assert reply.ok
        assert reply.lines[0] == said("killer.kept", player="Anna", values=[6], total=6)
        assert built.seen == [(False, False)]  # no transaction open; not the event loop's thread
        assert [t.ended for t in trips.transactions] == ["rollback", "commit"]  # judged, then moved
        assert (await table.say("anna", "auto")).ok  # the table is at hand now: one transaction
    assert built.seen == [(False, False)]
    assert [t.ended for t in trips.transactions] == ["rollback", "commit", "commit"]


async def test_a_turn_timeout_has_its_odds_table_built_before_its_transaction(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = [datetime(2026, 11, 30, 12, 0, tzinfo=UTC)]
    dice = scripted([6, 5, 4, 3, 2, 1] * 10)
    table = Table(Croupier(store=store, dice_factory=dice, clock=lambda: now[0]))
    assert (await table.croupier.change_settings(table.msg(MODERATOR), {"timeout": "1h"})).ok
    await table.open("killer")
    await table.do("anna", Join("Anna"))
    await table.do("ben", Join("Ben"))
    assert (await table.do(MODERATOR, Start())).to_act == "anna"
    now[0] += timedelta(hours=2)
    with counted(store.engine) as trips:
        built = Built(monkeypatch, trips)
        ((channel, reply),) = await table.croupier.apply_due_timeouts()
    assert channel == table.channel
    assert reply.spelled(CONSOLE).lines[:2] == (
        said("killer.timed_out", player="Anna", step="setup"),
        said("killer.kept", player="Anna", values=[6], total=6),
    )
    assert built.seen == [(False, False)]
