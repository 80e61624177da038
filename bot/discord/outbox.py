"""Everything the bot sends to a channel, in the order the moves were applied, without holding a lock.

The front end's per-channel lock covers only the service call and :meth:`Outbox.put`; the posts, edits
and board strips then run here, one worker task per busy channel. A slow post, a retry or a 429 wait
delays the later posts of that channel — never the next move's processing, never another channel.
A channel's worker ends when its queue is empty, so idle channels cost nothing.

A job put with ``latest=key`` (a live table's edit) replaces the job of that key still waiting: only
the newest state of a live table is worth drawing.

Each channel has two lanes. Posts and edits (``POSTS``) need the channel's permissions and go one
after the other. Interaction answers (``ANSWERS``) are webhook calls that need none: they have a lane
of their own, so a channel whose posts are held up (a missing permission, Discord failing) never keeps
a player waiting for "thinking…" to end. A public answer may still wait its turn behind the posts
queued before it (:meth:`Outbox.tail`), as long as those are moving.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[None]]

POSTS = "posts"
ANSWERS = "answers"

QUEUE_MAX = 500  # jobs waiting per channel; beyond, a job is refused (a tracked answer stays pending)


@dataclass
class _Slot:
    job: Job
    latest: Hashable | None = None
    started: bool = False
    done: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class Outbox:
    limit: int = QUEUE_MAX
    _queues: dict[tuple[str, int], deque[_Slot]] = field(default_factory=dict)
    _workers: dict[tuple[str, int], asyncio.Task[None]] = field(default_factory=dict)
    _running: dict[tuple[str, int], _Slot] = field(default_factory=dict)
    _waiting: dict[Hashable, _Slot] = field(default_factory=dict)
    _idle: asyncio.Event = field(default_factory=asyncio.Event)
    _closed: bool = False

    def __post_init__(self) -> None:
        self._idle.set()

    def put(self, channel_id: int, job: Job, *, latest: Hashable | None = None, lane: str = POSTS) -> bool:
        """Queue ``job`` behind the earlier ones of the channel's lane; False when that queue is full (or
        the outbox closed: the bot is stopping)."""
        if self._closed:
            return False
        if latest is not None:
            waiting = self._waiting.get(latest)
            if waiting is not None and not waiting.started:
                waiting.job = job
                return True
        key = (lane, channel_id)
        queue = self._queues.setdefault(key, deque())
        if len(queue) >= self.limit:
            log.warning("channel %s has %d answers waiting; dropping one", channel_id, len(queue))
            return False
        slot = _Slot(job, latest)
        queue.append(slot)
        if latest is not None:
            self._waiting[latest] = slot
        if key not in self._workers:
            self._idle.clear()
            self._workers[key] = asyncio.create_task(
                self._work(key, queue), name=f"outbox-{lane}-{channel_id}"
            )
        return True

    def tail(self, channel_id: int) -> asyncio.Event | None:
        """Set once every post and edit queued so far in the channel is done (None: none is waiting)."""
        key = (POSTS, channel_id)
        queue = self._queues.get(key)
        if queue:
            return queue[-1].done
        running = self._running.get(key)
        return running.done if running is not None else None

    def waiting(self, channel_id: int, lane: str = POSTS) -> int:
        """How many jobs of the channel's lane wait (the one running not counted)."""
        return len(self._queues.get((lane, channel_id), ()))

    async def _work(self, key: tuple[str, int], queue: deque[_Slot]) -> None:
        try:
            while queue:
                slot = queue.popleft()
                slot.started = True
                self._running[key] = slot
                if slot.latest is not None and self._waiting.get(slot.latest) is slot:
                    del self._waiting[slot.latest]
                try:
                    await slot.job()
                except Exception:
                    log.exception("sending to channel %s failed", key[1])
                finally:
                    slot.done.set()
                    self._running.pop(key, None)
        finally:
            self._workers.pop(key, None)
            if not queue:
                self._queues.pop(key, None)
            if not self._workers:
                self._idle.set()

    def backlog(self) -> int:
        """Jobs queued or being done, in all channels and lanes: the delivery backlog."""
        return sum(len(queue) for queue in self._queues.values()) + len(self._workers)

    def busy(self) -> int:
        """How many channels have a worker right now."""
        return len(self._workers)

    async def idle(self, timeout: float | None = None) -> bool:  # noqa: ASYNC109
        """Until every queue is empty (True), or ``timeout`` seconds passed (False)."""
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return False
        return True

    async def close(self, timeout: float) -> None:  # noqa: ASYNC109
        """Let the queues drain for up to ``timeout`` seconds, then stop the workers (what they did
        not post stays pending in the log and is delivered at the next start)."""
        self._closed = True
        if not await self.idle(timeout):
            tasks = list(self._workers.values())
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        for queue in self._queues.values():
            for slot in queue:
                slot.done.set()  # nothing waits behind what will never run
        self._queues.clear()
        self._waiting.clear()
