"""A private PostgreSQL server for tests that stop it: never the machine's shared one.

:func:`private_cluster` runs ``initdb`` into a temporary folder and starts the server on a free port
of 127.0.0.1 (as the ``postgres`` user when the tests run as root, since PostgreSQL refuses root).
Without PostgreSQL's binaries the tests skip, unless the environment variable ``CI`` is set: then
they fail, as the shared-server tests do.
"""

from __future__ import annotations

import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

BINARIES = Path("/usr/lib/postgresql")


def _version(folder: Path) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", folder.name)) or (0,)


def binaries() -> Path | None:
    """The newest ``/usr/lib/postgresql/<version>/bin`` that has initdb and pg_ctl."""
    if not BINARIES.is_dir():
        return None
    found = [
        folder / "bin"
        for folder in BINARIES.iterdir()
        if (folder / "bin" / "initdb").is_file() and (folder / "bin" / "pg_ctl").is_file()
    ]
    return max(found, key=lambda path: _version(path.parent), default=None)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Cluster:
    """One private server: start it, crash it (``pg_ctl stop -m immediate``), start it again."""

    def __init__(self, bin_dir: Path, base: Path, user: str | None) -> None:
        self.bin_dir = bin_dir
        self.base = base
        self.data = base / "data"
        self.log = base / "server.log"
        self.user = user
        self.port = _free_port()

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        command = [str(self.bin_dir / args[0]), *args[1:]]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(
                f"{' '.join(args[:2])} failed ({done.returncode}): {done.stderr or done.stdout}"
            )
        return done

    def init(self) -> None:
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync")

    def start(self) -> None:
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={self.base}"
        self._run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60", "-o", options, "start"
        )

    def crash(self) -> None:
        """Stop the server the hard way: no checkpoint, connections cut, recovery on the next start."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def running(self) -> bool:
        command = [str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "status"]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        return subprocess.run(command, capture_output=True, check=False, timeout=60).returncode == 0

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        self._run(
            "psql",
            "-h",
            "127.0.0.1",
            "-p",
            str(self.port),
            "-U",
            "postgres",
            "-c",
            f'CREATE DATABASE "{name}"',
        )
        return self.url(name)


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{reason} — CI is set, so the database-outage tests must run", pytrace=False)
    pytest.skip(reason)


@contextmanager
def private_cluster() -> Iterator[Cluster]:
    """A started private cluster, removed afterwards; skips (or fails under CI) without binaries."""
    bin_dir = binaries()
    if bin_dir is None:
        _unavailable(f"no PostgreSQL server binaries under {BINARIES}/*/bin (initdb, pg_ctl)")
        raise AssertionError("unreachable")  # pragma: no cover
    user = None
    account = None
    if os.geteuid() == 0:  # PostgreSQL will not run as root
        user = "postgres"
        try:
            account = pwd.getpwnam(user)
        except KeyError:
            _unavailable("running as root and there is no `postgres` user to run a private server as")
    base = Path(tempfile.mkdtemp(prefix="croupier-pg-"))
    if account is not None:
        os.chown(base, account.pw_uid, account.pw_gid)
    cluster = Cluster(bin_dir, base, user)
    try:
        cluster.init()
        cluster.start()
        yield cluster
    finally:
        if cluster.running():
            cluster.crash()
        shutil.rmtree(base, ignore_errors=True)
