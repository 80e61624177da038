"""pytest glue: a `discord_emulator` fixture and `running_client`, which runs a real discord.py client against
it inside the test's event loop and always closes it.

Use from a conftest with `pytest_plugins = ["tests.discord_emulator.fixtures"]`, or import the names.
Clients under test should be built with a small `guild_ready_timeout` (e.g. 0.05): discord.py waits that long
after the last GUILD_CREATE before it calls on_ready (2 s by default).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator
from typing import Any, TypeVar

import discord
import discord.http
import pytest

from bot.discord.endpoint import use_endpoints

from .server import DiscordEmulator

ClientT = TypeVar("ClientT", bound=discord.Client)


@pytest.fixture
async def discord_emulator() -> AsyncIterator[DiscordEmulator]:
    """A started emulator with discord.py pointed at it; stopped after the test."""
    async with DiscordEmulator() as emu:
        use_endpoints(emu.api_base, emu.gateway_url)
        yield emu


async def wait_until_ready(client: discord.Client, task: asyncio.Task[None], timeout: float = 10.0) -> None:  # noqa: ASYNC109
    """Until on_ready has fired; re-raises what `client.start` failed with (e.g. LoginFailure)."""
    async with asyncio.timeout(timeout):
        while not client.is_ready():
            if task.done():
                task.result()
                raise RuntimeError("the client stopped before it became ready")
            await asyncio.sleep(0.01)


@contextlib.asynccontextmanager
async def running_client(
    client: ClientT, token: str, *, ready_timeout: float = 10.0, close_timeout: float = 10.0
) -> AsyncIterator[ClientT]:
    """`client.start(token)` as a task; yields once the client is ready; closes it and awaits the task."""
    task = asyncio.create_task(client.start(token), name="discord-client-under-test")
    try:
        await wait_until_ready(client, task, ready_timeout)
        yield client
    finally:
        await client.close()
        try:
            await asyncio.wait_for(task, close_timeout)
        except TimeoutError:
            raise AssertionError(f"the client did not stop within {close_timeout}s of close()") from None


class _ScaledAsyncio:
    """The asyncio module as discord.http sees it, with every sleep shortened by `factor`."""

    def __init__(self, factor: float) -> None:
        self._factor = factor

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    async def sleep(self, delay: float, result: Any = None) -> Any:
        return await asyncio.sleep(delay * self._factor, result)


@contextlib.contextmanager
def quick_retries(factor: float = 0.01) -> Iterator[None]:
    """discord.py's REST client sleeps 1, 3, 5, 7 s between its five tries of a 500/502/504 and a 429's
    retry_after before trying again; inside this block those sleeps take `factor` of that time, so a test can
    watch it retry (and give up) for real without waiting 25 s."""
    original = discord.http.asyncio
    discord.http.asyncio = _ScaledAsyncio(factor)  # type: ignore[assignment]
    try:
        yield
    finally:
        discord.http.asyncio = original


@pytest.fixture
def quick_discord_retries() -> Iterator[None]:
    """`quick_retries()` for a whole test."""
    with quick_retries():
        yield
