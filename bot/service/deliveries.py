"""Deliveries: what a front end tells the service about the answers it posts — delivered (written with
the next write, never in a transaction of its own while there is work), undeliverable, a thread's
closing step done — and what it asks after a restart: the answers still to post, the closings left,
where to read each channel's history from, and the facts it kept between starts."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from bot.service import forum
from bot.service.acknowledgements import flush
from bot.service.requests import (
    CatchUpPoints,
    ClosingDone,
    Delivered,
    DueIn,
    Flush,
    Handlers,
    NoteReads,
    NoteReadsLater,
    PendingClosings,
    PendingDeliveries,
    Recall,
    Remember,
    Undeliverable,
    Waiting,
)
from bot.store import CatchUpPoint, UnitOfWork

if TYPE_CHECKING:
    from bot.service.croupier import Croupier


async def delivered(svc: Croupier, request: Delivered) -> None:
    svc.acks.add(request.log_id)


async def waiting(svc: Croupier, request: Waiting) -> int:
    return len(svc.acks)


async def due_in(svc: Croupier, request: DueIn) -> float:
    """Seconds until the waiting acknowledgements need a transaction of their own (see
    :meth:`bot.service.acknowledgements.Acknowledgements.due_in`)."""
    return svc.acks.due_in(request.period)


async def note_reads_later(svc: Croupier, request: NoteReadsLater) -> None:
    """How far the channels were read, written with the next write (or a flush), none of its own."""
    svc.acks.note_reads(request.reads)


async def flushed(svc: Croupier, request: Flush) -> int:
    """Write the waiting acknowledgements now (the bot is idle, or stopping); answers how many."""
    if not len(svc.acks):
        return 0
    return await svc.store.run(flush(svc.acks, svc.clock))


async def undeliverable(svc: Croupier, request: Undeliverable) -> None:
    now = svc.clock()
    await svc.store.run(svc.riding(lambda uow: _marked(uow, request.log_id, "undeliverable", now)))


async def pending(svc: Croupier, request: PendingDeliveries) -> list[forum.Pending]:
    """Answers logged before this process's start whose delivery was never acknowledged, in log order
    — for the front end to check and post once."""
    return await svc.store.run(
        lambda uow: forum.pending_in(uow, svc.narrator, request.before, svc.verifiable), read_only=True
    )


async def closings(svc: Croupier, request: PendingClosings) -> list[forum.Closing]:
    """Finished games whose thread an earlier process did not finish closing, with what is left and
    their final reply — for the front end to redo (each step recorded: :func:`closing_done`)."""
    return await svc.store.run(
        lambda uow: forum.closings_in(uow, svc.narrator, request.before, svc.verifiable), read_only=True
    )


async def closing_done(svc: Croupier, request: ClosingDone) -> None:
    """A step of a finished game's thread closing is done (``"thread"``: archived and locked;
    ``"result"``: the home's result line posted or not needed): no start redoes it."""
    now = svc.clock()
    await svc.store.run(svc.riding(lambda uow: forum.closing_done(uow, request.game_id, request.step, now)))


async def catch_up_points(svc: Croupier, request: CatchUpPoints) -> tuple[CatchUpPoint, ...]:
    """Every open game's channel and the last chat line logged there: where a front end that was
    away reads the channel's history from (each line then goes through the service as a Line)."""
    return await svc.store.run(lambda uow: uow.forum.catch_up_points(), read_only=True)


async def note_reads(svc: Croupier, request: NoteReads) -> int:
    """Keep how far a front end has read its channels where a game is open: a catch-up after a
    restart starts there. Answers how many were kept."""
    now = svc.clock()

    def write(uow: UnitOfWork) -> int:
        kept = uow.forum.note_reads(request.reads, now)
        uow.commit()
        return kept

    return await svc.store.run(write)


async def recall(svc: Croupier, request: Recall) -> str | None:
    return await svc.store.run(lambda uow: uow.bot_state.get(request.key), read_only=True)


async def remember(svc: Croupier, request: Remember) -> None:
    def write(uow: UnitOfWork) -> None:
        uow.bot_state.put(request.key, request.value, svc.clock())
        uow.commit()

    await svc.store.run(write)


def _marked(uow: UnitOfWork, log_id: int, state: str, now: datetime) -> None:
    uow.delivery.mark([log_id], state, now)
    uow.commit()


HANDLERS: Handlers = {
    Delivered: delivered,
    Waiting: waiting,
    DueIn: due_in,
    NoteReadsLater: note_reads_later,
    Flush: flushed,
    Undeliverable: undeliverable,
    PendingDeliveries: pending,
    PendingClosings: closings,
    ClosingDone: closing_done,
    CatchUpPoints: catch_up_points,
    NoteReads: note_reads,
    Recall: recall,
    Remember: remember,
}
