"""The threads units of work run on: first come, first served, one hand-off each way.

A unit of work is handed to a store thread and its result handed back to the event loop. Through
``ThreadPoolExecutor`` and ``asyncio.wrap_future`` that costs two futures chained together, their
locks and callbacks, and a timer per unit of work — more than SQLite's own BEGIN and COMMIT. A
:class:`Lane` is a queue in arrival order served by a fixed set of threads; the result goes back with
one ``call_soon_threadsafe`` straight onto the asyncio future the caller awaits.

Each :class:`Job` is waiting, running or withdrawn, decided under the lane's lock: a job withdrawn
before a thread took it never runs (a cancelled wait, or one that waited past the admission timeout,
gives its place back), and one already running is waited for by its thread to its end.

A lane with a ``batch`` runner (SQLite's writer) takes every job waiting when its thread comes free,
up to ``batch_max``, and hands their units to the runner together — group commit, see
:mod:`bot.store.group` — settling each job only once the runner is through with all of them. A lone
job runs as it would in any lane.
"""

from __future__ import annotations

import asyncio
import queue
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from typing import Any, Generic, TypeVar

T = TypeVar("T")

_WAITING, _RUNNING, _WITHDRAWN = 0, 1, 2


Batch = Callable[[list[Any]], list[tuple[Any, BaseException | None]]]


class Job(Generic[T]):
    """One unit of work handed to a lane, and the future its caller awaits."""

    __slots__ = ("future", "loop", "state", "unit", "work")

    def __init__(self, work: Callable[[], T], loop: asyncio.AbstractEventLoop, unit: Any = None) -> None:
        self.work = work
        self.unit = unit  # what a batch runner takes instead of ``work`` (None: run alone)
        self.loop = loop
        self.future: asyncio.Future[T] = loop.create_future()
        self.state = _WAITING


def _run(work: Callable[[], Any]) -> tuple[Any, BaseException | None]:
    try:
        return work(), None
    except BaseException as raised:  # handed to the caller, whatever it is
        return None, raised


def _settle_all(settled: list[tuple[asyncio.Future[Any], Any, BaseException | None]]) -> None:
    for future, result, error in settled:
        _settle(future, result, error)


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    """On the event loop: the job's outcome, unless its caller stopped waiting."""
    if future.done():
        return
    if error is None:
        future.set_result(result)
    else:
        future.set_exception(error)


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
        self._started = False
        self._closed = False

    def submit(self, work: Callable[[], T], unit: Any = None) -> Job[T]:
        """Queue ``work`` behind everything handed over before it; await ``job.future`` for its result.
        ``unit``: the same work as the lane's batch runner takes it (with others waiting)."""
        job = Job(work, asyncio.get_running_loop(), unit)
        with self._lock:
            if self._closed:
                raise RuntimeError("the store is closed")
            if not self._started:
                self._started = True
                for thread in self._threads:
                    thread.start()
        self._queue.put(job)
        return job

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
            if len(jobs) == 1:
                with suppress(RuntimeError):  # the caller's event loop is closed: nobody waits any more
                    jobs[0].loop.call_soon_threadsafe(_settle, jobs[0].future, *outcomes[0])
            else:  # one wake-up of each event loop for the whole batch
                by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], Any, Any]]] = {}
                for job, (result, error) in zip(jobs, outcomes, strict=True):
                    by_loop.setdefault(job.loop, []).append((job.future, result, error))
                for loop, settled in by_loop.items():
                    with suppress(RuntimeError):
                        loop.call_soon_threadsafe(_settle_all, settled)
                del by_loop
            del job, jobs, outcomes
            if stop:
                return

    def _waiting(self, first: Job[Any]) -> tuple[list[Job[Any]], bool]:
        """``first`` and, for a batch runner, every job queued behind it that it can take along (all
        with a unit); whether the lane's stop signal came among them."""
        jobs = [first]
        if self._batch is None or first.unit is None:
            return jobs, False
        while len(jobs) < self._batch_max:
            try:
                more = self._queue.get_nowait()
            except queue.Empty:
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
        for thread in self._threads:
            if thread is not threading.current_thread():
                thread.join()
