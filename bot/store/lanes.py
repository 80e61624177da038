"""The threads units of work run on: first come, first served, one hand-off each way.

A unit of work is handed to a store thread and its result handed back to the event loop. Through
``ThreadPoolExecutor`` and ``asyncio.wrap_future`` that costs two futures chained together, their
locks and callbacks, and a timer per unit of work — more than SQLite's own BEGIN and COMMIT. A
:class:`Lane` is a queue in arrival order served by a fixed set of threads; the result goes back
through the caller's event loop's :class:`_Desk`, straight onto the asyncio future the caller awaits.

Each :class:`Job` is waiting, running or withdrawn, decided under the lane's lock: a job withdrawn
before a thread took it never runs (a cancelled wait, or one that waited past its admission time,
gives its place back), and one already running is waited for by its thread to its end.

A lane with a ``batch`` runner (SQLite's writer) takes every job waiting when its thread comes free,
up to ``batch_max``, and hands their units to the runner together — group commit, see
:mod:`bot.store.group` — settling each job only once the runner is through with all of them. A lone
job runs as it would in any lane.
"""

from __future__ import annotations

import asyncio
import os
import queue
import threading
import time
from collections import deque
from collections.abc import Callable
from contextlib import suppress
from typing import Any, Generic, TypeVar

T = TypeVar("T")

_WAITING, _RUNNING, _WITHDRAWN = 0, 1, 2


Batch = Callable[[list[Any]], list[tuple[Any, BaseException | None]]]
Settled = list[tuple["asyncio.Future[Any]", Any, BaseException | None]]


class Job(Generic[T]):
    """One unit of work handed to a lane, and the future its caller awaits."""

    __slots__ = ("desk", "due", "future", "loop", "overdue", "state", "unit", "work")

    def __init__(
        self,
        work: Callable[[], T],
        desk: _Desk,
        unit: Any,
        due: float,
        overdue: Callable[[], BaseException],
    ) -> None:
        self.work = work
        self.unit = unit  # what a batch runner takes instead of ``work`` (None: run alone)
        self.desk = desk  # where its outcome goes back to its caller's event loop
        self.loop = desk.loop
        self.future: asyncio.Future[T] = desk.loop.create_future()
        self.state = _WAITING
        self.due = due  # the loop's time by which a thread must have taken it
        self.overdue = overdue  # the error its caller hears when none did


def _run(work: Callable[[], Any]) -> tuple[Any, BaseException | None]:
    try:
        return work(), None
    except BaseException as raised:  # handed to the caller, whatever it is
        return None, raised


def _settle_all(settled: Settled) -> None:
    """On the event loop: each job's outcome, unless its caller stopped waiting."""
    for future, result, error in settled:
        if future.done():
            continue
        if error is None:
            future.set_result(result)
        else:
            future.set_exception(error)


def _runs_here(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:  # no loop runs in this thread
        return False


class _Desk:
    """What a lane keeps for one event loop that hands it jobs: the way results come back to it, and
    one watch over its waiting jobs' admission time.

    Results come back through an ``eventfd`` the loop watches and a queue of what to settle:
    ``call_soon_threadsafe`` writes to the loop's self-pipe socket, which the loop reads back until
    an exception says it is empty — on this machine about 10 µs more CPU per unit of work, over both
    threads, than writing and reading the counter. (Without ``eventfd``, not on Linux, it is
    ``call_soon_threadsafe``.)

    One watch instead of a timer per job: it is armed for the earliest admission time when none is
    armed, and when it goes off it withdraws every waiting job past its time and re-arms for the next
    — so a job that starts in time (nearly all of them) costs no timer at all.
    """

    def __init__(self, lane: Lane, loop: asyncio.AbstractEventLoop) -> None:
        self._lane = lane
        self.loop = loop
        self._results: deque[Settled] = deque()
        self._fd = os.eventfd(0, os.EFD_NONBLOCK | os.EFD_CLOEXEC) if hasattr(os, "eventfd") else None
        if self._fd is not None:
            try:
                loop.add_reader(self._fd, self._answer)
            except NotImplementedError:  # a loop that watches no file descriptors
                os.close(self._fd)
                self._fd = None
        self._waiting: deque[Job[Any]] = deque()
        self._watch: asyncio.TimerHandle | None = None

    # --- results, from a lane thread to the loop ---

    def ring(self, settled: Settled) -> None:
        """From a lane thread: settle these jobs on the loop."""
        if self._fd is None:
            with suppress(RuntimeError):  # the loop is closed: nobody waits any more
                self.loop.call_soon_threadsafe(_settle_all, settled)
            return
        self._results.append(settled)
        os.eventfd_write(self._fd, 1)

    def _answer(self) -> None:
        with suppress(BlockingIOError):
            os.eventfd_read(self._fd)  # type: ignore[arg-type]
        results = self._results
        while results:
            _settle_all(results.popleft())

    def close(self) -> None:
        """Stop watching for results (the lane's threads are gone, nothing rings any more): on the
        loop's own thread while it runs, here when it does not."""
        fd = self._fd
        if fd is None:
            return
        loop = self.loop
        if loop.is_running() and not _runs_here(loop):
            with suppress(RuntimeError):  # (closed just now: then it is done here)
                loop.call_soon_threadsafe(self.close)
                return
        if not loop.is_closed():
            self._answer()  # what the last jobs rang for, before the loop stops looking
            loop.remove_reader(fd)
            if self._watch is not None:
                self._watch.cancel()
        os.close(fd)
        self._fd = None

    # --- admission, on the loop ---

    def watch(self, job: Job[Any]) -> None:
        """Keep an eye on ``job`` until a thread takes it or its admission time passes."""
        waiting = self._waiting
        while waiting and waiting[0].state != _WAITING:  # taken (or withdrawn) since: not watched
            waiting.popleft()
        waiting.append(job)
        if self._watch is None or job.due < self._watch.when():
            self._arm(job.due)

    def _arm(self, when: float) -> None:
        if self._watch is not None:
            self._watch.cancel()
        self._watch = self.loop.call_at(when, self._look)

    def _look(self) -> None:
        """Withdraw every job still waiting past its admission time; watch the others."""
        self._watch = None
        now = self.loop.time()
        still: deque[Job[Any]] = deque()
        for job in self._waiting:
            if job.state != _WAITING:
                continue
            if job.due > now:
                still.append(job)
            elif self._lane.withdraw(job) and not job.future.done():
                job.future.set_exception(job.overdue())
        self._waiting = still
        if still:
            self._arm(min(job.due for job in still))


class Lane:
    """A queue of jobs in arrival order and the threads that work through it."""

    def __init__(self, threads: int, name: str, *, batch: Batch | None = None, batch_max: int = 1) -> None:
        if batch is not None and threads != 1:
            raise ValueError("a lane that batches has one thread")
        self._batch = batch
        self._batch_max = batch_max
        self._next: Job[Any] | None = None  # a job without a unit met while batching: it runs next
        self._queue: queue.SimpleQueue[Job[Any] | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._threads = [
            threading.Thread(target=self._serve, args=(number,), name=f"{name}_{number}", daemon=True)
            for number in range(threads)
        ]
        self._busy = [0.0] * threads  # when each thread's running job started (0: it waits)
        self._desks: dict[asyncio.AbstractEventLoop, _Desk] = {}
        self._started = False
        self._closed = False

    def submit(
        self,
        work: Callable[[], T],
        unit: Any = None,
        *,
        within: float,
        overdue: Callable[[], BaseException],
    ) -> Job[T]:
        """Queue ``work`` behind everything handed over before it; await ``job.future`` for its result.
        ``unit``: the same work as the lane's batch runner takes it (with others waiting). A job no
        thread has taken ``within`` seconds is withdrawn, its future failing with ``overdue()``."""
        loop = asyncio.get_running_loop()
        desk = self._desks.get(loop) or self._desk(loop)
        job = Job(work, desk, unit, loop.time() + within, overdue)
        if self._closed:
            raise RuntimeError("the store is closed")
        desk.watch(job)
        self._queue.put(job)
        return job

    def _desk(self, loop: asyncio.AbstractEventLoop) -> _Desk:
        """The first job from ``loop``: its desk (and the threads, for the lane's first job)."""
        with self._lock:
            if self._closed:
                raise RuntimeError("the store is closed")
            if not self._started:
                self._started = True
                for thread in self._threads:
                    thread.start()
            # A closed loop's desk stays until the threads are gone: a job of its may still run.
            desk = self._desks[loop] = _Desk(self, loop)
        return desk

    def withdraw(self, job: Job[Any]) -> bool:
        """Take a job back if no thread has started it (it will never run); False once it runs."""
        with self._lock:
            if job.state != _WAITING:
                return job.state == _WITHDRAWN
            job.state = _WITHDRAWN
            return True

    def busy_since(self) -> float | None:
        """When the longest-running job started (``time.monotonic``); None when no job runs."""
        started = [since for since in self._busy if since]
        return min(started) if started else None

    def _serve(self, number: int) -> None:
        while True:
            job, self._next = self._next or self._queue.get(), None
            if job is None:
                return
            jobs, stop = self._waiting(job)
            with self._lock:
                jobs = [job for job in jobs if job.state == _WAITING]
                for job in jobs:
                    job.state = _RUNNING
            self._busy[number] = time.monotonic()
            if len(jobs) == 1 or (jobs and self._batch is None):
                outcomes = [_run(jobs[0].work)]
            elif jobs:
                outcomes = self._batch([job.unit for job in jobs])  # type: ignore[misc]
            else:
                outcomes = []
            self._busy[number] = 0.0
            self._answer(jobs, outcomes)
            del job, jobs, outcomes
            if stop:
                return

    def _answer(self, jobs: list[Job[Any]], outcomes: list[tuple[Any, BaseException | None]]) -> None:
        """Hand the outcomes back: one wake-up of each event loop for all of them."""
        if len(jobs) == 1:  # nearly always
            jobs[0].desk.ring([(jobs[0].future, *outcomes[0])])
            return
        by_desk: dict[_Desk, Settled] = {}
        for job, (result, error) in zip(jobs, outcomes, strict=True):
            by_desk.setdefault(job.desk, []).append((job.future, result, error))
        for desk, settled in by_desk.items():
            desk.ring(settled)

    def _waiting(self, first: Job[Any]) -> tuple[list[Job[Any]], bool]:
        """``first`` and, for a batch runner, every job queued behind it that it can take along (all
        with a unit); whether the lane's stop signal came among them."""
        jobs = [first]
        if self._batch is None or first.unit is None:
            return jobs, False
        while len(jobs) < self._batch_max and not self._queue.empty():  # (raising Empty costs more)
            try:
                more = self._queue.get_nowait()
            except queue.Empty:  # a closing store took it just now
                break
            if more is None:
                return jobs, True
            if more.unit is None:  # it runs alone, right after these
                self._next = more
                break
            jobs.append(more)
        return jobs, False

    def shutdown(self) -> None:
        """Withdraw every job still waiting, let running ones end, and stop the threads."""
        with self._lock:
            self._closed = True
            started = self._started
            held, self._next = self._next, None
        if held is not None and self.withdraw(held):
            with suppress(RuntimeError):
                held.loop.call_soon_threadsafe(held.future.cancel)
        while True:
            try:
                job = self._queue.get_nowait()
            except queue.Empty:
                break
            if job is not None and self.withdraw(job):
                with suppress(RuntimeError):
                    job.loop.call_soon_threadsafe(job.future.cancel)
        if not started:
            return
        for _ in self._threads:
            self._queue.put(None)
        here = threading.current_thread()
        for thread in self._threads:
            if thread is not here:
                thread.join()
        if here in self._threads:
            return  # a unit of work closed its own store: its desks stay open, as it still answers
        with self._lock:
            desks, self._desks = list(self._desks.values()), {}
        for desk in desks:
            desk.close()
