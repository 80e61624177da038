"""The health endpoint's aiohttp application: ``/livez``, ``/readyz`` and ``/metrics`` (see
:mod:`bot.observability.endpoint`, which imports this module only when it starts one)."""

from __future__ import annotations

from aiohttp import web
from prometheus_client import REGISTRY
from prometheus_client.exposition import choose_encoder

from bot.observability.health import Health

NO_STORE = {"Cache-Control": "no-store"}
HEALTH_KEY = web.AppKey("health", Health)


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
