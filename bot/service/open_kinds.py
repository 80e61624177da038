"""What this process last saw open in each channel: a hint for the unit of work a chat line needs.

A chat line that the channel's game does not read as a command must not take the store's write lock,
yet which game a channel holds is known only once the channel is read. So the service remembers, per
channel, the kind of game it last found open there (or that none was) and opens a writing unit of
work straight away only when that game reads the line as a command; otherwise it reads first and
writes only if the channel's game turns out to take the line. The hint never decides a move: every
unit of work loads the channel again, so a stale hint (another process opened or closed a game) costs
one extra unit of work, never a wrong answer.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

CAPACITY = 4096  # channels remembered; the least recently seen is forgotten first


class OpenKinds:
    """Channel → the kind of its open game (None: no game), as last seen; safe across threads."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        self._capacity = capacity
        self._kinds: OrderedDict[str, str | None] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, channel: str) -> str | None:
        """The kind last seen open in ``channel``; None when none was, or the channel was not seen."""
        with self._lock:
            return self._kinds.get(channel)

    def saw(self, channel: str, kind: str | None) -> None:
        with self._lock:
            self._kinds[channel] = kind
            self._kinds.move_to_end(channel)
            if len(self._kinds) > self._capacity:
                self._kinds.popitem(last=False)
