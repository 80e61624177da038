"""``uow.delivery``: which answers still have to reach their channel (``command_log.delivery``).

A front end that tracks delivery (Discord) has the service log every applied move as ``pending``; it
acknowledges a posted answer with :meth:`Deliveries.delivered` — batched, and riding on the service's
next write — and, at start, delivers what an earlier process left pending.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from sqlalchemy import bindparam, select, update

from bot.store.records import LogEntry
from bot.store.repositories.log import _log_entry
from bot.store.repositories.tables import log_t
from bot.store.repositories.transaction import Transaction, check_instant

PENDING = "pending"
DELIVERED = "delivered"
UNDELIVERABLE = "undeliverable"
STATES = (PENDING, DELIVERED, UNDELIVERABLE)

# Built once: an acknowledgement rides on every command's transaction, and building a statement costs
# about as much as executing it.
_MARK = (
    update(log_t)
    .where(log_t.c.id.in_(bindparam("b_ids", expanding=True)), log_t.c.delivery == PENDING)
    .values(delivery=bindparam("b_state"), delivered_at=bindparam("b_at"))
)
_PENDING = (
    select(log_t)
    .where(log_t.c.delivery == PENDING, log_t.c.created_at <= bindparam("b_before"))
    .order_by(log_t.c.id)
    .limit(bindparam("b_limit"))
)


class Deliveries:
    """``uow.delivery``: pending answers, and their acknowledgement."""

    def __init__(self, tx: Transaction) -> None:
        self._tx = tx

    def pending(self, before: datetime, limit: int = 1000) -> tuple[LogEntry, ...]:
        """Entries whose answer was not acknowledged, logged no later than ``before`` (the start of the
        asking process, before it handles anything: what it logs itself, it delivers itself), in log
        order (the partial index finds them)."""
        check_instant("before", before)
        rows = self._tx.execute(_PENDING, {"b_before": before, "b_limit": limit})
        return tuple(_log_entry(row) for row in rows)

    def mark(self, ids: Collection[int], state: str, now: datetime) -> int:
        """Set the delivery of still pending entries to ``state``; answers how many changed. One
        statement whatever the number of ids (a batch of acknowledgements)."""
        if state not in STATES:
            raise ValueError(f"delivery must be one of {', '.join(STATES)}, not {state!r}")
        check_instant("now", now)
        if not ids:
            return 0
        parameters = {"b_ids": sorted(ids), "b_state": state, "b_at": now if state == DELIVERED else None}
        return int(self._tx.execute(_MARK, parameters).rowcount)
