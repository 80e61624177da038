"""Discord's answers that count against the bot, as counters: every 429 by its ``X-RateLimit-Scope``,
and the requests Discord counts toward its invalid request limit, by status. The bot's HTTP trace
(``bot.discord.failures``) feeds them; how many of the latter fell in the last ten minutes is the
delivery ledger's figure, the same one its log warnings name."""

from __future__ import annotations

from collections.abc import Mapping

from bot.observability.metrics import INVALID_REQUESTS, INVALID_STATUSES, RATE_LIMIT_SCOPES, RATE_LIMITED

SHARED = "shared"
_LIMITED = {scope: RATE_LIMITED.labels(scope) for scope in RATE_LIMIT_SCOPES}
_INVALID = {int(status): INVALID_REQUESTS.labels(status) for status in INVALID_STATUSES}


def rate_limited(headers: Mapping[str, str]) -> str:
    """A 429: counted by its scope, which is answered (``user``, ``global`` or ``shared``). A 429
    without the scope header is global when Discord says so, else the bot's own (``user``)."""
    scope = (headers.get("X-RateLimit-Scope") or "").lower()
    if scope not in _LIMITED:
        scope = "global" if headers.get("X-RateLimit-Global") else "user"
    _LIMITED[scope].inc()
    return scope


def invalid(status: int) -> None:
    """A 401, 403 or 429 that Discord counts toward its invalid request limit."""
    _INVALID[status].inc()
