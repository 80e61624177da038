"""Answering one interaction, whatever the pace of the store: Discord wants an acknowledgement within
three seconds and then takes followups for fifteen minutes.

:class:`Answer` sends the answer as the interaction's response when it is ready in time. If nothing
was sent after :data:`DEFER_AFTER` seconds it defers: a slash command with the privacy the command
expects ("thinking…", public or private), a button with a deferred update (no message at all). The
answer then edits the deferred original — or, when its privacy turned out different (a private
refusal after a public defer), deletes the original and follows up privately: a private answer is
never shown publicly. A button's answer after a deferred update is a followup with its own privacy.

A long answer continues in followups of the same privacy (``Outgoing.more``).

When the interaction is gone (not acknowledged in time, or its token expired) :meth:`Answer.send`
raises :class:`InteractionGone`: the front end then posts a public answer in the channel, naming the
player (a stored move's answer is never lost); a private one can only be logged.

A defer whose answer never came back (a timeout, a dropped connection, a 5xx) may have reached
Discord all the same. If the answer's own response is then refused as already acknowledged (40060),
that was our defer, not another process: the answer edits the deferred original, in this process.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import discord

from bot.discord.outgoing import Outgoing
from bot.observability import answers, interactions

log = logging.getLogger(__name__)

DEFER_AFTER = 1.5  # seconds: well inside Discord's three, with room for a slow callback
DEFER_PATIENCE = 3.0  # seconds to wait for the defer's own answer before counting it as lost
UNKNOWN_INTERACTION = 10062  # not acknowledged within three seconds
ALREADY_ACKNOWLEDGED = 40060  # another process of this bot answered first (both received the event)
UNKNOWN_WEBHOOK = 10015  # the interaction's token is gone
INVALID_WEBHOOK_TOKEN = 50027  # the interaction's token expired (fifteen minutes)

FRESH, DEFERRED, ANSWERED, GONE = "fresh", "deferred", "answered", "gone"


class InteractionGone(Exception):
    """The interaction can no longer be answered (not acknowledged in time, or its token expired)."""


class AnsweredElsewhere(Exception):
    """Discord says the interaction was acknowledged already: another process of the bot, which got
    the same event, answered it (the store made sure the command was applied once)."""


class Answer:
    """The answer of one interaction (see the module docstring). ``private``: what the command's
    answer normally is (its defer shows it); ``component``: a button or select press."""

    def __init__(
        self,
        interaction: discord.Interaction[Any],
        *,
        private: bool = False,
        component: bool = False,
        defer_after: float = DEFER_AFTER,
    ) -> None:
        self.interaction = interaction
        self.private = private
        self.component = component
        self.state = FRESH
        self.original_used = False
        self.defer_unknown = False  # a defer was sent and its answer lost: it may have been taken
        self._lock = asyncio.Lock()
        self._timer: asyncio.TimerHandle | None = None
        self._deferring: asyncio.Task[None] | None = None
        self._defer_after = defer_after

    # ------------------------------------------------------------------ the three seconds

    def watch(self) -> None:
        """Defer if nothing was sent within the defer delay (call once the interaction arrived)."""
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(self._defer_after, self._start_deferring)

    def _start_deferring(self) -> None:
        self._timer = None
        self._deferring = asyncio.create_task(self._defer(), name=f"defer-{self.interaction.id}")

    async def _defer(self) -> None:
        async with self._lock:
            if self.state != FRESH:
                return
            response = self.interaction.response
            deferring = (
                response.defer()  # a deferred update: no message
                if self.component
                else response.defer(ephemeral=self.private, thinking=True)
            )
            try:
                await asyncio.wait_for(deferring, DEFER_PATIENCE)
            except discord.NotFound as error:
                if error.code != UNKNOWN_INTERACTION:
                    raise
                log.warning("interaction %s expired before it could be deferred", self.interaction.id)
                interactions.expired()
                self.state = GONE
                return
            except discord.HTTPException as error:
                if error.code != ALREADY_ACKNOWLEDGED:
                    self.defer_unknown = error.status >= 500
                log.warning("could not defer interaction %s: %s", self.interaction.id, error)
                return  # the answer will try to respond itself, and learn the worst then
            except (TimeoutError, aiohttp.ClientError, OSError) as error:
                self.defer_unknown = True  # Discord may have taken it: see send()
                log.warning(
                    "the defer of interaction %s got no answer (%s)",
                    self.interaction.id,
                    error or type(error).__name__,
                )
                return
            self.state = DEFERRED
            interactions.deferred(self.component)

    def settle(self) -> None:
        """No defer is needed any more (the answer is being sent, or there will be none)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    async def done(self) -> None:
        """Wait for a defer already under way (before the interaction is forgotten)."""
        self.settle()
        if self._deferring is not None:
            await asyncio.gather(self._deferring, return_exceptions=True)

    # ------------------------------------------------------------------ sending

    async def send(self, out: Outgoing, private: bool) -> int | None:
        """Send one answer — its first message, then those that continue it as followups of the same
        privacy; the first (new or edited) message's id when it is known. Raises
        :class:`InteractionGone` when the interaction can no longer be answered, and
        :class:`AnsweredElsewhere` when another process answered it first."""
        self.settle()
        async with self._lock:
            first = await self._guarded(lambda: self._send(out, private))
            answers.DISCORD.posted(self.interaction.id)
            for part in out.more:
                await self._guarded(functools.partial(self._followup, part, private))
            return first

    async def _guarded(self, sending: Callable[[], Awaitable[int | None]]) -> int | None:
        while True:
            if self.state == GONE:
                raise InteractionGone(self.interaction.id)
            try:
                return await sending()
            except discord.HTTPException as error:
                if self.state == FRESH and error.code == ALREADY_ACKNOWLEDGED:
                    if self.defer_unknown:  # our own defer reached Discord after all: edit its original
                        log.info(
                            "the lost defer of interaction %s was taken: answering it", self.interaction.id
                        )
                        self.defer_unknown = False
                        self.state = DEFERRED
                        continue
                    self.state = ANSWERED
                    raise AnsweredElsewhere(self.interaction.id) from error
                if not _gone(error):
                    raise
                log.warning("interaction %s is gone (%s)", self.interaction.id, error)
                interactions.expired()
                self.state = GONE
                raise InteractionGone(self.interaction.id) from error

    async def _followup(self, out: Outgoing, private: bool) -> int | None:
        message = await self.interaction.followup.send(**out.kwargs(), ephemeral=private, wait=True)
        return message.id

    async def _send(self, out: Outgoing, private: bool) -> int | None:
        interaction = self.interaction
        if self.state == FRESH:
            callback = await interaction.response.send_message(**out.kwargs(), ephemeral=private)
            self.state = ANSWERED
            self.original_used = True
            return callback.message_id
        if self.state == DEFERRED and not self.component and not self.original_used:
            self.original_used = True
            if private == self.private:
                edited = await interaction.edit_original_response(**out.edit_kwargs())
                self.state = ANSWERED
                return edited.id
            await interaction.delete_original_response()  # its "thinking…" had the other privacy
        message_id = await self._followup(out, private)
        self.state = ANSWERED
        return message_id


def _gone(error: discord.HTTPException) -> bool:
    """The interaction can no longer be answered through its token."""
    if isinstance(error, discord.NotFound):
        return error.code in (UNKNOWN_INTERACTION, UNKNOWN_WEBHOOK)
    return error.status == 401 and error.code == INVALID_WEBHOOK_TOKEN
