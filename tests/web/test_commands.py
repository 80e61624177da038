"""The command line: ``croupier web`` serves the pages; ``croupier start`` (what ``make run`` runs)
serves them beside its console, on port 8080 unless WEB_PORT says otherwise; the console serves them
in its own process when WEB_PORT is set (``croupier run`` does the same beside the bot, on a thread).
A port that is taken is one clear line — and for ``start``'s default port, a console without pages.

Tests that need port 8080 itself listen on a loopback address of their own (127.x.y.z, all of which
reach this machine), so nothing else that uses 127.0.0.1:8080 meets them."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bot.settings import DEFAULT_WEB_PORT
from bot.texts import render
from tests.web.processes import REPO, Lines, environment, own_loopback


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def interruptible() -> None:
    """In the child, before it starts: Ctrl-C (SIGINT) ends it, as in a terminal — also when the suite
    itself runs in the background, whose children a shell starts with SIGINT ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def fetch(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.status, response.read().decode()


def test_croupier_web_serves_the_pages(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "web", "--db", db, "--port", str(port)],
        cwd=tmp_path,
        env=environment(PYTHONPATH=str(REPO)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=interruptible,
    )
    try:
        assert process.stdout is not None
        announced = process.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in announced
        status, html = fetch(f"http://127.0.0.1:{port}/")
        assert status == 200
        assert render("web.index_empty", {}, "de") in html
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)
    assert process.returncode in (0, 130)


def test_web_index_off_turns_the_start_page_list_off_for_the_whole_site(tmp_path: Path) -> None:
    """WEB_INDEX=off, as an operator sets it: the start page lists nothing, whatever moderators listed."""
    port = free_port()
    db = f"sqlite:///{tmp_path / 'console.sqlite3'}"
    done = croupier(
        "console",
        "--db",
        db,
        "--moderator",
        "mod",
        "--json",
        cwd=tmp_path,
        stdin="mod: /open verflixte6\nmod: /settings web=on listed=on\n",
    )
    assert done.returncode == 0, done.stderr
    process = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "web", "--db", db, "--port", str(port)],
        cwd=tmp_path,
        env=environment(PYTHONPATH=str(REPO), WEB_INDEX="off"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=interruptible,
    )
    try:
        assert process.stdout is not None
        assert f"http://127.0.0.1:{port}/" in process.stdout.readline()
        status, html = fetch(f"http://127.0.0.1:{port}/")
        assert status == 200
        assert render("web.index_off", {}, "de") in html
        assert "/t/" not in html
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)


def test_the_console_serves_the_pages_in_its_own_process_when_web_port_is_set(tmp_path: Path) -> None:
    port = free_port()
    db = f"sqlite:///{tmp_path / 'console.sqlite3'}"
    env = environment(PYTHONPATH=str(REPO), WEB_PORT=str(port), WEB_BASE_URL="https://dice.example.org")
    process = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "console", "--db", db, "--moderator", "mod", "--json"],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None
    assert process.stdout is not None
    try:
        for line in ("mod: /open verflixte6", "anna: /join", "mod: /settings web=on"):
            process.stdin.write(line + "\n")
            process.stdin.flush()
            answer = json.loads(process.stdout.readline())
        assert answer["ok"]
        address = next(word for word in answer["text"].split() if "/t/" in word)
        assert address.startswith("https://dice.example.org/t/")  # WEB_BASE_URL, as people reach it
        path = address.removeprefix("https://dice.example.org")
        status, html = fetch(f"http://127.0.0.1:{port}{path}/game/1")
        assert status == 200
        assert "anna" in html
    finally:
        process.stdin.close()
        process.wait(timeout=30)
    assert process.returncode == 0


def test_beside_the_bot_the_pages_run_on_a_thread_of_their_own(tmp_path: Path) -> None:
    """What `croupier run` does with WEB_PORT set: the bot owns the main loop, the pages get a thread
    with their own loop and store; stopping it closes the port."""
    from bot.web import SiteThread

    site = SiteThread(f"sqlite:///{tmp_path / 'bot.sqlite3'}", "127.0.0.1", 0)
    site.start()
    try:
        status, html = fetch(site.url + "/")
        assert status == 200
        assert render("web.index_title", {}, "de") in html
    finally:
        site.stop()
    try:
        fetch(site.url + "/")
    except OSError:
        pass
    else:
        raise AssertionError("the pages still answer after stop()")


@contextmanager
def taken(host: str, port: int) -> Iterator[None]:
    """Something else listening on host:port."""
    with socket.socket() as holder:
        holder.bind((host, port))
        holder.listen()
        yield


def croupier(*args: str, cwd: Path, stdin: str = "", **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *args],
        cwd=cwd,
        env=environment(PYTHONPATH=str(REPO), **env),
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_croupier_start_serves_the_pages_on_port_8080_by_default(tmp_path: Path) -> None:
    """`make run` with nothing set: the console, and the address `/settings web=on` hands out answers."""
    host = own_loopback()
    process = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "start"],
        cwd=tmp_path,  # the default database: ./data/croupier.sqlite3, as for `make run`
        env=environment(PYTHONPATH=str(REPO), WEB_HOST=host),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None
    try:
        lines = Lines(process)
        assert f"http://{host}:{DEFAULT_WEB_PORT}/" in lines.until("/settings web=on")  # the banner
        process.stdin.write("mod: /open verflixte6\nanna: /join\nmod: /settings web=on\n")
        process.stdin.flush()
        answer = lines.until("/t/")
        address = next(word for word in answer.split() if "/t/" in word)
        assert address.startswith(f"http://{host}:{DEFAULT_WEB_PORT}/t/")
        status, html = fetch(address + "/game/1")
        assert status == 200
        assert 'data-player="anna"' in html
    finally:
        process.stdin.close()
        process.wait(timeout=60)
    assert process.returncode == 0
    assert process.stderr is not None
    assert "Traceback" not in process.stderr.read()


def test_croupier_start_plays_on_without_pages_when_port_8080_is_taken(tmp_path: Path) -> None:
    host = own_loopback()
    with taken(host, DEFAULT_WEB_PORT):
        done = croupier("start", cwd=tmp_path, stdin="mod: /open verflixte6\n", WEB_HOST=host)
    assert done.returncode == 0
    assert done.stderr.splitlines() == [
        f"croupier: the tournament pages are not served: {host}:{DEFAULT_WEB_PORT} is in use (another "
        "croupier?); the console plays on without them. To serve them, set WEB_PORT to a free port "
        "(WEB_PORT=8081 make run)"
    ]
    assert "Durchgang 1" in done.stdout  # the console answered
    assert "/settings web=on puts" not in done.stdout  # and promised no pages


@pytest.mark.parametrize(
    ("args", "env"),
    [
        (["web"], {}),
        (["console", "--moderator", "mod"], {"WEB_PORT": str(DEFAULT_WEB_PORT)}),
        (["start"], {"WEB_PORT": str(DEFAULT_WEB_PORT)}),
        # The bot with a token for a Discord-compatible server that is never reached: the pages come first.
        (
            ["run"],
            {
                "WEB_PORT": str(DEFAULT_WEB_PORT),
                "DISCORD_TOKEN": "t",
                "DISCORD_API_BASE": "http://127.0.0.1:9",
            },
        ),
    ],
    ids=["web", "console", "start-with-web-port", "run"],
)
def test_a_taken_port_is_one_clear_line(args: list[str], env: dict[str, str], tmp_path: Path) -> None:
    host = own_loopback()
    with taken(host, DEFAULT_WEB_PORT):
        done = croupier(*args, cwd=tmp_path, stdin="mod: /open verflixte6\n", WEB_HOST=host, **env)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [
        f"croupier: cannot serve the tournament pages on {host}:{DEFAULT_WEB_PORT}: the port is in use "
        "(another croupier?); stop what listens there or choose a free port (WEB_PORT=8081, or croupier "
        "web --port 8081)"
    ]
    assert done.stdout == ""  # nothing started
