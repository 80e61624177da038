"""Keeping the pages answering while connections are held open, and answering malformed requests the
pages' way.

aiohttp, as the pages used it, kept an idle connection or a half-sent request for an hour and took
every connection it was offered: 1,100 idle sockets used up the process's 1,024 files, every request
after them timed out — with ``WEB_PORT`` set, inside the bot's own process — and asyncio logged a
traceback for each failed ``accept()``. So, for every connection:

* its request head must be complete within :data:`HEAD_TIMEOUT_S` of its opening (checked here,
  whatever aiohttp's version does), and aiohttp closes a keep-alive connection idle — or half-way
  through its next request — for as long (``keepalive_timeout``);
* a request body, which no page reads, is drained for at most :data:`BODY_TIMEOUT_S` (aiohttp's
  ``lingering_time``), then the connection is closed;
* at most :attr:`Guard.ceiling` connections are open, well below the process's file limit (raised to
  its hard limit at start where the system allows): a connection beyond them closes the one idle the
  longest — never one being answered — or, when every one is being answered, is closed at once;
* what happens over and over is logged once a minute with its count: connections over the ceiling,
  ``accept()`` failing for want of files, malformed requests.

A malformed request (aiohttp refuses it before any page sees it) is answered like every page: the
site's security headers, ``Server: croupier``, no cache, a body that says the status and nothing of
the request — no longer aiohttp's own answer, which named its version and quoted the request.
"""

from __future__ import annotations

import asyncio
import logging
import resource
import time
import weakref
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from http import HTTPStatus
from typing import Any

from aiohttp import web

log = logging.getLogger(__name__)

HEAD_TIMEOUT_S = 10.0  # a new connection's first request head, and an idle keep-alive connection
BODY_TIMEOUT_S = 2.0  # draining a request body no page reads
MAX_CONNECTIONS = 1024  # open connections at most; fewer where the file limit is low
FILE_LIMIT_WANTED = 65_536  # the soft file limit asked for at start (never above the hard one)
TALLY_INTERVAL_S = 60.0
ACCEPT_OUT_OF_FILES = "socket.accept() out of system resource"  # asyncio's words


def raise_file_limit(wanted: int = FILE_LIMIT_WANTED) -> int:
    """Raise this process's soft limit of open files towards ``wanted`` as far as its hard limit
    allows; the soft limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (OSError, ValueError) as error:
            log.info("cannot raise the limit of open files from %d to %d: %s", soft, target, error)
    return wanted if soft == resource.RLIM_INFINITY else soft


def connection_ceiling(file_limit: int) -> int:
    """At most :data:`MAX_CONNECTIONS`, and half the file limit: the other half stays for the database,
    Discord, logs and whatever else the process opens."""
    return max(16, min(MAX_CONNECTIONS, file_limit // 2))


class Tally:
    """Counts one kind of event and logs it at most once per interval: the first at once, later ones
    summed up with the next event after the interval."""

    def __init__(
        self,
        message: str,
        *,
        level: int = logging.WARNING,
        interval: float = TALLY_INTERVAL_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.message = message  # %(count)d and %(seconds)d are filled in
        self.level = level
        self.interval = interval
        self.clock = clock
        self.count = 0
        self.total = 0
        self._since: float | None = None

    def note(self, count: int = 1) -> None:
        self.count += count
        self.total += count
        now = self.clock()
        if self._since is not None and now - self._since < self.interval:
            return
        seconds = 0 if self._since is None else round(now - self._since)
        log.log(self.level, self.message, {"count": self.count, "seconds": seconds})
        self.count, self._since = 0, now


@contextmanager
def answering(protocol: object) -> Iterator[None]:
    """While a page is answered on this connection (the app's first middleware says so): the guard
    neither closes it to make room nor times it out. A connection of another server (aiohttp's test
    server) is left alone."""
    if not isinstance(protocol, _Handler):
        yield
        return
    protocol.asked = True
    protocol.answering += 1
    try:
        yield
    finally:
        protocol.answering -= 1


class Guard:
    """The protocol factory the listening socket uses instead of aiohttp's server itself: it makes
    each connection's handler (:class:`_Handler`), holds the ceiling, and closes connections that
    send no request head in time."""

    def __init__(self, runner: web.AppRunner, headers: Mapping[str, str], ceiling: int) -> None:
        self.runner = runner
        self.headers = dict(headers)
        self.ceiling = ceiling
        self.over = Tally(
            "web pages: %(count)d connection(s) beyond the ceiling in %(seconds)d s: the longest idle "
            f"closed, or the new one when all {ceiling} were being answered"
        )
        self.malformed = Tally(
            "web pages: %(count)d malformed request(s) answered 400 in %(seconds)d s", level=logging.INFO
        )

    @property
    def server(self) -> web.Server:
        server = self.runner.server
        assert server is not None, "the runner is set up before the site starts"
        return server

    def open_connections(self) -> list[_Handler]:
        """Handlers whose connection is open, the longest open first."""
        return [h for h in self.server.connections if isinstance(h, _Handler) and h.transport is not None]

    def __call__(self) -> asyncio.BaseProtocol:
        loop = asyncio.get_running_loop()
        open_now = self.open_connections()
        if len(open_now) >= self.ceiling:
            self.over.note()
            idle = next((h for h in open_now if not h.answering), None)
            if idle is None:
                return _Refused()
            idle.force_close()
        handler = _Handler(
            self.server,
            loop=loop,
            keepalive_timeout=HEAD_TIMEOUT_S,
            lingering_time=BODY_TIMEOUT_S,
            access_log=None,
            guard=self,
        )
        loop.call_later(HEAD_TIMEOUT_S, self._head_overdue, weakref.ref(handler))
        return handler

    def _head_overdue(self, handler_ref: weakref.ref[_Handler]) -> None:
        handler = handler_ref()
        if handler is not None and handler.transport is not None and not handler.asked:
            handler.force_close()


class _Handler(web.RequestHandler):
    """aiohttp's connection handler, answering the requests it refuses itself (malformed ones, 400)
    with the pages' headers and without quoting them, and logging them as one counted line."""

    __slots__ = ("__weakref__", "_guard", "answering", "asked")

    def __init__(self, manager: web.Server, *, guard: Guard, **options: Any) -> None:
        super().__init__(manager, **options)
        self._guard = guard
        self.answering = 0  # requests being answered now (one at a time: aiohttp answers in order)
        self.asked = False  # whether a request head ever arrived complete

    def handle_error(
        self,
        request: web.BaseRequest,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        if status >= 500:
            log.error("web pages: a request failed before any page saw it (%d): %r", status, exc)
        else:
            self._guard.malformed.note()
        phrase = HTTPStatus(status).phrase if status in HTTPStatus._value2member_map_ else "Error"
        response = web.Response(status=status, text=f"{status} {phrase}\n", headers=self._guard.headers)
        response.force_close()
        return response


class _Refused(asyncio.Protocol):
    """A connection over the ceiling while every open one is being answered: closed at once."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if isinstance(transport, asyncio.Transport):
            transport.abort()
        else:  # pragma: no cover - a stream server's transports are Transports
            transport.close()


def quiet_accept_failures(loop: asyncio.AbstractEventLoop) -> None:
    """asyncio logs a traceback each time ``accept()`` fails for want of files — thousands a second
    under a flood. Count them instead, one line a minute; anything else goes where it went before."""
    before = loop.get_exception_handler()
    tally = Tally(
        "web pages: accept() failed %(count)d time(s) in %(seconds)d s: out of files (the limit of open "
        "files is too low for the connections held)",
        level=logging.ERROR,
    )

    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if context.get("message") == ACCEPT_OUT_OF_FILES:
            tally.note()
        elif before is not None:
            before(loop, context)
        else:
            loop.default_exception_handler(context)

    loop.set_exception_handler(handle)
