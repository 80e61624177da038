"""The delivery's metrics speak in the Discord front end's own classes and permissions, as a small fixed
set of label values: every class of ``bot.discord.failures`` is either tried again or given up, and
every hold maps to one bounded reason, whatever Discord answers."""

from __future__ import annotations

from bot.discord import failures
from bot.observability.delivery import (
    DEGRADED_PERMISSIONS,
    DISCORD_FAILING,
    HOLD_REASONS,
    OTHER_PERMISSION,
    hold_reason,
)
from bot.observability.metrics import RETRIED_CLASSES, UNDELIVERABLE_CLASSES


def test_every_failure_class_is_either_retried_or_given_up() -> None:
    assert set(RETRIED_CLASSES) | set(UNDELIVERABLE_CLASSES) == set(failures.CLASSES)
    assert not set(RETRIED_CLASSES) & set(UNDELIVERABLE_CLASSES)
    assert set(RETRIED_CLASSES) == {failures.TRANSIENT, failures.PERMISSION}


def test_a_hold_has_one_of_a_few_reasons_whatever_discord_says() -> None:
    assert hold_reason(False, failures.VIEW_CHANNEL) == "view_channel"
    assert hold_reason(False, failures.SEND_MESSAGES) == "send_messages"
    assert hold_reason(False, failures.SEND_MESSAGES_IN_THREADS) == "send_messages_in_threads"
    assert hold_reason(False, "") == OTHER_PERMISSION  # Discord refused without naming it
    assert hold_reason(False, "A permission Discord adds next year") == OTHER_PERMISSION
    assert hold_reason(True, "") == DISCORD_FAILING
    assert len(set(HOLD_REASONS)) == len(HOLD_REASONS) == 5


def test_degraded_channels_are_counted_by_the_permissions_the_delivery_works_around() -> None:
    assert set(DEGRADED_PERMISSIONS) == {failures.EMBED_LINKS, failures.READ_MESSAGE_HISTORY}
