"""Serving the site: on the caller's event loop (``croupier web``), or on a thread of its own beside a
front end that owns its loop (``croupier run`` and the console with WEB_PORT set, ``croupier start``),
so the pages never hold up a move. Every connection passes the guard of :mod:`bot.web.guard`."""

from __future__ import annotations

import asyncio
import logging
import threading
from dataclasses import dataclass, field

from aiohttp import web

from bot.service.croupier import Croupier
from bot.store import ChannelDefaults, Store
from bot.texts import DEFAULT
from bot.web.app import ERROR_HEADERS, make_app
from bot.web.errors import CannotServe
from bot.web.guard import Guard, connection_ceiling, quiet_accept_failures, raise_file_limit

log = logging.getLogger(__name__)


class GuardedSite(web.BaseSite):
    """aiohttp's TCP site, with the :class:`Guard` as the listening socket's protocol factory."""

    def __init__(self, runner: web.AppRunner, host: str, port: int, guard: Guard) -> None:
        super().__init__(runner)
        self.host, self.port, self.guard = host, port, guard

    @property
    def name(self) -> str:
        return f"http://{self.host}:{self.port}"

    async def start(self) -> None:
        await super().start()
        self._server = await asyncio.get_running_loop().create_server(
            self.guard, self.host, self.port, backlog=self._backlog, reuse_address=True
        )


@dataclass
class Site:
    """A running site; :meth:`close` stops it."""

    runner: web.AppRunner
    url: str

    async def close(self) -> None:
        await self.runner.cleanup()


async def start_site(
    croupier: Croupier, host: str, port: int, *, default_language: str = DEFAULT, listing: bool = True
) -> Site:
    """Serve the pages ``croupier`` answers on ``host:port`` (port 0: any free port) on the running
    loop; CannotServe when nothing can listen there (a busy port). Every connection goes through a
    :class:`Guard`."""
    app = make_app(croupier, default_language=default_language, listing=listing)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    ceiling = connection_ceiling(raise_file_limit())
    site = GuardedSite(runner, host, port, Guard(runner, ERROR_HEADERS, ceiling))
    try:
        await site.start()
    except OSError as error:
        await runner.cleanup()
        raise CannotServe(host, port, error) from None
    quiet_accept_failures(asyncio.get_running_loop())
    bound = runner.addresses[0]
    shown_host = f"[{bound[0]}]" if ":" in str(bound[0]) else bound[0]
    url = f"http://{shown_host}:{bound[1]}"
    log.info("web pages on %s", url)
    return Site(runner, url)


async def serve_forever(
    db_url: str,
    host: str,
    port: int,
    *,
    defaults: ChannelDefaults | None = None,
    announce: bool = True,
    listing: bool = True,
) -> int:
    """``croupier web``: open the store and serve until cancelled (Ctrl-C, SIGTERM)."""
    store = await Store.open(db_url, defaults=defaults)
    try:
        language = (defaults.language if defaults else None) or DEFAULT
        site = await start_site(Croupier(store=store), host, port, default_language=language, listing=listing)
        if announce:
            print(f"croupier: the tournament pages are on {site.url}/", flush=True)
        try:
            await asyncio.Event().wait()
        finally:
            await site.close()
    finally:
        await store.close()
    return 0


@dataclass
class SiteThread:
    """The site on a thread with its own event loop and its own store, in this process."""

    db_url: str
    host: str
    port: int
    defaults: ChannelDefaults | None = None
    listing: bool = True  # WEB_INDEX: whether the start page lists the tournaments moderators listed
    _loop: asyncio.AbstractEventLoop | None = None
    _stop: asyncio.Event | None = None
    _ready: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None
    _error: BaseException | None = None
    url: str = ""

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="croupier-web", daemon=True)
        self._thread.start()
        self._ready.wait(timeout=60)
        if self._error is not None:
            raise self._error

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as error:  # reported to start(), or logged once running
            if not self._ready.is_set():
                self._error = error
                self._ready.set()
            else:
                log.exception("the web pages stopped")

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        store = await Store.open(self.db_url, defaults=self.defaults)
        try:
            language = (self.defaults.language if self.defaults else None) or DEFAULT
            site = await start_site(
                Croupier(store=store), self.host, self.port, default_language=language, listing=self.listing
            )
            self.url = site.url
            self._ready.set()
            try:
                await self._stop.wait()
            finally:
                await site.close()
        finally:
            await store.close()

    def stop(self) -> None:
        if self._loop is not None and self._stop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._stop.set)
        if self._thread is not None:
            self._thread.join(timeout=30)
