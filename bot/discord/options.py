"""How the Discord client is set up, as one value (built from Settings, or directly by tests)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.settings import Settings

TURN_CLOCK_SECONDS = 30.0
DEFER_AFTER_SECONDS = 1.5  # an interaction not answered by then is deferred (Discord allows three)
# Delivered answers are acknowledged with the process's next write (at human pace, the next move comes
# sooner); after this long without one they get a transaction of their own — at most one per period.
ACKNOWLEDGE_AFTER_SECONDS = 10.0
RETRY_START_SECONDS = 1.0  # the first wait before posting a failed answer again (then doubled …)
RETRY_CAP_SECONDS = 60.0  # … up to this
HOLD_PROBE_SECONDS = 3600.0  # a channel held for a missing permission is tried again after this long
READS_NOTED_SECONDS = 30.0  # how often how far each game channel was read is kept in the store


@dataclass(frozen=True)
class BotOptions:
    guild_ids: tuple[int, ...] = ()  # sync slash commands to these guilds at start; empty: globally
    shard_count: int | None = None  # None: as many as Discord recommends
    shard_ids: tuple[int, ...] | None = None  # the shards this process runs; None: all
    sync_commands: bool = True  # False: neither register nor fetch the slash commands at start
    message_content: bool = True  # ask for the privileged intent (DISCORD_MESSAGE_CONTENT)
    turn_clock_seconds: float | None = TURN_CLOCK_SECONDS  # None: no background timeout task
    guild_ready_timeout: float = 2.0  # discord.py's wait for GUILD_CREATEs before on_ready
    defer_after_seconds: float = DEFER_AFTER_SECONDS
    acknowledge_after_seconds: float = ACKNOWLEDGE_AFTER_SECONDS
    retry_start_seconds: float = RETRY_START_SECONDS
    retry_cap_seconds: float = RETRY_CAP_SECONDS
    hold_probe_seconds: float = HOLD_PROBE_SECONDS
    reads_noted_seconds: float = READS_NOTED_SECONDS

    @property
    def registers(self) -> bool:
        """Whether this process registers the slash commands: the one that runs shard 0 (or all)."""
        return self.shard_ids is None or 0 in self.shard_ids

    @classmethod
    def from_settings(cls, settings: Settings) -> BotOptions:
        return cls(
            guild_ids=tuple(settings.discord_guild_ids),
            shard_count=settings.discord_shard_count,
            shard_ids=tuple(settings.discord_shard_ids) if settings.discord_shard_ids is not None else None,
            message_content=settings.discord_message_content,
        )
