"""The delivery as an operator sees it, in labels of a small fixed set.

The Discord front end classifies every failure and holds channels itself (``bot.discord.failures``
and ``bot.discord.holds``); this module only turns that into metrics:

* :func:`retried` — a post (an edit, a thread closing) is tried again after a failure of its class:
  ``transient`` (Discord's trouble, no answer) or ``permission`` (tried again when the channel is
  released or probed); ``croupier_delivery_retries_total{class}``;
* :func:`given_up` — a post is undeliverable: ``permanent`` (the place is gone, the bot is out of the
  guild) or ``refused`` (a request Discord will never take); ``croupier_answers_undeliverable_total``;
* :func:`hold_reason` — why a channel's posts are held, as the ``reason`` label of
  ``croupier_channels_held``: the permission Discord's settings name (``send_messages`` …),
  ``other_permission`` when Discord did not say which, ``discord_failing`` when Discord kept failing.
"""

from __future__ import annotations

from bot.observability.metrics import DELIVERY_RETRIES, RETRIED_CLASSES, UNDELIVERABLE, UNDELIVERABLE_CLASSES

DISCORD_FAILING = "discord_failing"
OTHER_PERMISSION = "other_permission"
# The permissions without which nothing can be posted (what a hold names), by Discord's names for them.
_BLOCKING = {
    "View Channel": "view_channel",
    "Send Messages": "send_messages",
    "Send Messages in Threads": "send_messages_in_threads",
}
HOLD_REASONS = (*_BLOCKING.values(), OTHER_PERMISSION, DISCORD_FAILING)
DEGRADED_PERMISSIONS = {"Embed Links": "embed_links", "Read Message History": "read_message_history"}

_RETRIES = {name: DELIVERY_RETRIES.labels(name) for name in RETRIED_CLASSES}
_UNDELIVERABLE = {name: UNDELIVERABLE.labels(name) for name in UNDELIVERABLE_CLASSES}


def retried(failure: str) -> None:
    """A post is tried again after a failure of class ``failure`` (transient or permission)."""
    _RETRIES[failure].inc()


def given_up(failure: str) -> None:
    """A post will never be made (its failure's class: permanent or refused)."""
    _UNDELIVERABLE[failure].inc()


def hold_reason(transient: bool, missing: str) -> str:
    """The ``reason`` label of a hold: Discord kept failing (``transient``), or the permission it lacks
    (``missing``, as Discord names it; "" when Discord did not say)."""
    if transient:
        return DISCORD_FAILING
    return _BLOCKING.get(missing, OTHER_PERMISSION)
