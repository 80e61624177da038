"""What an operator of a real ``croupier run`` process sees (HEALTH_PORT and LOG_FORMAT=json set, as in
docker-compose): ``croupier healthcheck`` healthy while it plays, unhealthy naming the gateway while the
emulator's gateway is cut off, healthy again after; ``/metrics`` counting the Durchgang's moves and
refusals exactly; its log one JSON object per line, one per move, never the token."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from bot.store import Store
from tests.discord_emulator import DiscordEmulator
from tests.multiprocess.fleet import Fleet
from tests.multiprocess.replay import games_in
from tests.multiprocess.rooms import Round, furnish
from tests.observability.scraping import moved, scrape, value
from tests.observability.test_healthcheck import free_port, healthcheck

pytestmark = pytest.mark.postgres

PATIENCE_S = 45.0  # discord.py reconnects with a randomised backoff of a few seconds


async def until_healthy(database: str, cwd: Path, port: int, healthy: bool) -> tuple[int, str, str]:
    """Run ``croupier healthcheck`` until its exit code says ``healthy``; its last result."""
    found: tuple[int, str, str] = (-1, "", "")
    try:
        async with asyncio.timeout(PATIENCE_S):
            while True:
                found = await healthcheck(database, cwd, port)
                if (found[0] == 0) == healthy:
                    return found
                await asyncio.sleep(0.2)
    except TimeoutError:
        raise AssertionError(f"healthcheck stayed {found}") from None


async def test_a_running_bot_as_its_operator_sees_it(
    emu: DiscordEmulator, fleet: Fleet, store: Store, database: str, tmp_path: Path
) -> None:
    room = await furnish(emu, "Spelunke")
    port = free_port()
    bot = await fleet.start("only", [room.guild], HEALTH_PORT=str(port), LOG_FORMAT="json")
    await bot.ready()
    url = f"http://127.0.0.1:{port}"
    assert await until_healthy(database, tmp_path, port, True) == (0, "", "")

    before = await scrape(url)
    r = Round(emu, room, store)
    await r.play()
    after = await scrape(url)

    await emu.cut_gateway()
    code, out, err = await until_healthy(database, tmp_path, port, False)
    assert (code, out) == (1, "")
    assert err.startswith("croupier: not ready: gateway: shard 0 disconnected for ")
    emu.restore_gateway()
    assert await until_healthy(database, tmp_path, port, True) == (0, "", "")
    assert await fleet.stop_all() == {"only": 0}

    [(record, entries)] = await games_in(store, room.channel)
    moves = [e for e in entries if e.command is not None and e.command["type"] != "Open"]
    refusals = [e for e in entries if e.command is None]
    assert moves
    labels = {"game": "verflixte6", "front_end": "discord"}
    assert moved(before, after, "croupier_moves_total", **labels) == len(moves)
    assert moved(before, after, "croupier_refusals_total", **labels) == len(refusals)
    assert value(after, "croupier_ready") == 1

    log = bot.log()
    assert emu.token not in log
    lines = [json.loads(line) for line in log.splitlines()]  # every line one JSON object
    errors = [line for line in lines if line["level"] in ("ERROR", "CRITICAL")]
    assert errors  # the outage: discord.py says so at every try, with the one-line traceback
    assert all(line["message"].startswith("Attempting a reconnect for shard ID 0") for line in errors)
    assert all("\n" in line["exception"] for line in errors)
    by_message = {line["message_id"]: line for line in lines if line.get("event") == "request"}
    for entry in moves:
        line = by_message[entry.message_id]
        assert (line["guild"], line["channel"], line["game_id"]) == (
            str(room.guild),
            str(room.channel),
            record.id,
        )
        assert line["outcome"] == "moved"
        assert isinstance(line["latency_ms"], float)
