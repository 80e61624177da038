"""Acknowledged deliveries on their way to the log: the answers a front end posted, to be marked
``delivered`` in the next transaction the service writes anyway.

A typed move must stay ONE transaction, and acknowledging its answer must not add one: the ids wait
here, and :func:`riding` writes them with one UPDATE just before the next write commits (or, when the
bot is idle, the front end flushes them on their own after a moment). A unit of work that does not
commit — a refusal answered from the log, a lost race, an error — hands its ids back for the next one.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import TypeVar

from bot.store import UnitOfWork
from bot.store.repositories.delivery import DELIVERED

T = TypeVar("T")


class Acknowledgements:
    """Log ids whose answer was delivered, not yet written (thread-safe: units of work run on store
    threads)."""

    def __init__(self) -> None:
        self._ids: set[int] = set()
        self._lock = threading.Lock()

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
        if not taken:
            return work(uow)
        uow.before_commit(lambda: _mark(uow, taken, now()))
        try:
            done = work(uow)
        except BaseException:
            acks.give_back(taken)
            raise
        if not uow.commits:
            acks.give_back(taken)
        return done

    return ridden


def flush(acks: Acknowledgements, now: Callable[[], datetime]) -> Callable[[UnitOfWork], int]:
    """A unit of work of its own for the waiting acknowledgements (the bot is idle); answers how many."""

    def work(uow: UnitOfWork) -> int:
        taken = acks.take()
        if not taken:
            return 0
        try:
            _mark(uow, taken, now())
            uow.commit()
        except BaseException:
            acks.give_back(taken)
            raise
        return len(taken)

    return work


def _mark(uow: UnitOfWork, ids: frozenset[int], when: datetime) -> None:
    uow.delivery.mark(ids, DELIVERED, when)
