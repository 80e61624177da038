"""A hint said once per key and interval, remembered in memory only.

Some answers help the first time and flood the channel after: "no Durchgang is open" to a player who
types ``weiter`` again and again before a moderator opens one. Remembering who was told costs no
write (a chat line stays free of transactions); a restarted process may say it once more, which is
harmless.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from datetime import datetime, timedelta


class OncePer:
    """Says yes to a key at most once per ``interval``; beyond ``kept`` keys the oldest are forgotten.
    Safe across the store's threads (a unit of work asks from one of them)."""

    def __init__(self, interval: timedelta, kept: int = 4096) -> None:
        self.interval = interval
        self.kept = kept
        self._told: OrderedDict[Hashable, datetime] = OrderedDict()
        self._lock = threading.Lock()

    def first(self, key: Hashable, now: datetime) -> bool:
        """Whether ``key`` was not told within the interval before ``now`` — and, if so, it is now."""
        with self._lock:
            told = self._told.get(key)
            if told is not None and now - told < self.interval:
                return False
            self._told[key] = now
            self._told.move_to_end(key)
            while len(self._told) > self.kept:
                self._told.popitem(last=False)
            return True
