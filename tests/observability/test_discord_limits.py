"""Discord's limits as the bot's HTTP session meets them: every 429 by its scope, and the requests that
count against the invalid request limit — 401, 403 and 429, but not a 429 of the shared scope
(https://discord.com/developers/docs/topics/rate-limits#invalid-request-limit-aka-cloudflare-bans) —
over a sliding window of ten minutes, one count for the counters, the delivery ledger and the log's
warnings. A small HTTP server answers as Discord would; the session carries the client's trace
(``bot.discord.failures.invalid_request_trace``), as discord.py's does."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator

import aiohttp
import pytest
from aiohttp import web
from prometheus_client import REGISTRY

from bot.discord.failures import Ledger, invalid_request_trace
from bot.discord.watch import GatewayWatch

ANSWERS = {
    "/shared": (429, {"X-RateLimit-Scope": "shared"}),
    "/user": (429, {"X-RateLimit-Scope": "user"}),
    "/global": (429, {"X-RateLimit-Global": "true"}),  # a global 429 without the scope header
    "/forbidden": (403, {}),
    "/unauthorized": (401, {}),
    "/fine": (200, {}),
    "/gone": (404, {}),
}


async def _answer(request: web.Request) -> web.Response:
    status, headers = ANSWERS[request.path]
    return web.json_response(
        {"message": "as Discord says", "retry_after": 0.01}, status=status, headers=headers
    )


@pytest.fixture
async def discord_like() -> AsyncIterator[str]:
    app = web.Application()
    for path in ANSWERS:
        app.router.add_get(path, _answer)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    try:
        yield f"http://{host}:{port}"
    finally:
        await runner.cleanup()


def _count(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def test_429s_by_scope_and_invalid_requests_over_ten_minutes(discord_like: str) -> None:
    now = [1000.0]
    ledger = Ledger(clock=lambda: now[0])
    names = [("croupier_discord_rate_limited_total", {"scope": s}) for s in ("user", "global", "shared")]
    names += [("croupier_discord_invalid_requests_total", {"status": s}) for s in ("401", "403", "429")]
    before = {(name, tuple(labels.items())): _count(name, **labels) for name, labels in names}
    async with aiohttp.ClientSession(trace_configs=[invalid_request_trace(ledger)]) as session:
        for path in ("/shared", "/user", "/global", "/forbidden", "/unauthorized", "/fine", "/gone", "/user"):
            async with session.get(f"{discord_like}{path}") as answer:
                await answer.read()
    moved = {key: _count(key[0], **dict(key[1])) - value for key, value in before.items()}
    assert moved == {
        ("croupier_discord_rate_limited_total", (("scope", "user"),)): 2,
        ("croupier_discord_rate_limited_total", (("scope", "global"),)): 1,
        ("croupier_discord_rate_limited_total", (("scope", "shared"),)): 1,
        ("croupier_discord_invalid_requests_total", (("status", "401"),)): 1,
        ("croupier_discord_invalid_requests_total", (("status", "403"),)): 1,
        ("croupier_discord_invalid_requests_total", (("status", "429"),)): 3,  # the shared one not
    }
    assert ledger.invalid_recent() == 5
    now[0] += 599
    assert ledger.invalid_recent() == 5
    now[0] += 2  # ten minutes and a second later, they no longer count
    assert ledger.invalid_recent() == 0


async def test_the_log_s_warnings_and_the_10_minute_figure_are_one_count(
    discord_like: str, caplog: pytest.LogCaptureFixture
) -> None:
    ledger = Ledger()
    before = _count("croupier_discord_invalid_requests_total", status="403")
    with caplog.at_level(logging.WARNING, logger="bot.discord.failures"):
        async with aiohttp.ClientSession(trace_configs=[invalid_request_trace(ledger)]) as session:
            for _ in range(100):
                async with session.get(f"{discord_like}/forbidden") as answer:
                    await answer.read()
    warnings = [r.getMessage() for r in caplog.records if "invalid requests" in r.getMessage()]
    assert len(warnings) == 1  # one line as the figure passes 100
    assert warnings[0].startswith("100 invalid requests (401/403/429) in the last 10 minutes")
    assert ledger.invalid_recent() == 100  # what croupier_discord_invalid_requests_10m shows
    assert _count("croupier_discord_invalid_requests_total", status="403") - before == 100


def test_shard_states_follow_the_gateway_events() -> None:
    now = [50.0]
    watch = GatewayWatch(clock=lambda: now[0])
    assert watch.state(0) == ("connecting", 50.0)
    now[0] = 51.0
    watch.saw("shard_connect", (0,))
    watch.saw("message", ("not a shard event",))
    assert watch.state(0) == ("connected", 51.0)
    now[0] = 53.0
    watch.saw("shard_ready", (0,))
    before = _count("croupier_discord_shard_disconnects_total", shard="0")
    now[0] = 60.0
    watch.saw("shard_disconnect", (0,))
    assert watch.state(0) == ("disconnected", 60.0)
    assert _count("croupier_discord_shard_disconnects_total", shard="0") == before + 1
    now[0] = 61.0
    watch.saw("shard_resumed", (0,))
    assert watch.state(0) == ("ready", 61.0)
    assert watch.state(1) == ("connecting", 50.0)  # a shard not heard of yet
