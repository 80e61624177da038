"""What the service benchmarks share: scratch databases, simulated players, latency figures.

The players drive "Die verflixte 6!" through the real :class:`~bot.service.croupier.Croupier` the way forum
players would: a moderator opens a Durchgang, four to six people join, each picks jokers (or not),
throws, plays a joker now and then, answers the croupier's questions (robbery victims, Anaconda,
Rattenlord, Monokel), stops at a personal target; a few lines are refused on purpose (wrong player,
misspelt joker). When everybody has played the moderator closes and opens the next Durchgang.

The players only read the replies they get (``to_act``, the running table, the events), never the
store, so everything a benchmark times is the service's own work.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import secrets
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg
from sqlalchemy.engine import make_url

from bot.replies import Reply
from bot.service import requests
from bot.service.croupier import Croupier
from bot.service.requests import Incoming, Line, Moderate, OpenGame
from bot.store import upgrade
from engine.game import Close, Command, Join
from engine.verflixte6.jokers import registry

BACKENDS = ("sqlite", "postgresql")
GUILD = "bench"
MODERATOR = "mod"
NAMES = ("Anna", "Ben", "Cleo", "Dora", "Emil", "Frieda", "Gustav", "Hanna")
# The jokers a default Durchgang enables that a player announces (not the autojokers, not the Sekante).
JOKERS = tuple(
    name for name in registry.NAMES if registry.spec(name).announced and name != "Senigmas Sekante"
)
# Choices on the board that show the croupier waits for an answer to a question.
QUESTIONS = {
    "rob_none": "victim",
    "decline": "fight",
    "retreat": "retreat",
    "repeat": "keep",
}
ANSWERS = {
    "fight": ("kämpfen", "kneifen"),
    "retreat": ("weiter", "zurücktreten"),
    "keep": ("behalten", "wiederholen"),
}
REFUSAL_SHARE = 0.03


# --- output and knobs ---------------------------------------------------------------------------


def emit(bench: str, **figures: Any) -> None:
    """One JSON line per figure; key names carry their units (``_ms``, ``_per_s``, ``_mib``)."""
    print(json.dumps({"bench": bench, **figures}, ensure_ascii=False), flush=True)


def utc_now() -> str:
    """The time of day in UTC, for figures that depend on what else the machine was doing then."""
    return datetime.now(UTC).strftime("%H:%M:%S")


def scale() -> float:
    """``BENCH_SCALE`` stretches every measuring window (0.1 for a smoke run, 3 for steadier figures)."""
    try:
        return max(0.01, float(os.environ.get("BENCH_SCALE", "1")))
    except ValueError:
        return 1.0


def seconds(nominal: float) -> float:
    return nominal * scale()


def backends() -> tuple[str, ...]:
    """``BENCH_BACKENDS=sqlite`` limits a run to some stores (default: both)."""
    chosen = os.environ.get("BENCH_BACKENDS")
    if not chosen:
        return BACKENDS
    return tuple(name for name in BACKENDS if name in {part.strip() for part in chosen.split(",")})


class Percentiles:
    """Latencies of one figure, in seconds as measured, reported in milliseconds."""

    def __init__(self) -> None:
        self.samples: list[float] = []

    def add(self, elapsed: float) -> None:
        self.samples.append(elapsed)

    def __len__(self) -> int:
        return len(self.samples)

    def ms(self, fraction: float) -> float:
        """Nearest-rank percentile; 0.0 without samples."""
        if not self.samples:
            return 0.0
        ordered = sorted(self.samples)
        index = min(len(ordered) - 1, max(0, round(fraction * len(ordered) + 0.5) - 1))
        return round(ordered[index] * 1000, 3)

    def figures(self) -> dict[str, float]:
        return {"p50_ms": self.ms(0.50), "p99_ms": self.ms(0.99)}


def memory_mib() -> dict[str, float]:
    """This process's resident set now and at its peak (``/proc/self/status``), in MiB."""
    found: dict[str, float] = {}
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                found[key] = round(int(value.split()[0]) / 1024, 1)
    return {"rss_mib": found.get("VmRSS", 0.0), "peak_rss_mib": found.get("VmHWM", 0.0)}


# --- scratch databases --------------------------------------------------------------------------


def postgres_admin_url() -> str:
    """The server to make scratch databases on: ``BENCH_POSTGRES_URL``, ``TEST_POSTGRES_URL``, or
    ``postgresql://postgres@$PGHOST:$PGPORT/postgres`` (127.0.0.1:5432)."""
    given = os.environ.get("BENCH_POSTGRES_URL") or os.environ.get("TEST_POSTGRES_URL")
    if given:
        return given
    host = os.environ.get("PGHOST", "127.0.0.1")
    port = os.environ.get("PGPORT", "5432")
    return f"postgresql://postgres@{host}:{port}/postgres"


def _plain(url: str) -> str:
    """The URL in the form the plain driver takes (no ``+driver``)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


async def postgres_problem() -> str | None:
    """Why no scratch database can be made on the PostgreSQL server; None when one can."""

    def probe() -> None:
        psycopg.connect(_plain(postgres_admin_url()), connect_timeout=5).close()

    try:
        await asyncio.to_thread(probe)
    except (OSError, psycopg.Error, TimeoutError) as error:
        return f"{type(error).__name__}: {error}".strip()
    return None


@asynccontextmanager
async def scratch_database(backend: str, label: str) -> AsyncIterator[str]:
    """The URL of an empty database at the newest schema, deleted afterwards.

    SQLite: a file in a temporary folder (``BENCH_TMPDIR`` or the system's); Store.open migrates a new
    file itself. PostgreSQL: ``bench_<pid>_<label>_<random>`` on the admin server, migrated with the
    real Alembic revisions and dropped at the end.
    """
    if backend == "sqlite":
        with tempfile.TemporaryDirectory(
            prefix=f"croupier-bench-{label}-", dir=os.environ.get("BENCH_TMPDIR")
        ) as d:
            yield f"sqlite:///{Path(d) / 'bench.sqlite3'}"
        return
    admin_url = make_url(postgres_admin_url())
    name = f"bench_{os.getpid()}_{label}_{secrets.token_hex(2)}"
    admin = psycopg.connect(_plain(postgres_admin_url()), autocommit=True, connect_timeout=10)
    try:
        admin.execute(f'CREATE DATABASE "{name}"')
        url = admin_url.set(drivername="postgresql", database=name).render_as_string(hide_password=False)
        upgrade(url)
        yield url
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


# --- the players --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Move:
    """One message a person sends: forum words, or a typed command as a button / slash command sends."""

    kind: str  # for the mix statistics: open, join, jokers, weiter, joker, stopp, answer, close, refused
    author: str
    text: str = ""
    command: Command | None = None
    opens: bool = False
    refusal: bool = False  # sent to be refused


@dataclass
class Step:
    move: Move
    reply: Reply
    elapsed: float  # seconds, the service call alone


@dataclass
class Players:
    """The people of one channel. Call :meth:`step` again and again; each call is one message."""

    croupier: Croupier
    channel: str
    seed: int = 0
    refusal_share: float = REFUSAL_SHARE
    sender: str = "bench"
    tracked: bool = False  # as from Discord: each answer's delivery is tracked in the log
    mix: Counter[str] = field(default_factory=Counter)
    unexpected: Counter[str] = field(default_factory=Counter)  # refusals the players did not ask for
    _rng: random.Random = field(init=False)
    _count: int = field(default=0, init=False)
    _open: bool = field(default=False, init=False)
    _joining: list[str] = field(default_factory=list, init=False)
    _to_act: str | None = field(default=None, init=False)
    _table: dict[str, tuple[str, str, int]] = field(
        default_factory=dict, init=False
    )  # id: name, role, points
    _question: tuple[str, Mapping[str, Any]] | None = field(default=None, init=False)
    _targets: dict[str, int] = field(default_factory=dict, init=False)
    _jokers: dict[str, list[str]] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(f"{self.seed}:{self.channel}")

    async def step(self) -> Step:
        move = self.next_move()
        start = time.perf_counter()
        reply = await self.send(move)
        elapsed = time.perf_counter() - start
        self.observe(move, reply)
        return Step(move, reply, elapsed)

    async def send(self, move: Move) -> Reply:
        self._count += 1
        msg = Incoming(
            message_id=f"{self.sender}:{self.channel}:{self._count}",
            guild=GUILD,
            channel=self.channel,
            author=move.author,
            author_name=self._name(move.author),
            text=move.text,
            is_moderator=move.author == MODERATOR,
            is_admin=move.author == MODERATOR,
            tracked=self.tracked,
        )
        if move.opens:
            return await self.croupier.handle(Moderate(msg, OpenGame("verflixte6", {})))
        if move.command is not None:
            return await self.croupier.handle(requests.Move(msg, move.command))
        return await self.croupier.handle(Line(msg))

    # -- deciding

    def next_move(self) -> Move:
        rng = self._rng
        if not self._open:
            return Move("open", MODERATOR, opens=True)
        if self._joining:
            player = self._joining[0]
            return Move("join", player, command=Join(self._name(player)))
        actor = self._to_act
        if actor is None:
            return Move("close", MODERATOR, command=Close())
        if rng.random() < self.refusal_share:
            return self._refused(actor)
        if self._question is not None:
            return self._answer(actor, *self._question)
        _name, role, points = self._table[actor]
        if role == "jungfrau":
            if actor not in self._jokers and rng.random() < 0.6:
                self._jokers[actor] = rng.sample(JOKERS, 3)
                return Move("jokers", actor, "Joker: " + ", ".join(self._jokers[actor]))
            self._jokers.setdefault(actor, [])
            return Move("weiter", actor, "weiter")
        if points >= self._targets[actor]:
            return Move("stopp", actor, "stopp")
        unused = self._jokers.get(actor, [])
        if unused and rng.random() < 0.3:
            joker = unused.pop(rng.randrange(len(unused)))
            return Move("joker", actor, f"weiter mit Joker {joker}")
        return Move("weiter", actor, "weiter")

    def _refused(self, actor: str) -> Move:
        others = [player for player in self._table if player != actor]
        if others and self._rng.random() < 0.5:
            return Move("refused", self._rng.choice(others), "weiter", refusal=True)
        return Move("refused", actor, "weiter mit Joker Rattenlrd", refusal=True)

    def _answer(self, actor: str, question: str, facts: Mapping[str, Any]) -> Move:
        if question == "victim":
            victims = list(facts.get("victims", ()))
            if victims and self._rng.random() < 0.85:
                return Move("answer", actor, f"raube {self._rng.choice(victims)}")
            return Move("answer", actor, "raube nicht")
        return Move("answer", actor, self._rng.choice(ANSWERS[question]))

    # -- reading the reply

    def observe(self, move: Move, reply: Reply) -> None:
        self.mix[move.kind] += 1
        if not reply.ok:
            if not move.refusal:
                self.unexpected[reply.error_code or "?"] += 1
                self._recover(move, reply)
            return
        if move.refusal:
            self.unexpected["accepted_refusal"] += 1
        if move.opens:
            self._new_durchgang()
        elif move.kind == "close":
            self._open = False
            return
        elif move.kind == "join":
            self._joining.pop(0)
        self._to_act = reply.to_act
        self._table = {row.player: (row.name, row.role, row.points) for row in reply.table}
        self._question = None
        buttons = reply.board.buttons if reply.board is not None else ()
        for button in buttons:
            question = QUESTIONS.get(button.action)
            if question is not None:
                victims = [b.label for b in buttons if b.action == "rob"]  # display names
                self._question = (question, {"victims": victims})

    def _recover(self, move: Move, reply: Reply) -> None:
        """A refusal nobody asked for means the players misread the game: start a fresh Durchgang."""
        if move.opens and reply.error_code == "game_already_open":
            self._open = True
        self._joining = []
        self._to_act = None
        self._question = None

    def _new_durchgang(self) -> None:
        rng = self._rng
        people = rng.sample(NAMES, rng.randint(4, 6))
        self._open = True
        self._joining = [name.lower() for name in people]
        self._targets = {name.lower(): rng.randint(10, 30) for name in people}
        self._jokers = {}
        self._table = {}
        self._question = None

    def _name(self, player: str) -> str:
        if player in self._table:
            return self._table[player][0]
        return "Moderation" if player == MODERATOR else player.capitalize()


def mix_share(mix: Counter[str]) -> dict[str, float]:
    """The share of each kind of message, in percent."""
    total = sum(mix.values()) or 1
    return {kind: round(100 * count / total, 1) for kind, count in sorted(mix.items())}


def cpu_ns(pid: int) -> int:
    """CPU time process ``pid``'s threads have used so far, in nanoseconds (``/proc``'s schedstat)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (FileNotFoundError, ProcessLookupError):  # a thread that just ended
            continue
    return total
