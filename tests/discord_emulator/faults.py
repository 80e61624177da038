"""Injected REST failures: the next N matching requests fail the way Discord fails — 403 Missing Permissions,
500, 502 or 504 from its edge, 429 with retry_after, or no answer at all — and then the emulator recovers.

    emu.fail_requests(operation="create_message", status=500, times=2)
    emu.fail_requests(method="POST", route="/channels/{channel_id}/messages", status=429, retry_after=0.05)
    emu.fail_requests(channel=thread_id, status=403)
    emu.fail_requests(operation="create_interaction_response", hang=1.0, then="process")
    emu.fail_requests(operation="create_interaction_response", then="lose")  # done, its answer lost

A failure answers before the emulator does anything (nothing is created), except a hang with then="process",
which does the work late, like a request whose answer was lost. discord.py retries 500/502/504 itself (five
tries, sleeping 1, 3, 5, 7 s) and waits out a 429's retry_after; `quick_retries` (fixtures.py) shortens its
sleeps so a test can exhaust the retries in well under a second.
"""

from __future__ import annotations

import asyncio
import json
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from aiohttp import web

if TYPE_CHECKING:
    from .records import RecordedRequest

STATUS_TEXT = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    429: "Too Many Requests",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout",
}
EDGE_STATUSES = {502, 503, 504}  # answered by Discord's edge (Cloudflare) with a page, not JSON


@dataclass
class Fault:
    """One injected failure rule; `times` requests that match it fail, then it is spent."""

    method: str | None = None
    route: str | None = None  # a path template of Discord's spec, e.g. "/channels/{channel_id}/messages"
    operation: str | None = None  # or the spec's operationId, e.g. "create_message"
    channel: int | None = None  # any request about this channel (path channel_id, or an interaction's)
    status: int = 500
    times: int = 1
    retry_after: float = 0.1
    is_global: bool = False
    code: int | None = None
    message: str | None = None
    hang: float | None = None  # seconds to hold the request (math.inf: until released or the emulator stops)
    # after a hang: "drop" the connection, "fail" with `status`, or "process" it late; "lose" (with or
    # without a hang): do the work at once and close the connection instead of answering
    then: str = "drop"
    hits: list[RecordedRequest] = field(default_factory=list)
    _released: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    def __post_init__(self) -> None:
        if self.then not in ("drop", "fail", "process", "lose"):
            raise ValueError(f"then must be drop, fail, process or lose, not {self.then!r}")
        if self.method is not None:
            self.method = self.method.upper()

    @property
    def remaining(self) -> int:
        return self.times

    @property
    def spent(self) -> bool:
        return self.times <= 0

    def describe(self) -> str:
        if self.then == "lose":
            return f"done, its answer lost{f' after {self.hang}s' if self.hang is not None else ''}"
        if self.hang is not None:
            return f"hang {self.hang}s then {self.then}" + (f" {self.status}" if self.then == "fail" else "")
        return f"status {self.status}" + (f" retry_after {self.retry_after}" if self.status == 429 else "")

    def release(self) -> None:
        """End the hang of requests held now and later (they then do what `then` says)."""
        self._released.set()

    def matches(self, method: str, template: str | None, operation: str | None, channel: int | None) -> bool:
        return (
            self.times > 0
            and (self.method is None or self.method == method)
            and (self.route is None or self.route == template)
            and (self.operation is None or self.operation == operation)
            and (self.channel is None or self.channel == channel)
        )

    def response(self) -> web.Response:
        """The answer Discord gives for this failure."""
        status = self.status
        reason = STATUS_TEXT.get(status, "Error")
        if status == 429:
            body = {
                "message": self.message or "You are being rate limited.",
                "retry_after": self.retry_after,
                "global": self.is_global,
            }
            if self.code is not None:
                body["code"] = self.code
            headers = {
                "Content-Type": "application/json",
                "Retry-After": str(max(1, math.ceil(self.retry_after))),
                "X-RateLimit-Scope": "global" if self.is_global else "user",
                "Via": "1.1 google",  # discord.py takes a 429 without it for a Cloudflare ban
            }
            if not self.is_global:
                headers.update(
                    {
                        "X-RateLimit-Limit": "5",
                        "X-RateLimit-Remaining": "0",
                        "X-RateLimit-Reset-After": f"{self.retry_after:.3f}",
                        "X-RateLimit-Bucket": "emulated-bucket",
                    }
                )
            else:
                headers["X-RateLimit-Global"] = "true"
            return web.Response(status=429, body=json.dumps(body).encode(), headers=headers)
        if status in EDGE_STATUSES:
            page = f"<html><head><title>{status} {reason}</title></head><body>{status} {reason}</body></html>"
            return web.Response(status=status, text=page, content_type="text/html")
        if status == 403:
            body = {"message": self.message or "Missing Permissions", "code": self.code or 50013}
        elif status >= 500:
            body = {"message": self.message or f"{status}: {reason}", "code": self.code or 0}
        else:
            body = {"message": self.message or f"{status}: {reason}", "code": self.code or 0}
        return web.Response(
            status=status, body=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
        )


class Faults:
    """The active failure rules; the first that matches a request answers it."""

    def __init__(self) -> None:
        self.rules: list[Fault] = []
        self._stopping = asyncio.Event()

    def add(self, fault: Fault) -> Fault:
        self.rules.append(fault)
        return fault

    def clear(self) -> None:
        for fault in self.rules:
            fault.release()
        self.rules.clear()

    def take(
        self, method: str, template: str | None, operation: str | None, channel: int | None
    ) -> Fault | None:
        for fault in self.rules:
            if fault.matches(method, template, operation, channel):
                fault.times -= 1
                return fault
        return None

    async def hold(self, fault: Fault) -> None:
        """Wait out a hang: its time, its release, or the emulator stopping."""
        waiters = [
            asyncio.ensure_future(fault._released.wait()),
            asyncio.ensure_future(self._stopping.wait()),
        ]
        try:
            await asyncio.wait(
                waiters,
                timeout=None if fault.hang in (None, math.inf) else fault.hang,
                return_when=asyncio.FIRST_COMPLETED,
            )
        finally:
            for waiter in waiters:
                waiter.cancel()

    def stop(self) -> None:
        self._stopping.set()
