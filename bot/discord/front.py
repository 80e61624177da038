"""The bridge between Discord and the croupier service, and the one place where failures become answers.

Every way in — a chat line, a slash command, a button — becomes one call of the service; every
:class:`Reply` goes out as embeds with the board it carries. The front end never reads the store or a
game: what it draws is in the reply. A store outage, a Discord error or a bug is caught here (and
only here): the user gets a short answer, the log the details, and the bot keeps running.

Per channel, one lock covers the service call and putting its answer in the channel's outbox
(:mod:`bot.discord.outbox`): answers go out in the order the moves were applied, and no network call
is made while the lock is held. Answers of applied moves are tracked (:mod:`bot.discord.delivery`):
retried until Discord has them, acknowledged to the service, delivered at the next start otherwise.
Interactions are acknowledged within Discord's three seconds (:mod:`bot.discord.answering`).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Collection, Mapping
from dataclasses import replace
from datetime import datetime
from typing import Any

import discord
from discord import app_commands

from bot import texts
from bot.discord import escape, threads
from bot.discord.answering import Answer, AnsweredElsewhere, InteractionGone
from bot.discord.boards import Press
from bot.discord.catch_up import Reads
from bot.discord.context import from_interaction, from_message, language_of_locale
from bot.discord.delivery import Delivery, Tracked
from bot.discord.embeds import game_embeds, refusal_content, text_embeds
from bot.discord.failures import PERMISSION
from bot.discord.limits import CONTENT_MAX, clip
from bot.discord.live_table import LiveTables
from bot.discord.mentions import nobody, quiet, service_text
from bot.discord.options import BotOptions
from bot.discord.outbox import ANSWERS, Outbox
from bot.discord.outgoing import Outgoing, answer_for, outgoing
from bot.discord.readiness import Readiness
from bot.discord.rights import label
from bot.observability.answers import DISCORD as ARRIVALS
from bot.replies import Reply
from bot.service.croupier import NOTHING_OPEN, Croupier, Incoming, might_be_command
from bot.service.forum import PLAYED_IN_THREAD
from bot.service.keyed_locks import KeyedLocks
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
        # One service call at a time per channel, with putting its answer in the outbox.
        self._locks: KeyedLocks[int] = KeyedLocks()
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

    def commands(self, lang: str) -> Mapping[str, str]:
        """How this front end's commands are typed (for the live table's sign-up hint)."""
        return self.spelling.commands(lang)

    def spelled(self, reply: Reply) -> Reply:
        """A reply of the service (in the neutral form of :mod:`bot.markup`) as Discord spells it."""
        return reply.spelled(self.spelling)

    def first_time(self, event_id: int) -> bool:
        """Whether this event (a message or an interaction) is new to this process."""
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
        try:
            async with self._locks.hold(message.channel.id):
                reply = self.spelled(await self.croupier.handle_text(from_message(message, text)))
                self._after_line(message, reply, catching_up)
                assert message.guild is not None
                self.reads.saw(message.guild.id, message.channel.id, message.id)
        except StoreUnavailable as error:
            log.warning("store unavailable while handling message %s: %s", message.id, error)
            if might_be_command(text) and not catching_up and message.guild is not None:
                lang = language_of_locale(message.guild.preferred_locale)
                self._note_line(message, texts.render("error.store_unavailable", {}, lang), lang)
        except Exception:
            log.exception("message %s in channel %s failed", message.id, message.channel.id)

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
        out = outgoing(reply) if reply.game_id is not None else _plain(reply)
        if header is not None:
            out = out.headed(header, out.allowed_mentions)
        tracked = self._tracked(reply, message_id, logged_at)

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
                await self._board_moved(channel_id, sent.id if out.view is not None else None)

        self.outbox.put(channel_id, post)
        self._after_reply(channel_id, reply, closing=closing)

    def _after_reply(self, channel_id: int, reply: Reply, *, closing: bool = True) -> None:
        """The live table and, at the end of a game in its own thread, the thread's closing — queued
        after the reply itself."""
        if reply.live is None or not reply.ok or reply.private:
            return
        self.live.redraw(reply, channel_id, self.commands(reply.language))
        if reply.live.finished and closing:
            self.live.close(reply, channel_id, ended_at=self.croupier.clock())

    def _tracked(
        self, reply: Reply, message_id: str | None, logged_at: datetime | None = None
    ) -> Tracked | None:
        if reply.log_id is None or message_id is None:
            return None
        return Tracked.of(reply.log_id, message_id, logged_at or self.croupier.clock())

    async def _board_moved(self, channel_id: int, message_id: int | None) -> None:
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

    def fresh(self, interaction: discord.Interaction[Any]) -> bool:
        """False for an interaction this process already answered (a redelivered INTERACTION_CREATE)."""
        return self.first_time(interaction.id)

    def _answer_for(
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
        run: Callable[[Incoming], Awaitable[Reply]],
        *,
        text: str = "",
        ephemeral: bool = False,
        draw: Draw | None = None,
    ) -> None:
        """Run one service call for a slash command and answer with its reply (``draw`` may draw it
        its own way — a picture, a file — and answers whether it did)."""
        if not self.fresh(interaction):
            return
        answer = self._answer_for(interaction, private=ephemeral)
        try:
            await self.caught_up.wait_for(interaction.guild_id)
            msg = from_interaction(interaction, text)
            async with self._locks.hold(interaction.channel_id or 0):
                reply = self.spelled(await run(msg))
                if reply.ok and digits(reply.elsewhere):
                    self._done_elsewhere(answer, msg, reply)
                else:
                    self._answer_with(answer, reply, ephemeral=ephemeral, draw=draw)
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
        self.outbox.put(answer.interaction.channel_id or 0, lambda: self._send_note(answer, told))

    async def press(self, interaction: discord.Interaction[Any], press: Press) -> None:
        if not self.fresh(interaction):
            return
        answer = self._answer_for(interaction, component=True)
        try:
            await self.caught_up.wait_for(interaction.guild_id)
            msg = from_interaction(interaction)
            async with self._locks.hold(interaction.channel_id or 0):
                reply = self.spelled(await self.croupier.press(msg, press.game, press.version, press.picked))
                self._answer_with(answer, reply)
        except Exception as error:
            await self.failed(interaction, error)

    async def join(self, interaction: discord.Interaction[Any], game: int, channel: int) -> None:
        """The sign-up button of a live table. A text channel's live table sits in the channel, not
        in the game's thread: the sign-up is then made in the thread, its public reply posted there,
        and the presser answered privately."""
        if not self.fresh(interaction):
            return
        here = interaction.channel_id or 0
        answer = self._answer_for(interaction, component=True)
        try:
            await self.caught_up.wait_for(interaction.guild_id)
            msg = from_interaction(interaction)
            if channel != here:
                msg = replace(msg, channel=str(channel), parent=str(here), place="thread")
            async with self._locks.hold(channel):
                reply = self.spelled(await self.croupier.execute(msg, Join(msg.author_name)))
                if channel == here or not reply.ok or reply.duplicate:
                    self._answer_with(answer, reply)
                    return
                self.publish(channel, reply, msg.message_id)
                told = Outgoing.of(game_embeds(replace(reply, cards=())), nobody())
                self.outbox.put(here, lambda: self._send_note(answer, told), lane=ANSWERS)
        except Exception as error:
            await self.failed(interaction, error)

    async def _send_note(self, answer: Answer, out: Outgoing) -> None:
        try:
            await answer.send(out, True)
        except (discord.HTTPException, InteractionGone, AnsweredElsewhere) as error:
            log.info("could not answer interaction %s: %s", answer.interaction.id, error)
        finally:
            await self._forget(answer)

    def _answer_with(
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
                    await self._behind(channel_id, before)
                if draw is not None and await draw(self, interaction, reply):
                    return
                await self._answer_reply(answer, reply, ephemeral)
            except (AnsweredElsewhere, InteractionGone, discord.HTTPException) as error:
                log.info("could not answer interaction %s: %s", interaction.id, error)  # nothing stored
            finally:
                await self._tell_if_held(answer, reply.language)
                await self._forget(answer)
                if public:  # after the answer and its board strip: a thread is closed behind its last answer
                    self._after_reply(channel_id, reply)

        self.outbox.put(channel_id, send, lane=ANSWERS)

    async def _behind(self, channel_id: int, before: asyncio.Event) -> None:
        """Until the posts queued before are out, or the channel's posts stop going out (held, failing)."""
        if before.is_set():
            return
        waits = [
            asyncio.ensure_future(before.wait()),
            asyncio.ensure_future(self.delivery.holds.troubled(channel_id).wait()),
        ]
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for wait in waits:
                wait.cancel()

    async def _tell_if_held(self, answer: Answer, lang: str) -> None:
        """Once per hold: the player who used a command in a channel the bot cannot post in learns
        (privately) what permission is missing — the channel itself takes no post."""
        channel_id = answer.interaction.channel_id or 0
        hold = self.delivery.holds.hold_of(channel_id)
        if hold is None or hold.told or hold.kind != PERMISSION:
            return
        hold.told = True
        facts = {"permission": label(hold.missing, lang) if hold.missing else ""}
        key = "discord.permission.held" if hold.missing else "discord.permission.held_unknown"
        try:
            await answer.send(Outgoing([], nobody(), content=texts.render(key, facts, lang)), True)
        except (AnsweredElsewhere, InteractionGone, discord.HTTPException) as error:
            hold.told = False
            log.info(
                "could not tell interaction %s why channel %s is held: %s",
                answer.interaction.id,
                channel_id,
                error,
            )

    async def _answer_reply(self, answer: Answer, reply: Reply, ephemeral: bool) -> None:
        interaction = answer.interaction
        channel_id = interaction.channel_id or 0
        if not reply.ok:
            out, private = Outgoing.of([], nobody(), content=refusal_content(reply)), True
        elif reply.game_id is None:
            out, private = _plain(reply), ephemeral or reply.private
        elif reply.private:  # advice: the story for the asker alone, no board
            out, private = Outgoing.of(game_embeds(reply), nobody()), True
        else:
            out, private = outgoing(reply), ephemeral
        tracked = None if private else self._tracked(reply, f"interaction:{interaction.id}")
        try:
            message_id = await answer.send(out, private)
        except AnsweredElsewhere:
            log.info("interaction %s was answered by another process of the bot", interaction.id)
            return
        except (InteractionGone, discord.HTTPException) as error:
            if private or (isinstance(error, discord.HTTPException) and tracked is None):
                log.warning("the answer to interaction %s is lost: %s", interaction.id, error)
                return
            # A stored move's answer must not get lost: in the channel, naming the player.
            lang = reply.language
            line = answer_for(interaction.user.id, lang)
            sent = await self.delivery.post(
                channel_id, out.headed(line, out.allowed_mentions), tracked=tracked, lang=lang
            )
            message_id = sent.id if sent is not None else None
        else:
            self.delivery.acknowledge(tracked)
        if not private and reply.game_id is not None:
            await self._board_moved(channel_id, message_id if out.view is not None else None)

    async def _forget(self, answer: Answer) -> None:
        await answer.done()
        if self._answers.get(answer.interaction.id) is answer:
            del self._answers[answer.interaction.id]

    async def send(
        self, interaction: discord.Interaction[Any], out: Outgoing, ephemeral: bool = False
    ) -> int | None:
        """Answer the interaction (a followup if it was answered or deferred); the message's id if known."""
        answer = self._answers.get(interaction.id) or Answer(interaction, private=ephemeral)
        return await answer.send(out, ephemeral)

    async def say(self, interaction: discord.Interaction[Any], content: str) -> None:
        """A short note only the user sees."""
        await self.send(interaction, Outgoing([], nobody(), content=content), ephemeral=True)

    # ------------------------------------------------------------------ opening a game

    async def open_game(
        self, interaction: discord.Interaction[Any], kind: str, options: dict[str, str]
    ) -> None:
        """``/durchgang öffnen``: plan it, make its thread (no lock held), open it there, then draw the
        thread's first message as the live table and point the moderator at the thread. Without a
        thread (the channel's setting), the plan itself opens it in place, answered as before."""
        if not self.fresh(interaction):
            return
        answer = self._answer_for(interaction)
        try:
            await self.caught_up.wait_for(interaction.guild_id)
            msg = from_interaction(interaction)
            async with self._locks.hold(interaction.channel_id or 0):
                plan = self.spelled(await self.croupier.plan_open(msg, kind, options))
                if not plan.ok or plan.duplicate or not plan.thread_title:
                    self._answer_with(answer, plan)  # a refusal, or the game opened in place
                    return
            await self._open_in_thread(answer, msg, kind, options, plan)
        except Exception as error:
            await self.failed(interaction, error)

    async def _open_in_thread(
        self, answer: Answer, msg: Incoming, kind: str, options: dict[str, str], plan: Reply
    ) -> None:
        interaction = answer.interaction
        lang = plan.language
        home = await threads.home_of(self.client, interaction.channel)
        placeholder = texts.render(
            "discord.thread.placeholder", {"title": escape.plain(plan.thread_title)}, lang
        )
        try:
            if home is None:
                raise threads.CannotCreateThread("no home channel")
            made = await threads.create(self.client, home, plan.thread_title, placeholder)
        except threads.CannotCreateThread as refused:
            note = Outgoing([], nobody(), content=texts.render(refused.why, {}, lang))
            self.outbox.put(interaction.channel_id or 0, lambda: self._send_note(answer, note), lane=ANSWERS)
            return
        there = replace(
            msg,
            channel=str(made.thread_id),
            parent=str(made.home_id),
            place="post" if made.in_forum else "thread",
        )
        try:
            async with self._locks.hold(made.thread_id):
                opened = await self.croupier.open_game(there, kind, options, live_message=made.live_message)
                reply = self.spelled(opened)
                if reply.ok and not reply.duplicate and reply.live is not None:
                    tracked = self._tracked(reply, msg.message_id)
                    self.live.redraw(reply, made.thread_id, self.commands(lang), tracked=tracked)
                    facts = {"title": escape.plain(reply.title), "thread": f"<#{made.thread_id}>"}
                    pointer = Outgoing(
                        [], nobody(), content=texts.render("discord.thread.opened", facts, lang)
                    )
                    self.outbox.put(
                        interaction.channel_id or 0,
                        lambda: self._send_note_public(answer, pointer),
                        lane=ANSWERS,
                    )
                    return
        except BaseException:
            await threads.remove(self.client, made, placeholder)
            raise
        # Refused after all (another moderator was quicker): the thread goes, the refusal is told.
        said = clip(refusal_content(reply), CONTENT_MAX) if not reply.ok else placeholder
        await threads.remove(self.client, made, said)
        self._answer_with(answer, reply)

    async def _send_note_public(self, answer: Answer, out: Outgoing) -> None:
        try:
            await answer.send(out, False)
        except (discord.HTTPException, InteractionGone, AnsweredElsewhere) as error:
            log.info("could not point interaction %s at its thread: %s", answer.interaction.id, error)
        finally:
            await self._forget(answer)

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
        for channel, reply in await self.croupier.apply_due_timeouts(tracked=True, guilds=guilds):
            if reply.duplicate or reply.silent or not reply.ok:
                continue  # another process posted it, or the game moved on meanwhile
            self.publish(int(channel), self.spelled(reply), "timeout:")
            posted += 1
        return posted

    async def post_reminders(self, guilds: set[str] | None = None) -> int:
        """Remind the players to act whose deadline is near in ``guilds`` (by default :meth:`serving`);
        answers how many were reminded."""
        guilds = self.serving() if guilds is None else guilds
        if not guilds:
            return 0
        reminders = await self.croupier.due_reminders(guilds)
        for reminder in reminders:
            self.publish(int(reminder.channel), self.spelled(reminder.reply))
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
        while self.croupier.acknowledgements_waiting:
            wait = self.croupier.acknowledgements_due_in(self.acknowledge_after)
            if wait > 0:
                await asyncio.sleep(wait)
                continue
            try:
                await self.croupier.flush_acknowledgements()
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
            await self.croupier.flush_acknowledgements()
        except Exception as error:  # the store may be closing too: they stay pending, and are checked
            log.warning("acknowledgements not written at shutdown: %s", error)

    # ------------------------------------------------------------------ the error boundary

    async def failed(self, interaction: discord.Interaction[Any], error: BaseException) -> None:
        """Any failure of a slash command or a press: a short private note; details to the log."""
        original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        lang = language_of_locale(interaction.locale)
        if isinstance(original, StoreUnavailable):
            log.warning("store unavailable during interaction %s: %s", interaction.id, original)
            key = "error.store_unavailable"
        elif isinstance(original, app_commands.NoPrivateMessage):
            key = "discord.guild_only"
        elif isinstance(original, app_commands.CheckFailure):
            key = "error.not_moderator"
        else:
            log.error("interaction %s failed", interaction.id, exc_info=original)
            key = "discord.internal_error"
        answer = self._answers.get(interaction.id) or Answer(interaction)
        try:
            await answer.send(Outgoing([], nobody(), content=texts.render(key, {}, lang)), True)
        except (discord.HTTPException, InteractionGone, AnsweredElsewhere) as http_error:
            log.warning("could not tell the user about the failure of %s: %s", interaction.id, http_error)
        finally:
            await self._forget(answer)


def _shards_of(client: discord.Client) -> Collection[int] | None:
    """The shards this process runs: those it was given, else all of them once their count is known
    (discord.py keeps ``shard_ids`` None when it runs every shard)."""
    given: Collection[int] | None = getattr(client, "shard_ids", None)
    count = getattr(client, "shard_count", None)
    return given or (range(count) if count else None)


def _plain(reply: Reply) -> Outgoing:
    """A reply about no game (settings, a tournament, help) as text embeds."""
    return Outgoing.of(
        text_embeds(quiet(reply.text), escape.plain(reply.title), lang=reply.language), nobody()
    )


def front_of(interaction: discord.Interaction[Any]) -> Front:
    """The front of the client that received the interaction (set up by :class:`CroupierBot`)."""
    front: Front = interaction.client.front
    return front
