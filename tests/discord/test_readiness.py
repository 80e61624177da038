"""Which shards are caught up and connected (bot/discord/readiness.py), without a network: a guild waits
for its own shard only; a catch-up overtaken by a newer session of its shard lets nothing go; turn
timeouts need the shard connected and caught up."""

from __future__ import annotations

import asyncio

from bot.discord.readiness import Readiness

SHARDS = 2
GUILD_0 = 0 << 22  # (guild_id >> 22) % 2 == 0
GUILD_1 = 1 << 22


def readiness() -> Readiness:
    return Readiness(lambda: [0, 1], lambda: SHARDS)


async def test_a_guild_waits_for_its_own_shard_only() -> None:
    ready = readiness()
    assert (ready.shard_of(GUILD_0), ready.shard_of(GUILD_1), ready.shard_of(None)) == (0, 1, 0)
    first = ready.connecting(0)
    ready.connecting(1)
    assert ready.caught_up(0, first)
    await asyncio.wait_for(ready.wait_for(GUILD_0), 1)
    waiting = asyncio.create_task(ready.wait_for(GUILD_1))
    everyone = asyncio.create_task(ready.wait())
    await asyncio.sleep(0)
    assert not waiting.done()
    assert not everyone.done()
    assert ready.caught_up(1, 1)
    await asyncio.wait_for(asyncio.gather(waiting, everyone), 1)


async def test_a_catch_up_overtaken_by_a_newer_session_lets_nothing_go() -> None:
    ready = readiness()
    older = ready.connecting(0)
    newer = ready.connecting(0)  # Discord ended the session again while it was catching up
    assert not ready.caught_up(0, older)
    assert not ready.is_caught_up(GUILD_0)
    assert ready.first_time(0)
    assert ready.caught_up(0, newer)
    assert ready.is_caught_up(GUILD_0)
    assert not ready.first_time(0)


async def test_timeouts_need_the_shard_connected_and_caught_up() -> None:
    ready = readiness()
    for shard in (0, 1):
        ready.caught_up(shard, ready.connecting(shard))
    assert ready.serving([GUILD_0, GUILD_1]) == {str(GUILD_0), str(GUILD_1)}
    ready.disconnected(1)  # its events are late until it resumes
    assert ready.serving([GUILD_0, GUILD_1]) == {str(GUILD_0)}
    ready.resumed(1)
    session = ready.connecting(0)  # a new session: not caught up yet
    assert ready.serving([GUILD_0, GUILD_1]) == {str(GUILD_1)}
    ready.caught_up(0, session)
    assert ready.serving([GUILD_0, GUILD_1]) == {str(GUILD_0), str(GUILD_1)}
