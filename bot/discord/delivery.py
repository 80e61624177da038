"""Posting an answer the log tracks, until Discord has it — exactly once.

A post that fails for a reason that may pass (a 5xx, 403 Missing Permissions until a moderator fixes
the channel, a timeout, a dropped connection) is retried with backoff (1 s, 2 s, 4 s … at most 60 s);
one whose channel is gone (404: the channel or thread was deleted) is marked undeliverable. Nobody is
ever told twice: each tracked post carries an enforced nonce (the log id), so Discord answers a retry
within minutes — also of a request that timed out here but was done there — with the message it
already made; and before a retry after such a failure, and before posting an answer an earlier
process left pending, the channel's history is read for the bot's answer — a message referencing the
original, or carrying the interaction's metadata.

A delivered answer is acknowledged to the service, which writes it with its next transaction.

A finished game's thread closing goes the same way (:class:`ResultLine`, :meth:`Delivery.persist`):
archiving and locking the thread is retried with the same backoff, and so is its home's result line,
which carries a nonce of its own and is looked for in the home's history before a retry and at start;
each step done is recorded by the service at once, so only what is left is redone at the next start.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import aiohttp
import discord

from bot.croupier import Croupier
from bot.discord.outgoing import Outgoing
from bot.forum import RESULT
from bot.observability import delivery as observed
from bot.observability.answers import DISCORD as ARRIVALS
from bot.store import StoreUnavailable

log = logging.getLogger(__name__)

BACKOFF_START_S = 1.0
BACKOFF_CAP_S = 60.0
POST_TIMEOUT_S = 30.0  # one attempt; discord.py's own retries of a 5xx and 429 waits happen inside it
HISTORY_SCAN = 200  # messages read back when looking for an answer already posted
THREAD_ARCHIVED = 50083
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
CLOCK_SLACK = timedelta(minutes=1)  # how far the log's clock and Discord's may disagree
NONCE_MAX = 25  # Discord's limit for a message nonce


@dataclass(frozen=True)
class Tracked:
    """What identifies an answer in its channel: its log entry, and the message or interaction it
    answers (``answering`` / ``interaction``), or the time it was logged (a timeout's post)."""

    log_id: int
    answering: int | None = None  # the chat line it replies to
    interaction: int | None = None  # the interaction it answers
    logged_at: datetime | None = None

    @property
    def nonce(self) -> str:
        return f"croupier-{self.log_id}"[:NONCE_MAX]

    @property
    def what(self) -> str:
        return f"the answer of log entry {self.log_id}"

    @classmethod
    def of(cls, log_id: int, message_id: str, logged_at: datetime | None = None) -> Tracked:
        kind, _, number = message_id.partition(":")
        ident = int(number) if number.isdigit() else None
        if kind == "discord":
            return cls(log_id, answering=ident, logged_at=logged_at)
        if kind == "interaction":
            return cls(log_id, interaction=ident, logged_at=logged_at)
        return cls(log_id, logged_at=logged_at)


@dataclass(frozen=True)
class ResultLine:
    """A finished game's result line in its thread's home: tracked by the game (its closing, recorded
    by the service), not by a log entry; found in the home's history by its text."""

    game_id: int
    logged_at: datetime  # when the game ended: the line is not older
    answering: None = None  # it answers no line …
    interaction: None = None  # … and no interaction

    @property
    def nonce(self) -> str:
        return f"croupier-end-{self.game_id}"[:NONCE_MAX]  # never one of a log entry's answer

    @property
    def what(self) -> str:
        return f"the result line of game {self.game_id}"


Key = Tracked | ResultLine


class Delivery:
    """Channel posts with retries and acknowledgement (see the module docstring)."""

    def __init__(
        self,
        client: discord.Client,
        croupier: Croupier,
        *,
        acknowledged: Callable[[], None],
        backoff_start: float = BACKOFF_START_S,
        backoff_cap: float = BACKOFF_CAP_S,
    ) -> None:
        self.client = client
        self.croupier = croupier
        self._acknowledged = acknowledged
        self.backoff_start = backoff_start
        self.backoff_cap = backoff_cap
        self.post_timeout = POST_TIMEOUT_S
        self._stopping = False
        self.held = observed.HeldChannels()  # channels waiting for a permission (readiness, metrics)

    def stop(self) -> None:
        """The bot is stopping: no more waiting to try again (what is not posted stays pending)."""
        self._stopping = True

    def acknowledge(self, tracked: Tracked | None) -> None:
        if tracked is not None:
            self.croupier.acknowledge(tracked.log_id)
            self._acknowledged()

    async def post(
        self,
        channel_id: int,
        out: Outgoing,
        *,
        tracked: Key | None = None,
        reference: discord.MessageReference | None = None,
        look_first: bool = False,
    ) -> discord.Message | None:
        """Post ``out`` in the channel; retried until it is there when ``tracked`` (else one try).
        ``look_first``: read the history for it before the first try (an earlier process's answer)."""
        channel = self.client.get_partial_messageable(channel_id)
        kwargs: dict[str, Any] = out.kwargs()
        if tracked is not None:  # Discord answers a retry within minutes with the message it made
            kwargs["nonce"] = tracked.nonce
        if reference is not None:
            kwargs.update(reference=reference, mention_author=False)
        delay = self.backoff_start
        look, unarchived = look_first, False
        while True:
            if look and tracked is not None:
                found = await self.already_posted(channel, out, tracked)
                if found is not None:
                    log.info("%s was already in channel %s", tracked.what, channel_id)
                    await self._delivered(tracked)
                    return found
            try:
                sent = await asyncio.wait_for(channel.send(**kwargs), self.post_timeout)
            except discord.NotFound as error:
                await self._undeliverable(channel_id, tracked, error)
                return None
            except discord.HTTPException as error:
                if error.code == THREAD_ARCHIVED and not unarchived:
                    unarchived = await self._unarchive(channel_id)  # a game's thread archived itself
                    if unarchived:
                        continue
                if tracked is None:
                    log.warning("could not post in channel %s: %s", channel_id, error)
                    return None
                if not _may_pass(error):
                    await self._undeliverable(channel_id, tracked, error)
                    return None
                self._retrying(channel_id, error.status, error.code)
                _explain(channel_id, error, delay)
                look = error.status >= 500  # Discord may have posted it before failing
            except (TimeoutError, aiohttp.ClientError, OSError) as error:
                if tracked is None:
                    log.warning("could not post in channel %s: %s", channel_id, error or type(error).__name__)
                    return None
                log.warning(
                    "posting in channel %s got no answer (%s); looking and retrying in %g s",
                    channel_id,
                    error or type(error).__name__,
                    delay,
                )
                self._retrying(channel_id, None)
                look = True
            else:
                self.held.release(channel_id)
                ARRIVALS.posted(_answered(tracked, reference))
                await self._delivered(tracked)
                return sent
            if self._stopping:
                log.info("stopping: %s stays pending", tracked.what)
                return None
            await asyncio.sleep(delay)
            delay = min(delay * 2, self.backoff_cap)

    async def edit(
        self, channel_id: int, message_id: int, out: Outgoing, *, tracked: Tracked | None = None
    ) -> bool:
        """Make the bot's message ``message_id`` show ``out`` (a live table). An edit is idempotent, so
        a tracked one (a thread's opening) is simply tried again until it is there; an untracked one is
        tried once (the next move's edit draws the newer state anyway). Answers whether it was made."""
        partial = self.client.get_partial_messageable(channel_id).get_partial_message(message_id)
        delay = self.backoff_start
        while True:
            try:
                await asyncio.wait_for(partial.edit(**out.edit_kwargs()), self.post_timeout)
            except discord.NotFound as error:
                await self._undeliverable(channel_id, tracked, error)
                return False
            except (discord.HTTPException, TimeoutError, aiohttp.ClientError, OSError) as error:
                passing = not isinstance(error, discord.HTTPException) or _may_pass(error)
                if tracked is None or not passing or self._stopping:
                    log.warning(
                        "could not update message %s in channel %s: %s", message_id, channel_id, error
                    )
                    return False
                log.warning("updating message %s failed (%s); retrying in %g s", message_id, error, delay)
            else:
                self.acknowledge(tracked)
                return True
            await asyncio.sleep(delay)
            delay = min(delay * 2, self.backoff_cap)

    async def persist(self, what: str, attempt: Callable[[], Awaitable[object]]) -> bool:
        """Do ``attempt`` (closing a finished game's thread) until Discord took it, retried with the
        answers' backoff while its failure may pass (a 5xx, a 429, a timeout, a dropped connection).
        Answers whether it is done with — made, or refused for good (the thread is gone) — rather than
        left for the next start (the bot is stopping)."""
        delay = self.backoff_start
        while True:
            try:
                await asyncio.wait_for(attempt(), self.post_timeout)
            except discord.NotFound as error:
                log.warning("%s: it is gone (%s)", what, error)
                return True
            except (discord.HTTPException, TimeoutError, aiohttp.ClientError, OSError) as error:
                if isinstance(error, discord.HTTPException) and not _may_pass(error):
                    log.warning("%s failed for good: %s", what, error)
                    return True
                log.warning("%s failed (%s); retrying in %g s", what, error or type(error).__name__, delay)
            else:
                return True
            if self._stopping:
                log.info("stopping: %s is left for the next start", what)
                return False
            await asyncio.sleep(delay)
            delay = min(delay * 2, self.backoff_cap)

    async def already_posted(
        self, channel: discord.abc.Messageable, out: Outgoing, tracked: Key
    ) -> discord.Message | None:
        """The bot's answer for ``tracked`` if the channel already shows it."""
        me = self.client.user
        if me is None:
            return None
        after = _scan_from(tracked)
        try:
            async for message in channel.history(after=after, oldest_first=True, limit=HISTORY_SCAN):
                if message.author.id == me.id and _answers(message, out, tracked):
                    return message
        except discord.HTTPException as error:
            where = getattr(channel, "id", "?")
            log.warning("cannot read the history of channel %s (%s): posting anyway", where, error)
        return None

    async def _delivered(self, tracked: Key | None) -> None:
        if isinstance(tracked, ResultLine):
            await self.closing_done(tracked.game_id, RESULT)
        else:
            self.acknowledge(tracked)

    def _retrying(self, channel_id: int, status: int | None, code: int | None = None) -> None:
        """A post will be tried again: counted by class; a missing permission holds the channel."""
        failure = observed.failure_class(status)
        observed.retried(failure)
        if failure == observed.PERMISSION:
            self.held.hold(channel_id, observed.hold_reason(code))

    async def _undeliverable(
        self, channel_id: int, tracked: Key | None, error: discord.HTTPException
    ) -> None:
        log.warning("channel %s is gone or refuses the answer for good (%s)", channel_id, error)
        self.held.release(channel_id)
        if tracked is not None:
            observed.given_up(observed.failure_class(error.status))
        if isinstance(tracked, ResultLine):
            await self.closing_done(tracked.game_id, RESULT)  # nothing left to try
        elif tracked is not None:
            await self.croupier.undeliverable(tracked.log_id)

    async def closing_done(self, game_id: int, step: str) -> None:
        """Tell the service a step of a game's thread closing is done. Without the store it is redone
        at the next start: closing a closed thread is harmless, and the result line is looked for."""
        try:
            await self.croupier.closing_done(game_id, step)
        except StoreUnavailable as error:
            log.warning("closing step %s of game %s is done but not recorded: %s", step, game_id, error)

    async def _unarchive(self, channel_id: int) -> bool:
        try:
            await self.client.http.edit_channel(channel_id, archived=False)
        except discord.HTTPException as error:
            log.warning("thread %s is archived and stays so (%s)", channel_id, error)
            return False
        return True


def _answered(tracked: Key | None, reference: discord.MessageReference | None) -> int | None:
    """The message or interaction a post answers, if it answers one (its latency is timed)."""
    if tracked is not None:
        return tracked.answering or tracked.interaction
    return reference.message_id if reference is not None else None


def _may_pass(error: discord.HTTPException) -> bool:
    """A failure worth retrying: Discord's trouble, a rate limit, or missing permissions (which a
    moderator may fix); not a request Discord will never take."""
    return error.status >= 500 or error.status in (403, 429)


def _explain(channel_id: int, error: discord.HTTPException, delay: float) -> None:
    if error.status == 403:
        log.error(
            "no permission to post in channel %s (%s): the bot needs View Channel, Send Messages and, in "
            "threads, Send Messages in Threads (docs/discord.md); retrying in %g s",
            channel_id,
            error.text or error.code,
            delay,
        )
    else:
        log.warning("posting in channel %s failed (%s); retrying in %g s", channel_id, error, delay)


def _scan_from(tracked: Key) -> discord.Object:
    """Where the answer can be: after the line it answers, else after the entry was logged."""
    if tracked.answering is not None:
        return discord.Object(tracked.answering)
    if tracked.interaction is not None:
        return discord.Object(tracked.interaction)
    when = tracked.logged_at
    return discord.Object(discord.utils.time_snowflake(when - CLOCK_SLACK) if when is not None else 0)


def _answers(message: discord.Message, out: Outgoing, tracked: Key) -> bool:
    reference = message.reference
    if tracked.answering is not None:
        return reference is not None and reference.message_id == tracked.answering
    metadata = message.interaction_metadata
    if tracked.interaction is not None and metadata is not None and metadata.id == tracked.interaction:
        return True
    return _same_body(message, out)


def _same_body(message: discord.Message, out: Outgoing) -> bool:
    """The same embeds (title and story) as the answer would have — or, for a post of text alone (a
    result line), the same text: a post that carries no reference."""
    if not out.embeds:
        return bool(out.content) and not message.embeds and message.content == out.content
    if not message.embeds:
        return False
    mine, theirs = out.embeds[0], message.embeds[0]
    return (mine.title, mine.description) == (theirs.title, theirs.description)
