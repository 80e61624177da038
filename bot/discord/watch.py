"""What the Discord front end tells the operator: shard states, Discord's limits, and its readiness.

:class:`GatewayWatch` is made with the client (:class:`~bot.discord.client.CroupierBot`), which hands
it every gateway event it dispatches and its HTTP session's trace:

* shard states from discord.py's ``shard_connect`` (READY received, guilds still arriving),
  ``shard_ready``, ``shard_resumed`` and ``shard_disconnect`` events;
* every 429 by its ``X-RateLimit-Scope``, and the requests Discord counts against its invalid request
  limit — 401, 403, and 429 except those of the shared scope, at most 10,000 per 10 minutes before
  Discord blocks the bot's address for a while
  (https://discord.com/developers/docs/topics/rate-limits#invalid-request-limit-aka-cloudflare-bans).

:class:`DiscordHealth` is the front end's part of the process's health (see
:mod:`bot.observability.health`): the ``gateway``, ``caught_up``, ``delivery_backlog`` and
``held_channels`` conditions, and the figures behind them.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import aiohttp
from prometheus_client.core import GaugeMetricFamily, Metric

from bot.observability.health import Condition
from bot.observability.metrics import (
    INVALID_REQUESTS,
    INVALID_STATUSES,
    RATE_LIMIT_SCOPES,
    RATE_LIMITED,
    SHARD_DISCONNECTS,
)
from bot.settings import DEFAULT_BACKLOG_MAX

if TYPE_CHECKING:
    from bot.discord.client import CroupierBot

INVALID_WINDOW_S = 600.0  # Discord's invalid request limit counts over 10 minutes
CONNECTING, CONNECTED, READY, DISCONNECTED = "connecting", "connected", "ready", "disconnected"
_SHARD_EVENTS = {
    "shard_connect": CONNECTED,
    "shard_ready": READY,
    "shard_resumed": READY,
    "shard_disconnect": DISCONNECTED,
}
_INVALID = {status: INVALID_REQUESTS.labels(status) for status in INVALID_STATUSES}
_LIMITED = {scope: RATE_LIMITED.labels(scope) for scope in RATE_LIMIT_SCOPES}


class GatewayWatch:
    """Shard states and Discord's answers that count against the bot (see the module docstring)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.started = clock()
        self.states: dict[int, tuple[str, float]] = {}  # shard → (state, since)
        self._invalid: deque[float] = deque()
        self.http_trace = aiohttp.TraceConfig()
        self.http_trace.on_request_end.append(self._request_ended)

    def saw(self, event: str, args: tuple[Any, ...]) -> None:
        """A gateway event the client dispatched (called for every event: only shard events count)."""
        state = _SHARD_EVENTS.get(event)
        if state is None or not args or not isinstance(args[0], int):
            return
        shard = args[0]
        disconnects = SHARD_DISCONNECTS.labels(str(shard))  # from 0 on, so increase() sees the first
        if state == DISCONNECTED:
            disconnects.inc()
        before = self.states.get(shard)
        if before is None or before[0] != state:
            self.states[shard] = (state, self.clock())

    def state(self, shard: int) -> tuple[str, float]:
        return self.states.get(shard, (CONNECTING, self.started))

    async def _request_ended(
        self,
        _session: aiohttp.ClientSession,
        _context: SimpleNamespace,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        status = params.response.status
        if status not in (401, 403, 429):
            return
        if status == 429:
            scope = (params.response.headers.get("X-RateLimit-Scope") or "").lower()
            if scope not in _LIMITED:
                scope = "global" if params.response.headers.get("X-RateLimit-Global") else "user"
            _LIMITED[scope].inc()
            if scope == "shared":
                return  # a shared resource's limit: Discord does not count it as invalid
        _INVALID[str(status)].inc()
        self._invalid.append(self.clock())

    def invalid_last_10_minutes(self) -> int:
        """Invalid requests in the last 10 minutes, as Discord counts them against the limit."""
        horizon = self.clock() - INVALID_WINDOW_S
        while self._invalid and self._invalid[0] < horizon:
            self._invalid.popleft()
        return len(self._invalid)


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

    def caught_up(self) -> Condition:
        # One flag for all the process's shards until catch-up is kept per shard.
        if self.client.front.caught_up.is_set():
            return Condition("caught_up", True, "every open game's channel is read up to now")
        return Condition("caught_up", False, "reading what was typed while the bot was away")

    def backlog(self) -> Condition:
        waiting = self.client.front.outbox.waiting()
        detail = f"{waiting} post(s) waiting (bound {self.backlog_max})"
        return Condition("delivery_backlog", waiting < self.backlog_max, detail)

    def held(self) -> Condition:
        counted = self.client.front.delivery.held.by_reason()
        total = sum(counted.values())
        if not total:
            return Condition("held_channels", True, "no channel's posts are held")
        reasons = ", ".join(f"{count} for {reason}" for reason, count in counted.items() if count)
        return Condition("held_channels", False, f"{total} channel(s) held: {reasons}")

    def samples(self) -> Iterable[Metric]:
        client, watch = self.client, self.watch
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
            "Guilds of the shard whose open games' channels are read up to now",
            labels=["shard"],
        )
        per_shard: dict[int, int] = dict.fromkeys(shards, 0)
        for guild in client.guilds:
            per_shard[guild.shard_id] = per_shard.get(guild.shard_id, 0) + 1
        all_caught = client.front.caught_up.is_set()
        for shard in shards:
            label = [str(shard)]
            ready.add_metric(label, 1.0 if watch.state(shard)[0] == READY else 0.0)
            info = client.get_shard(shard)
            if info is not None and info.latency == info.latency and info.latency != float("inf"):
                latency.add_metric(label, info.latency)
            guilds.add_metric(label, float(per_shard.get(shard, 0)))
            caught.add_metric(label, float(per_shard.get(shard, 0)) if all_caught else 0.0)
        yield from (ready, latency, guilds, caught)
        backlog = GaugeMetricFamily(
            "croupier_delivery_backlog", "Posts waiting to go out (queued or being sent)"
        )
        backlog.add_metric([], float(client.front.outbox.waiting()))
        yield backlog
        held = GaugeMetricFamily(
            "croupier_channels_held", "Channels whose posts are held back, by reason", labels=["reason"]
        )
        for reason, count in client.front.delivery.held.by_reason().items():
            held.add_metric([reason], float(count))
        yield held
        invalid = GaugeMetricFamily(
            "croupier_discord_invalid_requests_10m",
            "Invalid requests in the last 10 minutes (Discord blocks the address at 10,000)",
        )
        invalid.add_metric([], float(watch.invalid_last_10_minutes()))
        yield invalid
