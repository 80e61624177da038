"""A console channel and the web site over one store, for the web tests.

:class:`Room` plays lines through the real service (the console front end, with verifiable dice whose
seeds derive from a fixed text, so every run rolls the same) and serves the pages over the same
store. :class:`Background` runs both on an event loop of their own thread, so a synchronous browser
test (Playwright's sync API owns the main thread) can drive Chromium while the croupier answers.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from bot.console.terminal import Answer, Console
from bot.service.croupier import Croupier, seed_from_text
from bot.store import Store
from bot.web.server import Site, start_site

T = TypeVar("T")
MODERATOR = "mod"


@dataclass
class Room:
    """The console channel "console", its croupier, and the site over the same store."""

    store: Store
    console: Console
    site: Site | None = None

    @classmethod
    async def open(cls, db_url: str, *, serve: bool = True, seed: str = "web-tests") -> Room:
        store = await Store.open(db_url)
        croupier = Croupier(store=store, seed_source=seed_from_text(seed), web_base_url="http://x")
        site = await start_site(croupier, "127.0.0.1", 0) if serve else None
        if site is not None:
            croupier.web_base_url = site.url  # known once the site listens: /settings web=on hands it out
        console = Console(croupier, moderators=frozenset({MODERATOR}), admins=frozenset({MODERATOR}))
        return cls(store, console, site)

    async def say(self, *lines: str) -> list[Answer]:
        answers = []
        for line in lines:
            answer = await self.console.handle(line)
            assert answer is not None
            answers.append(answer)
        return answers

    async def web_on(self, *, listed: bool = False) -> str:
        """``/settings web=on`` (and ``listed=on``, for the start page): the address the croupier
        answers with."""
        (answer,) = await self.say(f"{MODERATOR}: /settings web=on" + (" listed=on" if listed else ""))
        assert answer.ok, answer.text
        return next(word for word in answer.text.split() if "/t/" in word)

    async def close(self) -> None:
        if self.site is not None:
            await self.site.close()
        await self.store.close()

    @property
    def url(self) -> str:
        assert self.site is not None
        return self.site.url


def durchgang(players: Iterable[str], throws: int = 2) -> list[str]:
    """A whole Durchgang as console lines: open, join, start, each player throws and stops, close.
    A player who busts early has the rest of their lines refused, which changes nothing."""
    names = list(players)
    lines = [f"{MODERATOR}: /open verflixte6", *(f"{name}: /join" for name in names), f"{MODERATOR}: /start"]
    for name in names:
        lines += [f"{name}: weiter"] * throws + [f"{name}: stopp"]
    return [*lines, f"{MODERATOR}: /close"]


class Background:
    """An event loop on its own thread; :meth:`call` runs a coroutine there and waits for its result."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="web-tests", daemon=True)
        self._thread.start()

    def call(self, work: Coroutine[Any, Any, T], timeout: float = 120) -> T:
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(timeout)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=30)
        self.loop.close()
