"""Every request the service settled, counted once and logged as one line.

The service calls :func:`settled` with the request, its reply, when it started and whether it was a
moderator's action; the reply tells a move from a refusal, a repeat or a question answered:

* ``moved`` — a command was applied to a game (counted in ``croupier_moves_total``);
* ``refused`` — refused with a reason and recorded, nothing changed (``croupier_refusals_total``);
* ``done`` — a moderator's action was carried out (a game opened, a correction);
* ``answered`` — a question answered, nothing written; ``did_you_mean`` — a hint at a near-miss word;
* ``busy`` — lost too many races, asked to try again; ``duplicate`` — answered again from the log.

Chit-chat (a silent reply) is no event. The log line carries the guild, channel, game id, message id,
outcome and the service's latency (lock wait included) — as ``key=value`` text, or as JSON fields
(:mod:`bot.observability.logs`). It is written only when the events logger is enabled for INFO.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from bot.observability.metrics import MOVES_BY, NO_GAME, REFUSALS_BY, front_end_of

if TYPE_CHECKING:
    from bot.replies import Reply
    from bot.service.croupier import Incoming

EVENTS = logging.getLogger("croupier.events")
HINT = "did_you_mean"
BUSY = "busy_try_again"


def outcome_of(reply: Reply, action: bool = False) -> str | None:
    """What became of a request, from its reply (see the module docstring); None for chit-chat."""
    if reply.duplicate:
        return "duplicate"
    if reply.silent:
        return None
    if not reply.ok:
        if reply.error_code == HINT:
            return "did_you_mean"
        return "busy" if reply.error_code == BUSY else "refused"
    if reply.log_id is None:
        return "answered"
    return "done" if action else "moved"


def settled(msg: Incoming, reply: Reply, started: float, *, action: bool = False) -> None:
    """Count the request and log its line (``started``: ``time.perf_counter()`` as it began)."""
    outcome = outcome_of(reply, action)
    if outcome is None:
        return
    if outcome == "moved":
        MOVES_BY[front_end_of(msg.message_id)][reply.game_kind or NO_GAME].inc()
    elif outcome == "refused":
        REFUSALS_BY[front_end_of(msg.message_id)][reply.game_kind or NO_GAME].inc()
    if EVENTS.isEnabledFor(logging.INFO):
        _log(msg, reply, outcome, (time.perf_counter() - started) * 1000)


def _log(msg: Incoming, reply: Reply, outcome: str, latency_ms: float) -> None:
    fields = {
        "event": "request",
        "front_end": front_end_of(msg.message_id),
        "guild": msg.guild,
        "channel": msg.channel,
        "game_id": reply.game_id,
        "message_id": msg.message_id,
        "outcome": outcome,
        "error": reply.error_code,
        "latency_ms": round(latency_ms, 2),
    }
    EVENTS.info(
        "%s guild=%s channel=%s game=%s message=%s%s latency_ms=%.2f",
        outcome,
        msg.guild,
        msg.channel,
        "-" if reply.game_id is None else reply.game_id,
        msg.message_id,
        f" error={reply.error_code}" if reply.error_code else "",
        latency_ms,
        extra={"fields": fields},
    )
