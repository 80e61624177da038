"""Interactions that needed more than Discord's three seconds, and those that could not be answered."""

from __future__ import annotations

from bot.observability.metrics import INTERACTIONS_DEFERRED, INTERACTIONS_EXPIRED

_COMMAND = INTERACTIONS_DEFERRED.labels("command")
_COMPONENT = INTERACTIONS_DEFERRED.labels("component")


def deferred(component: bool) -> None:
    """An interaction was deferred (``component``: a button or select, else a slash command)."""
    (_COMPONENT if component else _COMMAND).inc()


def expired() -> None:
    """An interaction can no longer be answered through its token."""
    INTERACTIONS_EXPIRED.inc()
