"""One asyncio lock per key (a channel), kept only while somebody holds or waits for it.

A ``defaultdict(asyncio.Lock)`` keeps a lock for every channel ever seen, for the life of the
process; a bot in thousands of channels would carry all of them. Here the last one out removes it.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)


class KeyedLocks(Generic[K]):
    """``async with locks.hold(channel): …`` serialises everything done for one channel."""

    def __init__(self) -> None:
        self._locks: dict[K, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def hold(self, key: K) -> AsyncIterator[None]:
        lock, users = self._locks.get(key, (None, 0))
        if lock is None:
            lock = asyncio.Lock()
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users == 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)

    def __len__(self) -> int:
        """How many keys are held or waited for right now."""
        return len(self._locks)
