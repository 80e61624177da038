"""Liveness and readiness: is the process alive, and is it doing its job right now?

*Live* means the process's event loop answers at all — what a supervisor restarts it for. *Ready*
means every condition of its parts holds, each named in the answer when it fails:

``database``           the database answers a read within :data:`DATABASE_TIMEOUT_S` and its schema is the
                       newest revision this croupier knows
``writer``             no unit of work has been running for :data:`WRITER_STUCK_S` or longer (on SQLite the
                       one writer thread; on PostgreSQL any store thread)
``gateway``            every shard this process runs is connected to Discord's gateway and ready
``caught_up``          every shard has read what was typed while it was away
``delivery_backlog``   fewer than the configured number of posts wait to go out
``held_channels``      no channel's posts are held back for a missing permission

The store's part gives the first two (:class:`StoreHealth`); the Discord front end adds the others
(:mod:`bot.discord.watch`). A part also reports the figures only known when asked — open games, shard
states, backlogs — which the ``/metrics`` answer reads through :class:`Scraped`.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from prometheus_client.core import REGISTRY, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from bot.games import GAMES
from bot.store import StoreUnavailable

if TYPE_CHECKING:
    from bot.store import Store

log = logging.getLogger(__name__)

DATABASE_TIMEOUT_S = 5.0
WRITER_STUCK_S = 30.0  # the store's admission timeout: waiting longer, a unit of work is given up anyway


@dataclass(frozen=True)
class Condition:
    """One readiness condition as it stands: its name, whether it holds, and what is the matter."""

    name: str
    ok: bool
    detail: str

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "ok": self.ok, "detail": self.detail}


@dataclass(frozen=True)
class Readiness:
    conditions: tuple[Condition, ...]

    @property
    def ready(self) -> bool:
        return all(condition.ok for condition in self.conditions)

    @property
    def failing(self) -> tuple[Condition, ...]:
        return tuple(condition for condition in self.conditions if not condition.ok)

    def summary(self) -> str:
        """One line: "ready", or each failing condition with what is the matter."""
        if self.ready:
            return "ready"
        return "not ready: " + "; ".join(f"{c.name}: {c.detail}" for c in self.failing)

    def as_json(self) -> dict[str, Any]:
        return {
            "status": "ready" if self.ready else "not ready",
            "ready": self.ready,
            "failing": [condition.name for condition in self.failing],
            "conditions": [condition.as_json() for condition in self.conditions],
        }


class Part(Protocol):
    """A part of the process that answers for some readiness conditions and scrape-time figures."""

    async def conditions(self) -> Sequence[Condition]: ...

    def samples(self) -> Iterable[Metric]: ...


class Health:
    """The process's health: its parts, asked at every readiness answer and every scrape."""

    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.parts: dict[str, Part] = {}
        self.clock = clock
        self.started = clock()
        self.last: Readiness | None = None  # the latest answer, for the figures of the next scrape

    def add(self, name: str, part: Part) -> Part:
        """Add a part (replacing the part of that name: a front end that started again)."""
        self.parts[name] = part
        return part

    async def readiness(self) -> Readiness:
        found: list[Condition] = []
        for part in list(self.parts.values()):
            found.extend(await part.conditions())
        self.last = Readiness(tuple(found))
        return self.last

    def liveness(self) -> dict[str, Any]:
        return {"status": "live", "live": True, "pid": os.getpid(), "uptime_seconds": self.uptime()}

    def uptime(self) -> float:
        return round(self.clock() - self.started, 3)

    def samples(self) -> Iterable[Metric]:
        for part in list(self.parts.values()):
            yield from part.samples()
        if self.last is not None:
            ready = GaugeMetricFamily(
                "croupier_ready", "1 when every readiness condition held at the last check, else 0"
            )
            ready.add_metric([], 1.0 if self.last.ready else 0.0)
            yield ready
            each = GaugeMetricFamily(
                "croupier_ready_condition",
                "1 when the readiness condition held at the last check, else 0",
                labels=["condition"],
            )
            for condition in self.last.conditions:
                each.add_metric([condition.name], 1.0 if condition.ok else 0.0)
            yield each

    def install(self) -> Health:
        """Make this the process's health: the one ``/metrics`` reports (the last installed wins)."""
        SCRAPED.health = self
        return self


class Scraped(Collector):
    """The figures of the installed :class:`Health`, read at each scrape."""

    def __init__(self) -> None:
        self.health: Health | None = None

    def describe(self) -> Iterable[Metric]:
        return ()  # names vary with the parts: nothing to check ahead of time

    def collect(self) -> Iterable[Metric]:
        health = self.health
        return () if health is None else list(health.samples())


SCRAPED = Scraped()
REGISTRY.register(SCRAPED)


@dataclass
class StoreHealth:
    """The store's conditions — ``database`` and ``writer`` — and the open games as the database
    holds them (every process's, for ``croupier_open_games``)."""

    store: Store
    clock: Callable[[], float] = time.monotonic
    timeout: float = DATABASE_TIMEOUT_S
    stuck_after: float = WRITER_STUCK_S
    open_games: dict[str, int] | None = None  # as the last check found them (None: not yet known)
    _head: str | None = None

    async def conditions(self) -> Sequence[Condition]:
        return (await self.database(), self.writer())

    async def database(self) -> Condition:
        from bot.store.migrate import head_revision

        if self._head is None:
            self._head = await asyncio.to_thread(head_revision)
        try:
            head = self._head
            revision, open_games = await asyncio.wait_for(
                self.store.run(lambda uow: _probe(uow, head), read_only=True), self.timeout
            )
        except TimeoutError:
            return Condition("database", False, f"no answer within {self.timeout:g} s")
        except StoreUnavailable as error:
            return Condition("database", False, f"unreachable: {error.reason}")
        except Exception as error:  # whatever it is, the database did not answer as it should
            log.warning("the readiness check of the database failed", exc_info=True)
            return Condition("database", False, f"the check failed: {type(error).__name__}")
        if revision != self._head:
            return Condition(
                "database",
                False,
                f"schema at {revision or 'no revision'}, needs {self._head}: croupier migrate",
            )
        self.open_games = open_games
        return Condition("database", True, f"reachable, schema at {revision}")

    def writer(self) -> Condition:
        busy = self.busy_for()
        if busy >= self.stuck_after:
            return Condition(
                "writer",
                False,
                f"a unit of work has been running for {busy:.0f} s (bound {self.stuck_after:g} s)",
            )
        return Condition("writer", True, "idle" if busy == 0 else f"working for {busy:.3f} s")

    def busy_for(self) -> float:
        """How long the longest-running unit of work has run (0: none runs)."""
        since = self.store.workers.writer.busy_since()
        return 0.0 if since is None else max(0.0, self.clock() - since)

    def samples(self) -> Iterable[Metric]:
        busy = GaugeMetricFamily(
            "croupier_writer_busy_seconds", "How long the longest-running unit of work has run (0: idle)"
        )
        busy.add_metric([], self.busy_for())
        yield busy
        games = GaugeMetricFamily(
            "croupier_open_games",
            "Open games in the database (all processes'), at the last check",
            labels=["game"],
        )
        found = self.open_games
        if found is not None:
            for kind in sorted(set(GAMES) | set(found)):  # 0 for an installed game nobody plays
                games.add_metric([kind], float(found.get(kind, 0)))
        yield games


def _probe(uow: Any, head: str) -> tuple[str | None, dict[str, int] | None]:
    """The schema's revision, and at the newest one the open games (older tables may not have them)."""
    revision = uow.schema_revision()
    return revision, uow.games.open_by_kind() if revision == head else None
