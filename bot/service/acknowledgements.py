"""The process's bookkeeping on its way to the store: answers a front end posted, to be marked
``delivered``, and how far it read its channels — written with the next transaction the service
writes anyway.

A typed move must stay ONE transaction, and acknowledging its answer must not add one: the ids wait
here, and :func:`riding` writes them with one UPDATE just before the next write commits; the channel
reads a front end hands over now and then (``Reads`` in :mod:`bot.discord.catch_up`) ride the same way.
Only when the process has written nothing for a while (:meth:`Acknowledgements.due_in`) does the front
end :func:`flush` them in a transaction of their own — at most one such transaction per period,
whatever the pace of play, and on PostgreSQL one that does not wait for the disk: an acknowledgement
lost in a crash only makes the next start check the channel's history before posting again, a read
lost only makes it read a little more history (docs/reliability.md). A unit of work that does not
commit — a refusal answered from the log, a lost race, an error — hands what it took back for the next.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TypeVar

from bot.store import UnitOfWork
from bot.store.repositories.delivery import DELIVERED

T = TypeVar("T")

Reads = Mapping[tuple[str, str], str]  # (guild, channel) → the newest message read there


@dataclass(frozen=True)
class Taken:
    ids: frozenset[int]
    reads: Reads

    def __bool__(self) -> bool:
        return bool(self.ids or self.reads)


NOTHING = Taken(frozenset(), {})


class Acknowledgements:
    """Log ids whose answer was delivered and channel reads, not yet written (thread-safe: units of
    work run on store threads)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._ids: set[int] = set()
        self._reads: dict[tuple[str, str], str] = {}
        self._lock = threading.Lock()
        self._clock = clock
        self._written_at = clock()  # the last commit that took what was waiting, or the last flush

    def written(self) -> None:
        """A write of the process committed (it took whatever was waiting), or a flush was tried."""
        self._written_at = self._clock()

    def due_in(self, period: float) -> float:
        """Seconds until what waits is due for a transaction of its own: ``period`` after the process
        last wrote (a write keeps taking it along, so a busy process never needs one)."""
        return max(0.0, self._written_at + period - self._clock())

    def add(self, log_id: int) -> None:
        with self._lock:
            self._ids.add(log_id)

    def note_reads(self, reads: Reads) -> None:
        """How far channels were read (newer than anything handed over before for them)."""
        with self._lock:
            self._reads.update(reads)

    def take(self) -> Taken:
        if not self._ids and not self._reads:  # nearly always: nothing to lock, copy or hand back
            return NOTHING
        with self._lock:
            taken = Taken(frozenset(self._ids), self._reads)
            self._ids, self._reads = set(), {}
        return taken

    def give_back(self, taken: Taken) -> None:
        if taken is NOTHING:
            return
        with self._lock:
            self._ids.update(taken.ids)
            self._reads = {**taken.reads, **self._reads}  # what was handed over since is newer

    def __len__(self) -> int:
        with self._lock:
            return len(self._ids) + len(self._reads)


def riding(
    acks: Acknowledgements, work: Callable[[UnitOfWork], T], now: Callable[[], datetime]
) -> Callable[[UnitOfWork], T]:
    """``work``, with what waits written just before it commits, in its transaction."""

    def ridden(uow: UnitOfWork) -> T:
        taken = acks.take()
        if taken:
            uow.before_commit(lambda: _write(uow, taken, now()))
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
    """A unit of work of its own for what waits (the process wrote nothing for a while, or it stops),
    committed without waiting for the disk; answers how many acknowledgements and reads it wrote."""

    def work(uow: UnitOfWork) -> int:
        acks.written()  # tried now: the next try (should this one fail) waits a whole period
        taken = acks.take()
        if not taken:
            return 0
        try:
            _write(uow, taken, now())
            uow.commit(durable=False)
        except BaseException:
            acks.give_back(taken)
            raise
        return len(taken.ids) + len(taken.reads)

    return work


def _write(uow: UnitOfWork, taken: Taken, when: datetime) -> None:
    if taken.ids:
        uow.delivery.mark(taken.ids, DELIVERED, when)
    if taken.reads:
        uow.forum.note_reads(taken.reads, when)
