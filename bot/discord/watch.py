"""What the Discord front end tells the operator: shard states, and its readiness.

:class:`GatewayWatch` is made with the client (:class:`~bot.discord.client.CroupierBot`), which hands
it every gateway event it dispatches: shard states from discord.py's ``shard_connect`` (READY
received, guilds still arriving), ``shard_ready``, ``shard_resumed`` and ``shard_disconnect`` events.

:class:`DiscordHealth` is the front end's part of the process's health (see
:mod:`bot.observability.health`): the ``gateway``, ``caught_up``, ``delivery_backlog`` and
``held_channels`` conditions, and the figures behind them. It only reads what the front end keeps for
its own work — the per-shard catch-up (:mod:`bot.discord.readiness`), the outbox, and the delivery's
ledger (:mod:`bot.discord.failures`: held and degraded channels, the invalid requests of the last ten
minutes, which the HTTP trace counts and the log warns about at the same figures).
"""

from __future__ import annotations

import time
from collections import Counter as Tally
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from prometheus_client.core import GaugeMetricFamily, Metric

from bot.discord.failures import TRANSIENT
from bot.observability import catch_up
from bot.observability.delivery import DEGRADED_PERMISSIONS, HOLD_REASONS, hold_reason
from bot.observability.health import Condition
from bot.observability.metrics import SHARD_DISCONNECTS
from bot.settings import DEFAULT_BACKLOG_MAX

if TYPE_CHECKING:
    from bot.discord.client import CroupierBot
    from bot.discord.failures import Ledger

CONNECTING, CONNECTED, READY, DISCONNECTED = "connecting", "connected", "ready", "disconnected"
_SHARD_EVENTS = {
    "shard_connect": CONNECTED,
    "shard_ready": READY,
    "shard_resumed": READY,
    "shard_disconnect": DISCONNECTED,
}
HELD_NAMED = 5  # held channels named in the readiness answer (the rest are counted)


class GatewayWatch:
    """Shard states as the gateway events tell them (see the module docstring)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.started = clock()
        self.states: dict[int, tuple[str, float]] = {}  # shard → (state, since)

    def saw(self, event: str, args: tuple[Any, ...]) -> None:
        """A gateway event the client dispatched (called for every event: only shard events count)."""
        state = _SHARD_EVENTS.get(event)
        if state is None or not args or not isinstance(args[0], int):
            return
        shard = args[0]
        disconnects = SHARD_DISCONNECTS.labels(str(shard))  # from 0 on, so increase() sees the first
        catch_up.shard_seen(shard)
        if state == DISCONNECTED:
            disconnects.inc()
        before = self.states.get(shard)
        if before is None or before[0] != state:
            self.states[shard] = (state, self.clock())

    def state(self, shard: int) -> tuple[str, float]:
        return self.states.get(shard, (CONNECTING, self.started))


class DiscordHealth:
    """The Discord front end's readiness conditions and scrape-time figures, read from the client."""

    def __init__(self, client: CroupierBot, backlog_max: int = DEFAULT_BACKLOG_MAX) -> None:
        self.client = client
        self.backlog_max = backlog_max

    @property
    def watch(self) -> GatewayWatch:
        return self.client.gateway_watch

    def shard_ids(self) -> tuple[int, ...] | None:
        """The shards this process runs; None until discord.py knows how many there are."""
        client = self.client
        if client.shard_ids is not None:
            return tuple(client.shard_ids)
        if client.shard_count is None:
            return None
        return tuple(range(client.shard_count))

    async def conditions(self) -> Sequence[Condition]:
        return (self.gateway(), self.caught_up(), self.backlog(), self.held())

    def gateway(self) -> Condition:
        shards = self.shard_ids()
        if shards is None:
            return Condition("gateway", False, "not connected yet (the shard count is not known)")
        now = self.watch.clock()
        waiting = []
        for shard in shards:
            state, since = self.watch.state(shard)
            if state != READY:
                waiting.append(f"shard {shard} {state} for {now - since:.0f} s")
        if waiting:
            return Condition("gateway", False, "; ".join(waiting))
        return Condition("gateway", True, f"{len(shards)} shard(s) ready")

    @property
    def ledger(self) -> Ledger:
        return self.client.front.delivery.ledger

    def caught_up(self) -> Condition:
        shards = self.shard_ids()
        if shards is None:
            return Condition("caught_up", False, "no shard has caught up yet (the shard count is not known)")
        readiness = self.client.front.caught_up
        reading = [shard for shard in shards if not readiness.shard_caught_up(shard)]
        if reading:
            which = ", ".join(str(shard) for shard in reading)
            return Condition("caught_up", False, f"shard(s) {which} reading what was typed while away")
        return Condition("caught_up", True, f"{len(shards)} shard(s) read up to now")

    def backlog(self) -> Condition:
        waiting = self.client.front.outbox.backlog()
        detail = f"{waiting} post(s) waiting (bound {self.backlog_max})"
        return Condition("delivery_backlog", waiting < self.backlog_max, detail)

    def held(self) -> Condition:
        holds = sorted(self.ledger.held.values(), key=lambda hold: hold.since)
        if not holds:
            return Condition("held_channels", True, "no channel's posts are held")
        named = "; ".join(f"channel {hold.channel}: {hold.describe()}" for hold in holds[:HELD_NAMED])
        more = f"; and {len(holds) - HELD_NAMED} more" if len(holds) > HELD_NAMED else ""
        return Condition("held_channels", False, f"{len(holds)} channel(s) held — {named}{more}")

    def held_by_reason(self) -> dict[str, int]:
        counted = Tally(
            hold_reason(hold.kind == TRANSIENT, hold.missing) for hold in self.ledger.held.values()
        )
        return {reason: counted.get(reason, 0) for reason in HOLD_REASONS}

    def degraded_by_permission(self) -> dict[str, int]:
        counted = Tally(permission for missing in self.ledger.degraded.values() for permission in missing)
        return {label: counted.get(name, 0) for name, label in DEGRADED_PERMISSIONS.items()}

    def samples(self) -> Iterable[Metric]:
        client, watch = self.client, self.watch
        readiness = client.front.caught_up
        shards = self.shard_ids() or ()
        ready = GaugeMetricFamily(
            "croupier_discord_shard_ready",
            "1 when the shard is connected and ready, else 0",
            labels=["shard"],
        )
        latency = GaugeMetricFamily(
            "croupier_discord_shard_latency_seconds",
            "The shard's gateway heartbeat latency",
            labels=["shard"],
        )
        guilds = GaugeMetricFamily("croupier_discord_guilds", "Guilds the shard serves", labels=["shard"])
        caught = GaugeMetricFamily(
            "croupier_discord_guilds_caught_up",
            "Guilds of the shard whose open games' channels are read up to now (all of them once the "
            "shard's session caught up, else 0)",
            labels=["shard"],
        )
        per_shard: dict[int, int] = dict.fromkeys(shards, 0)
        for guild in client.guilds:
            shard = readiness.shard_of(guild.id)
            per_shard[shard] = per_shard.get(shard, 0) + 1
        for shard in shards:
            label = [str(shard)]
            ready.add_metric(label, 1.0 if watch.state(shard)[0] == READY else 0.0)
            info = client.get_shard(shard)
            if info is not None and info.latency == info.latency and info.latency != float("inf"):
                latency.add_metric(label, info.latency)
            guilds.add_metric(label, float(per_shard.get(shard, 0)))
            caught.add_metric(
                label, float(per_shard.get(shard, 0)) if readiness.shard_caught_up(shard) else 0.0
            )
        yield from (ready, latency, guilds, caught)
        backlog = GaugeMetricFamily(
            "croupier_delivery_backlog", "Posts waiting to go out (queued or being sent, answers included)"
        )
        backlog.add_metric([], float(client.front.outbox.backlog()))
        yield backlog
        held = GaugeMetricFamily(
            "croupier_channels_held",
            "Channels whose posts are held back, by reason (the permission missing, or Discord failing)",
            labels=["reason"],
        )
        for reason, count in self.held_by_reason().items():
            held.add_metric([reason], float(count))
        yield held
        degraded = GaugeMetricFamily(
            "croupier_channels_degraded",
            "Channels whose answers work around a missing permission (as text, or without reply references)",
            labels=["permission"],
        )
        for permission, count in self.degraded_by_permission().items():
            degraded.add_metric([permission], float(count))
        yield degraded
        invalid = GaugeMetricFamily(
            "croupier_discord_invalid_requests_10m",
            "Invalid requests in the last 10 minutes, as the log's warnings count them (Discord blocks "
            "the address at 10,000)",
        )
        invalid.add_metric([], float(self.ledger.invalid_recent()))
        yield invalid
