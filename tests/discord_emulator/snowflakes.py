"""Discord-style snowflake ids: discord.py reads `created_at` from them, so they carry a real timestamp."""

from __future__ import annotations

import time
from datetime import UTC, datetime

DISCORD_EPOCH_MS = 1_420_070_400_000


def snowflake_time(snowflake: int) -> datetime:
    """The creation time a snowflake encodes (millisecond precision, UTC)."""
    return datetime.fromtimestamp(((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000, tz=UTC)


def iso(moment: datetime) -> str:
    """Timestamps as Discord writes them: ISO 8601 with microseconds and an explicit offset."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's routing rule: a guild belongs to shard (guild_id >> 22) % shard_count."""
    return (guild_id >> 22) % shard_count


class SnowflakeFactory:
    """Strictly increasing snowflakes with the current time, like ids minted by one Discord worker.

    `for_shard` bends the timestamp (a few milliseconds into the future at most) so that a guild lands
    on a chosen shard, which is how tests get one guild per shard deterministically.
    """

    def __init__(self, worker: int = 1, process: int = 0) -> None:
        self._worker = worker & 0x1F
        self._process = process & 0x1F
        self._last_ms = 0
        self._increment = 0

    def _mint(self, ms: int) -> int:
        if ms <= self._last_ms:
            ms = self._last_ms
            self._increment += 1
            if self._increment > 0xFFF:
                ms += 1
                self._increment = 0
        else:
            self._increment = 0
        self._last_ms = ms
        return (
            ((ms - DISCORD_EPOCH_MS) << 22) | (self._worker << 17) | (self._process << 12) | self._increment
        )

    def next(self) -> int:
        return self._mint(int(time.time() * 1000))

    def for_shard(self, shard_id: int, shard_count: int) -> int:
        if not 0 <= shard_id < shard_count:
            raise ValueError(f"shard {shard_id} is outside 0..{shard_count - 1}")
        ms = max(int(time.time() * 1000), self._last_ms + 1)
        while (ms - DISCORD_EPOCH_MS) % shard_count != shard_id:
            ms += 1
        self._last_ms = ms - 1  # force a fresh increment window at exactly `ms`
        self._increment = 0
        return self._mint(ms)
