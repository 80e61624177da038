"""The croupier's own small HTTP endpoint: ``/livez``, ``/readyz`` and ``/metrics``.

It listens on HEALTH_HOST:HEALTH_PORT (127.0.0.1 unless told otherwise) in the process's own event
loop, apart from the tournament pages: those are meant for the public behind a proxy, these for the
operator and the supervisor. ``/livez`` answers 200 while the event loop runs; ``/readyz`` 200 when
every readiness condition holds and 503 naming those that fail (JSON, see
:class:`~bot.observability.health.Readiness`); ``/metrics`` Prometheus' text format (0.0.4, or
OpenMetrics when the scraper asks for it). Nothing here
is cached by a proxy (``Cache-Control: no-store``).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from aiohttp import web
from prometheus_client import REGISTRY
from prometheus_client.exposition import choose_encoder

from bot.observability.health import Health
from bot.web.errors import CannotServe

log = logging.getLogger(__name__)

NO_STORE = {"Cache-Control": "no-store"}
HEALTH_KEY = web.AppKey("health", Health)


class CannotServeHealth(CannotServe):
    """The health endpoint cannot listen where HEALTH_HOST / HEALTH_PORT say."""

    def __str__(self) -> str:
        why = "the port is in use (another croupier?)" if self.busy else str(self.__cause__ or "")
        return (
            f"cannot serve the health endpoint on {self.address}: {why or 'cannot listen there'}; "
            "choose a free HEALTH_PORT, or leave it blank to serve none"
        )


async def _live(request: web.Request) -> web.Response:
    return web.json_response(request.app[HEALTH_KEY].liveness(), headers=NO_STORE)


async def _ready(request: web.Request) -> web.Response:
    readiness = await request.app[HEALTH_KEY].readiness()
    return web.json_response(readiness.as_json(), status=200 if readiness.ready else 503, headers=NO_STORE)


async def _metrics(request: web.Request) -> web.Response:
    await request.app[HEALTH_KEY].readiness()  # the figures known only when asked: open games, conditions
    encode, content_type = choose_encoder(request.headers.get("Accept", ""))  # text 0.0.4 or OpenMetrics
    return web.Response(body=encode(REGISTRY), headers={"Content-Type": content_type, **NO_STORE})


def make_app(health: Health) -> web.Application:
    app = web.Application()
    app[HEALTH_KEY] = health
    for path, handler in (("/livez", _live), ("/readyz", _ready), ("/metrics", _metrics)):
        app.router.add_get(path, handler)  # GET and HEAD
    return app


@dataclass
class Endpoint:
    runner: web.AppRunner
    url: str

    async def close(self) -> None:
        await self.runner.cleanup()


async def start_endpoint(health: Health, host: str, port: int) -> Endpoint:
    """Serve ``health`` on ``host:port`` (0: any free port) on the running loop."""
    runner = web.AppRunner(make_app(health), access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except OSError as error:
        await runner.cleanup()
        raise CannotServeHealth(host, port, error) from error
    bound = runner.addresses[0]
    shown = f"[{bound[0]}]" if ":" in str(bound[0]) else bound[0]
    url = f"http://{shown}:{bound[1]}"
    log.info("health endpoint on %s (/livez, /readyz, /metrics)", url)
    return Endpoint(runner, url)


@asynccontextmanager
async def serving(health: Health, host: str, port: int | None) -> AsyncIterator[Endpoint | None]:
    """The endpoint while the block runs (none when ``port`` is None); ``health`` is installed as the
    process's, whose figures ``/metrics`` reports."""
    health.install()
    if port is None:
        yield None
        return
    endpoint = await start_endpoint(health, host, port)
    try:
        yield endpoint
    finally:
        await endpoint.close()
