"""Driving croupier processes that get killed, and reading back what the database kept.

:func:`play` feeds a script to a worker process line by line, as a front end would. When the worker
dies, a new one is started on the same database and the front end redelivers: first the line answered
last (when it was accepted — a message the bot may have applied just before dying), then the line that
was in flight, then the rest. The first answer to each message id is what the players saw; every
repeated answer must equal it.

:func:`stored` reads the whole store back in a backend-neutral form (database ids replaced by their
rank, clocks left out), so a run that was killed ten times can be compared with one that never was.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
import signal
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing import forkserver
from multiprocessing.connection import wait
from pathlib import Path
from typing import Any, cast

from sqlalchemy import select

from bot.console.terminal import Console
from bot.store import Store
from bot.store.models import corrections_t, games_t, log_t, participants_t, settings_t, tournaments_t
from tests.faults import worker
from tests.faults.scripts import Script

_ROOT = Path(__file__).resolve().parents[2]
_CONTEXT = multiprocessing.get_context("forkserver")
_CONTEXT.set_forkserver_preload(["tests.faults.worker"])
_PATIENCE_S = 120  # a safety net against a hung worker, not a measured time


def _ensure_fork_server() -> None:
    """Start the fork server in the repository root, with the root importable: Python 3.11's fork
    server ignores the parent's ``sys.path`` and puts its working folder first (from ``tests/``,
    ``tests/engine`` would shadow the real ``engine``)."""
    before, folder = os.environ.get("PYTHONPATH"), Path.cwd()
    os.environ["PYTHONPATH"] = os.pathsep.join(part for part in (str(_ROOT), before) if part)
    os.chdir(_ROOT)
    try:
        forkserver.ensure_running()
    finally:
        os.chdir(folder)
        if before is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = before


class WorkerHung(AssertionError):
    """A worker neither answered nor died."""


class Life:
    """One process life of the croupier."""

    def __init__(
        self, db_url: str, script: Script, kill_at: int | None, note: Path | None, **options: Any
    ) -> None:
        _ensure_fork_server()
        self.conn, child = _CONTEXT.Pipe()
        self.errors = note.with_suffix(".stderr") if note else None
        self.process = _CONTEXT.Process(
            target=worker.serve,
            args=(child, db_url, script.name, kill_at, str(note) if note else None),
            kwargs=options,
            daemon=True,
        )
        self.process.start()
        child.close()

    def receive(self) -> dict[str, Any] | None:
        """The worker's next message; None when it was killed instead."""
        conn = self.conn
        ready = wait([conn, self.process.sentinel], timeout=_PATIENCE_S)
        if not ready:
            self.process.kill()
            raise WorkerHung("the croupier process neither answered nor died")
        if conn in ready:
            try:
                return cast(dict[str, Any], conn.recv())
            except (EOFError, ConnectionResetError):  # killed: its end of the pipe is gone
                pass
        self.process.join(_PATIENCE_S)
        ended = self.process.exitcode
        assert ended == -signal.SIGKILL, f"worker ended with {ended}{self._why()}"
        conn.close()
        return None

    def _why(self) -> str:
        if self.errors is None or not self.errors.exists():
            return ""
        return ":\n" + self.errors.read_text(encoding="utf-8", errors="replace")[-3000:]

    def ask(self, line: str) -> dict[str, Any] | None:
        self.conn.send(line)
        return self.receive()

    def finish(self) -> None:
        self.conn.send(None)
        self.process.join(_PATIENCE_S)
        assert self.process.exitcode == 0, f"worker ended with {self.process.exitcode}{self._why()}"
        self.conn.close()


@dataclass
class Profile:
    """Kill points a clean run passes: while opening the store, and after each line (cumulative)."""

    opening: int  # opening a new SQLite file (the first migration included)
    after_line: list[int]
    reopening: int = 0  # opening the same store again, already migrated

    def remaining(self, line: int) -> int:
        """About how many kill points a life starting at ``line`` passes before the script ends."""
        done = self.after_line[line - 1] if line > 0 else self.opening
        return self.reopening + self.after_line[-1] - done


@dataclass
class Run:
    """What the players saw, and how the run was interrupted."""

    answers: dict[str, tuple[bool, str]] = field(default_factory=dict)
    repeated: list[tuple[str, tuple[bool, str]]] = field(default_factory=list)  # (id, answer again)
    kills: list[str] = field(default_factory=list)  # where each kill struck ("play:before INSERT …")
    lives: int = 0
    profile: Profile | None = None


KillPlan = Callable[[int, "Run"], int | None]  # (next line, run so far) → kill point for the new life


def no_kills(line: int, run: Run) -> int | None:
    return None


def random_kills(
    rng: random.Random, profile: Profile, kills: int, first_in_opening: bool = False
) -> KillPlan:
    """``kills`` kills at uniformly drawn kill points of each new life; the first one while the store
    opens (on a new SQLite file: inside the automatic first migration) if ``first_in_opening``."""

    def plan(line: int, run: Run) -> int | None:
        if len(run.kills) >= kills:
            return None
        if first_in_opening and not run.kills:
            return rng.randint(1, profile.opening)
        # The first life on a new file runs the whole first migration where later lives only reopen the
        # store: draw past the difference, so the kills meant for the command path land there however
        # many statements the migrations have (kills inside the migration are ``first_in_opening``'s).
        migration = profile.opening - profile.reopening if run.lives == 0 else 0
        return migration + rng.randint(1, max(profile.remaining(line), 1))

    return plan


def play(db_url: str, script: Script, plan: KillPlan = no_kills, note: Path | None = None) -> Run:
    """Play the whole script against the database, restarting the croupier whenever it dies."""
    run = Run()
    lines = script.lines
    ids = script.ids
    next_line = 0
    after_line: list[int] = []
    opening = 0
    while next_line < len(lines) or run.lives == 0:
        kill_at = plan(next_line, run)
        if note is not None and note.exists():
            note.unlink()
        life = Life(db_url, script, kill_at, note)
        run.lives += 1
        ready = life.receive()
        if ready is None:
            run.kills.append(_struck(note))
            continue
        assert ready["ready"], f"the croupier could not open the store: {ready['message']}"
        opening = ready["points"]
        sends = [next_line]
        if next_line > 0 and run.answers[ids[next_line - 1]][0]:
            sends.insert(0, next_line - 1)  # redeliver the last accepted line: it must not apply again
        died = False
        for index in [*sends, *range(next_line + 1, len(lines))]:
            if index >= len(lines):
                break
            answer = life.ask(lines[index])
            if answer is None:
                run.kills.append(_struck(note))
                died = True
                break
            if kill_at is None and run.lives == 1:
                after_line.append(answer["points"])
            seen = (bool(answer["ok"]), str(answer["text"]))
            assert answer["id"] == ids[index], f"answer {answer['id']} to line {lines[index]!r}"
            if ids[index] in run.answers:
                run.repeated.append((ids[index], seen))
            else:
                run.answers[ids[index]] = seen
            next_line = max(next_line, index + 1)
        if not died:
            life.finish()
            break
    if run.lives == 1 and not run.kills:
        run.profile = Profile(opening=opening, after_line=after_line)
    return run


def _struck(note: Path | None) -> str:
    if note is None or not note.exists():
        return "?"
    return note.read_text(encoding="utf-8")


# --- what the store kept -----------------------------------------------------------------------------

_LOG = log_t
_GAMES = games_t
_SEATS = participants_t
_TOURNAMENTS = tournaments_t
_SETTINGS = settings_t
_CORRECTIONS = corrections_t


def stored(db_url: str) -> dict[str, Any]:
    """The store's content without database ids and clocks, in write order."""

    async def read() -> dict[str, Any]:
        store = await Store.open(db_url)
        try:
            return await contents(store)
        finally:
            await store.close()

    return asyncio.run(read())


async def contents(store: Store) -> dict[str, Any]:
    """Everything the store holds (see :func:`stored`), read through an open store."""
    return await asyncio.to_thread(_contents, store)


def _contents(store: Store) -> dict[str, Any]:
    with store.engine.connect() as connection:
        tournaments = connection.execute(select(_TOURNAMENTS).order_by(_TOURNAMENTS.c.id)).all()
        games = connection.execute(select(_GAMES).order_by(_GAMES.c.id)).all()
        seats = connection.execute(select(_SEATS)).all()
        log = connection.execute(select(_LOG).order_by(_LOG.c.id)).all()
        settings = connection.execute(select(_SETTINGS)).all()
        corrections = connection.execute(select(_CORRECTIONS).order_by(_CORRECTIONS.c.id)).all()
    tournament_rank = {row.id: rank for rank, row in enumerate(tournaments, start=1)}
    game_rank = {row.id: rank for rank, row in enumerate(games, start=1)}
    log_rank = {row.id: rank for rank, row in enumerate(log, start=1)}
    correction_rank = {row.id: rank for rank, row in enumerate(corrections, start=1)}
    return {
        "settings": sorted(tuple(row) for row in settings),
        "tournaments": [(row.name, row.scoring) for row in tournaments],
        "games": [
            {
                "tournament": tournament_rank[row.tournament_id],
                "number": row.number,
                "kind": row.kind,
                "status": row.status,
                "version": row.version,
                "dice_used": row.dice_used,
                "to_act": row.to_act,
                "snapshot": row.snapshot,
                "seats": sorted(
                    (seat.position, seat.player, seat.name, seat.role, seat.points)
                    for seat in seats
                    if seat.game_id == row.id
                ),
            }
            for row in games
        ],
        "log": [
            {
                "message_id": row.message_id,
                "game": game_rank.get(row.game_id),
                "actor": row.actor,
                "text": row.text,
                "command": row.command,
                "events": row.events,
                "dice": row.dice,
                "dice_from": row.dice_from,
                "reply": _comparable(row.reply, game_rank),
                "voided_by": correction_rank.get(row.voided_by),
            }
            for row in log
        ],
        "corrections": [
            {
                "tournament": tournament_rank[row.tournament_id],
                "kind": row.kind,
                "player": row.player,
                "points": row.points,
                "reason": row.reason,
                "moderator": row.moderator,
                "game": game_rank.get(row.game_id),
                "voided_entry": log_rank.get(row.voided_entry),
                "message_id": row.message_id,
            }
            for row in corrections
        ],
    }


def _comparable(reply: dict[str, Any] | None, game_rank: dict[int, int]) -> dict[str, Any]:
    """A logged reply without what depends on the clock or on ids (the turn deadline, the game id)."""
    reply = dict(reply or {})
    reply.pop("deadline", None)
    board = reply.get("board")
    if board is not None:
        reply["board"] = {**board, "game_id": game_rank.get(board["game_id"])}
    return {**reply, "game_id": game_rank.get(reply.get("game_id"))}


def refusals_only(before: dict[str, Any], after: dict[str, Any]) -> list[dict[str, Any]]:
    """The log entries ``after`` added to ``before``, checked to be refusal records — the message id
    and its answer, no game, no command, no dice — while everything else stayed exactly as it was."""
    assert {k: v for k, v in after.items() if k != "log"} == {k: v for k, v in before.items() if k != "log"}
    assert after["log"][: len(before["log"])] == before["log"]
    added = after["log"][len(before["log"]) :]
    for entry in added:
        assert (entry["game"], entry["command"], entry["dice"]) == (None, None, []), entry
        assert entry["reply"]["ok"] is False, entry
    return added


def dice_of(content: dict[str, Any]) -> list[int]:
    """Every face the log records, in the order the croupier rolled them."""
    return [face for entry in content["log"] for face in entry["dice"]]


# --- the console in this process ---------------------------------------------------------------------


async def answer(console: Console, line: str) -> tuple[bool, str]:
    """The console's answer to one (non-blank) line."""
    got = await console.handle(line)
    assert got is not None, f"no answer to {line!r}"
    return got.ok, got.text


async def reference(script: Script, url: str) -> tuple[dict[str, tuple[bool, str]], dict[str, Any]]:
    """Answers and stored content of the whole script, played here without any fault."""
    store = await Store.open(url)
    try:
        console = worker.console_for(store, script)
        answers = {
            mid: await answer(console, line) for mid, line in zip(script.ids, script.lines, strict=True)
        }
        return answers, await contents(store)
    finally:
        await store.close()


def consistent(content: dict[str, Any]) -> None:
    """The log and the game rows agree: a game's version counts its log entries, its dice are the
    dice its entries rolled, each entry's dice start where the previous one's ended."""
    for rank, game in enumerate(content["games"], start=1):
        entries = [entry for entry in content["log"] if entry["game"] == rank]
        assert game["version"] == len(entries), (
            f"game {rank}: version {game['version']}, {len(entries)} entries"
        )
        position = 0
        for entry in entries:
            assert entry["dice_from"] == position, f"game {rank}: {entry['message_id']} starts at a gap"
            position += len(entry["dice"])
        assert game["dice_used"] == position
    ids = [entry["message_id"] for entry in content["log"]]
    assert len(ids) == len(set(ids))
