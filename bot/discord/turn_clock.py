"""The turn timeout in the background: every few seconds the service applies it where a deadline has
passed, and reminds the players whose deadline is near. Deadlines live in the database, so they
survive restarts; the timeout's message id and the reminder's conditional update make both
exactly-once even with several bot processes on one database. Each round covers only the guilds whose
shard is connected and caught up with what was typed while it was away (``Front.serving``): a player
never times out because a move of theirs was not read yet."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from discord.ext import tasks

from bot.store import StoreUnavailable

log = logging.getLogger(__name__)


class TurnClock:
    def __init__(self, tick: Callable[[], Awaitable[int]], seconds: float) -> None:
        self._tick = tick
        self._loop = tasks.loop(seconds=seconds)(self._run)

    def start(self) -> None:
        if not self._loop.is_running():
            self._loop.start()

    def stop(self) -> None:
        self._loop.cancel()

    async def _run(self) -> None:
        try:
            posted = await self._tick()
        except StoreUnavailable as error:
            log.warning("turn timeouts skipped this round: %s", error)
            return
        except Exception:
            log.exception("turn timeouts failed this round")
            return
        if posted:
            log.info("posted %d turn timeout(s) and reminder(s)", posted)
