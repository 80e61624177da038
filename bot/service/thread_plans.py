"""Which homes this process saw plan a game in a thread of its own: their next plan is only a read.

``/durchgang öffnen`` in a text channel or a forum asks the service for a plan first (the front end
then makes the thread and opens the game in it). Whether a plan is a read or already the opening
depends on the home's ``threads`` setting, which only the store knows: where games open in place the
plan opens the game at once, in one writing transaction. So the first plan of a home runs as a
writer; once a home planned a thread, its plans are made without the write lock (on SQLite no
``BEGIN IMMEDIATE``), and should its setting have changed since, the read asks for a writer after all.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

CAPACITY = 4096  # homes kept; the one that planned least recently is forgotten first


class ThreadPlans:
    """(guild, home) → whether its last plan made a thread."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        self._capacity = capacity
        self._homes: OrderedDict[tuple[str, str], None] = OrderedDict()
        self._lock = threading.Lock()

    def plans_thread(self, key: tuple[str, str]) -> bool:
        with self._lock:
            return key in self._homes

    def saw(self, key: tuple[str, str], *, thread: bool) -> None:
        """A plan in ``key`` made a thread (``thread``), or opened the game in place."""
        with self._lock:
            if not thread:
                self._homes.pop(key, None)
                return
            self._homes[key] = None
            self._homes.move_to_end(key)
            while len(self._homes) > self._capacity:
                self._homes.popitem(last=False)
