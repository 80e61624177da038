"""Catch-up work, per shard: one run for each new session of a shard, and the lines it read back."""

from __future__ import annotations

from bot.observability.metrics import CATCH_UP_LINES, CATCH_UP_RUNS


def shard_seen(shard: int) -> None:
    """The shard's series exist from 0 on, so ``increase()`` sees its first run."""
    CATCH_UP_RUNS.labels(str(shard))
    CATCH_UP_LINES.labels(str(shard))


def ran(shard: int, lines: int) -> None:
    """The shard caught up with a new session, reading ``lines`` lines from the channels' history."""
    CATCH_UP_RUNS.labels(str(shard)).inc()
    CATCH_UP_LINES.labels(str(shard)).inc(lines)
