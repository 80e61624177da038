"""The bridge between Discord and the croupier service, and the one place where failures become answers.

Every way in — a chat line, a slash command, a button — becomes one call of the service; every
:class:`Reply` goes out as embeds with the board it carries. The front end never reads the store or a
game: what it draws is in the reply. A store outage, a Discord error or a bug is caught here (and
only here): the user gets a short answer, the log the details, and the bot keeps running.

Each answer is put in the channel's outbox (:mod:`bot.discord.outbox`) while the service still holds
the channel (the ``then`` of :meth:`~bot.service.croupier.Croupier.handle`): answers go out in the order
the moves were applied, with no lock of the front end's own, and no network call is made while the
channel is held. Answers of applied moves are tracked (:mod:`bot.discord.delivery`):
retried until Discord has them, acknowledged to the service, delivered at the next start otherwise.
Interactions are acknowledged within Discord's three seconds (:mod:`bot.discord.answering`).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Collection
from dataclasses import replace
from datetime import datetime
from typing import Any

import discord
from discord import app_commands

from bot import texts
from bot.discord import escape
from bot.discord.answering import Answer, AnsweredElsewhere, InteractionGone
from bot.discord.boards import Press
from bot.discord.catch_up import Reads
from bot.discord.context import from_interaction, from_message, language_of_locale
from bot.discord.delivery import Delivery, Tracked
from bot.discord.embeds import game_embeds, refusal_content
from bot.discord.interaction_replies import answer_reply, behind, tell_if_held
from bot.discord.live_table import LiveTables
from bot.discord.mentions import nobody, service_text
from bot.discord.options import BotOptions
from bot.discord.outbox import ANSWERS, Outbox
from bot.discord.outgoing import Outgoing, answer_for, outgoing, plain
from bot.discord.readiness import Readiness
from bot.observability.answers import DISCORD as ARRIVALS
from bot.replies import Reply
from bot.service.croupier import Croupier
from bot.service.requests import (
    NOTHING_OPEN,
    PLAYED_IN_THREAD,
    DueIn,
    Flush,
    Incoming,
    Line,
    Move,
    Remind,
    Request,
    Tick,
    Waiting,
    might_be_command,
)
from bot.service.requests import Press as Pressed
from bot.store import StoreUnavailable
from engine.game import Join
from engine.numbers import digits

log = logging.getLogger(__name__)

Draw = Callable[["Front", discord.Interaction[Any], Reply], Awaitable[bool]]

RECENT_IDS = 4096
BOARDS_MAX = 10_000  # channels whose live board is remembered (the oldest are forgotten first)
DID_YOU_MEAN = "did_you_mean"
HINTS = frozenset(
    {DID_YOU_MEAN, NOTHING_OPEN, PLAYED_IN_THREAD}
)  # answers that help only at once: none for a caught-up line
CLOSE_PATIENCE_S = 5.0  # at shutdown, how long the outboxes may still post
DM_CLOSED = 50007  # "Cannot send messages to this user"

__all__ = ["Front", "Outgoing", "Recent", "front_of", "outgoing"]


class Recent:
    """Event ids handled lately, so a gateway redelivery is answered once (the store's command log
    makes the move itself exactly-once, also across restarts)."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._ids: OrderedDict[int, None] = OrderedDict()

    def first_time(self, event_id: int) -> bool:
        if event_id in self._ids:
            return False
        self._ids[event_id] = None
        if len(self._ids) > self._size:
            self._ids.popitem(last=False)
        return True


class Front:
    def __init__(self, client: discord.Client, croupier: Croupier, options: BotOptions | None = None) -> None:
        options = options or BotOptions()
        self.client = client
        self.croupier = croupier
        self._recent = Recent(RECENT_IDS)
        # channel id → the message carrying the live board, the most recently moved last. Bounded: a
        # forgotten board keeps its buttons, which still answer (the service checks the game's version).
        self._boards: OrderedDict[int, int] = OrderedDict()
        self.outbox = Outbox()
        self.delivery = Delivery(
            client,
            croupier,
            acknowledged=self._acknowledged,
            backoff_start=options.retry_start_seconds,
            backoff_cap=options.retry_cap_seconds,
            probe_after=options.hold_probe_seconds,
        )
        self.live = LiveTables(client, self.outbox, self.delivery)
        self.defer_after = options.defer_after_seconds
        self.acknowledge_after = options.acknowledge_after_seconds
        self._answers: dict[int, Answer] = {}  # interactions being answered
        self._flusher: asyncio.Task[None] | None = None
        # Which shards caught up with what was typed while they were away: a guild's live events wait
        # for its own shard (bot.discord.readiness, bot.discord.catch_up).
        self.caught_up = Readiness(lambda: _shards_of(client), lambda: getattr(client, "shard_count", None))
        self.reads = Reads(croupier, options.reads_noted_seconds, handed=self._acknowledged)
        self.reads_history = True  # False once the log said that nothing is caught up without content
        self.started_at: datetime | None = None
        # Replies name the Discord commands, not the console's: as mentions once their ids are known.
        from bot.discord.commands import DiscordSpelling  # it reads the slash commands, which use us

        self.spelling = DiscordSpelling(getattr(client, "command_ids", None))

    async def ask(self, request: Request[Reply], then: Callable[[Reply], object] | None = None) -> Reply:
        """A request through the service (``Croupier.handle``), its reply — in the neutral form of
        :mod:`bot.markup` — spelled for Discord here, once: ``then`` gets it spelled while the channel is
        still held, and so does the caller. (The few answers that carry replies inside data — the turn
        clock's, a catch-up's — are spelled where they arrive, with the same ``spelling``.)"""
        spelled: list[Reply] = []

        def after(reply: Reply) -> None:
            spelled.append(reply.spelled(self.spelling))
            if then is not None:
                then(spelled[0])

        answered = await self.croupier.handle(request, then=after)
        return spelled[0] if spelled else answered.spelled(self.spelling)

    def first_time(self, event_id: int) -> bool:
        """Whether this event (a message or an interaction) is new to this process (False for a
        redelivered MESSAGE_CREATE or INTERACTION_CREATE)."""
        return self._recent.first_time(event_id)

    # ------------------------------------------------------------------ chat lines

    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot or message.webhook_id is not None or message.guild is None:
            return
        if not self.first_time(message.id):
            return
        text = service_text(message.content).strip()
        if not text:
            return
        ARRIVALS.arrived(message.id)
        if not self.caught_up.is_caught_up(message.guild.id):
            self.reads.arrived_live(message.guild.id, message.channel.id, message.id)
            await self.caught_up.wait_for(message.guild.id)
        await self.line(message, text)

    async def line(self, message: discord.Message, text: str, *, catching_up: bool = False) -> None:
        """One chat line through the service; its answer queued (``catching_up``: a line read from the
        history after a restart, where a "did you mean" would come too late to help)."""
        assert message.guild is not None
        guild = message.guild.id

        def then(reply: Reply) -> None:
            self._after_line(message, reply, catching_up)
            self.reads.saw(guild, message.channel.id, message.id)

        try:
            await self.ask(Line(from_message(message, text)), then=then)
        except Exception as error:
            key = failure(error, f"message {message.id} in channel {message.channel.id}")
            # Only a store outage is worth a note under a line, and only under what may be a command.
            if key == STORE_DOWN and might_be_command(text) and not catching_up:
                lang = language_of_locale(message.guild.preferred_locale)
                self._note_line(message, texts.render(key, {}, lang), lang)

    def _after_line(self, message: discord.Message, reply: Reply, catching_up: bool) -> None:
        if reply.silent or reply.duplicate:
            return
        if catching_up and reply.error_code in HINTS:
            return  # too late to help
        if not reply.ok:
            self._note_line(message, refusal_content(reply), reply.language)
            return
        if reply.private:  # advice: never in the channel (a reply there is seen by all)
            self.outbox.put(message.channel.id, lambda: self._privately(message, reply))
            return
        reference = message.to_reference(fail_if_not_exists=False)
        named = answer_for(message.author.id, reply.language)
        self.publish(message.channel.id, reply, f"discord:{message.id}", reference=reference, named=named)

    def _note_line(self, message: discord.Message, content: str, lang: str) -> None:
        """A short answer to a line (a refusal), referencing it; nothing is pinged."""
        out = Outgoing.of([], nobody(), content=content)
        self.outbox.put(message.channel.id, lambda: self._post_once(message, out, lang))

    async def _post_once(self, message: discord.Message, out: Outgoing, lang: str) -> None:
        reference = message.to_reference(fail_if_not_exists=False)
        named = answer_for(message.author.id, lang)
        await self.delivery.post(message.channel.id, out, reference=reference, named=named, lang=lang)

    async def _privately(self, message: discord.Message, reply: Reply) -> None:
        """A private answer to a typed line goes by direct message; with those closed, a note in the
        channel says how to ask instead — never the answer itself."""
        try:
            for part in Outgoing.of(game_embeds(reply), nobody()).parts():
                await message.author.send(**part.kwargs())
        except discord.HTTPException as error:
            if error.code != DM_CLOSED and error.status != 403:
                log.warning("could not send a private answer to %s: %s", message.author.id, error)
            lang = reply.language
            note = Outgoing([], nobody(), content=texts.render("discord.private.dm_closed", {}, lang))
            await self._post_once(message, note, lang)

    # ------------------------------------------------------------------ replies

    def publish(
        self,
        channel_id: int,
        reply: Reply,
        message_id: str | None = None,
        *,
        reference: discord.MessageReference | None = None,
        named: str | None = None,
        look_first: bool = False,
        logged_at: datetime | None = None,
        header: str | None = None,
        closing: bool = True,
    ) -> None:
        """Queue a public reply's post in the channel — retried until delivered when the log tracks it
        (``message_id``: what it answers) — then the board move, the live table and, at a game's end,
        its thread's closing (``closing`` False: the start redoes what is left of it, knowing what is).
        ``header``: a line in front (naming the player of a lost interaction); ``named``: the line
        that names the player when the channel refuses the reply (no Read Message History)."""
        out = outgoing(reply) if reply.game_id is not None else plain(reply)
        if header is not None:
            out = out.headed(header, out.allowed_mentions)
        tracked = self.tracked(reply, message_id, logged_at)

        async def post() -> None:
            sent = await self.delivery.post(
                channel_id,
                out,
                tracked=tracked,
                reference=reference,
                named=named,
                lang=reply.language,
                look_first=look_first,
            )
            if sent is not None and reply.game_id is not None:
                await self.board_moved(channel_id, sent.id if out.view is not None else None)

        self.outbox.put(channel_id, post)
        self._after_reply(channel_id, reply, closing=closing)

    def _after_reply(self, channel_id: int, reply: Reply, *, closing: bool = True) -> None:
        """The live table and, at the end of a game in its own thread, the thread's closing — queued
        after the reply itself."""
        if reply.live is None or not reply.ok or reply.private:
            return
        self.live.redraw(reply, channel_id, self.spelling.commands(reply.language))
        if reply.live.finished and closing:
            self.live.close(reply, channel_id, ended_at=self.croupier.clock())

    def tracked(
        self, reply: Reply, message_id: str | None, logged_at: datetime | None = None
    ) -> Tracked | None:
        if reply.log_id is None or message_id is None:
            return None
        return Tracked.of(reply.log_id, message_id, logged_at or self.croupier.clock())

    async def board_moved(self, channel_id: int, message_id: int | None) -> None:
        """Only the newest board keeps its buttons; older ones are stripped (stale ones still answer)."""
        old = self._boards.pop(channel_id, None)
        if message_id is not None:
            self._boards[channel_id] = message_id
            while len(self._boards) > BOARDS_MAX:
                self._boards.popitem(last=False)
        if old is None or old == message_id:
            return
        try:
            partial = self.client.get_partial_messageable(channel_id).get_partial_message(old)
            await partial.edit(view=None, allowed_mentions=nobody())
        except discord.HTTPException as error:
            log.info("could not strip the old board %s in channel %s: %s", old, channel_id, error)

    # ------------------------------------------------------------------ interactions

    def answer_for(
        self, interaction: discord.Interaction[Any], *, private: bool = False, component: bool = False
    ) -> Answer:
        """The answer of a new interaction, deferred if the service is not done in time."""
        answer = Answer(interaction, private=private, component=component, defer_after=self.defer_after)
        ARRIVALS.arrived(interaction.id)
        self._answers[interaction.id] = answer
        answer.watch()
        return answer

    async def command(
        self,
        interaction: discord.Interaction[Any],
        ask: Callable[[Incoming], Request[Reply]],
        *,
        text: str = "",
        ephemeral: bool = False,
        draw: Draw | None = None,
    ) -> None:
        """Ask the service what a slash command asks (``ask`` builds the request) and answer with its
        reply (``draw`` may draw it its own way — a picture, a file — and answers whether it did)."""
        if not self.first_time(interaction.id):
            return
        answer = self.answer_for(interaction, private=ephemeral)
        try:
            await self.caught_up.wait_for(interaction.guild_id)
            msg = from_interaction(interaction, text)

            def then(reply: Reply) -> None:
                if reply.ok and digits(reply.elsewhere):
                    self._done_elsewhere(answer, msg, reply)
                else:
                    self.answer_with(answer, reply, ephemeral=ephemeral, draw=draw)

            await self.ask(ask(msg), then=then)
        except Exception as error:
            await self.failed(interaction, error)

    def _done_elsewhere(self, answer: Answer, msg: Incoming, reply: Reply) -> None:
        """A sign-up made in a home and carried out in the game's thread: its public reply goes to the
        thread, and the player is told privately, with a link to it."""
        thread = int(reply.elsewhere)
        if not reply.duplicate:
            self.publish(thread, reply, msg.message_id)
        facts = {"title": escape.plain(reply.title), "thread": f"<#{thread}>"}
        content = texts.render("discord.thread.joined_there", facts, reply.language)
        told = Outgoing(game_embeds(replace(reply, cards=())), nobody(), content=content)
        self.outbox.put(answer.interaction.channel_id or 0, lambda: self.send_note(answer, told))

    async def press(self, interaction: discord.Interaction[Any], press: Press) -> None:
        if not self.first_time(interaction.id):
            return
        answer = self.answer_for(interaction, component=True)
        try:
            await self.caught_up.wait_for(interaction.guild_id)
            msg = from_interaction(interaction)
            pressed = Pressed(msg, press.game, press.version, press.picked)
            await self.ask(pressed, then=lambda reply: self.answer_with(answer, reply))
        except Exception as error:
            await self.failed(interaction, error)

    async def join(self, interaction: discord.Interaction[Any], game: int, channel: int) -> None:
        """The sign-up button of a live table. A text channel's live table sits in the channel, not
        in the game's thread: the sign-up is then made in the thread, its public reply posted there,
        and the presser answered privately."""
        if not self.first_time(interaction.id):
            return
        here = interaction.channel_id or 0
        answer = self.answer_for(interaction, component=True)
        try:
            await self.caught_up.wait_for(interaction.guild_id)
            msg = from_interaction(interaction)
            if channel != here:
                msg = replace(msg, channel=str(channel), parent=str(here), place="thread")
            asked = msg

            def then(reply: Reply) -> None:
                if channel == here or not reply.ok or reply.duplicate:
                    self.answer_with(answer, reply)
                    return
                self.publish(channel, reply, asked.message_id)
                told = Outgoing.of(game_embeds(replace(reply, cards=())), nobody())
                self.outbox.put(here, lambda: self.send_note(answer, told), lane=ANSWERS)

            await self.ask(Move(msg, Join(msg.author_name)), then=then)
        except Exception as error:
            await self.failed(interaction, error)

    async def send_note(self, answer: Answer, out: Outgoing, *, private: bool = True) -> None:
        """A note as the interaction's answer (only for the one who asked, unless ``private`` is off);
        one that cannot go out is logged, not retried — the interaction is forgotten either way."""
        try:
            await answer.send(out, private)
        except (discord.HTTPException, InteractionGone, AnsweredElsewhere) as error:
            log.info("could not answer interaction %s: %s", answer.interaction.id, error)
        finally:
            await self.forget(answer)

    def answer_with(
        self, answer: Answer, reply: Reply, *, ephemeral: bool = False, draw: Draw | None = None
    ) -> None:
        """Queue the interaction's answer in the channel's lane of answers (and, for a public reply
        about a game, its live table after it in the channel's posts). An interaction answer needs no
        channel permission, so it never waits for a held channel; a public one waits for the posts
        queued before it while they go out, so the channel reads in the order the moves were made."""
        interaction = answer.interaction
        channel_id = interaction.channel_id or 0
        public = not (reply.private or ephemeral or not reply.ok)
        before = self.outbox.tail(channel_id) if public else None

        async def send() -> None:
            try:
                if before is not None:
                    await behind(self.delivery.holds, channel_id, before)
                if draw is not None and await draw(self, interaction, reply):
                    return
                await answer_reply(self, answer, reply, ephemeral)
            except (AnsweredElsewhere, InteractionGone, discord.HTTPException) as error:
                log.info("could not answer interaction %s: %s", interaction.id, error)  # nothing stored
            finally:
                await tell_if_held(self.delivery.holds, answer, reply.language)
                await self.forget(answer)
                if public:  # after the answer and its board strip: a thread is closed behind its last answer
                    self._after_reply(channel_id, reply)

        self.outbox.put(channel_id, send, lane=ANSWERS)

    async def forget(self, answer: Answer) -> None:
        await answer.done()
        if self._answers.get(answer.interaction.id) is answer:
            del self._answers[answer.interaction.id]

    async def send(
        self, interaction: discord.Interaction[Any], out: Outgoing, ephemeral: bool = False
    ) -> int | None:
        """Answer the interaction (a followup if it was answered or deferred); the message's id if known."""
        answer = self._answers.get(interaction.id) or Answer(interaction, private=ephemeral)
        return await answer.send(out, ephemeral)

    # ------------------------------------------------------------------ the turn clock

    def serving(self) -> set[str]:
        """The guilds whose deadlines this process applies: its own, once their shard is connected and
        caught up (another process, or this one after a gap, may not have read their moves yet)."""
        return self.caught_up.serving(guild.id for guild in self.client.guilds)

    async def post_timeouts(self, guilds: set[str] | None = None) -> int:
        """Apply the turn timeout where it is due in ``guilds`` (by default :meth:`serving`) and queue
        what happened; answers how many."""
        guilds = self.serving() if guilds is None else guilds
        if not guilds:
            return 0
        posted = 0
        for channel, reply in await self.croupier.handle(Tick(tracked=True, guilds=guilds)):
            if reply.duplicate or reply.silent or not reply.ok:
                continue  # another process posted it, or the game moved on meanwhile
            self.publish(int(channel), reply.spelled(self.spelling), "timeout:")
            posted += 1
        return posted

    async def post_reminders(self, guilds: set[str] | None = None) -> int:
        """Remind the players to act whose deadline is near in ``guilds`` (by default :meth:`serving`);
        answers how many were reminded."""
        guilds = self.serving() if guilds is None else guilds
        if not guilds:
            return 0
        reminders = await self.croupier.handle(Remind(guilds))
        for reminder in reminders:
            self.publish(int(reminder.channel), reminder.reply.spelled(self.spelling))
        return len(reminders)

    async def tick(self) -> int:
        """One round of the turn clock, in the guilds this process serves: due timeouts first, then
        reminders."""
        guilds = self.serving()
        return await self.post_timeouts(guilds) + await self.post_reminders(guilds)

    # ------------------------------------------------------------------ acknowledgements

    def _acknowledged(self) -> None:
        """An answer was delivered (or channel reads were handed over): it rides on the next write, or
        is written on its own once the process wrote nothing for ``acknowledge_after`` seconds."""
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush_later(), name="acknowledgements")

    async def _flush_later(self) -> None:
        while await self.croupier.handle(Waiting()):
            wait = await self.croupier.handle(DueIn(self.acknowledge_after))
            if wait > 0:
                await asyncio.sleep(wait)
                continue
            try:
                await self.croupier.handle(Flush())
            except StoreUnavailable as error:
                log.warning("acknowledgements wait for the store: %s", error)

    async def shutdown(self) -> None:
        """Let queued answers go out for a moment, then write the acknowledgements."""
        self.delivery.stop()
        await self.outbox.close(CLOSE_PATIENCE_S)
        await self.reads.close()
        for answer in list(self._answers.values()):
            answer.settle()
        if self._flusher is not None:
            self._flusher.cancel()
        try:
            await self.croupier.handle(Flush())
        except Exception as error:  # the store may be closing too: they stay pending, and are checked
            log.warning("acknowledgements not written at shutdown: %s", error)

    # ------------------------------------------------------------------ the error boundary

    async def failed(self, interaction: discord.Interaction[Any], error: BaseException) -> None:
        """Any failure of a slash command or a press: a short private note; details to the log."""
        key = failure(error, f"interaction {interaction.id}")
        lang = language_of_locale(interaction.locale)
        answer = self._answers.get(interaction.id) or Answer(interaction)
        try:
            await answer.send(Outgoing([], nobody(), content=texts.render(key, {}, lang)), True)
        except (discord.HTTPException, InteractionGone, AnsweredElsewhere) as http_error:
            log.warning("could not tell the user about the failure of %s: %s", interaction.id, http_error)
        finally:
            await self.forget(answer)


STORE_DOWN = "error.store_unavailable"


def failure(error: BaseException, what: str) -> str:
    """The front end's one reading of a failure on the way in (a chat line, a slash command, a press):
    logged once, at the level it deserves, and answered with the catalogue key of what the user is
    told. The service has already said "try again" where it could; this is what is left."""
    original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    if isinstance(original, StoreUnavailable):
        log.warning("store unavailable during %s: %s", what, original)
        return STORE_DOWN
    if isinstance(original, app_commands.NoPrivateMessage):
        return "discord.guild_only"
    if isinstance(original, app_commands.CheckFailure):
        return "error.not_moderator"
    log.error("%s failed", what, exc_info=original)
    return "discord.internal_error"


def _shards_of(client: discord.Client) -> Collection[int] | None:
    """The shards this process runs: those it was given, else all of them once their count is known
    (discord.py keeps ``shard_ids`` None when it runs every shard)."""
    given: Collection[int] | None = getattr(client, "shard_ids", None)
    count = getattr(client, "shard_count", None)
    return given or (range(count) if count else None)


def front_of(interaction: discord.Interaction[Any]) -> Front:
    """The front of the client that received the interaction (set up by :class:`CroupierBot`)."""
    front: Front = interaction.client.front
    return front
