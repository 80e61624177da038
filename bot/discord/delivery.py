"""Posting an answer the log tracks, until Discord has it — exactly once — without ever hammering a
channel that refuses it.

Every failure is classified by Discord's answer (:mod:`bot.discord.failures`):

- **transient** (a 5xx, a timeout, a dropped connection): tried again with backoff (1 s, 2 s, 4 s … at
  most 60 s) for :data:`TRANSIENT_PATIENCE_S`; then the channel is held like below and probed;
- **permission**: degraded where Discord allows it — without Read Message History (160002) the answer
  goes out without its reply reference and names the player instead; without Embed Links (Discord
  drops the embeds of a post with text and refuses one with embeds only) as plain text, the table as a
  code block — and otherwise the channel is **held**: its posts wait, without a request, until a
  channel, role or guild update says its permissions changed (:meth:`Holds.released`) or the hourly
  probe tries once more. The log says once what is missing; a degraded channel is told once, in it;
- **permanent** (the channel or thread is gone, the bot is out of the guild) and **refused** (a 400):
  undeliverable.

Posts are shaped for the channel before they go (:mod:`bot.discord.rights`): a channel known to lack
Embed Links or Read Message History gets the text or the unreferenced post at once, with no refused
request. Interaction answers never come here: they are webhook calls that need no permission.

Nobody is ever told twice: each tracked post carries an enforced nonce (the log id, one per message
of a long answer), so Discord answers a retry within minutes — also of a request that timed out here
but was done there — with the message it already made; and before a retry after such a failure, and
before posting an answer an earlier process left pending, the channel's history is read for the
bot's answer — a message referencing the original, or carrying the interaction's metadata.

A delivered answer is acknowledged to the service, which writes it with its next transaction.

A finished game's thread closing goes the same way (:class:`ResultLine`, :meth:`Delivery.persist`):
archiving and locking the thread is retried with the same backoff, and so is its home's result line,
which carries a nonce of its own and is looked for in the home's history before a retry and at start;
each step done is recorded by the service at once, so only what is left is redone at the next start.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any

import discord

from bot.discord import failures
from bot.discord.failures import (
    MISSING_PERMISSIONS,
    PERMANENT,
    PERMISSION,
    REPLY_WITHOUT_HISTORY,
    THREAD_ARCHIVED,
    TRANSIENT,
    Ledger,
)
from bot.discord.holds import PROBE_AFTER_S, Gone, Holds, said
from bot.discord.outgoing import Outgoing
from bot.discord.rights import Rights
from bot.discord.tracked import NONCE_MAX, Key, ResultLine, Tracked
from bot.observability import delivery as observed
from bot.observability.answers import DISCORD as ARRIVALS
from bot.service.croupier import Croupier
from bot.service.requests import RESULT, ClosingDone, Delivered, Undeliverable
from bot.store import StoreUnavailable
from bot.texts import DEFAULT

log = logging.getLogger(__name__)

BACKOFF_START_S = 1.0
BACKOFF_CAP_S = 60.0
TRANSIENT_PATIENCE_S = 15 * 60.0  # Discord failing for longer than this: hold the channel, probe hourly
POST_TIMEOUT_S = 30.0  # one attempt; discord.py's own retries of a 5xx and 429 waits happen inside it
HISTORY_SCAN = 200  # messages read back when looking for an answer already posted
MISSING_ACCESS = failures.MISSING_ACCESS
CLOCK_SLACK = timedelta(minutes=1)  # how far the log's clock and Discord's may disagree

__all__ = ["MISSING_ACCESS", "MISSING_PERMISSIONS", "THREAD_ARCHIVED", "Delivery", "ResultLine", "Tracked"]


_UNREFERENCED = "unreferenced"  # post it again without the reply reference, naming the player
_TEXT = "text"  # post it again as plain text


@dataclass(frozen=True)
class _Shape:
    """How an answer goes out in a channel: as embeds or text, as a reply or naming the player.
    ``source``: the answer as written (with the line naming the player once it cannot be a reply);
    ``out``: what is sent — the source, or the source as text."""

    source: Outgoing
    reference: discord.MessageReference | None
    text: bool
    out: Outgoing

    @classmethod
    def of(cls, source: Outgoing, reference: discord.MessageReference | None, text: bool = False) -> _Shape:
        return cls(source, reference, text, source.as_text() if text else source)


class Delivery:
    """Channel posts with classification, holds, degradation and acknowledgement (module docstring)."""

    def __init__(
        self,
        client: discord.Client,
        croupier: Croupier,
        *,
        acknowledged: Callable[[], None],
        backoff_start: float = BACKOFF_START_S,
        backoff_cap: float = BACKOFF_CAP_S,
        probe_after: float = PROBE_AFTER_S,
        ledger: Ledger | None = None,
    ) -> None:
        self.client = client
        self.croupier = croupier
        self._acknowledged = acknowledged
        self.backoff_start = backoff_start
        self.backoff_cap = backoff_cap
        self.transient_patience = TRANSIENT_PATIENCE_S
        self.post_timeout = POST_TIMEOUT_S
        self.ledger = ledger or Ledger()
        self.holds = Holds(client, self.ledger, probe_after)

    def stop(self) -> None:
        """The bot is stopping: no more waiting to try again (what is not posted stays pending)."""
        self.holds.stop()

    # ------------------------------------------------------------------ posting

    async def acknowledge(self, tracked: Tracked | None) -> None:
        if tracked is not None:
            await self.croupier.handle(Delivered(tracked.log_id))
            self._acknowledged()

    async def post(
        self,
        channel_id: int,
        out: Outgoing,
        *,
        tracked: Key | None = None,
        reference: discord.MessageReference | None = None,
        named: str | None = None,
        lang: str = DEFAULT,
        look_first: bool = False,
    ) -> discord.Message | None:
        """Post ``out`` (and the messages that continue it) in the channel; retried until it is there
        when ``tracked`` (else one try, and none in a held channel). ``named``: the line that names the
        player when the answer cannot be a reply; ``look_first``: read the history for it before the
        first try (an earlier process's answer). Answers the first message posted."""
        rights = self.holds.rights(channel_id)
        if tracked is None and not self.holds.may_try(channel_id):
            log.info(
                "channel %s is held (%s): a note to it is dropped",
                channel_id,
                self.ledger.held[channel_id].describe(),
            )
            return None
        shape = self._shaped(channel_id, rights, out, reference, named, lang)
        first: discord.Message | None = None
        index = 0
        try:
            while index < len(parts := shape.out.parts()):
                result = await self._post_part(
                    channel_id,
                    parts[index],
                    index,
                    tracked,
                    shape.reference if index == 0 else None,
                    look=look_first and index == 0,
                )
                if result == _UNREFERENCED and index == 0:  # Discord said what the channel lacks:
                    shape = self._unreferenced(channel_id, shape, named, lang)  # the answer goes again
                    continue
                if result == _TEXT and index == 0 and not shape.text:
                    shape = self._as_text(channel_id, shape, lang)
                    continue
                if not isinstance(result, discord.Message):
                    if tracked is None:
                        return first  # an untracked post that did not go
                    self.holds.hold(channel_id, PERMISSION, None)
                    observed.retried(PERMISSION)
                    continue
                if index == 0:
                    first = result
                    ARRIVALS.posted(_answered(tracked, reference))
                    if not shape.text and parts[0].embeds and _embeds_dropped(result, parts[0]):
                        shape = await self._embeds_were_dropped(channel_id, result, shape, lang)
                index += 1
        except Gone as gone:
            if gone.stopping:
                if tracked is not None:
                    log.info("stopping: %s stays pending", tracked.what)
                return first
            await self._undeliverable(channel_id, tracked, gone.kind)
            return first
        await self._delivered(tracked)
        return first

    def _shaped(
        self,
        channel_id: int,
        rights: Rights,
        out: Outgoing,
        reference: discord.MessageReference | None,
        named: str | None,
        lang: str,
    ) -> _Shape:
        shape = _Shape.of(out, reference)
        if rights.blocking():  # nothing goes there at all: no use shaping (Discord says so once)
            return shape
        if reference is not None and not rights.history:
            shape = self._unreferenced(channel_id, shape, named, lang)
        if out.embedded and not rights.embed:
            shape = self._as_text(channel_id, shape, lang)
        return shape

    def _unreferenced(self, channel_id: int, shape: _Shape, named: str | None, lang: str) -> _Shape:
        self.holds.degraded(channel_id, failures.READ_MESSAGE_HISTORY, lang)
        source = shape.source.headed(named, shape.source.allowed_mentions) if named else shape.source
        return _Shape.of(source, None, shape.text)

    def _as_text(self, channel_id: int, shape: _Shape, lang: str) -> _Shape:
        self.holds.degraded(channel_id, failures.EMBED_LINKS, lang)
        return _Shape.of(shape.source, shape.reference, text=True)

    async def _post_part(
        self,
        channel_id: int,
        part: Outgoing,
        index: int,
        tracked: Key | None,
        reference: discord.MessageReference | None,
        look: bool,
    ) -> discord.Message | str | None:
        """One message of an answer, until it is there (tracked) or tried once (None when it did not
        go); :data:`_UNREFERENCED` or :data:`_TEXT` when Discord's refusal says how the answer must go
        instead. Raises :class:`_Gone`."""
        channel = self.client.get_partial_messageable(channel_id)
        kwargs: dict[str, Any] = part.kwargs()
        if tracked is not None:  # Discord answers a retry within minutes with the message it made
            kwargs["nonce"] = _nonce(tracked, index)
        if reference is not None:
            kwargs.update(reference=reference, mention_author=False)
        delay, unarchived, first_failure = self.backoff_start, False, None
        while True:
            await self.holds.turn(channel_id)
            if look and tracked is not None:
                found = await self.already_posted(channel, part, tracked, first=index == 0)
                if found is not None:
                    log.info("%s was already in channel %s", tracked.what, channel_id)
                    return found
            try:
                sent = await asyncio.wait_for(channel.send(**kwargs), self.post_timeout)
            except Exception as error:
                if _archived(error) and not unarchived:
                    unarchived = await self._unarchive(channel_id)  # a game's thread archived itself
                    if unarchived:
                        continue
                kind = self.holds.failed(channel_id, error)
                if kind not in (TRANSIENT, PERMISSION):
                    log.warning("channel %s refuses the post for good (%s)", channel_id, said(error))
                    raise Gone(kind=kind) from error
                if kind == PERMISSION:
                    instead = self._instead(channel_id, error, part, reference)
                    if instead is not None:
                        return instead
                    self.holds.hold(channel_id, PERMISSION, error)  # later notes are not even tried
                    if tracked is None:
                        return None
                    observed.retried(PERMISSION)  # once the channel is released, or probed
                    continue
                if tracked is None:
                    log.warning("could not post in channel %s: %s", channel_id, said(error))
                    return None
                if self.holds.stopping:
                    raise Gone(stopping=True) from error
                first_failure = first_failure or time.monotonic()
                if time.monotonic() - first_failure > self.transient_patience:
                    self.holds.hold(channel_id, TRANSIENT, error)
                    observed.retried(TRANSIENT)  # at the hourly probe
                    delay, first_failure = self.backoff_start, None
                    continue
                self.holds.troubled(channel_id).set()
                log.warning(
                    "posting in channel %s failed (%s); retrying in %g s", channel_id, said(error), delay
                )
                look = not isinstance(error, discord.HTTPException) or error.status >= 500
                observed.retried(TRANSIENT)
                await self._sleep(delay)
                delay = min(delay * 2, self.backoff_cap)
            else:
                self.holds.went_through(channel_id)
                return sent

    def _instead(
        self,
        channel_id: int,
        error: BaseException,
        part: Outgoing,
        reference: discord.MessageReference | None,
    ) -> str | None:
        """How the answer can go despite the refusal (None: it cannot — the channel is held)."""
        if not isinstance(error, discord.HTTPException):
            return None
        if error.code == REPLY_WITHOUT_HISTORY and reference is not None:
            return _UNREFERENCED
        rights = self.holds.rights(channel_id)
        if error.code == MISSING_PERMISSIONS and rights.known and not rights.blocking(files=bool(part.files)):
            if part.embeds and not rights.embed:
                return _TEXT
            if reference is not None and not rights.history:
                return _UNREFERENCED
        return None

    async def _embeds_were_dropped(
        self, channel_id: int, sent: discord.Message, shape: _Shape, lang: str
    ) -> _Shape:
        """Discord took the post but dropped its embeds (no Embed Links, which the cache did not
        show): the message becomes the text's first part, and the rest follows as text."""
        text = self._as_text(channel_id, shape, lang)
        parts = text.out.parts()
        try:
            await asyncio.wait_for(sent.edit(**parts[0].edit_kwargs()), self.post_timeout)
        except Exception as error:
            log.warning("could not turn message %s into text: %s", sent.id, said(error))
        return replace(text, out=replace(parts[0], more=parts[1:]))  # the rest goes after it

    # ------------------------------------------------------------------ edits and thread closings

    async def edit(
        self,
        channel_id: int,
        message_id: int,
        out: Outgoing,
        *,
        tracked: Tracked | None = None,
        lang: str = DEFAULT,
    ) -> bool:
        """Make the bot's message ``message_id`` show ``out`` (a live table), as text where the channel
        may not embed. An edit is idempotent, so a tracked one (a thread's opening) is simply tried
        again until it is there — held like a post; an untracked one is tried once (the next move's edit
        draws the newer state anyway). Answers whether it was made."""
        partial = self.client.get_partial_messageable(channel_id).get_partial_message(message_id)
        rights = self.holds.rights(channel_id)
        text = out.embedded and not rights.embed
        delay, first_failure, unarchived = self.backoff_start, None, False
        while True:
            shown = out.as_text() if text else out
            if text:
                self.holds.degraded(channel_id, failures.EMBED_LINKS, lang)
            try:
                if tracked is not None:
                    await self.holds.turn(channel_id)
                edited = await asyncio.wait_for(partial.edit(**shown.edit_kwargs()), self.post_timeout)
            except Gone as gone:
                if not gone.stopping:
                    await self._undeliverable(channel_id, tracked, gone.kind)
                return False
            except Exception as error:
                if _archived(error) and not unarchived:
                    # A message in an archived thread takes no edit (a forum post's live table, after
                    # Discord archived the quiet post): unarchived, it does; the closing archives it again.
                    # A locked thread is a finished game's record: it stays as it is.
                    unarchived = await self._unarchive(channel_id, unless_locked=True)
                    if unarchived:
                        continue
                kind = self.holds.failed(channel_id, error)
                if kind == TRANSIENT and tracked is not None and not self.holds.stopping:
                    first_failure = first_failure or time.monotonic()
                    if time.monotonic() - first_failure <= self.transient_patience:
                        log.warning(
                            "updating message %s failed (%s); retrying in %g s",
                            message_id,
                            said(error),
                            delay,
                        )
                        observed.retried(TRANSIENT)
                        await self._sleep(delay)
                        delay = min(delay * 2, self.backoff_cap)
                        continue
                if kind in (TRANSIENT, PERMISSION) and tracked is not None and not self.holds.stopping:
                    self.holds.hold(channel_id, kind, error)
                    observed.retried(kind)
                    continue
                if kind not in (TRANSIENT, PERMISSION):
                    await self._undeliverable(channel_id, tracked, kind)
                log.warning(
                    "could not update message %s in channel %s: %s", message_id, channel_id, said(error)
                )
                return False
            else:
                if not text and out.embedded and _embeds_dropped(edited, out):
                    text = True  # Discord ignored the embeds: the channel lacks Embed Links
                    continue
                await self.acknowledge(tracked)
                return True

    async def persist(
        self, what: str, attempt: Callable[[], Awaitable[object]], channel_id: int | None = None
    ) -> bool:
        """Do ``attempt`` (closing a finished game's thread) until Discord took it: retried with the
        answers' backoff while Discord fails, held like a post while a permission is missing.
        Answers whether it is done with — made, or refused for good (the thread is gone) — rather than
        left for the next start (the bot is stopping)."""
        delay, first_failure = self.backoff_start, None
        while True:
            try:
                if channel_id is not None:
                    await self.holds.turn(channel_id)
                await asyncio.wait_for(attempt(), self.post_timeout)
            except Gone as gone:
                if gone.stopping:
                    log.info("stopping: %s is left for the next start", what)
                    return False
                return True
            except Exception as error:
                kind = self.holds.failed(channel_id or 0, error)
                if kind not in (TRANSIENT, PERMISSION):
                    log.warning("%s failed for good: %s", what, said(error))
                    return True
                if self.holds.stopping:
                    log.info("stopping: %s is left for the next start", what)
                    return False
                first_failure = first_failure or time.monotonic()
                patient = kind == TRANSIENT and time.monotonic() - first_failure <= self.transient_patience
                observed.retried(kind)
                if channel_id is not None and not patient:
                    self.holds.hold(channel_id, kind, error)
                    continue
                log.warning("%s failed (%s); retrying in %g s", what, said(error), delay)
                await self._sleep(delay)
                delay = min(delay * 2, self.backoff_cap)
            else:
                if channel_id is not None:
                    self.holds.went_through(channel_id)
                return True

    async def _sleep(self, seconds: float) -> None:
        """A backoff wait that ends early when the bot stops (it then raises nothing: the caller looks)."""
        if self.holds.stopping:
            return
        await asyncio.sleep(seconds)

    # ------------------------------------------------------------------ finding what is already there

    async def already_posted(
        self, channel: discord.abc.Messageable, out: Outgoing, tracked: Key, *, first: bool = True
    ) -> discord.Message | None:
        """The bot's answer for ``tracked`` if the channel already shows it (``first``: the answer's
        first message — which references the line or carries the interaction; a later one is known by
        its body). Without Read Message History Discord shows no history: nothing is read."""
        me = self.client.user
        where = getattr(channel, "id", 0)
        if me is None or not self.holds.rights(where).history:
            return None
        after = _scan_from(tracked)
        try:
            async for message in channel.history(after=after, oldest_first=True, limit=HISTORY_SCAN):
                if message.author.id == me.id and _answers(message, out, tracked, first):
                    return message
        except discord.HTTPException as error:
            self.holds.failed(where, error)
            log.warning("cannot read the history of channel %s (%s): posting anyway", where, said(error))
        return None

    async def _delivered(self, tracked: Key | None) -> None:
        if isinstance(tracked, ResultLine):
            await self.closing_done(tracked.game_id, RESULT)
        else:
            await self.acknowledge(tracked)

    async def _undeliverable(self, channel_id: int, tracked: Key | None, kind: str = PERMANENT) -> None:
        self.holds.dropped(channel_id, kind)
        log.warning(
            "channel %s is gone or refuses the answer for good: %s is undeliverable",
            channel_id,
            tracked.what if tracked else "a post",
        )
        if isinstance(tracked, ResultLine):
            await self.closing_done(tracked.game_id, RESULT)  # nothing left to try
        elif tracked is not None:
            try:
                await self.croupier.handle(Undeliverable(tracked.log_id))
            except StoreUnavailable as error:
                log.warning("%s stays pending: %s", tracked.what, error)

    async def closing_done(self, game_id: int, step: str) -> None:
        """Tell the service a step of a game's thread closing is done. Without the store it is redone
        at the next start: closing a closed thread is harmless, and the result line is looked for."""
        try:
            await self.croupier.handle(ClosingDone(game_id, step))
        except StoreUnavailable as error:
            log.warning("closing step %s of game %s is done but not recorded: %s", step, game_id, error)

    async def _unarchive(self, channel_id: int, *, unless_locked: bool = False) -> bool:
        try:
            if unless_locked:
                thread = await self.client.fetch_channel(channel_id)
                if isinstance(thread, discord.Thread) and thread.locked:
                    return False
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


def _nonce(tracked: Key, index: int) -> str:
    """The enforced nonce of the answer's ``index``-th message (its first: the log entry's own)."""
    return tracked.nonce if index == 0 else f"{tracked.nonce[: NONCE_MAX - 4]}.{index}"


def _archived(error: BaseException) -> bool:
    return isinstance(error, discord.HTTPException) and error.code == THREAD_ARCHIVED


def _embeds_dropped(message: discord.Message, out: Outgoing) -> bool:
    """Whether Discord took the message without the embeds it was sent with (no Embed Links)."""
    if not out.embeds:
        return False
    if len(message.embeds) != len(out.embeds):
        return True
    return any(_face(mine) != _face(theirs) for mine, theirs in zip(out.embeds, message.embeds, strict=True))


def _face(embed: discord.Embed) -> tuple[object, ...]:
    """What an embed shows (an edit whose embeds Discord ignored still shows the old ones), as Discord
    keeps it: without leading and trailing blanks."""

    def kept(text: str | None) -> str:
        return (text or "").strip()

    return (kept(embed.title), kept(embed.description), [(kept(f.name), kept(f.value)) for f in embed.fields])


def _scan_from(tracked: Key) -> discord.Object:
    """Where the answer can be: after the line it answers, else after the entry was logged."""
    if tracked.answering is not None:
        return discord.Object(tracked.answering)
    if tracked.interaction is not None:
        return discord.Object(tracked.interaction)
    when = tracked.logged_at
    return discord.Object(discord.utils.time_snowflake(when - CLOCK_SLACK) if when is not None else 0)


def _answers(message: discord.Message, out: Outgoing, tracked: Key, first: bool) -> bool:
    if first:
        reference = message.reference
        if tracked.answering is not None and reference is not None:
            return reference.message_id == tracked.answering
        metadata = message.interaction_metadata
        if tracked.interaction is not None and metadata is not None and metadata.id == tracked.interaction:
            return True
    return _same_body(message, out)


def _same_body(message: discord.Message, out: Outgoing) -> bool:
    """The same embeds (title and story) as the answer would have — or, for a post of text alone (a
    result line, an answer as text), the same text."""
    if not out.embeds:
        return bool(out.content) and not message.embeds and message.content == out.content
    if not message.embeds:
        return False
    mine, theirs = out.embeds[0], message.embeds[0]
    return (mine.title, mine.description, len(mine.fields)) == (
        theirs.title,
        theirs.description,
        len(theirs.fields),
    )
