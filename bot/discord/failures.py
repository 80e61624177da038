"""What went wrong when the bot sent something, kept as plain data in one place.

Every delivery failure falls in one class, decided by Discord's answer (see :func:`classify`):

- ``transient`` — Discord's trouble (a 5xx, a timeout, a dropped connection; discord.py waits out a
  429 itself): tried again with backoff, for a while, then the channel is held and probed;
- ``permission`` — the bot lacks a permission a moderator can grant (403: 50013 Missing Permissions,
  160002 a reply without Read Message History, 50001 in a channel it still knows): degraded where
  Discord allows it, otherwise the channel's posts are held until a channel, guild or role update or
  the hourly probe;
- ``permanent`` — the place is gone (404 unknown channel or message, 50001 in a guild the bot was
  removed from): undeliverable;
- ``refused`` — a request Discord will never take (a 400): undeliverable, and logged as the bug it is.

:class:`Ledger` holds the counts, the channels held with the permission they miss, the channels whose
posts are degraded, and the invalid requests (401, 403, 429 but a shared limit's) of the last ten
minutes — Discord bans an IP that makes 10,000 of those in ten minutes. It is read by whoever reports
on the bot's health (``bot.discord.watch``); only :mod:`bot.discord.delivery` and the client's HTTP
trace write it.
"""

from __future__ import annotations

import logging
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import aiohttp
import discord

from bot.observability import limits

log = logging.getLogger(__name__)

TRANSIENT = "transient"
PERMISSION = "permission"
PERMANENT = "permanent"
REFUSED = "refused"
CLASSES = (TRANSIENT, PERMISSION, PERMANENT, REFUSED)

MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
REPLY_WITHOUT_HISTORY = 160002
THREAD_ARCHIVED = 50083

INVALID_STATUSES = (401, 403, 429)  # what Discord counts toward its invalid-request limit
INVALID_WINDOW_S = 600.0  # … per ten minutes
INVALID_BAN = 10_000  # … beyond which Cloudflare bans the IP for a while
INVALID_BRAKE = 1_000  # from here on, the bot makes no request it can spare that may be refused
INVALID_WARN_AT = (100, 500, INVALID_BRAKE, 2_500, 5_000)  # each crossing is one log line

# Discord's names of the permissions, as its settings show them to a moderator.
VIEW_CHANNEL = "View Channel"
SEND_MESSAGES = "Send Messages"
SEND_MESSAGES_IN_THREADS = "Send Messages in Threads"
EMBED_LINKS = "Embed Links"
ATTACH_FILES = "Attach Files"
READ_MESSAGE_HISTORY = "Read Message History"


def classify(error: BaseException, *, channel_known: bool = True) -> str:
    """The class of a failed request (the module docstring). ``channel_known``: the channel is still
    in a guild the bot is in — a 50001 there is a permission (View Channel), elsewhere the bot is out."""
    if isinstance(error, discord.HTTPException):
        status = error.status
        if status >= 500 or status == 429:
            return TRANSIENT
        if status == 404:
            return PERMANENT
        if status == 403 and error.code == MISSING_ACCESS and not channel_known:
            return PERMANENT
        if status in (401, 403):
            return PERMISSION
        return REFUSED
    if isinstance(error, TimeoutError | aiohttp.ClientError | OSError):
        return TRANSIENT
    return REFUSED


@dataclass
class Hold:
    """A channel whose posts wait: why, since when, and whether somebody in it was told."""

    channel: int
    guild: int | None
    kind: str  # PERMISSION or TRANSIENT
    missing: str  # the permission it lacks ("Send Messages"), "" when Discord did not say which
    code: int | None  # Discord's error code (50013 …), None for a transient failure
    since: datetime
    told: bool = False  # a player in the channel learned why (the channel itself takes no post)
    probes: int = 0

    def describe(self) -> str:
        if self.kind == TRANSIENT:
            return "Discord keeps failing"
        return f"missing {self.missing}" if self.missing else f"refused ({self.code})"


@dataclass
class Ledger:
    """The plain data of delivery failures (see the module docstring)."""

    clock: Callable[[], float] = time.monotonic
    failures: Counter[str] = field(default_factory=Counter)  # by class
    codes: Counter[int] = field(default_factory=Counter)  # by Discord's error code (or HTTP status)
    undeliverable: int = 0
    held: dict[int, Hold] = field(default_factory=dict)
    degraded: dict[int, set[str]] = field(default_factory=dict)  # channel → permissions worked around
    _invalid: deque[float] = field(default_factory=deque)
    _warned: int = 0  # the highest INVALID_WARN_AT figure logged in the current window

    def failed(self, kind: str, error: BaseException) -> None:
        self.failures[kind] += 1
        if isinstance(error, discord.HTTPException):
            self.codes[error.code or error.status] += 1

    def invalid_request(self) -> int | None:
        """One more 401/403/429; answers the figure when it crosses a threshold worth a log line."""
        now = self.clock()
        self._invalid.append(now)
        count = self.invalid_recent(now)
        crossed = [figure for figure in INVALID_WARN_AT if count >= figure > self._warned]
        if crossed:
            self._warned = crossed[-1]
            return count
        return None

    def invalid_recent(self, now: float | None = None) -> int:
        """The invalid requests of the last ten minutes."""
        now = self.clock() if now is None else now
        while self._invalid and self._invalid[0] <= now - INVALID_WINDOW_S:
            self._invalid.popleft()
        if not self._invalid:
            self._warned = 0
        return len(self._invalid)

    @property
    def braking(self) -> bool:
        """Too many invalid requests lately: probes wait and nothing that may be refused is tried twice."""
        return self.invalid_recent() >= INVALID_BRAKE

    def snapshot(self) -> dict[str, Any]:
        """Everything above as plain values (for a health report or metrics)."""
        return {
            "failures": {kind: self.failures[kind] for kind in CLASSES},
            "codes": dict(self.codes),
            "undeliverable": self.undeliverable,
            "invalid_requests_10min": self.invalid_recent(),
            "held": {
                channel: {
                    "guild": hold.guild,
                    "kind": hold.kind,
                    "missing": hold.missing,
                    "code": hold.code,
                    "since": hold.since.isoformat(),
                }
                for channel, hold in self.held.items()
            },
            "degraded": {channel: sorted(missing) for channel, missing in self.degraded.items() if missing},
        }


def invalid_request_trace(ledger: Ledger) -> aiohttp.TraceConfig:
    """An HTTP trace for discord.py's session that counts every 401, 403 and 429 it gets — any route,
    webhooks included, but not a 429 of a shared resource's limit, which Discord does not count
    (https://discord.com/developers/docs/topics/rate-limits#invalid-request-limit-aka-cloudflare-bans)
    — and logs the figure as it crosses each of :data:`INVALID_WARN_AT`. The operator's counters
    (:mod:`bot.observability.limits`) are fed here too: one count for the log, the ledger and
    ``/metrics``."""
    trace = aiohttp.TraceConfig()

    async def ended(session: Any, context: Any, params: aiohttp.TraceRequestEndParams) -> None:
        status = params.response.status
        if status not in INVALID_STATUSES:
            return
        if status == 429 and limits.rate_limited(params.response.headers) == limits.SHARED:
            return
        limits.invalid(status)
        figure = ledger.invalid_request()
        if figure is not None:
            log.warning(
                "%d invalid requests (401/403/429) in the last 10 minutes; Discord bans the IP at %d "
                "(the latest: %s %s → %d)",
                figure,
                INVALID_BAN,
                params.method,
                params.url.path,
                params.response.status,
            )

    trace.on_request_end.append(ended)
    return trace
