"""Acknowledged deliveries on their way to the log: the answers a front end posted, to be marked
``delivered`` in the next transaction the service writes anyway.

A typed move must stay ONE transaction, and acknowledging its answer must not add one: the ids wait
here, and :func:`riding` writes them with one UPDATE just before the next write commits. Only when the
process has written nothing for a while (:meth:`Acknowledgements.due_in`) does the front end
:func:`flush` them in a transaction of their own — at most one such transaction per period, whatever
the pace of play, and on PostgreSQL one that does not wait for the disk: an acknowledgement lost in a
crash only makes the next start check the channel's history before posting again
(docs/reliability.md). A unit of work that does not commit — a refusal answered from the log, a lost
race, an error — hands its ids back for the next one.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import TypeVar

from bot.store import UnitOfWork
from bot.store.repositories.delivery import DELIVERED

T = TypeVar("T")


class Acknowledgements:
    """Log ids whose answer was delivered, not yet written (thread-safe: units of work run on store
    threads)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._ids: set[int] = set()
        self._lock = threading.Lock()
        self._clock = clock
        self._written_at = clock()  # the last commit that took the waiting ids, or the last flush

    def written(self) -> None:
        """A write of the process committed (it took whatever was waiting), or a flush was tried."""
        self._written_at = self._clock()

    def due_in(self, period: float) -> float:
        """Seconds until the waiting ids are due for a transaction of their own: ``period`` after the
        process last wrote (a write keeps taking them along, so a busy process never needs one)."""
        return max(0.0, self._written_at + period - self._clock())

    def add(self, log_id: int) -> None:
        with self._lock:
            self._ids.add(log_id)

    def take(self) -> frozenset[int]:
        with self._lock:
            taken, self._ids = frozenset(self._ids), set()
        return taken

    def give_back(self, ids: Iterable[int]) -> None:
        with self._lock:
            self._ids.update(ids)

    def __len__(self) -> int:
        with self._lock:
            return len(self._ids)


def riding(
    acks: Acknowledgements, work: Callable[[UnitOfWork], T], now: Callable[[], datetime]
) -> Callable[[UnitOfWork], T]:
    """``work``, with the waiting acknowledgements written just before it commits, in its transaction."""

    def ridden(uow: UnitOfWork) -> T:
        taken = acks.take()
        if taken:
            uow.before_commit(lambda: _mark(uow, taken, now()))
        try:
            done = work(uow)
        except BaseException:
            acks.give_back(taken)
            raise
        if uow.commits:
            acks.written()
        else:
            acks.give_back(taken)
        return done

    return ridden


def flush(acks: Acknowledgements, now: Callable[[], datetime]) -> Callable[[UnitOfWork], int]:
    """A unit of work of its own for the waiting acknowledgements (the process wrote nothing for a
    while, or it stops), committed without waiting for the disk; answers how many."""

    def work(uow: UnitOfWork) -> int:
        acks.written()  # tried now: the next try (should this one fail) waits a whole period
        taken = acks.take()
        if not taken:
            return 0
        try:
            _mark(uow, taken, now())
            uow.commit(durable=False)
        except BaseException:
            acks.give_back(taken)
            raise
        return len(taken)

    return work


def _mark(uow: UnitOfWork, ids: frozenset[int], when: datetime) -> None:
    uow.delivery.mark(ids, DELIVERED, when)
