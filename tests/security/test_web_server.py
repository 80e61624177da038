"""The web server under connections that are held open, and under requests it cannot read.

A real ``croupier console`` with WEB_PORT set — the pages on their thread beside the console, as
``croupier run`` has them beside the bot — limited to the usual 1,024 open files, is offered more idle
connections than that, half-sent requests and half-closed connections, from 127.0.0.1 only. Before,
every request after them timed out and asyncio logged a traceback for each failed ``accept()`` (47 MB
in half a minute). Now a page and a move are answered meanwhile, an idle connection is closed after
the head timeout, and the log says it in a line or two.

Malformed requests, which aiohttp refuses before any page sees them, are answered like the pages: the
security headers, ``Server: croupier``, no quote of the request, and no traceback in the log.

The figures (connections held, time to close an idle one, page latency meanwhile) are printed by
``python -m bench web_connections``; nothing here is timed beyond "answered at all".
"""

from __future__ import annotations

import json
import logging
import resource
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, closing
from pathlib import Path

import pytest

from bot.service.croupier import Croupier
from bot.store import Store
from bot.web.app import SECURITY_HEADERS
from bot.web.guard import HEAD_TIMEOUT_S
from bot.web.server import start_site
from tests.web.processes import REPO, environment, own_loopback

USUAL_FILE_LIMIT = 1024
IDLE, HALF_SENT, HALF_CLOSED = 1100, 200, 100  # more idle ones than the server has files


def _free_port(host: str) -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


def _files_for(connections: int) -> None:
    """This test process holds the connections: its own soft limit raised as far as allowed."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections + 200
    if soft != resource.RLIM_INFINITY and soft < wanted:
        if hard != resource.RLIM_INFINITY and hard < wanted:
            pytest.skip(f"this process may open {hard} files, the test holds {wanted}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def _usual_limit() -> None:  # in the server's process, before it starts
    resource.setrlimit(resource.RLIMIT_NOFILE, (USUAL_FILE_LIMIT, USUAL_FILE_LIMIT))


def _open(host: str, port: int, first_bytes: bytes = b"", *, half_close: bool = False) -> socket.socket:
    held = socket.create_connection((host, port), timeout=30)
    if first_bytes:
        held.sendall(first_bytes)
    if half_close:
        held.shutdown(socket.SHUT_WR)
    return held


def _closed_by_the_server(held: socket.socket) -> bool:
    held.setblocking(False)
    try:
        return held.recv(1, socket.MSG_PEEK) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


@pytest.fixture
def console(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """``croupier console`` with the pages on WEB_PORT, on a loopback address of its own; its stderr
    goes to a file, as an operator's log would."""
    host = own_loopback()
    port = _free_port(host)
    env = environment(PYTHONPATH=str(REPO), WEB_HOST=host, WEB_PORT=str(port))
    log = (tmp_path / "stderr.log").open("w", encoding="utf-8")
    database = f"sqlite:///{tmp_path / 'c.sqlite3'}"
    process = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "console", "--db", database, "--moderator", "mod", "--json"],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=log,
        text=True,
        preexec_fn=_usual_limit,
    )
    try:
        yield process, f"http://{host}:{port}"
    finally:
        if process.stdin is not None:
            process.stdin.close()
        process.wait(timeout=60)
        log.close()


def _say(process: subprocess.Popen[str], line: str) -> dict[str, object]:
    assert process.stdin is not None
    assert process.stdout is not None
    process.stdin.write(line + "\n")
    process.stdin.flush()
    answer: dict[str, object] = json.loads(process.stdout.readline())
    return answer


def _page(url: str) -> int:
    with urllib.request.urlopen(url, timeout=30) as response:
        response.read()
        return int(response.status)


def test_idle_and_half_open_connections_neither_starve_the_pages_nor_the_moves(
    console: tuple[subprocess.Popen[str], str], tmp_path: Path
) -> None:
    process, url = console
    host, port = url.removeprefix("http://").rsplit(":", 1)
    _files_for(IDLE + HALF_SENT + HALF_CLOSED)
    assert _say(process, "mod: /open verflixte6")["ok"]
    assert _page(url + "/") == 200
    with ExitStack() as held:

        def hold(first_bytes: bytes = b"", *, half_close: bool = False) -> socket.socket:
            return held.enter_context(closing(_open(host, int(port), first_bytes, half_close=half_close)))

        connections = [hold() for _ in range(IDLE)]
        connections += [hold(b"GET / HTTP/1.1\r\nHost: croupier\r\nX-Slow: ") for _ in range(HALF_SENT)]
        connections += [hold(b"GET", half_close=True) for _ in range(HALF_CLOSED)]
        assert _page(url + "/") == 200  # the pages answer …
        assert _say(process, "anna: /join")["ok"]  # … and so does a move
        assert _page(url + "/") == 200
        still_open = sum(not _closed_by_the_server(c) for c in connections)
        assert 0 < still_open < IDLE  # held up to the ceiling, not beyond the files the server has
        late = hold()  # one more idle one, timed out …
        deadline = time.monotonic() + HEAD_TIMEOUT_S * 6
        while not _closed_by_the_server(late) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _closed_by_the_server(late)  # … by the server (it used to keep one for an hour)
        assert _say(process, "ben: /join")["ok"]
    said = (tmp_path / "stderr.log").read_text(encoding="utf-8")
    assert "Traceback" not in said
    assert "Too many open files" not in said
    assert len(said.splitlines()) < 10, said[:2000]  # a line or two, where there were 100,000


MALFORMED = [
    b"GARBAGE\r\n\r\n",
    b"GET /\x00<script>alert(1)</script> HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nX-Long: " + b"a" * 20_000 + b"\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
    b"GET / HTTP/7.0\r\n\r\n",
]


async def _raw(host: str, port: int, request: bytes) -> bytes:
    import asyncio

    reader, writer = await asyncio.open_connection(host, port)
    writer.write(request)
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(), timeout=30)
    writer.close()
    return answer


@pytest.mark.parametrize(
    "request_bytes", MALFORMED, ids=["garbage", "nul", "long-header", "length", "version"]
)
async def test_a_malformed_request_is_answered_like_a_page_without_quoting_it(
    db_url: str, request_bytes: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    store = await Store.open(db_url)
    site = await start_site(Croupier(store=store), "127.0.0.1", 0)
    try:
        host, port = site.url.removeprefix("http://").rsplit(":", 1)
        answer = await _raw(host, int(port), request_bytes)
    finally:
        await site.close()
        await store.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    assert lines[0].split()[1] == "400", lines[0]
    headers = {name.lower(): value for name, _, value in (line.partition(": ") for line in lines[1:])}
    assert headers["server"] == "croupier"
    for name, value in SECURITY_HEADERS.items():
        assert headers[name.lower()] == value, name
    assert headers["cache-control"] == "no-store"
    assert body == b"400 Bad Request\n"  # nothing of the request, nothing of aiohttp
    assert [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info] == []


def test_accept_failures_are_one_counted_line_a_minute_not_a_traceback_each(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """What filled 47 MB of log in half a minute: asyncio's report of each ``accept()`` that failed for
    want of files. The site's loop counts them instead; any other report goes where it went before."""
    import asyncio

    from bot.web.guard import ACCEPT_OUT_OF_FILES, quiet_accept_failures

    loop = asyncio.new_event_loop()
    others: list[str] = []
    loop.set_exception_handler(lambda _loop, context: others.append(context["message"]))
    try:
        quiet_accept_failures(loop)
        caplog.set_level(logging.DEBUG)
        for _ in range(10_000):
            loop.call_exception_handler(
                {"message": ACCEPT_OUT_OF_FILES, "exception": OSError(24, "Too many open files")}
            )
        loop.call_exception_handler({"message": "something else"})
    finally:
        loop.close()
    said = [r for r in caplog.records if "accept()" in r.getMessage()]
    assert len(said) == 1
    assert said[0].exc_info is None
    assert others == ["something else"]
