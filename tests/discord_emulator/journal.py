"""Append-only logs a test can read or wait on.

Waiting consumes: each `wait` hands out an entry at most once, oldest first, so "the bot's next message" means
the next one the test has not looked at yet, even if it arrived before the test started waiting.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

T = TypeVar("T")


class EmulatorTimeout(AssertionError):
    """Nothing matching arrived in time; the message lists what did arrive, to make the failure readable."""


class Journal(Generic[T]):
    def __init__(self, name: str) -> None:
        self.name = name
        self._items: list[T] = []
        self._consumed: set[int] = set()
        self._changed = asyncio.Condition()

    def __iter__(self) -> Iterator[T]:
        return iter(list(self._items))

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, index: int) -> T:
        return self._items[index]

    async def append(self, item: T) -> None:
        async with self._changed:
            self._items.append(item)
            self._changed.notify_all()

    def _take(self, predicate: Callable[[T], bool], consume: bool) -> T | None:
        for index, item in enumerate(self._items):
            if index not in self._consumed and predicate(item):
                if consume:
                    self._consumed.add(index)
                return item
        return None

    def take(self, predicate: Callable[[T], bool] = lambda _: True, *, consume: bool = True) -> T | None:
        """The oldest matching entry not handed out yet, without waiting."""
        return self._take(predicate, consume)

    def consume_all(self) -> None:
        """Mark everything recorded so far as seen (e.g. the start-up chatter before a test's own step)."""
        self._consumed.update(range(len(self._items)))

    async def wait(
        self,
        predicate: Callable[[T], bool] = lambda _: True,
        *,
        timeout: float = 5.0,  # noqa: ASYNC109
        consume: bool = True,
        what: str = "",
    ) -> T:
        found: list[T] = []

        def ready() -> bool:
            item = self._take(predicate, consume)
            if item is None:
                return False
            found.append(item)
            return True

        try:
            async with self._changed:
                await asyncio.wait_for(self._changed.wait_for(ready), timeout)
        except TimeoutError:
            recent = "\n  ".join(repr(item)[:300] for item in self._items[-8:]) or "(nothing)"
            raise EmulatorTimeout(
                f"no {what or self.name} entry matched within {timeout}s; the last entries were:\n  {recent}"
            ) from None
        return found[0]
