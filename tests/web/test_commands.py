"""The command line: ``croupier web`` serves the pages, and the console serves them in its own process
when WEB_PORT is set (``croupier run`` does the same beside the bot, on a thread)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

from bot.texts import render

REPO = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def fetch(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.status, response.read().decode()


def environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("WEB_", "DISCORD_", "DATABASE_"))}
    return {**env, "PYTHONUNBUFFERED": "1", **extra}


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
