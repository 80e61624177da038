"""How long a player waits: from a message's arrival at the front end to its answer's post.

The Discord front end notes each message and interaction as it arrives (:meth:`Arrivals.arrived`,
by its Discord id) and the delivery says when the answer to it was posted (:meth:`Arrivals.posted`):
the span goes to ``croupier_answer_latency_seconds``. Most chat lines get no answer (chit-chat), so
the arrivals are a bounded window of the latest ones: a line answered after thousands of newer lines
arrived is simply not timed. Lines read back from the history while catching up, and answers an
earlier process left pending, were not timed on arrival here and are not counted.
"""

from __future__ import annotations

import time
from collections import OrderedDict

from bot.observability.metrics import LATENCY_BY

WINDOW = 4096  # arrivals remembered (a few seconds of a very busy bot)


class Arrivals:
    """Arrival times of a front end's messages by id, until their answer is posted."""

    def __init__(self, front_end: str, window: int = WINDOW) -> None:
        self._histogram = LATENCY_BY[front_end]
        self._window = window
        self._since: OrderedDict[int, float] = OrderedDict()

    def arrived(self, event_id: int) -> None:
        since = self._since
        since[event_id] = time.perf_counter()
        if len(since) > self._window:
            since.popitem(last=False)

    def posted(self, event_id: int | None) -> float | None:
        """The answer to ``event_id`` is posted: its latency in seconds (None when not timed)."""
        if event_id is None:
            return None
        arrived = self._since.pop(event_id, None)
        if arrived is None:
            return None
        latency = time.perf_counter() - arrived
        self._histogram.observe(latency)
        return latency

    def __len__(self) -> int:
        return len(self._since)


DISCORD = Arrivals("discord")


def answered(front_end: str, seconds: float) -> None:
    """An answer went out ``seconds`` after its message arrived (a front end that times it itself)."""
    LATENCY_BY[front_end].observe(seconds)
