"""A Durchgang on the console, as ``/metrics`` reports it, and readiness while the database is away.

The metrics are read over HTTP from the croupier's own endpoint and parsed with prometheus-client's
parser; what they must say comes from the command log the same Durchgang left, not from the code
that counts.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from sqlalchemy.engine import make_url

from bot.console.terminal import run_console
from bot.observability.endpoint import serving
from bot.observability.health import Health, StoreHealth
from bot.store import Store
from tests.faults import harness
from tests.faults.scripts import ROBBERY
from tests.faults.worker import console_for
from tests.observability.proxy import Door
from tests.observability.scraping import failing, liveness, moved, scrape, until_ready, value

POSTGRES_ONLY = pytest.mark.parametrize(
    "db_backend", [pytest.param("postgresql", marks=pytest.mark.postgres)], indirect=True
)
SPLIT = 20  # ROBBERY's lines up to ben's robbery of cleo: the game is still open there


async def _played(console: Any, lines: tuple[str, ...]) -> list[dict[str, Any]]:
    """The lines through the console's own loop (as ``croupier console --json`` runs it)."""
    out = io.StringIO()
    await run_console(console, io.StringIO("".join(f"{line}\n" for line in lines)), out, as_json=True)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def _moves_and_refusals(log: list[dict[str, Any]]) -> tuple[int, int]:
    """From the command log: commands applied to a game (not the moderator's opening), and refusals
    recorded (no game, no command, the answer a refusal)."""
    moves = sum(1 for e in log if e["command"] is not None and e["command"]["type"] != "Open")
    refusals = sum(1 for e in log if e["command"] is None and not e["reply"]["ok"])
    return moves, refusals


async def test_a_console_durchgang_moves_the_counters_by_exactly_its_moves_and_refusals(db_url: str) -> None:
    store = await Store.open(db_url)
    try:
        health = Health()
        health.add("store", StoreHealth(store))
        async with serving(health, "127.0.0.1", 0) as endpoint:
            assert endpoint is not None
            console = console_for(store, ROBBERY)
            before = await scrape(endpoint.url)
            answers = await _played(console, ROBBERY.lines[:SPLIT])
            during = await scrape(endpoint.url)
            answers += await _played(console, ROBBERY.lines[SPLIT:])
            after = await scrape(endpoint.url)
        log = (await harness.contents(store))["log"]
    finally:
        await store.close()

    moves, refusals = _moves_and_refusals(log)
    assert (moves, refusals) == (27, 3)  # 33 lines: an opening, a chit-chat line, an export
    labels = {"game": "verflixte6", "front_end": "console"}
    assert moved(before, after, "croupier_moves_total", **labels) == moves
    assert moved(before, after, "croupier_refusals_total", **labels) == refusals
    assert moved(before, after, "croupier_moves_total", game="verflixte6", front_end="discord") == 0
    # every answer shown was timed (the chit-chat line gets none); one commit at least per write
    shown = sum(1 for answer in answers if answer["text"])
    assert moved(before, after, "croupier_answer_latency_seconds_count", front_end="console") == shown
    assert moved(before, after, "croupier_commits_total") >= moves + refusals + 1
    assert moved(before, after, "croupier_units_of_work_total", mode="write") >= moves + refusals + 1
    # the open game, as the database holds it, while it is open and once it is closed
    assert value(during, "croupier_open_games", game="verflixte6") == 1
    assert value(after, "croupier_open_games", game="verflixte6") == 0
    assert value(after, "croupier_ready") == 1
    assert value(after, "croupier_ready_condition", condition="database") == 1
    assert value(after, "croupier_ready_condition", condition="writer") == 1


@POSTGRES_ONLY
async def test_readiness_fails_while_the_database_is_unreachable_and_holds_again_after(db_url: str) -> None:
    server = make_url(db_url)
    async with Door(server.host or "127.0.0.1", server.port or 5432) as door:
        through = server.set(port=door.listen_port).render_as_string(hide_password=False)
        store = await Store.open(through)
        try:
            health = Health()
            health.add("store", StoreHealth(store))
            async with serving(health, "127.0.0.1", 0) as endpoint:
                assert endpoint is not None
                body = await until_ready(endpoint.url, True)
                assert [c["name"] for c in body["conditions"]] == ["database", "writer"]

                await door.close()  # the database's host is unreachable
                body = await until_ready(endpoint.url, False)
                assert list(failing(body)) == ["database"]
                assert failing(body)["database"].startswith("unreachable: ")
                assert (await liveness(endpoint.url))[0] == 200  # alive all the same: nothing to restart
                samples = await scrape(endpoint.url)
                assert value(samples, "croupier_ready") == 0
                assert value(samples, "croupier_ready_condition", condition="database") == 0

                await door.open()
                body = await until_ready(endpoint.url, True)
                assert failing(body) == {}
        finally:
            await store.close()
