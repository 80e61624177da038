"""The web pages while connections are held open against them: how many the server keeps, how long an
idle one lives, and what a page and a move cost meanwhile.

    python -m bench web_connections                     # 1,100 idle, 200 half-sent, 100 half-closed
    python -m bench web_connections --idle 300 --half-sent 300 --half-closed 0
    python -m bench web_connections --idle 2 --half-sent 1 --half-closed 1 --no-idle-wait   # a smoke run

A real ``croupier console`` with WEB_PORT set (the pages on their thread beside the console, as beside
the bot) runs with the usual limit of 1,024 open files, on 127.0.0.1; this process opens the
connections (idle: nothing sent; half-sent: a request head without its end; half-closed: a few bytes,
then its writing side shut), then times pages and console moves, counts the sockets the server holds
(its open socket files, from /proc) and those the clients still see open, and times how long a fresh
idle connection lives. One JSON line per figure.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import ExitStack, closing
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
USUAL_FILE_LIMIT = 1024
SAMPLES = 20


def _print(name: str, value: float, unit: str, **extra: Any) -> None:
    figure = {"bench": "web_connections", "figure": name, "value": round(value, 2), "unit": unit, **extra}
    print(json.dumps(figure), flush=True)


def _usual_limit() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (USUAL_FILE_LIMIT, USUAL_FILE_LIMIT))


def _closed(held: socket.socket) -> bool:
    held.setblocking(False)
    try:
        return held.recv(1, socket.MSG_PEEK) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def _server_sockets(pid: int) -> int:
    """The sockets the server process has open (its listening socket and database files aside)."""
    count = 0
    for entry in Path(f"/proc/{pid}/fd").iterdir():
        try:
            count += os.readlink(entry).startswith("socket:")
        except OSError:
            continue
    return count


class Console:
    def __init__(self, folder: Path) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = int(probe.getsockname()[1])
        env = {k: v for k, v in os.environ.items() if not k.startswith(("WEB_", "DATABASE_", "DISCORD_"))}
        env.update(PYTHONPATH=str(ROOT), WEB_HOST="127.0.0.1", WEB_PORT=str(self.port), PYTHONUNBUFFERED="1")
        self.log = (folder / "stderr.log").open("w", encoding="utf-8")
        self.log_path = folder / "stderr.log"
        database = f"sqlite:///{folder / 'bench.sqlite3'}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot.cli", "console", "--db", database, "--moderator", "mod", "--json"],
            cwd=folder,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
            preexec_fn=_usual_limit,
        )

    def say(self, line: str) -> float:
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        started = time.perf_counter()
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline())
        if not answer["ok"]:
            raise RuntimeError(f"{line}: {answer['text']}")
        return time.perf_counter() - started

    def page(self) -> float:
        started = time.perf_counter()
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/", timeout=60) as response:
            response.read()
        return time.perf_counter() - started

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=60)
        self.log.close()


def _latencies(name: str, samples: list[float], **extra: Any) -> None:
    ordered = sorted(samples)
    _print(f"{name}_median", statistics.median(ordered) * 1000, "ms", **extra)
    _print(f"{name}_max", ordered[-1] * 1000, "ms", **extra)


def run(idle: int, half_sent: int, half_closed: int, idle_wait: bool = True) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = idle + half_sent + half_closed + 200
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))
    with tempfile.TemporaryDirectory(prefix="bench-web-connections-") as folder:
        console = Console(Path(folder))
        try:
            console.say("mod: /open verflixte6")
            console.page()  # warm
            _latencies("page_quiet", [console.page() for _ in range(SAMPLES)])
            with ExitStack() as stack:
                opened = time.perf_counter()
                held: list[socket.socket] = []
                for count, first, half_close in (
                    (idle, b"", False),
                    (half_sent, b"GET / HTTP/1.1\r\nHost: bench\r\nX-Slow: ", False),
                    (half_closed, b"GET", True),
                ):
                    for _ in range(count):
                        connection = stack.enter_context(
                            closing(socket.create_connection(("127.0.0.1", console.port), timeout=60))
                        )
                        if first:
                            connection.sendall(first)
                        if half_close:
                            connection.shutdown(socket.SHUT_WR)
                        held.append(connection)
                offered = idle + half_sent + half_closed
                _print(
                    "connections_offered",
                    offered,
                    "connections",
                    seconds_to_open=round(time.perf_counter() - opened, 1),
                )
                time.sleep(1)
                during = {"held_open": offered}
                _latencies("page_meanwhile", [console.page() for _ in range(SAMPLES)], **during)
                moves = [console.say(f"p{i}: /join") for i in range(5)]
                _latencies("move_meanwhile", moves, **during)
                _print(
                    "server_sockets",
                    _server_sockets(console.process.pid),
                    "sockets",
                    file_limit=USUAL_FILE_LIMIT,
                )
                _print("client_sockets_still_open", sum(not _closed(c) for c in held), "sockets")
                if idle_wait:
                    late = stack.enter_context(closing(socket.create_connection(("127.0.0.1", console.port))))
                    started = time.perf_counter()
                    while not _closed(late):
                        time.sleep(0.05)
                    _print("idle_connection_closed_after", time.perf_counter() - started, "s")
                    _print(
                        "client_sockets_open_after_the_timeout", sum(not _closed(c) for c in held), "sockets"
                    )
        finally:
            console.close()
        said = console.log_path.read_text(encoding="utf-8")
        _print(
            "log_lines",
            len(said.splitlines()),
            "lines",
            bytes=len(said.encode()),
            tracebacks=said.count("Traceback"),
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench web_connections", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--idle", type=int, default=1100, help="idle connections (default 1100)")
    parser.add_argument("--half-sent", type=int, default=200, help="half-sent requests (default 200)")
    parser.add_argument("--half-closed", type=int, default=100, help="half-closed connections (default 100)")
    parser.add_argument(
        "--no-idle-wait",
        action="store_true",
        help="skip timing how long an idle connection lives (the server's head timeout, 10 s)",
    )
    args = parser.parse_args([] if argv is None else argv)
    run(args.idle, args.half_sent, args.half_closed, idle_wait=not args.no_idle_wait)


if __name__ == "__main__":
    main()
