"""The floor of a console line: what one costs with nothing around the rules but a durable write.

``python bench/_floor_line.py engine|store|served DATABASE`` reads the console's ``NAME: TEXT`` lines on stdin
and answers each with one JSON line, as ``croupier console --json`` does, but with none of the
product around the rules: no croupier service, no rendering, no event loop, no command log's
exactly-once. ``engine``: the real parser and rules of Die verflixte 6! with the console's
verifiable dice. ``store``: the same, and each accepted command's durable unit of work through plain
``sqlite3`` with the store's settings — the game's snapshot updated, one log row with its events and
faces inserted, committed (a game opened inserts its row). ``served``: ``store``'s work, with the lines
read by an asyncio event loop and each one answered on a worker thread, as the console does.

``bench.instructions`` runs it beside the console so the per-line figure can be read against what the
rules and one durable write cost on their own in the same interpreter.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import queue
import sqlite3
import sys
import threading
from typing import Any

import orjson

from engine.dice import RecordingDice, VerifiableDice
from engine.errors import CroupierError
from engine.game import Close, Command, Join
from engine.verflixte6.game import Verflixte6

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS games"
    " (id INTEGER PRIMARY KEY, snapshot BLOB NOT NULL, dice_used INTEGER NOT NULL, version INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS log (id INTEGER PRIMARY KEY, game INTEGER NOT NULL, actor TEXT NOT NULL,"
    " text TEXT NOT NULL, events BLOB NOT NULL, faces BLOB NOT NULL)",
)
_UPDATE = "UPDATE games SET snapshot = ?, dice_used = ?, version = version + 1 WHERE id = ?"
_INSERT = "INSERT INTO log (game, actor, text, events, faces) VALUES (?, ?, ?, ?, ?)"


def _seed(seed_text: str, number: int) -> bytes:
    """The console's game seed (``bot.service.croupier.seed_from_text`` for channel ``console``), so
    the lines roll the dice they rolled when the mix was made."""
    return hmac.new(seed_text.encode(), f"console:1:{number}".encode(), hashlib.sha256).digest()


class Floor:
    """One console's rules and, with ``store``, its durable writes: ``answer`` takes a line, gives JSON."""

    def __init__(self, database: str, *, store: bool, seed_text: str = "bench-console") -> None:
        self.store = store
        self.seed_text = seed_text
        self.connection = sqlite3.connect(database, isolation_level=None, check_same_thread=False)
        for pragma in ("journal_mode=WAL", "synchronous=FULL"):
            self.connection.execute(f"PRAGMA {pragma}")
        for statement in _SCHEMA:
            self.connection.execute(statement)
        self.game = Verflixte6()
        self.state: Any = None
        self.game_id = self.used = 0
        self.seed = b""

    def answer(self, raw: str) -> str:
        name, _, text = raw.rstrip("\n").partition(": ")
        game, execute = self.game, self.connection.execute
        if text.startswith("/open"):
            self.game_id += 1
            self.seed, self.state, self.used = _seed(self.seed_text, self.game_id), game.open({}), 0
            if self.store:
                execute("BEGIN IMMEDIATE")
                snapshot = orjson.dumps(game.dump(self.state))
                execute("INSERT INTO games VALUES (?, ?, 0, 0)", (self.game_id, snapshot))
                execute("COMMIT")
            return '{"ok":true}\n'
        try:
            command: Command | None
            command = Join(name) if text == "/join" else Close() if text == "/close" else game.parse(text)
            if command is None or self.state is None:
                raise CroupierError("not a command here")
            dice = RecordingDice(VerifiableDice(self.seed, self.game_id, self.used))
            self.state, events = game.apply(self.state, name, command, dice)
            self.used += len(dice.faces)
            if self.store:
                execute("BEGIN IMMEDIATE")
                execute(_UPDATE, (orjson.dumps(game.dump(self.state)), self.used, self.game_id))
                events_json = orjson.dumps([event.to_json() for event in events])
                execute(_INSERT, (self.game_id, name, text, events_json, orjson.dumps(dice.faces)))
                execute("COMMIT")
        except CroupierError:
            return '{"ok":false}\n'
        return '{"ok":true}\n'


def serve(floor: Floor) -> None:
    """Lines read and answered one after the other on one thread."""
    for raw in sys.stdin:
        sys.stdout.write(floor.answer(raw))
        sys.stdout.flush()


async def serve_on_a_loop(floor: Floor) -> None:
    """Lines read by an event loop and answered on a worker thread, each answer handed back to the
    loop — the shape of the console's own path (asyncio front end, store work off the loop)."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    jobs: queue.SimpleQueue[tuple[asyncio.Future[str], str] | None] = queue.SimpleQueue()

    def work() -> None:
        while (job := jobs.get()) is not None:
            future, raw = job
            loop.call_soon_threadsafe(future.set_result, floor.answer(raw))

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    while line := await reader.readline():
        future: asyncio.Future[str] = loop.create_future()
        jobs.put((future, line.decode()))
        sys.stdout.write(await future)
        sys.stdout.flush()
    jobs.put(None)
    worker.join()


if __name__ == "__main__":
    mode, database = sys.argv[1], sys.argv[2]
    floor = Floor(database, store=mode != "engine")
    if mode == "served":
        asyncio.run(serve_on_a_loop(floor))
    else:
        serve(floor)
    floor.connection.close()
