"""One asyncio lock per key (a channel), kept only while somebody holds or waits for it.

A ``defaultdict(asyncio.Lock)`` keeps a lock for every channel ever seen, for the life of the
process; a bot in thousands of channels would carry all of them. Here the last one out removes it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)


class _Entry:
    """A key's lock and how many hold it or wait for it."""

    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0


class KeyedLocks(Generic[K]):
    """``async with locks.hold(channel): …`` serialises everything done for one channel."""

    def __init__(self) -> None:
        self._locks: dict[K, _Entry] = {}

    def hold(self, key: K) -> _Held[K]:
        return _Held(self._locks, key)

    def __len__(self) -> int:
        """How many keys are held or waited for right now."""
        return len(self._locks)


class _Held(Generic[K]):
    """One ``async with locks.hold(key)``. A class rather than an ``asynccontextmanager``: every
    request enters one, and the async generator's machinery cost more than the lock itself."""

    __slots__ = ("_entry", "_key", "_locks")

    def __init__(self, locks: dict[K, _Entry], key: K) -> None:
        self._locks = locks
        self._key = key

    async def __aenter__(self) -> None:
        entry = self._locks.get(self._key)
        if entry is None:
            entry = self._locks[self._key] = _Entry()
        entry.users += 1
        self._entry = entry
        try:
            await entry.lock.acquire()
        except BaseException:  # cancelled while waiting: no longer a user
            self._leave()
            raise

    async def __aexit__(self, *exc_info: object) -> None:
        self._entry.lock.release()
        self._leave()

    def _leave(self) -> None:
        entry = self._entry
        entry.users -= 1
        if entry.users == 0:
            del self._locks[self._key]
