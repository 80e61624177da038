"""A big store: 10,000 open games, 1,000 of them played by one process; memory and restart time.

Seeding writes real games: every Durchgang is opened and played by the engine (joins, then up to a
dozen moves chosen among the buttons the game offers, dice from each game's own seed) and bulk
inserted through the store's own tables — tournament, game snapshot, participants, log entries.

Figures (goals: ≤ 150 MB resident, ≤ 2 s to the first answer after a restart):

* the resident memory of a fresh process that loaded and played one command in each of 1,000
  channels through one Croupier (and, for scale, what keeping those 1,000 states in memory adds);
* the wall time from spawning ``croupier console --json`` on that store to its answer to one game
  command (the console channel's Durchgang is one of the 10,000).

``python -m bench.scale``
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import insert, text

from bench.support import NAMES, backends, emit, memory_mib, postgres_problem, scratch_database
from bot.games import GAMES
from bot.service.croupier import Croupier, Incoming, seed_from_text
from bot.store import GameRecord, Store
from bot.store.repositories import games_t, log_t, participants_t, tournaments_t
from engine.dice import RecordingDice, VerifiableDice, commitment
from engine.game import Join

GAMES_TOTAL = 10_000
ACTIVE = 1_000
BATCH = 500
RESTARTS = 3
CONSOLE = "console"  # the console front end's channel and guild (bot.console.terminal)
ROOT = Path(__file__).resolve().parents[1]
MEMORY_GOAL_MIB = 150
RESTART_GOAL_S = 2.0
SEEDS = seed_from_text("scale")
V6 = GAMES["verflixte6"]


def channel_of(number: int) -> str:
    """Game 1 is the console's, so a restarted ``croupier console`` finds its Durchgang."""
    return CONSOLE if number == 1 else f"scale-{number:05d}"


# --- seeding ------------------------------------------------------------------------------------


@dataclass
class Rows:
    tournaments: list[dict[str, Any]] = field(default_factory=list)
    games: list[dict[str, Any]] = field(default_factory=list)
    participants: list[dict[str, Any]] = field(default_factory=list)
    log: list[dict[str, Any]] = field(default_factory=list)


def build_game(number: int, rng: random.Random, now: datetime, rows: Rows) -> None:
    """Open and play one Durchgang with the engine; append its rows (game id = tournament id = number)."""
    channel = channel_of(number)
    guild = CONSOLE if channel == CONSOLE else "scale"
    seed = SEEDS(channel, number, 1)
    dice = VerifiableDice(seed, number, 0)
    state = V6.open({})
    people = ("Anna", "Ben", "Cleo") if channel == CONSOLE else rng.sample(NAMES, rng.randint(4, 6))
    moves = 0 if channel == CONSOLE else rng.randint(0, 12)
    applied: list[tuple[str, str, Any]] = [(name.lower(), f"/join {name}", Join(name)) for name in people]
    log_start = len(rows.log)

    def apply(actor: str, line: str, command: Any) -> None:
        nonlocal state
        first = dice.position
        recording = RecordingDice(dice)
        state, events = V6.apply(state, actor, command, recording)
        rows.log.append(
            {
                "message_id": f"seed:{number}:{len(rows.log) - log_start + 1}",
                "game_id": number,
                "channel": channel,
                "actor": actor,
                "text": line,
                "command": {"type": type(command).__name__},
                "events": [event.to_json() for event in events],
                "dice": list(recording.faces),
                "dice_from": first,
                "reply": None,
                "created_at": now,
            }
        )

    for joiner, line, command in applied:
        apply(joiner, line, command)
    for _ in range(moves):
        actor = V6.to_act(state)
        if actor is None:
            break
        choices = [choice for choice in V6.choices(state) if not choice.multi]
        plain = [choice for choice in choices if choice.action == "continue"]
        choice = rng.choice(plain) if plain and rng.random() < 0.6 else rng.choice(choices)
        command = V6.parse(choice.words)
        assert command is not None, choice.words
        apply(actor, choice.words, command)
    rows.tournaments.append(
        {
            "id": number,
            "guild": guild,
            "channel": channel,
            "name": "Turnier",
            "scoring": "sum",
            "created_at": now,
        }
    )
    rows.games.append(
        {
            "id": number,
            "tournament_id": number,
            "channel": channel,
            "kind": V6.name,
            "number": 1,
            "options": {},
            "status": "open",
            "seed": seed,
            "commitment": commitment(seed),
            "dice_used": dice.position,
            "snapshot": V6.dump(state),
            "version": 1 + len(rows.log) - log_start,
            "to_act": V6.to_act(state),
            "turn_deadline": None,
            "opened_at": now,
            "closed_at": None,
        }
    )
    rows.participants.extend(
        {
            "game_id": number,
            "player": seat.player,
            "name": seat.name,
            "position": position,
            "role": seat.role,
            "points": seat.points,
        }
        for position, seat in enumerate(V6.table(state))
    )


@functools.cache
def batches(count: int) -> tuple[tuple[Rows, ...], float]:
    """The rows of ``count`` games in batches, built once per run (both stores get the same games)."""
    rng = random.Random(2024)
    now = datetime.now(UTC)
    started = time.perf_counter()
    made = []
    for first in range(1, count + 1, BATCH):
        rows = Rows()
        for number in range(first, min(count, first + BATCH - 1) + 1):
            build_game(number, rng, now, rows)
        made.append(rows)
    return tuple(made), time.perf_counter() - started


async def open_game(store: Store, channel: str) -> tuple[GameRecord, Any] | None:
    """A channel's open game and its state, read straight from the store (the bench picks its moves
    from it; front ends never do this)."""
    with store.transaction(read_only=True) as uow:
        record = uow.games.open_in(channel)
    return None if record is None else (record, GAMES[record.kind].load(record.snapshot))


async def seed(store: Store, count: int) -> dict[str, float]:
    """Write ``count`` played, open games in batches; seconds spent in the engine (0 when another store
    of this run already had them built) and in the store."""
    fresh = batches.cache_info().currsize == 0
    made, built = batches(count)
    built = built if fresh else 0.0
    written = 0.0
    log_rows = 0
    for rows in made:
        started = time.perf_counter()
        async with store.engine.begin() as connection:
            for table, values in (
                (tournaments_t, rows.tournaments),
                (games_t, rows.games),
                (participants_t, rows.participants),
                (log_t, rows.log),
            ):
                await connection.execute(insert(table), values)
        written += time.perf_counter() - started
        log_rows += len(rows.log)
    if store.dialect == "postgresql":
        async with store.engine.begin() as connection:
            for name in ("tournaments", "games", "command_log"):
                sequence = f"pg_get_serial_sequence('{name}', 'id')"
                await connection.execute(text(f"SELECT setval({sequence}, (SELECT max(id) FROM {name}))"))
    return {"engine_s": built, "store_s": written, "log_rows": log_rows}


# --- 1,000 active channels in one process -------------------------------------------------------


async def active(url: str, channels: int) -> dict[str, Any]:
    """In a fresh process: load and play one command in each channel, then hold their states."""
    store = await Store.open(url)
    croupier = Croupier(store=store, seed_source=SEEDS)
    started = memory_mib()
    gate = asyncio.Semaphore(16)
    answered: list[bool] = []
    refusals: Counter[str] = Counter()
    idle: list[int] = []

    async def play(number: int) -> None:
        channel = channel_of(number)
        async with gate:
            view = await open_game(store, channel)
            if view is None:
                return
            record, state = view
            game = GAMES[record.kind]
            actor = game.to_act(state)
            choices = [choice for choice in game.choices(state) if not choice.multi]
            if actor is None or not choices:  # everybody has played: the Durchgang waits for /close
                idle.append(number)
                return
            words = next((c.words for c in choices if c.action == "continue"), choices[0].words)
            msg = Incoming(
                message_id=f"active:{number}",
                guild="scale",
                channel=channel,
                author=actor,
                author_name=actor.capitalize(),
                text=words,
            )
            reply = await croupier.handle_text(msg)
            answered.append(reply.ok)
            if not reply.ok:
                refusals[reply.error_code or "?"] += 1

    began = time.perf_counter()
    await asyncio.gather(*(play(number) for number in range(2, channels + 2)))
    played_s = time.perf_counter() - began
    after_play = memory_mib()
    held = [await open_game(store, channel_of(number)) for number in range(2, channels + 2)]
    with_states = memory_mib()
    await store.close()
    return {
        "channels": channels,
        "commands_ok": sum(answered),
        "commands_refused": dict(refusals),
        "channels_waiting_for_close": len(idle),
        "played_s": round(played_s, 2),
        "rss_after_open_mib": started["rss_mib"],
        "rss_mib": after_play["rss_mib"],
        "peak_rss_mib": after_play["peak_rss_mib"],
        "rss_with_states_held_mib": with_states["rss_mib"],
        "states_held": sum(view is not None for view in held),
    }


def _python_module(*args: str) -> list[str]:
    return [sys.executable, "-m", "bench.scale", *args]


def _croupier_command(url: str) -> list[str]:
    script = Path(sys.executable).with_name("croupier")
    entry = (
        [str(script)]
        if script.exists()
        else [sys.executable, "-c", "import sys; from bot.cli import main; sys.exit(main())"]
    )
    return [*entry, "console", "--json", "--db", url]


async def to_act_in_console(store: Store) -> str:
    with store.transaction(read_only=True) as uow:
        record = uow.games.open_in(CONSOLE)
    if record is None or record.to_act is None:
        raise RuntimeError("the console's seeded Durchgang has nobody to act")
    return record.to_act


def first_answer(url: str, line: str) -> tuple[float, dict[str, Any]]:
    """Spawn the console, type one line at once, and time spawn → its answer on stdout."""
    env = {**os.environ, "LOG_LEVEL": "WARNING"}
    began = time.perf_counter()
    console = subprocess.Popen(
        _croupier_command(url),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    )
    assert console.stdin is not None
    assert console.stdout is not None
    console.stdin.write(line + "\n")
    console.stdin.flush()
    answer = console.stdout.readline()
    elapsed = time.perf_counter() - began
    console.stdin.close()  # end of input: the console quits after its answer
    console.stdout.read()
    err = console.stderr.read() if console.stderr is not None else ""
    console.wait(timeout=60)
    if not answer:
        raise RuntimeError(f"the console gave no answer: {err.strip()[-500:]}")
    return elapsed, json.loads(answer)


async def run_backend(backend: str) -> None:
    async with scratch_database(backend, "scale") as url:
        store = await Store.open(url)
        try:
            began = time.perf_counter()
            cost = await seed(store, GAMES_TOTAL)
            emit(
                "scale_seed",
                store=backend,
                games=GAMES_TOTAL,
                log_rows=cost["log_rows"],
                seconds=round(time.perf_counter() - began, 2),
                engine_s=round(cost["engine_s"], 2),  # 0: the same games as for the store before
                store_s=round(cost["store_s"], 2),
            )
            child = await asyncio.to_thread(
                subprocess.run,
                _python_module("--active", url, "--channels", str(ACTIVE)),
                capture_output=True,
                text=True,
                cwd=ROOT,
                timeout=300,
            )
            if child.returncode != 0:
                raise RuntimeError(f"the active-channels process failed:\n{child.stderr[-2000:]}")
            figures = json.loads(child.stdout.strip().splitlines()[-1])
            emit(
                "scale_memory",
                store=backend,
                open_games=GAMES_TOTAL,
                **figures,
                goal_max_mib=MEMORY_GOAL_MIB,
                meets_goal=figures["peak_rss_mib"] <= MEMORY_GOAL_MIB,
            )
            times: list[float] = []
            answers: list[bool] = []
            for attempt in range(RESTARTS):
                player = await to_act_in_console(store)
                line = f"#restart-{attempt + 1} {player}: weiter"
                elapsed, answer = await asyncio.to_thread(first_answer, url, line)
                times.append(elapsed)
                answers.append(bool(answer.get("ok")))
            emit(
                "scale_restart_first_answer",
                store=backend,
                open_games=GAMES_TOTAL,
                median_s=round(statistics.median(times), 3),
                max_s=round(max(times), 3),
                runs_s=[round(t, 3) for t in times],
                answers_ok=sum(answers),
                goal_max_s=RESTART_GOAL_S,
                meets_goal=max(times) <= RESTART_GOAL_S,
            )
        finally:
            await store.close()


async def run_all(only: Sequence[str]) -> None:
    for backend in only:
        if backend == "postgresql":
            problem = await postgres_problem()
            if problem is not None:
                emit("scale", store=backend, skipped=f"PostgreSQL unreachable: {problem}")
                continue
        await run_backend(backend)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.scale", description=__doc__)
    parser.add_argument("--active", metavar="URL", help=argparse.SUPPRESS)
    parser.add_argument("--channels", type=int, default=ACTIVE, help=argparse.SUPPRESS)
    args = parser.parse_args(argv if argv is not None else [])
    if args.active:
        print(json.dumps(asyncio.run(active(args.active, args.channels))), flush=True)
    else:
        asyncio.run(run_all(backends()))


if __name__ == "__main__":
    main(sys.argv[1:])
