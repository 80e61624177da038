"""The SQLite database is the bot's alone: it holds every open game's secret seed, and whoever reads
the seed predicts the game's next dice.

SQLite creates a database 0644 and the croupier its folder 0755, so any user of the machine could read
an open game's seed. Now the folder the croupier makes is 0700 and the database, WAL and shared-memory
files are 0600; an existing file others may read is tightened at start, with a warning in the log.
"""

from __future__ import annotations

import logging
import os
import pwd
import shutil
import sqlite3
import stat
import tempfile
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from bot.console.terminal import Console
from bot.service.croupier import Croupier, seed_from_text
from bot.store import Store

ROOT = Path(__file__).resolve().parents[2]
COMPANIONS = ("-wal", "-shm")


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def open_folder() -> Iterator[Path]:
    """A folder every user may enter, as a home, /srv or the working directory usually is (pytest's
    own temporary folders are root's alone, which would hide what the croupier itself does)."""
    base = Path(tempfile.mkdtemp(prefix="croupier-open-"))
    os.chmod(base, 0o755)
    previous = os.umask(0o022)  # the usual umask: files 0644 and folders 0755 unless told otherwise
    try:
        yield base
    finally:
        os.umask(previous)
        shutil.rmtree(base, ignore_errors=True)


async def _open_a_game(url: str) -> None:
    """An open Durchgang, its seed secret until the close; the store stays open (WAL and SHM exist)."""
    store = await Store.open(url)
    try:
        console = Console(
            Croupier(store=store, seed_source=seed_from_text("secret")), moderators=frozenset({"mod"})
        )
        for line in ("mod: /open verflixte6", "anna: /join", "ben: /join", "mod: /start"):
            answer = await console.handle(line)
            assert answer is not None
            assert answer.ok, answer.text
        path = Path(url.removeprefix("sqlite:///"))
        for suffix in COMPANIONS:  # while the store is open, SQLite keeps them beside the file
            assert mode(path.with_name(path.name + suffix)) == 0o600, suffix
    finally:
        await store.close()


def _another_user_reads(path: Path) -> bytes | None:
    """Another local user (``nobody``) tries to read the open game's seed: forked, not started, as
    that user may not run this checkout's interpreter. The seed it read, or None."""
    nobody = pwd.getpwnam("nobody")
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child
        try:
            os.close(read)
            os.setgroups([])
            os.setgid(nobody.pw_gid)
            os.setuid(nobody.pw_uid)
            with closing(sqlite3.connect(f"file:{path}?immutable=1", uri=True)) as connection:
                row = connection.execute("SELECT seed FROM games WHERE status = 'open'").fetchone()
            os.write(write, bytes(row[0]))
            os._exit(0)
        except BaseException:
            os._exit(1)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        seed = pipe.read()
    _, status = os.waitpid(child, 0)
    return seed if os.waitstatus_to_exitcode(status) == 0 and seed else None


async def test_a_new_database_and_its_folder_are_the_bots_alone(open_folder: Path) -> None:
    path = open_folder / "data" / "croupier.sqlite3"
    await _open_a_game(f"sqlite:///{path}")
    assert mode(path.parent) == 0o700
    assert mode(path) == 0o600
    if os.geteuid() == 0:  # root reads anything: the check needs another user
        assert _another_user_reads(path) is None
        os.chmod(path.parent, 0o755)  # even in an open folder the file itself is closed
        assert _another_user_reads(path) is None
        os.chmod(path, 0o644)  # the control: as SQLite would have made it, the seed is there to read
        with closing(sqlite3.connect(path)) as connection:
            (seed,) = connection.execute("SELECT seed FROM games WHERE status = 'open'").fetchone()
        assert _another_user_reads(path) == seed


async def test_an_existing_database_others_may_read_is_tightened_with_a_warning(
    open_folder: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = open_folder / "croupier.sqlite3"  # in a folder of the operator's own, which stays as it is
    await _open_a_game(f"sqlite:///{path}")
    for file in (path, *(path.with_name(path.name + suffix) for suffix in COMPANIONS)):
        file.touch()
        os.chmod(file, 0o644)  # as an earlier croupier, or a copy, left them
    caplog.set_level(logging.WARNING, logger="bot.store.db")
    store = await Store.open(f"sqlite:///{path}")
    await store.close()
    assert mode(open_folder) == 0o755
    assert mode(path) == 0o600
    warned = [r.getMessage() for r in caplog.records if r.name == "bot.store.db"]
    assert any(str(path) in said and "644" in said and "600" in said for said in warned), warned


def test_the_image_keeps_the_data_folder_private() -> None:
    """The container's SQLite folder (/app/data, for running the image without PostgreSQL; a named
    volume mounted there starts with the image's mode) is the croupier user's alone."""
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert "chown croupier:croupier /app/data" in dockerfile
    assert "chmod 0700 /app/data" in dockerfile
