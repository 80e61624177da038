"""Which of this process's shards are caught up, and which are connected: a guild's live events wait
for its own shard only, and its turn timeouts apply only while that shard is connected and caught up.

A shard whose session Discord invalidated identifies again (a new session, ``on_shard_connect``):
what its guilds' members typed meanwhile never arrives as events, so their live events wait until
the catch-up of that shard has read it (``on_shard_ready`` → :mod:`bot.discord.catch_up`). Other
shards carry on meanwhile. A shard that resumes its session gets the missed events replayed by
Discord and needs no catch-up, but while it is disconnected its guilds' events are late: no turn
timeout applies there until it is back (``on_shard_resumed``).

A guild belongs to shard ``(guild_id >> 22) % shard_count`` (Discord's sharding formula).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection, Iterable


class Readiness:
    def __init__(
        self, shard_ids: Callable[[], Collection[int] | None], shard_count: Callable[[], int | None]
    ):
        self._shard_ids = shard_ids
        self._shard_count = shard_count
        self._caught: dict[int, asyncio.Event] = {}
        self._sessions: dict[int, int] = {}  # per shard, how many sessions began (a catch-up is of one)
        self._connected: set[int] = set()
        self._ever: set[int] = set()  # shards caught up once since this process started
        self._all = asyncio.Event()

    def shard_of(self, guild_id: int | None) -> int:
        """The shard that carries the guild's events (direct messages: shard 0)."""
        count = self._shard_count() or 1
        return 0 if guild_id is None else (guild_id >> 22) % count

    def _event(self, shard_id: int) -> asyncio.Event:
        found = self._caught.get(shard_id)
        if found is None:
            found = self._caught[shard_id] = asyncio.Event()
        return found

    def _recount(self) -> None:
        ids = self._shard_ids()
        if ids and all(self._event(s).is_set() for s in ids):
            self._all.set()
        else:
            self._all.clear()

    # ------------------------------------------------------------------ what the gateway says

    def connecting(self, shard_id: int) -> int:
        """A new session of the shard: its guilds' events wait for its catch-up. Answers the session's
        number, which the catch-up of this session hands back to :meth:`caught_up`."""
        self._event(shard_id).clear()
        self._connected.add(shard_id)
        self._sessions[shard_id] = self._sessions.get(shard_id, 0) + 1
        self._recount()
        return self._sessions[shard_id]

    def caught_up(self, shard_id: int, session: int) -> bool:
        """The catch-up of the shard's session ``session`` is done — unless a newer session began
        meanwhile, whose own catch-up lets the events go (then False)."""
        if session != self._sessions.get(shard_id):
            return False
        self._event(shard_id).set()
        self._connected.add(shard_id)
        self._ever.add(shard_id)
        self._recount()
        return True

    def disconnected(self, shard_id: int) -> None:
        self._connected.discard(shard_id)

    def resumed(self, shard_id: int) -> None:
        self._connected.add(shard_id)

    # ------------------------------------------------------------------ what the front end asks

    def first_time(self, shard_id: int) -> bool:
        """Whether the shard has not caught up since this process started (its first session)."""
        return shard_id not in self._ever

    def is_caught_up(self, guild_id: int | None) -> bool:
        return self._event(self.shard_of(guild_id)).is_set()

    def shard_caught_up(self, shard_id: int) -> bool:
        """Whether the shard's current session has caught up (what the operator's readiness asks)."""
        return self._event(shard_id).is_set()

    async def wait_for(self, guild_id: int | None) -> None:
        """Until the shard of the guild has caught up (at once, mostly)."""
        event = self._event(self.shard_of(guild_id))
        if not event.is_set():
            await event.wait()

    async def wait(self) -> None:
        """Until every shard of this process has caught up (its start is done)."""
        await self._all.wait()

    def serving(self, guild_ids: Iterable[int]) -> set[str]:
        """Those of the guilds whose shard is connected and caught up: where turn timeouts may apply."""
        ready = {s for s in self._connected if self._event(s).is_set()}
        return {str(g) for g in guild_ids if self.shard_of(g) in ready}
