"""The croupier's own small HTTP endpoint: ``/livez``, ``/readyz`` and ``/metrics``.

It listens on HEALTH_HOST:HEALTH_PORT (127.0.0.1 unless told otherwise) in the process's own event
loop, apart from the tournament pages: those are meant for the public behind a proxy, these for the
operator and the supervisor. ``/livez`` answers 200 while the event loop runs; ``/readyz`` 200 when
every readiness condition holds and 503 naming those that fail (JSON, see
:class:`~bot.observability.health.Readiness`); ``/metrics`` Prometheus' text format (0.0.4, or
OpenMetrics when the scraper asks for it). Nothing here
is cached by a proxy (``Cache-Control: no-store``).

The aiohttp application is in :mod:`bot.observability.routes`, imported when an endpoint starts: a
process without HEALTH_PORT (the console, usually) never pays for aiohttp, about 0.15 s of CPU at start.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.observability.health import Health
from bot.web.errors import CannotServe

if TYPE_CHECKING:
    from aiohttp import web

log = logging.getLogger(__name__)


class CannotServeHealth(CannotServe):
    """The health endpoint cannot listen where HEALTH_HOST / HEALTH_PORT say."""

    def __str__(self) -> str:
        why = "the port is in use (another croupier?)" if self.busy else str(self.__cause__ or "")
        return (
            f"cannot serve the health endpoint on {self.address}: {why or 'cannot listen there'}; "
            "choose a free HEALTH_PORT, or leave it blank to serve none"
        )


@dataclass
class Endpoint:
    runner: web.AppRunner
    url: str

    async def close(self) -> None:
        await self.runner.cleanup()


async def start_endpoint(health: Health, host: str, port: int) -> Endpoint:
    """Serve ``health`` on ``host:port`` (0: any free port) on the running loop."""
    from aiohttp import web

    from bot.observability.routes import make_app

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
