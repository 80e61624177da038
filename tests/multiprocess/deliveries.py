"""Which gateway session each user event reached, from the emulator's own gateway record."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from tests.discord_emulator import DiscordEmulator

USER_EVENTS = ("MESSAGE_CREATE", "INTERACTION_CREATE")


@dataclass(frozen=True)
class Delivery:
    event: str
    event_id: int
    guild_id: int
    session_id: str
    shard: tuple[int, int]


def deliveries(emu: DiscordEmulator) -> list[Delivery]:
    """Every MESSAGE_CREATE / INTERACTION_CREATE dispatched, one entry per receiving session."""
    found = []
    for record in emu.gateway_log:
        if record.kind != "dispatch" or record.data["t"] not in USER_EVENTS:
            continue
        data = record.data["d"]
        assert record.session_id is not None
        assert record.shard is not None
        found.append(
            Delivery(
                record.data["t"], int(data["id"]), int(data["guild_id"]), record.session_id, record.shard
            )
        )
    return found


def sessions_by_event(emu: DiscordEmulator) -> dict[int, list[str]]:
    """Event id → the sessions it was dispatched to (a session twice when it was delivered twice)."""
    found: defaultdict[int, list[str]] = defaultdict(list)
    for delivery in deliveries(emu):
        found[delivery.event_id].append(delivery.session_id)
    return dict(found)
