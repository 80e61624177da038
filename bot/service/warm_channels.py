"""The channels this process just wrote, as it left them: what the next move there need not read.

A move reads its channel (settings, open game, seats) and loads the game's state from its snapshot,
then writes the new state. On SQLite the writer can tell, cheaply and for certain, that nobody else
has committed since its own last commit (:mod:`bot.store.marks`); the channel is then exactly what
that move left, and the next move starts from it instead of reading and loading it again. Anything
else — another process or thread committing, any other unit of work on the writer's connection, a
PostgreSQL store — makes the mark fail, and the move reads as always. So the cache never decides what
a move sees; it only saves reading what is known already.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

from bot.store import Mark

T = TypeVar("T")

CAPACITY = 1024  # channels kept; the least recently written is forgotten first


class WarmChannels(Generic[T]):
    """(guild, channel, home) → the mark of the commit that left it, and what it left."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        self._capacity = capacity
        self._kept: OrderedDict[tuple[str, str, str], tuple[Mark, T]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[str, str, str]) -> tuple[Mark, T] | None:
        with self._lock:
            return self._kept.get(key)

    def keep(self, key: tuple[str, str, str], mark: Mark | None, value: T | None) -> None:
        """Remember what a commit left (``mark`` None or ``value`` None: forget the channel)."""
        with self._lock:
            if mark is None or value is None:
                self._kept.pop(key, None)
                return
            self._kept[key] = (mark, value)
            self._kept.move_to_end(key)
            if len(self._kept) > self._capacity:
                self._kept.popitem(last=False)

    def __len__(self) -> int:
        with self._lock:
            return len(self._kept)
