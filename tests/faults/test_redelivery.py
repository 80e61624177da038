"""Redelivered messages: a front end may hand the same message over again, at once or much later.

Discord redelivers events after a reconnect, and a front end that crashed redelivers what it had not
answered. The message id is the exactly-once key: a message applied before must be answered again
from the log and applied no second time, however the duplicates are interleaved.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from bot.console.terminal import Console
from bot.games import GAMES, scope_of
from bot.store import Store
from bot.texts import CONSOLE_COMMANDS, render
from tests.faults import harness, worker
from tests.faults.scripts import KILLER, ROBBERY, SCRIPTS, Script
from tests.service.helpers import open_game_view

Answers = dict[str, tuple[bool, str]]
V6 = scope_of(GAMES["verflixte6"])


@pytest.fixture(scope="module")
def expected(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Answers, dict[str, Any]]]:
    """Every script's answers and final store, each message delivered exactly once."""
    folder: Path = tmp_path_factory.mktemp("once")
    return {
        name: asyncio.run(harness.reference(script, f"sqlite:///{folder / f'{name}.sqlite3'}"))
        for name, script in SCRIPTS.items()
    }


async def _game_over(console: Console) -> bool:
    return await open_game_view(console.croupier.store, "console") is None


async def _redeliver(console: Console, line: str, first: tuple[bool, str]) -> None:
    """Deliver ``line`` again: it must be answered as the first time, even after its game ended."""
    again = await harness.answer(console, line)
    assert again == first, f"redelivered {line!r} was answered differently"


@pytest.mark.parametrize("script", list(SCRIPTS.values()), ids=lambda script: script.name)
async def test_every_message_delivered_twice_is_applied_once(
    store: Store, script: Script, expected: dict[str, tuple[Answers, dict[str, Any]]]
) -> None:
    answers, final = expected[script.name]
    console = worker.console_for(store, script)
    for mid, line in zip(script.ids, script.lines, strict=True):
        first = await harness.answer(console, line)
        assert first == answers[mid], line
        await _redeliver(console, line, first)
    content = await harness.contents(store)
    assert content == final, "a redelivered message was applied a second time"
    harness.consistent(content)


@pytest.mark.parametrize("script", list(SCRIPTS.values()), ids=lambda script: script.name)
async def test_duplicates_out_of_order_change_nothing(
    store: Store, script: Script, expected: dict[str, tuple[Answers, dict[str, Any]]]
) -> None:
    """After each line, some earlier lines — accepted or refused — arrive again (seeded), and at the
    end all of them once more in shuffled order."""
    answers, final = expected[script.name]
    rng = random.Random(f"out-of-order-{script.name}")
    console = worker.console_for(store, script)
    accepted: list[tuple[str, tuple[bool, str]]] = []
    redelivered = 0
    for mid, line in zip(script.ids, script.lines, strict=True):
        first = await harness.answer(console, line)
        assert first == answers[mid], line
        accepted.append((line, first))
        for earlier, its_answer in rng.sample(accepted, k=min(len(accepted), rng.choice((0, 1, 3)))):
            await _redeliver(console, earlier, its_answer)
            redelivered += 1
    everything = accepted[:]
    rng.shuffle(everything)
    for earlier, its_answer in everything:
        await _redeliver(console, earlier, its_answer)
    content = await harness.contents(store)
    assert content == final, "an out-of-order duplicate was applied"
    harness.consistent(content)
    assert redelivered > len(script.lines) // 2


SQLITE_ONLY = pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True)


@SQLITE_ONLY
async def test_a_line_redelivered_after_its_game_ended_gets_its_answer_again(
    store: Store, expected: dict[str, tuple[Answers, dict[str, Any]]]
) -> None:
    answers, final = expected[KILLER.name]
    console = worker.console_for(store, KILLER)
    for line in KILLER.lines:
        await harness.answer(console, line)
    last_move = KILLER.lines[11]  # "ben: attaque anna": the suicide attack that ends the game
    assert await _game_over(console)
    assert await harness.answer(console, last_move) == answers[KILLER.ids[11]]
    assert await harness.contents(store) == final


@SQLITE_ONLY
async def test_a_refused_message_redelivered_after_the_game_moved_on_is_not_applied(store: Store) -> None:
    """Refusals are recorded (id and answer), so a message is judged once, whatever happened since."""
    console = worker.console_for(store, ROBBERY)
    too_early = ROBBERY.lines[6]  # "ben: weiter" while anna is to act: refused
    said = {line: await harness.answer(console, line) for line in ROBBERY.lines[:13]}
    # … up to anna's "stopp": now ben is to act, and "ben: weiter" typed now would be a move.
    refused, text = said[too_early]
    assert not refused
    assert text == render("error.not_your_turn", {"player": "anna"}, "de", str, CONSOLE_COMMANDS, V6)
    before = await harness.contents(store)
    assert await harness.answer(console, too_early) == (False, text)  # the very same refusal
    assert await harness.contents(store) == before
