"""The delivery vocabulary the Discord front end reports in: why a post failed, and which channels'
posts are held back for a missing permission.

Failure classes (the ``class`` label of ``croupier_delivery_retries_total`` and
``croupier_answers_undeliverable_total``):

* ``transient`` — Discord's trouble (5xx), a rate limit (429), a timeout or a dropped connection:
  it passes by itself;
* ``permission`` — 403: the bot lacks a permission in the channel, which a moderator can grant;
* ``permanent`` — anything Discord will never take (the channel is gone, the request is wrong).

:class:`HeldChannels` is where the front end says a channel's posts are held and why (``reason``, one
of :data:`HOLD_REASONS`), and when they flow again; readiness fails while any channel is held, and
``croupier_channels_held`` counts them by reason.
"""

from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Mapping

from bot.observability.metrics import DELIVERY_CLASSES, DELIVERY_RETRIES, UNDELIVERABLE

TRANSIENT, PERMISSION, PERMANENT = DELIVERY_CLASSES
MISSING_PERMISSION = "missing_permission"
MISSING_ACCESS = "missing_access"
HOLD_REASONS = (MISSING_PERMISSION, MISSING_ACCESS)
_MISSING_ACCESS_CODE = 50001  # Discord's JSON error code "Missing Access" (50013: Missing Permissions)

_RETRIES = {name: DELIVERY_RETRIES.labels(name) for name in (TRANSIENT, PERMISSION)}
_UNDELIVERABLE = {name: UNDELIVERABLE.labels(name) for name in DELIVERY_CLASSES}


def failure_class(status: int | None) -> str:
    """The class of a failed post by its HTTP status (None: no answer at all)."""
    if status is None or status >= 500 or status == 429:
        return TRANSIENT
    return PERMISSION if status == 403 else PERMANENT


def hold_reason(code: int | None) -> str:
    """Why a 403 holds a channel, by Discord's error code."""
    return MISSING_ACCESS if code == _MISSING_ACCESS_CODE else MISSING_PERMISSION


def retried(failure: str) -> None:
    """A post is tried again after a failure of class ``failure`` (transient or permission)."""
    _RETRIES[failure].inc()


def given_up(failure: str = PERMANENT) -> None:
    """An answer will never be posted."""
    _UNDELIVERABLE[failure].inc()


class HeldChannels:
    """The channels whose posts are held back, and why (see the module docstring)."""

    def __init__(self) -> None:
        self._held: dict[int, str] = {}

    def hold(self, channel_id: int, reason: str) -> None:
        if reason not in HOLD_REASONS:
            raise ValueError(f"unknown hold reason {reason!r}; known: {', '.join(HOLD_REASONS)}")
        self._held[channel_id] = reason

    def release(self, channel_id: int) -> None:
        if self._held:
            self._held.pop(channel_id, None)

    def held(self) -> Mapping[int, str]:
        return dict(self._held)

    def by_reason(self) -> dict[str, int]:
        counted = Tally(self._held.values())
        return {reason: counted.get(reason, 0) for reason in HOLD_REASONS}

    def __len__(self) -> int:
        return len(self._held)
