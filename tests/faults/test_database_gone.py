"""The database goes away mid-Durchgang: players hear "try again", nothing is half-written, play resumes.

PostgreSQL: a private server (never the machine's shared one) is crashed with ``pg_ctl stop -m
immediate`` between two commands, and — through a hook on the bot's own engine — in the middle of a
command's transaction and at its COMMIT. SQLite: the file is locked by another process for longer than
the busy timeout, and the file and its folder lose their write permission.

What the front ends get (checked here): the console channel answers ``error.store_unavailable``; the
service itself (``Croupier.handle_text`` / ``execute``) raises :class:`bot.store.StoreUnavailable`,
which every front end must catch and answer with that same text.
"""

from __future__ import annotations

import asyncio
import os
import pwd
import shutil
import sqlite3
import sys
import tempfile
from asyncio.subprocess import PIPE
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from bot.console.terminal import Console
from bot.service.croupier import Incoming
from bot.store import Store, StoreUnavailable
from bot.store import db as store_db
from bot.store.migrate import upgrade
from bot.texts import render
from tests.faults import harness, worker
from tests.faults.pgcluster import Cluster, private_cluster
from tests.faults.scripts import ROBBERY

TRY_AGAIN = (False, render("error.store_unavailable", {}, "de"))
SPLIT = 17  # ROBBERY up to "ben: weiter" with the robbery pending: a decision open across the outage


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    with private_cluster() as started:
        yield started


@pytest.fixture(scope="module")
def expected(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, tuple[bool, str]], dict[str, Any]]:
    """ROBBERY's answers and final store, played on SQLite without any fault."""
    url = f"sqlite:///{tmp_path_factory.mktemp('expected') / 'ref.sqlite3'}"
    return asyncio.run(harness.reference(ROBBERY, url))


def _incoming(line: str) -> Incoming:
    """The message the console would make of one of the script's lines."""
    mid, rest = line.split(" ", 1)
    name, text = (part.strip() for part in rest.split(":", 1))
    return Incoming(
        message_id=f"console:{mid[1:]}",
        guild="console",
        channel="console",
        author=name,
        author_name=name,
        text=text,
    )


async def _play(console: Console, expected: dict[str, tuple[bool, str]], start: int, stop: int) -> None:
    for mid, line in zip(ROBBERY.ids[start:stop], ROBBERY.lines[start:stop], strict=True):
        assert await harness.answer(console, line) == expected[mid], line


def _crash_on(store: Store, cluster: Cluster, statement: str) -> dict[str, bool]:
    """Crash the server just before the bot's next ``statement`` ("SELECT", "COMMIT" …)."""
    armed = {"armed": False, "fired": False}

    def crash() -> None:
        if armed["armed"] and not armed["fired"]:
            armed["fired"] = True
            cluster.crash()

    if statement == "COMMIT":
        event.listen(store.engine, "commit", lambda conn: crash())
    else:

        def before(conn: Any, cursor: Any, sql: str, *args: Any) -> None:
            if sql.lstrip().upper().startswith(statement.upper()):
                crash()

        event.listen(store.engine, "before_cursor_execute", before)
    return armed


async def test_postgresql_crash_between_commands_answers_try_again_and_play_resumes(
    cluster: Cluster, expected: tuple[dict[str, tuple[bool, str]], dict[str, Any]]
) -> None:
    answers, final = expected
    url = cluster.create_database("between")
    upgrade(url)
    store = await Store.open(url)
    try:
        console = worker.console_for(store, ROBBERY)
        await _play(console, answers, 0, SPLIT)
        before = await harness.contents(store)
        cluster.crash()
        for line in ROBBERY.lines[SPLIT : SPLIT + 3]:  # the robbery answer, and lines after it
            assert await harness.answer(console, line) == TRY_AGAIN
        assert await harness.answer(console, "anna: /standings") == TRY_AGAIN
        with pytest.raises(StoreUnavailable) as raised:  # what the Discord front end has to catch
            await console.croupier.handle_text(_incoming(ROBBERY.lines[SPLIT]))
        assert "127.0.0.1" in str(raised.value)
        cluster.start()
        after = await harness.contents(store)
        assert after == before, "a command refused for the outage left something behind"
        harness.consistent(after)
        await _play(console, answers, SPLIT, len(ROBBERY.lines))  # the same message ids now succeed
        content = await harness.contents(store)
    finally:
        await store.close()
    assert content == final
    harness.consistent(content)


# The command's read, its one write (game, participants and log entry in one statement) and its commit.
@pytest.mark.parametrize("statement", ["SELECT", "WITH saved AS", "COMMIT"])
async def test_postgresql_crash_inside_a_command_writes_none_of_it(
    cluster: Cluster, expected: tuple[dict[str, tuple[bool, str]], dict[str, Any]], statement: str
) -> None:
    answers, final = expected
    url = cluster.create_database(f"inside_{statement.split()[0].lower()}")
    upgrade(url)
    store = await Store.open(url)
    try:
        console = worker.console_for(store, ROBBERY)
        await _play(console, answers, 0, SPLIT)
        before = await harness.contents(store)
        hook = _crash_on(store, cluster, statement)
        hook["armed"] = True
        assert await harness.answer(console, ROBBERY.lines[SPLIT]) == TRY_AGAIN
        assert hook["fired"]
        cluster.start()
        after = await harness.contents(store)
        assert after == before, f"a crash before {statement} left part of the command behind"
        harness.consistent(after)
        await _play(console, answers, SPLIT, len(ROBBERY.lines))
        content = await harness.contents(store)
    finally:
        await store.close()
    assert content == final


# --- SQLite -------------------------------------------------------------------------------------------

_HOLD_LOCK = """
import sqlite3, sys
connection = sqlite3.connect(sys.argv[1], isolation_level=None)
connection.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
sys.stdin.read()
connection.execute("ROLLBACK")
"""


async def test_sqlite_locked_by_another_process_answers_try_again_and_changes_nothing(
    tmp_path: Path,
    expected: tuple[dict[str, tuple[bool, str]], dict[str, Any]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    answers, final = expected
    monkeypatch.setattr(store_db, "SQLITE_BUSY_TIMEOUT_MS", 200)  # wait 0.2 s, not 10 s, for the lock
    path = tmp_path / "locked.sqlite3"
    store = await Store.open(f"sqlite:///{path}")
    try:
        console = worker.console_for(store, ROBBERY)
        await _play(console, answers, 0, SPLIT)
        before = await harness.contents(store)
        holder = await asyncio.create_subprocess_exec(
            sys.executable, "-c", _HOLD_LOCK, str(path), stdin=PIPE, stdout=PIPE
        )
        try:
            assert holder.stdout is not None
            assert (await holder.stdout.readline()).strip() == b"locked"
            for line in ROBBERY.lines[SPLIT : SPLIT + 2]:
                assert await harness.answer(console, line) == TRY_AGAIN
            with pytest.raises(StoreUnavailable, match="database is locked"):
                await console.croupier.handle_text(_incoming(ROBBERY.lines[SPLIT]))
        finally:
            await holder.communicate(b"")
        assert await harness.contents(store) == before
        await _play(console, answers, SPLIT, len(ROBBERY.lines))
        assert await harness.contents(store) == final
    finally:
        await store.close()
    with closing(sqlite3.connect(path)) as check:
        assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def _nobody() -> int | None:
    """A user the worker can become so that file permissions apply (they do not stop root)."""
    if os.geteuid() != 0:
        return None
    return pwd.getpwnam("nobody").pw_uid


def _ready(life: harness.Life) -> bool:
    message = life.receive()
    assert message is not None
    return bool(message["ready"])


def _said(life: harness.Life, line: str) -> tuple[bool, str]:
    got = life.ask(line)
    assert got is not None, f"the croupier died on {line!r}"
    return bool(got["ok"]), str(got["text"])


@pytest.fixture
def open_folder() -> Iterator[Path]:
    """A folder another user can reach (pytest's own temporary folders are root's alone)."""
    base = Path(tempfile.mkdtemp(prefix="croupier-readonly-"))
    os.chmod(base, 0o755)
    try:
        yield base
    finally:
        shutil.rmtree(base, ignore_errors=True)


def test_sqlite_file_and_folder_made_read_only_answer_try_again_and_nothing_is_lost(
    expected: tuple[dict[str, tuple[bool, str]], dict[str, Any]], open_folder: Path
) -> None:
    answers, final = expected
    uid = _nobody()
    folder, notes = open_folder / "db", open_folder / "notes"
    folder.mkdir()
    notes.mkdir()
    url = f"sqlite:///{folder / 'croupier.sqlite3'}"
    upgrade(url)
    if uid is not None:
        for path in (folder, notes, *folder.iterdir()):
            os.chown(path, uid, uid)

    def lock_down(writable: bool) -> None:
        for path in folder.iterdir():
            os.chmod(path, 0o644 if writable else 0o444)
        os.chmod(folder, 0o755 if writable else 0o555)

    life = harness.Life(url, ROBBERY, None, notes / "first", uid=uid)
    try:
        assert _ready(life)
        for mid, line in zip(ROBBERY.ids[:SPLIT], ROBBERY.lines[:SPLIT], strict=True):
            assert _said(life, line) == answers[mid]
        lock_down(writable=False)
        # The running process keeps its open file: the next move still works …
        assert _said(life, ROBBERY.lines[SPLIT]) == answers[ROBBERY.ids[SPLIT]]
        # … until the pool opens the file again, which it can now only read.
        assert life.ask(worker.DISPOSE) is not None
        assert _said(life, ROBBERY.lines[SPLIT + 1]) == TRY_AGAIN
        life.process.kill()
        life.process.join()
        # A restart on the read-only file opens it (reading needs no write) and answers "try again".
        life = harness.Life(url, ROBBERY, None, notes / "second", uid=uid)
        assert _ready(life)
        assert _said(life, ROBBERY.lines[SPLIT + 1]) == TRY_AGAIN
        life.finish()
    finally:
        if life.process.is_alive():
            life.process.kill()
        lock_down(writable=True)
    before_end = harness.stored(url)
    harness.consistent(before_end)
    assert before_end["log"][-1]["message_id"] == f"console:{ROBBERY.ids[SPLIT]}"
    life = harness.Life(url, ROBBERY, None, notes / "third", uid=uid)
    assert _ready(life)
    for mid, line in zip(ROBBERY.ids[SPLIT + 1 :], ROBBERY.lines[SPLIT + 1 :], strict=True):
        assert _said(life, line) == answers[mid]
    life.finish()
    assert harness.stored(url) == final
    with closing(sqlite3.connect(folder / "croupier.sqlite3")) as check:
        assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)
