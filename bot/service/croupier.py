"""The croupier service: the one entry every front end (Discord, console, replay, web) goes through.

A front end builds a request (:mod:`bot.service.requests`) and awaits :meth:`Croupier.handle`; a table
maps the request's type to its handler, in the module of its feature — moves
(:mod:`bot.service.playing`), moderation, queries, the turn clock (:mod:`bot.service.deadlines`) and
deliveries. A request about a channel is handled in one frame: one at a time per channel, a lost
race or a dead pooled connection retried, a message id answered from the log when it was handled
before (exactly once), a refusal recorded (:meth:`Croupier.refuse`), the request counted — and "try
again" said in the channel's language when the races keep being lost. A move is one unit of work:
load the channel (one read), judge (:mod:`bot.service.moves`, no I/O), perform, render the
:class:`Reply`, write and commit.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property, partial
from typing import TypeVar

from bot import odds_tables
from bot.games import language_of
from bot.observability import requests
from bot.replies import Reply
from bot.service import deadlines, deliveries, forum, moderation, playing, queries, web_pages
from bot.service.acknowledgements import Acknowledgements, riding
from bot.service.channels import holds_role, key_of
from bot.service.keyed_locks import KeyedLocks
from bot.service.once import OncePer
from bot.service.open_kinds import OpenKinds
from bot.service.pages import Pages
from bot.service.rendering import Narrator
from bot.service.requests import Handlers, InChannel, Incoming, Request
from bot.service.thread_plans import ThreadPlans
from bot.service.warm_channels import WarmChannels
from bot.store import (
    ChannelState,
    Conflict,
    DuplicateMessage,
    GameRecord,
    NewLogEntry,
    Store,
    StoreUnavailable,
    UnitOfWork,
)
from engine import dice as dice_mod
from engine.errors import IllegalCommand

log = logging.getLogger(__name__)

odds_tables.install()  # Killer's conseil and auto answer from the shipped tables (docs/killer-odds.md)

DiceFactory = Callable[[GameRecord], dice_mod.DiceSource]
Clock = Callable[[], datetime]
T = TypeVar("T")

_MAX_ATTEMPTS = 5

HANDLERS: Handlers = {
    **playing.HANDLERS,
    **moderation.HANDLERS,
    **queries.HANDLERS,
    **deadlines.HANDLERS,
    **deliveries.HANDLERS,
    **web_pages.HANDLERS,
}


@dataclass
class Croupier:
    """Stateless apart from what one process remembers of its channels; many can share one database."""

    store: Store
    dice_factory: DiceFactory | None = None
    seed_source: Callable[[str, int, int], bytes] | None = None
    clock: Clock = field(default=lambda: datetime.now(UTC))  # front ends time deliveries with it too
    web_base_url: str = "http://127.0.0.1:8080"  # where /settings web=on says the pages are (WEB_BASE_URL)
    boards: bool = True  # replies carry the board of the player to act; the console draws none
    locks: KeyedLocks[str] = field(default_factory=KeyedLocks)
    acks: Acknowledgements = field(default_factory=Acknowledgements)
    open_kinds: OpenKinds = field(default_factory=OpenKinds)
    warm: WarmChannels[playing.Playing] = field(default_factory=WarmChannels)
    thread_plans: ThreadPlans = field(default_factory=ThreadPlans)
    pointed: forum.Pointed = field(default_factory=forum.Pointed)
    told_nothing_open: OncePer = field(default_factory=lambda: OncePer(playing.NOTHING_OPEN_EVERY))

    @cached_property
    def narrator(self) -> Narrator:
        return Narrator(boards=self.boards)

    @cached_property
    def pages(self) -> Pages:
        """The web pages' read model, with its memo of each closed game's dice."""
        return Pages(self.store)

    @property
    def verifiable(self) -> bool:
        """Dice come from the committed seed (not from a script), so commitments mean something."""
        return self.dice_factory is None

    async def handle(self, request: Request[T], then: Callable[[T], object] | None = None) -> T:
        """The one entry: the request's handler, in the frame when it is about a channel. ``then``
        runs with the answer while the channel is still held, so a front end queues its answers in
        the order the service decided them."""
        handler = HANDLERS[type(request)]
        if isinstance(request, InChannel):
            return await self.framed(  # type: ignore[return-value]  # an InChannel request's T is Reply
                request.msg,
                partial(handler, self, request),
                counted=request.counted,
                action=request.action,
                then=then,  # type: ignore[arg-type]
            )
        answer: T = await handler(self, request)
        if then is not None:
            then(answer)
        return answer

    # ------------------------------------------------------------------ the frame

    async def framed(
        self,
        msg: Incoming,
        run: Callable[[], Awaitable[Reply]],
        *,
        counted: bool = True,
        action: bool = False,
        then: Callable[[Reply], object] | None = None,
    ) -> Reply:
        """Run a request about ``msg``'s channel: held per channel, retried after a lost race (another
        process wrote first, or the database aborted one of two writers waiting for each other) or a
        dead pooled connection — safe, as the message id makes it exactly-once — and counted and
        logged once settled (``action``: a moderator's, see :mod:`bot.observability.requests`)."""
        started = time.perf_counter()
        async with self.locks.hold(msg.channel):
            reply = await self._retried(msg, run)
            if then is not None:
                then(reply)
        if counted:
            requests.settled(msg, reply, started, action=action)
        return reply

    async def _retried(self, msg: Incoming, run: Callable[[], Awaitable[Reply]]) -> Reply:
        reconnected = False
        for attempt in range(_MAX_ATTEMPTS):
            try:
                return await run()
            except StoreUnavailable as error:
                if not error.retryable or reconnected:
                    raise
                log.info("a pooled connection was dead (%s); retrying with a fresh one", error.reason)
                reconnected = True
            except DuplicateMessage:
                earlier = await self._earlier(msg.message_id)
                if earlier is not None:
                    return earlier
            except Conflict as error:  # StaleVersion, TransactionAborted, a number taken just now …
                self.warm.keep(key_of(msg), None, None)  # whatever this process kept of it is past
                log.info(
                    "lost a race on channel %s (attempt %d: %s); reloading", msg.channel, attempt + 1, error
                )
        lang = language_of(await self.channel(msg))
        return self.narrator.refusal(IllegalCommand("busy_try_again"), lang)

    def refuse(self, uow: UnitOfWork, msg: Incoming, refused: Reply) -> Reply:
        """A refusal is recorded too (the message id and the answer, no game change), so a message is
        judged once: redelivered after the game moved on, it gets the same refusal, never a move."""
        entry = NewLogEntry(
            msg.message_id, msg.channel, msg.author, msg.text, self.clock(), reply=refused.to_log()
        )
        if uow.log.append_once(entry) is None:  # logged before: answered as then, nothing committed
            earlier = uow.log.find(msg.message_id)
            return refused if earlier is None else Reply.from_log(earlier.reply)
        uow.commit()
        return refused

    async def _earlier(self, message_id: str) -> Reply | None:
        entry = await self.store.run(lambda uow: uow.log.find(message_id), read_only=True)
        return None if entry is None else Reply.from_log(entry.reply)

    # ------------------------------------------------------------------ what handlers share

    async def channel(self, msg: Incoming) -> ChannelState:
        """The channel's settings and open game (a query's one read)."""
        return await self.store.run(
            lambda uow: uow.channels.state(msg.guild, msg.channel, msg.home), read_only=True
        )

    def riding(self, work: Callable[[UnitOfWork], T]) -> Callable[[UnitOfWork], T]:
        """A writing unit of work that also writes the waiting acknowledgements before it commits."""
        return riding(self.acks, work, self.clock)

    def dice_for(self, record: GameRecord) -> dice_mod.DiceSource:
        if self.dice_factory is not None:
            return self.dice_factory(record)
        return dice_mod.VerifiableDice(record.seed, record.id, record.dice_used)

    def new_seed(self, channel: str, tournament_id: int, number: int) -> bytes:
        if self.seed_source is not None:
            return self.seed_source(channel, tournament_id, number)
        return secrets.token_bytes(32)


def seed_from_text(text: str) -> Callable[[str, int, int], bytes]:
    """Deterministic game seeds for demos and tests (``--dice-seed``); never for real tournaments."""

    def derive(channel: str, tournament_id: int, number: int) -> bytes:
        message = f"{channel}:{tournament_id}:{number}".encode()
        return hmac.new(text.encode(), message, hashlib.sha256).digest()

    return derive


__all__ = ["Croupier", "Incoming", "Reply", "holds_role", "seed_from_text"]
