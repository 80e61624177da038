"""A big store: many open games, many channels played by one process; memory and restart time.

Seeding writes real games: a Durchgang is opened and played by the engine (joins, then up to a dozen
moves chosen among the buttons the game offers, dice from the game's own seed) and bulk inserted
through the store's own tables — tournament, game snapshot, participants, log entries. ``--distinct``
plays only that many with the engine and repeats them under new ids and channels for the rest (at a
million games the engine alone would take 20–30 minutes here; the store holds as many rows either way).

Figures (goals: 1,000,000 open games with ≤ 300 MB resident and ≤ 2 s to the first answer after a
restart; 100,000 channels played in one process with ≤ 300 MB):

* ``scale_channels`` — a fresh process opens the store and a Croupier (``rss_after_start_mib``), then
  plays one command in each of ``--channels`` channels (16 at a time), with the resident memory at ten
  points on the way, the growth per channel over the whole run and over its second half (a cache
  that is full stops growing; a leak keeps going);
* ``scale_restart_first_answer`` — the wall time from spawning ``croupier console --json`` on the
  store to its answer to one game command (the console channel's Durchgang is one of the open games),
  the CPU time the console used until then, and its resident memory once it answered; each start
  beside one on a store holding nothing but that Durchgang (``one_game_store_…``), in turns, so that
  what the open games add stands apart from the machine's load.

``python -m bench scale [--games 10000] [--channels 1000] [--distinct N] [--restarts 3]
[--store sqlite|postgresql] [--db FILE]``
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import secrets
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections import Counter
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import distinct, func, insert, select, text

from bench.support import NAMES, backends, cpu_ns, emit, memory_mib, postgres_problem, scratch_database
from bot.games import GAMES
from bot.service.croupier import Croupier, seed_from_text
from bot.service.requests import Incoming, Line, Moderate, Move, OpenGame
from bot.store import GameRecord, Store
from bot.store.repositories import games_t, log_t, participants_t, tournaments_t
from engine.dice import RecordingDice, VerifiableDice, commitment
from engine.game import Close, Join

GAMES_TOTAL = 10_000
CHANNELS = 1_000
BATCH = 2_000  # games per insert transaction
RESTARTS = 3
PLAYING_AT_ONCE = 16
SAMPLES = 10  # resident-memory samples while the channels are played
CONSOLE = "console"  # the console front end's channel and guild (bot.console.terminal)
CONSOLE_PEOPLE = ("Anna", "Ben", "Cleo")
ROOT = Path(__file__).resolve().parents[1]
MEMORY_GOAL_MIB = 300 * 10**6 / 2**20  # 300 MB
RESTART_GOAL_S = 2.0
SEEDS = seed_from_text("scale")
V6 = GAMES["verflixte6"]


def channel_of(number: int) -> str:
    """Game 1 is the console's, so a restarted ``croupier console`` finds its Durchgang."""
    return CONSOLE if number == 1 else f"scale-{number:07d}"


# --- seeding ------------------------------------------------------------------------------------


@dataclass
class Rows:
    tournaments: list[dict[str, Any]] = field(default_factory=list)
    games: list[dict[str, Any]] = field(default_factory=list)
    participants: list[dict[str, Any]] = field(default_factory=list)
    log: list[dict[str, Any]] = field(default_factory=list)

    def add(self, other: Rows) -> None:
        self.tournaments += other.tournaments
        self.games += other.games
        self.participants += other.participants
        self.log += other.log


def build_game(number: int, rng: random.Random, now: datetime) -> Rows:
    """Open and play one Durchgang with the engine: its rows (game id = tournament id = number)."""
    rows = Rows()
    channel = channel_of(number)
    guild = CONSOLE if channel == CONSOLE else "scale"
    seed = SEEDS(channel, number, 1)
    dice = VerifiableDice(seed, number, 0)
    state = V6.open({})
    people = CONSOLE_PEOPLE if channel == CONSOLE else rng.sample(NAMES, rng.randint(4, 6))
    moves = 0 if channel == CONSOLE else rng.randint(0, 12)

    def apply(actor: str, line: str, command: Any) -> None:
        nonlocal state
        first = dice.position
        recording = RecordingDice(dice)
        state, events = V6.apply(state, actor, command, recording)
        rows.log.append(
            {
                "message_id": f"seed:{number}:{len(rows.log) + 1}",
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

    for name in people:
        apply(name.lower(), f"/join {name}", Join(name))
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
            "version": 1 + len(rows.log),
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
    return rows


def renumbered(template: Rows, number: int) -> Rows:
    """Another game's rows as game ``number`` in its own channel (same seed, snapshot and log)."""
    channel = channel_of(number)
    return Rows(
        tournaments=[{**row, "id": number, "channel": channel} for row in template.tournaments],
        games=[{**row, "id": number, "tournament_id": number, "channel": channel} for row in template.games],
        participants=[{**row, "game_id": number} for row in template.participants],
        log=[
            {**row, "game_id": number, "channel": channel, "message_id": f"seed:{number}:{index}"}
            for index, row in enumerate(template.log, 1)
        ],
    )


def batches(count: int, distinct: int) -> Iterator[Rows]:
    """The rows of ``count`` games, :data:`BATCH` games at a time; the first ``distinct`` played by the
    engine (the same ones on every run), the rest copies of games 2..distinct."""
    rng = random.Random(2024)
    now = datetime.now(UTC)
    templates: list[Rows] = []
    for first in range(1, count + 1, BATCH):
        rows = Rows()
        for number in range(first, min(count, first + BATCH - 1) + 1):
            if number <= distinct:
                game = build_game(number, rng, now)
                if number > 1:
                    templates.append(game)
            else:
                game = renumbered(templates[(number - 2) % len(templates)], number)
            rows.add(game)
        yield rows


def seeded(store: Store) -> int:
    """How many games a kept ``--db`` was seeded with: one channel each (the console's Durchgang,
    closed and opened again by later runs, adds games but no channel)."""
    with store.engine.connect() as connection:
        counted = select(func.count(distinct(games_t.c.channel)))
        return int(connection.execute(counted).scalar_one())


def seed(store: Store, count: int, distinct: int) -> dict[str, float]:
    """Write ``count`` played, open games in batches: seconds in the engine and in the store."""
    written = 0.0
    log_rows = 0
    made = batches(count, distinct)
    started = time.perf_counter()
    for rows in made:
        began = time.perf_counter()
        with store.engine.begin() as connection:
            for table, values in (
                (tournaments_t, rows.tournaments),
                (games_t, rows.games),
                (participants_t, rows.participants),
                (log_t, rows.log),
            ):
                connection.execute(insert(table), values)
        written += time.perf_counter() - began
        log_rows += len(rows.log)
    if store.dialect == "postgresql":
        with store.engine.begin() as connection:
            for name in ("tournaments", "games", "command_log"):
                sequence = f"pg_get_serial_sequence('{name}', 'id')"
                connection.execute(text(f"SELECT setval({sequence}, (SELECT max(id) FROM {name}))"))
            connection.execute(text("ANALYZE"))
    return {"engine_s": time.perf_counter() - started - written, "store_s": written, "log_rows": log_rows}


# --- many channels in one process ---------------------------------------------------------------


def open_game(store: Store, channel: str) -> tuple[GameRecord, Any] | None:
    """A channel's open game and its state, read straight from the store (the bench picks its moves
    from it; front ends never do this)."""
    with store.transaction(read_only=True) as uow:
        record = uow.games.open_in(channel)
    return None if record is None else (record, GAMES[record.kind].load(record.snapshot))


def rss_now() -> float:
    gc.collect()
    return memory_mib()["rss_mib"]


async def active(url: str, channels: int, traced: int) -> dict[str, Any]:
    """In a fresh process: open the store and a Croupier, then play one command in each channel."""
    if traced:
        tracemalloc.start(8)
    store = await Store.open(url)
    croupier = Croupier(store=store, seed_source=SEEDS)
    GAMES.load()  # as every front end does at start
    started = rss_now()
    baseline = tracemalloc.take_snapshot() if traced else None
    answered: Counter[bool] = Counter()
    refusals: Counter[str] = Counter()
    idle = 0
    samples: list[tuple[int, float]] = [(0, started)]
    every = max(1, channels // SAMPLES)
    numbers = iter(range(2, channels + 2))
    done = 0

    async def play(number: int) -> None:
        nonlocal idle
        channel = channel_of(number)
        view = await asyncio.to_thread(open_game, store, channel)
        if view is None:
            return
        record, state = view
        game = GAMES[record.kind]
        actor = game.to_act(state)
        choices = [choice for choice in game.choices(state) if not choice.multi]
        if actor is None or not choices:  # everybody has played: the Durchgang waits for /close
            idle += 1
            return
        words = next((c.words for c in choices if c.action == "continue"), choices[0].words)
        msg = Incoming(
            message_id=f"active:{number}:{secrets.token_hex(4)}",
            guild="scale",
            channel=channel,
            author=actor,
            author_name=actor.capitalize(),
            text=words,
        )
        reply = await croupier.handle(Line(msg))
        answered[reply.ok] += 1
        if not reply.ok:
            refusals[reply.error_code or "?"] += 1

    async def player() -> None:
        nonlocal done
        for number in numbers:  # shared: each channel is played by one of the players
            await play(number)
            done += 1
            if done % every == 0:
                samples.append((done, rss_now()))

    began = time.perf_counter()
    await asyncio.gather(*(player() for _ in range(PLAYING_AT_ONCE)))
    played_s = time.perf_counter() - began
    after = memory_mib()
    ended = rss_now()
    if samples[-1][0] != channels:
        samples.append((channels, ended))
    half = next(point for point in samples if point[0] >= channels // 2)
    top: list[dict[str, Any]] = []
    if baseline is not None:
        grown = tracemalloc.take_snapshot().compare_to(baseline, "traceback")
        top = [
            {
                "kib": round(stat.size_diff / 1024, 1),
                "blocks": stat.count_diff,
                "where": stat.traceback.format(),
            }
            for stat in grown[:traced]
        ]
    await store.close()
    return {
        "channels": channels,
        "commands_ok": answered[True],
        "commands_refused": dict(refusals),
        "channels_waiting_for_close": idle,
        "played_s": round(played_s, 2),
        "rss_after_start_mib": started,
        "rss_after_channels_mib": ended,
        "peak_rss_mib": after["peak_rss_mib"],
        "growth_per_channel_kib": round((ended - started) * 1024 / max(1, channels), 3),
        "growth_per_channel_second_half_kib": round((ended - half[1]) * 1024 / max(1, channels - half[0]), 3),
        "rss_samples_mib": samples,
        **({"tracemalloc_top": top} if top else {}),
    }


def _croupier_command(url: str) -> list[str]:
    script = Path(sys.executable).with_name("croupier")
    entry = (
        [str(script)]
        if script.exists()
        else [sys.executable, "-c", "import sys; from bot.cli import main; sys.exit(main())"]
    )
    return [*entry, "console", "--json", "--db", url]


def rss_of(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        kib = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
    return round(kib / 1024, 1)


async def to_act_in_console(store: Store) -> tuple[str, str]:
    """Who is to act in the console's Durchgang and a line the game takes from them now (its first
    choice: "weiter" mostly, the decision it waits on after a 1 or a duel); one that everybody has
    played is closed and opened again with its players (a kept ``--db`` plays a few lines there on
    every run)."""
    with store.transaction(read_only=True) as uow:
        record = uow.games.open_in(CONSOLE)
    if record is not None and record.to_act is not None:
        choices = V6.choices(V6.load(record.snapshot))
        simple = [choice.words for choice in choices if not choice.multi]
        return record.to_act, simple[0] if simple else "weiter"
    croupier = Croupier(store=store, seed_source=SEEDS)
    token = secrets.token_hex(4)
    moderator = Incoming(f"scale:{token}:mod", CONSOLE, CONSOLE, "mod", "mod", is_moderator=True)
    if record is not None:
        await croupier.handle(Move(moderator, Close()))
    await croupier.handle(
        Moderate(replace(moderator, message_id=f"scale:{token}:open"), OpenGame(V6.name, {}))
    )
    for name in CONSOLE_PEOPLE:
        await croupier.handle(
            Move(Incoming(f"scale:{token}:{name}", CONSOLE, CONSOLE, name.lower(), name), Join(name))
        )
    return await to_act_in_console(store)


@dataclass(frozen=True)
class Start:
    wall_s: float
    cpu_s: float  # the console's own CPU time (all its threads) until it answered
    rss_mib: float
    answer: dict[str, Any]


def cpu_s(pid: int) -> float:
    """CPU time process ``pid``'s threads have used so far, in seconds."""
    return cpu_ns(pid) / 1e9


def first_answer(url: str, line: str) -> Start:
    """Spawn the console, type one line at once, and time spawn → its answer on stdout; the console's
    CPU time and resident memory once it answered."""
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
    cpu, rss = (cpu_s(console.pid), rss_of(console.pid)) if answer else (0.0, 0.0)
    console.stdin.close()  # end of input: the console quits after its answer
    console.stdout.read()
    err = console.stderr.read() if console.stderr is not None else ""
    console.wait(timeout=60)
    if not answer:
        raise RuntimeError(f"the console gave no answer: {err.strip()[-500:]}")
    return Start(elapsed, cpu, rss, json.loads(answer))


@asynccontextmanager
async def database(backend: str, kept: str | None) -> AsyncIterator[str]:
    if kept is None or backend != "sqlite":
        async with scratch_database(backend, "scale") as url:
            yield url
        return
    yield f"sqlite:///{kept}"  # made absolute by main()


async def run_backend(backend: str, args: argparse.Namespace) -> None:
    async with database(backend, args.db) as url:
        store = await Store.open(url)
        try:
            present = seeded(store)
            if present not in (0, args.games):
                raise RuntimeError(
                    f"{url} holds {present} games, not {args.games}: remove it or pass --games"
                )
            if present == 0:
                began = time.perf_counter()
                cost = seed(store, args.games, args.distinct or args.games)
                emit(
                    "scale_seed",
                    store=backend,
                    games=args.games,
                    played_by_engine=min(args.games, args.distinct or args.games),
                    log_rows=cost["log_rows"],
                    seconds=round(time.perf_counter() - began, 2),
                    engine_s=round(cost["engine_s"], 2),
                    store_s=round(cost["store_s"], 2),
                )
            child = await asyncio.to_thread(
                subprocess.run,
                [sys.executable, "-m", "bench.scale", "--active", url, "--channels", str(args.channels)]
                + (["--tracemalloc", str(args.tracemalloc)] if args.tracemalloc else []),
                capture_output=True,
                text=True,
                cwd=ROOT,
                check=False,
            )
            if child.returncode != 0:
                raise RuntimeError(f"the process playing the channels failed:\n{child.stderr[-2000:]}")
            figures = json.loads(child.stdout.strip().splitlines()[-1])
            emit(
                "scale_channels",
                store=backend,
                open_games=args.games,
                **figures,
                goal_max_mib=round(MEMORY_GOAL_MIB, 1),
                meets_goal=figures["peak_rss_mib"] <= MEMORY_GOAL_MIB,
            )
            if args.restarts:
                await restarts(backend, store, url, args)
        finally:
            await store.close()


@dataclass
class Starts:
    """Console starts on one store: wall and CPU seconds to the first answer, resident memory then."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    rss: list[float] = field(default_factory=list)
    answers: int = 0

    async def once(self, store: Store, url: str, line_id: str) -> None:
        player, words = await to_act_in_console(store)
        start = await asyncio.to_thread(first_answer, url, f"#{line_id} {player}: {words}")
        self.wall.append(start.wall_s)
        self.cpu.append(start.cpu_s)
        self.rss.append(start.rss_mib)
        self.answers += bool(start.answer.get("ok"))

    def figures(self, prefix: str = "") -> dict[str, Any]:
        return {
            f"{prefix}median_s": round(statistics.median(self.wall), 3),
            f"{prefix}max_s": round(max(self.wall), 3),
            f"{prefix}runs_s": [round(t, 3) for t in self.wall],
            f"{prefix}cpu_median_s": round(statistics.median(self.cpu), 3),
            f"{prefix}console_rss_after_answer_mib": max(self.rss),
        }


async def restarts(backend: str, store: Store, url: str, args: argparse.Namespace) -> None:
    """Console starts on the big store, each beside one on a store that holds only the console's
    Durchgang, in turns (so both see the same load): what the open games add is the difference."""
    big, small = Starts(), Starts()
    token = secrets.token_hex(3)
    async with database(backend, None) as small_url:
        small_store = await Store.open(small_url)
        try:
            seed(small_store, 1, 1)
            for attempt in range(args.restarts):
                await big.once(store, url, f"restart-{token}-{attempt + 1}")
                await small.once(small_store, small_url, f"restart-{token}-{attempt + 1}")
        finally:
            await small_store.close()
    emit(
        "scale_restart_first_answer",
        store=backend,
        open_games=args.games,
        **big.figures(),
        answers_ok=big.answers,
        **small.figures("one_game_store_"),
        goal_max_s=RESTART_GOAL_S,
        meets_goal=max(big.wall) <= RESTART_GOAL_S,
    )


async def run_all(args: argparse.Namespace) -> None:
    for backend in args.store or backends():
        if backend == "postgresql":
            problem = await postgres_problem()
            if problem is not None:
                emit("scale", store=backend, skipped=f"PostgreSQL unreachable: {problem}")
                continue
        await run_backend(backend, args)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.scale", description=__doc__)
    parser.add_argument("--games", type=int, default=GAMES_TOTAL, help=f"open games (default {GAMES_TOTAL})")
    parser.add_argument(
        "--channels", type=int, default=CHANNELS, help=f"channels played in one process (default {CHANNELS})"
    )
    parser.add_argument(
        "--distinct",
        type=int,
        default=0,
        help="games the engine plays, repeated for the rest (default all)",
    )
    parser.add_argument("--restarts", type=int, default=RESTARTS, help=f"console starts (default {RESTARTS})")
    parser.add_argument("--store", choices=("sqlite", "postgresql"), action="append", help="(default both)")
    parser.add_argument("--db", metavar="FILE", help="a SQLite file to seed once and reuse on later runs")
    parser.add_argument(
        "--tracemalloc", type=int, default=0, metavar="N", help="also the N sites that grew most (slow)"
    )
    parser.add_argument("--active", metavar="URL", help=argparse.SUPPRESS)
    args = parser.parse_args(list(argv) if argv is not None else [])
    if args.active:
        print(json.dumps(asyncio.run(active(args.active, args.channels, args.tracemalloc))), flush=True)
        return
    if not 0 <= args.channels < args.games:
        parser.error("--channels must be below --games (game 1 is the console's)")
    if args.db:
        args.db = str(Path(args.db).resolve())
    asyncio.run(run_all(args))


if __name__ == "__main__":
    main(sys.argv[1:])
