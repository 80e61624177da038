"""The croupier process the crash tests kill: the console channel on a real store, fed over a pipe.

It runs in a child forked from a multiprocessing fork server that imported everything once, so a new
process life costs tens of milliseconds, not the second a fresh interpreter needs. A life may be told to
SIGKILL itself at its N-th *kill point*: before and after every SQL statement (the first migration of
a new SQLite file included), at every COMMIT, between receiving a line and handling it, and between
finishing a line and sending its answer. Killing from inside is still a real ``kill -9`` (no cleanup,
no rollback, no flush), but at a point chosen by a seeded random number rather than by a timer. Just
before it dies the worker writes the point's name to a note file, so the tests can show which parts
of the command path the kills covered.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3  # noqa: F401  (imported here, in the fork server: see below)
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import psycopg  # noqa: F401
from sqlalchemy import Engine, event

import bot.store.db as db_module
import bot.store.uow as uow_module
from bot import texts
from bot.console.terminal import Console
from bot.games import GAMES, scope_of
from bot.service.croupier import Croupier, seed_from_text
from bot.store import SchemaNotCurrent, Store, StoreUnavailable, head_revision
from tests.dice import scripted
from tests.faults.scripts import SCRIPTS, Script

MODERATORS = frozenset({"mod"})

# Everything a worker needs is imported and read by the fork server, before any fork: a worker that
# dropped root's rights may not be able to read the interpreter's own library any more, nor the
# checkout (a clone in a private folder): the games' registry reads every catalogue when it loads.
head_revision()
texts.load(scope_of(game) for game in GAMES.values())  # what loading the games does at start


@dataclass
class KillSwitch:
    """Counts kill points and SIGKILLs this process at the ``kill_at``-th one (never when None)."""

    kill_at: int | None
    note: Path | None
    count: int = 0
    phase: str = "start"  # "open" while the store opens (and migrates), then "play"

    def point(self, name: str) -> None:
        self.count += 1
        if self.kill_at is not None and self.count >= self.kill_at:
            if self.note is not None:
                self.note.write_text(f"{self.phase}:{name}", encoding="utf-8")
            os.kill(os.getpid(), signal.SIGKILL)

    def watch(self, engine: Engine) -> None:
        sync = engine

        @event.listens_for(sync, "before_cursor_execute")
        def _before(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
            self.point(f"before {_verb(statement)}")

        @event.listens_for(sync, "after_cursor_execute")
        def _after(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
            self.point(f"after {_verb(statement)}")

        @event.listens_for(sync, "commit")
        def _commit(conn: Any) -> None:
            self.point("commit")


def _verb(statement: str) -> str:
    words = statement.split()
    if not words:
        return "?"
    verb = words[0].upper()
    if verb in {"INSERT", "DELETE"} and len(words) > 2:
        return f"{verb} {words[2].strip('()').lower()}"
    if verb == "UPDATE" and len(words) > 1:
        return f"{verb} {words[1].lower()}"
    return verb


def console_for(store: Store, script: Script) -> Console:
    """The console channel as the tests run it: moderator and admin ``mod``, the script's dice."""
    croupier = Croupier(store=store, dice_factory=scripted(script.dice), seed_source=seed_from_text("faults"))
    return Console(croupier, moderators=MODERATORS, admins=MODERATORS)


DISPOSE = "\x00dispose"  # not a line: drop the pooled connections, as a pool recycle would


def serve(
    conn: Connection,
    db_url: str,
    script_name: str,
    kill_at: int | None,
    note: str | None,
    uid: int | None = None,
    busy_timeout_ms: int | None = None,
) -> None:
    """Process entry point: answer every line received on ``conn`` until the parent sends None.

    ``uid``: drop root's rights first (file permissions do not stop root); ``busy_timeout_ms``: how
    long SQLite waits for another process's lock before the store gives up.
    """
    if uid is not None:
        os.setgid(uid)
        os.setuid(uid)
    if busy_timeout_ms is not None:
        db_module.SQLITE_BUSY_TIMEOUT_MS = busy_timeout_ms
    switch = KillSwitch(kill_at, Path(note) if note else None)
    if note:  # keep what a failing worker says next to the note, for the test's message
        errors = os.open(Path(note).with_suffix(".stderr"), os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        os.dup2(errors, 2)
        os.close(errors)
    asyncio.run(_serve(conn, db_url, script_name, switch))


async def _serve(conn: Connection, db_url: str, script_name: str, switch: KillSwitch) -> None:
    names = vars(uow_module)  # Store.open builds its engine (and migrates) through this module's name
    original: Callable[..., Engine] = names["create_engine"]

    def watched(url: Any, **options: Any) -> Engine:
        engine = original(url, **options)
        switch.watch(engine)
        return engine

    names["create_engine"] = watched
    switch.phase = "open"
    try:
        store = await Store.open(db_url)
    except (StoreUnavailable, SchemaNotCurrent) as error:  # what `croupier` prints and exits on
        conn.send({"ready": False, "error": type(error).__name__, "message": str(error)})
        return
    switch.phase = "play"
    console = console_for(store, SCRIPTS[script_name])
    conn.send({"ready": True, "points": switch.count})
    try:
        while True:
            line = conn.recv()
            if line is None:
                break
            if line == DISPOSE:
                store.recycle()
                conn.send({"id": None, "points": switch.count})
                continue
            switch.point("received")
            answer = await console.handle(line)
            switch.point("answered")
            if answer is None:
                conn.send({"id": None, "points": switch.count})
            else:
                conn.send({"id": answer.id, "ok": answer.ok, "text": answer.text, "points": switch.count})
    finally:
        await store.close()
