"""The command-line side of the web pages: ``croupier web``, ``croupier stats``, and the site served
beside the bot or the console (wired up in :mod:`bot.cli`).

``croupier start`` — what ``make run`` runs — serves the pages beside its console on WEB_HOST:WEB_PORT,
by default 127.0.0.1:8080, so the address ``/settings web=on`` hands out answers; if that default
port is taken it says so in one line and the console plays on without them. ``croupier console`` and
``croupier run`` serve them only when WEB_PORT is set, and a port that is taken there (or for
``croupier web``) is one line and exit code 1 (:class:`~bot.web.errors.CannotServe`). Beside a front
end the pages run on a thread with their own event loop and store (:class:`SiteThread`)."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import TYPE_CHECKING

from bot.service.croupier import Croupier
from bot.service.requests import WebStats
from bot.settings import DEFAULT_WEB_PORT, Settings
from bot.store import ChannelDefaults, Store
from bot.web.errors import CannotServe
from bot.web.words import fairness_json, fairness_text

if TYPE_CHECKING:  # the web stack (aiohttp, Jinja2) is imported only where pages are served
    from bot.web.server import SiteThread


def serve_command(settings: Settings, db_url: str, host: str | None, port: int | None) -> int:
    """``croupier web [--host] [--port]``: the pages until Ctrl-C."""
    from bot.web.server import serve_forever

    return asyncio.run(
        serve_forever(
            db_url,
            host or settings.web_host,
            port if port is not None else settings.web_port or DEFAULT_WEB_PORT,
            defaults=ChannelDefaults.from_settings(settings),
            listing=settings.web_index,
        )
    )


async def stats_command(store: Store, channel: str, tournament_id: int | None, as_json: bool) -> int:
    """``croupier stats``: the fairness figures of a tournament, in its channel's language."""
    found = await Croupier(store=store).handle(WebStats(channel, tournament_id))
    if found is None:
        print("croupier: no such tournament", file=sys.stderr)
        return 1
    lang, tournament, fairness = found
    if as_json:
        print(json.dumps(fairness_json(tournament.name, lang, fairness), ensure_ascii=False, indent=2))
    else:
        print(fairness_text(tournament.name, lang, fairness))
    return 0


@contextmanager
def site_beside(settings: Settings, db_url: str) -> Iterator[SiteThread | None]:
    """The pages on a thread of this process while the bot runs, when WEB_PORT is set."""
    if settings.web_port is None:
        yield None
        return
    from bot.web.server import SiteThread

    site = SiteThread(
        db_url,
        settings.web_host,
        settings.web_port,
        defaults=ChannelDefaults.from_settings(settings),
        listing=settings.web_index,
    )
    site.start()
    print(f"croupier: the tournament pages are on {settings.public_web_url}/", file=sys.stderr)
    try:
        yield site
    finally:
        site.stop()


@asynccontextmanager
async def site_beside_console(
    settings: Settings, db_url: str, *, by_default: bool = False
) -> AsyncIterator[SiteThread | None]:
    """The pages beside the console, over its database: when WEB_PORT is set, or on the default port
    when ``by_default`` (``croupier start``) — where a taken port is one line on stderr and no pages,
    not the end of the console. As beside the bot, they run on a thread with their own event loop and
    store, so nothing a visitor does to the pages holds up a move."""
    if settings.web_port is None and not by_default:
        yield None
        return
    from bot.web.server import SiteThread

    port = settings.web_port or DEFAULT_WEB_PORT
    defaults = ChannelDefaults.from_settings(settings)
    site = SiteThread(db_url, settings.web_host, port, defaults=defaults, listing=settings.web_index)
    try:
        await asyncio.to_thread(site.start)
    except CannotServe as problem:
        if settings.web_port is not None or not problem.busy:
            raise
        print(f"croupier: {not_served(problem)}", file=sys.stderr, flush=True)
        yield None
        return
    try:
        yield site
    finally:
        await asyncio.to_thread(site.stop)


def not_served(problem: CannotServe) -> str:
    """The line ``croupier start`` says when the default port is taken."""
    return (
        f"the tournament pages are not served: {problem.address} is in use (another croupier?); "
        "the console plays on without them. To serve them, set WEB_PORT to a free port "
        "(WEB_PORT=8081 make run)"
    )
