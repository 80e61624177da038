"""The bridge between Discord and the croupier service, and the one place where failures become answers.

Every way in — a chat line, a slash command, a button — becomes an :class:`Incoming` for the service;
every :class:`Reply` goes out as an embed with the board of the player to act. A store outage, a
Discord error or a bug is caught here (and only here): the user gets a short answer, the log the
details, and the bot keeps running.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

import discord
from discord import app_commands

from bot import texts
from bot.croupier import Croupier, Incoming
from bot.discord.boards import Press, build_board, choices_of, words_for
from bot.discord.cards import joker_cards
from bot.discord.context import ChannelView, from_interaction, from_message, language_of_locale, read_channel
from bot.discord.embeds import game_embeds, refusal_content, text_embeds
from bot.discord.mentions import nobody, only, quiet, service_text
from bot.discord.names import roster_of, with_names
from bot.games import GAMES
from bot.keyed_locks import KeyedLocks
from bot.replies import Reply
from bot.store import GameRecord, StoreUnavailable
from engine.errors import CroupierError

log = logging.getLogger(__name__)

RECENT_IDS = 4096
UNKNOWN_INTERACTION = 10062  # Discord's error code for an interaction answered too late


@dataclass
class Outgoing:
    """One message the bot is about to send, whatever the route (channel post or interaction answer)."""

    embeds: list[discord.Embed]
    allowed_mentions: discord.AllowedMentions
    content: str | None = None
    view: discord.ui.View | None = None
    files: list[discord.File] = field(default_factory=list)

    def kwargs(self) -> dict[str, Any]:
        out: dict[str, Any] = {"embeds": self.embeds, "allowed_mentions": self.allowed_mentions}
        if self.content:
            out["content"] = self.content
        if self.view is not None:
            out["view"] = self.view
        if self.files:
            out["files"] = self.files
        return out


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


def looks_like_command(text: str) -> bool:
    """Whether some game would read the line as a command (worth a "try again" when the store is down)."""
    for game in GAMES.values():
        try:
            if game.parse(text) is not None:
                return True
        except CroupierError:
            return True
    return False


class Front:
    def __init__(self, client: discord.Client, croupier: Croupier) -> None:
        self.client = client
        self.croupier = croupier
        self._recent = Recent(RECENT_IDS)
        self._boards: dict[int, int] = {}  # channel id → the message carrying the live board
        # One move at a time per channel, from reading it to posting the answer, so answers appear in
        # the order the moves were applied.
        self._locks: KeyedLocks[int] = KeyedLocks()

    # ------------------------------------------------------------------ chat lines

    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot or message.webhook_id is not None or message.guild is None:
            return
        if not self._recent.first_time(message.id):
            return
        text = service_text(message.content).strip()
        if not text:
            return
        try:
            await self._on_line(message, text)
        except StoreUnavailable as error:
            log.warning("store unavailable while handling message %s: %s", message.id, error)
            if looks_like_command(text):
                lang = language_of_locale(message.guild.preferred_locale)
                await self._answer_line(message, texts.render("error.store_unavailable", {}, lang))
        except discord.HTTPException as error:
            log.warning(
                "could not answer message %s in channel %s: %s", message.id, message.channel.id, error
            )
        except Exception:
            log.exception("message %s in channel %s failed", message.id, message.channel.id)

    async def _on_line(self, message: discord.Message, text: str) -> None:
        assert message.guild is not None
        async with self._locks.hold(message.channel.id):
            await self._apply_line(message, message.guild, text)

    async def _apply_line(self, message: discord.Message, guild: discord.Guild, text: str) -> None:
        view = await read_channel(self.croupier.store, str(guild.id), str(message.channel.id))
        if view.record is None:
            return  # no game here: everything is chit-chat
        reply = await self.croupier.handle_text(from_message(message, text, view))
        if reply.silent or reply.duplicate:
            return
        if not reply.ok:
            await self._answer_line(message, refusal_content(reply))
            return
        await self.publish(
            message.channel,
            message.channel.id,
            reply,
            view.language,
            actor=str(message.author.id),
            before=view.record,
            reference=message,
        )

    async def _answer_line(self, message: discord.Message, content: str) -> None:
        await message.reply(content, allowed_mentions=nobody(), mention_author=False)

    # ------------------------------------------------------------------ replies

    async def outgoing(
        self, reply: Reply, lang: str, channel_id: int, *, actor: str | None, before: GameRecord | None
    ) -> Outgoing:
        """The embeds, the board of the player to act, and a ping when the turn passed to someone new
        (``before`` is the game as it was before the command)."""
        reply = with_names(reply, roster_of(before))
        before_to_act = before.to_act if before is not None else None
        board = None
        state = None
        if reply.game_id is not None:
            record = await self._open_game(channel_id)
            if record is not None and record.id == reply.game_id:
                game = GAMES[record.kind]
                state = game.load(record.snapshot)
                if game.to_act(state) is not None:
                    board = build_board(record.id, record.version, game, state, lang)
        ping = reply.to_act if reply.to_act not in (None, actor, before_to_act) else None
        return Outgoing(
            embeds=game_embeds(reply, lang, joker_cards(reply, state)),
            allowed_mentions=only(ping),
            content=f"<@{ping}>" if ping is not None and ping.isdigit() else None,
            view=board,
        )

    async def publish(
        self,
        channel: discord.abc.Messageable,
        channel_id: int,
        reply: Reply,
        lang: str,
        *,
        actor: str | None,
        before: GameRecord | None,
        reference: discord.Message | None = None,
    ) -> discord.Message:
        out = await self.outgoing(reply, lang, channel_id, actor=actor, before=before)
        kwargs = out.kwargs()
        if reference is not None:
            kwargs["reference"] = reference.to_reference(fail_if_not_exists=False)
            kwargs["mention_author"] = False
        sent = await channel.send(**kwargs)
        await self._board_moved(channel_id, sent.id if out.view is not None else None)
        return sent

    async def _open_game(self, channel_id: int) -> GameRecord | None:
        async with self.croupier.store.unit_of_work(read_only=True) as uow:
            return await uow.games.open_in(str(channel_id))

    async def _board_moved(self, channel_id: int, message_id: int | None) -> None:
        """Only the newest board keeps its buttons; older ones are stripped (stale ones still answer)."""
        old = self._boards.pop(channel_id, None)
        if message_id is not None:
            self._boards[channel_id] = message_id
        if old is None or old == message_id:
            return
        try:
            partial = self.client.get_partial_messageable(channel_id).get_partial_message(old)
            await partial.edit(view=None, allowed_mentions=nobody())
        except discord.HTTPException as error:
            log.info("could not strip the old board %s in channel %s: %s", old, channel_id, error)

    # ------------------------------------------------------------------ slash commands

    async def view_of(self, interaction: discord.Interaction[Any]) -> ChannelView:
        return await read_channel(
            self.croupier.store, str(interaction.guild_id or ""), str(interaction.channel_id or "")
        )

    def fresh(self, interaction: discord.Interaction[Any]) -> bool:
        """False for an interaction this process already answered (a redelivered INTERACTION_CREATE)."""
        return self._recent.first_time(interaction.id)

    async def command(
        self,
        interaction: discord.Interaction[Any],
        run: Callable[[Incoming], Awaitable[Reply]],
        *,
        text: str = "",
        ephemeral: bool = False,
    ) -> None:
        """Run one service call for a slash command and answer with its reply."""
        if not self.fresh(interaction):
            return
        async with self._locks.hold(interaction.channel_id or 0):
            view = await self.view_of(interaction)
            reply = await run(from_interaction(interaction, view, service_text(text)))
            await self.answer(interaction, reply, view, ephemeral=ephemeral)

    async def answer(
        self,
        interaction: discord.Interaction[Any],
        reply: Reply,
        view: ChannelView,
        *,
        ephemeral: bool = False,
    ) -> None:
        lang = view.language
        if reply.silent:
            key = "error.no_open_game" if view.record is None else "common.not_a_command"
            await self.say(interaction, quiet(texts.render(key, {}, lang)))
            return
        if not reply.ok:
            await self.say(interaction, refusal_content(reply))
            return
        if reply.game_id is None:
            await self.send(interaction, Outgoing(text_embeds(reply.text, reply.title), nobody()), ephemeral)
            return
        channel_id = interaction.channel_id or 0
        out = await self.outgoing(reply, lang, channel_id, actor=str(interaction.user.id), before=view.record)
        message_id = await self.send(interaction, out, ephemeral)
        await self._board_moved(channel_id, message_id if out.view is not None else None)

    async def send(
        self, interaction: discord.Interaction[Any], out: Outgoing, ephemeral: bool = False
    ) -> int | None:
        """Answer the interaction (or follow up if it was answered); the new message's id if known.

        A public answer whose interaction expired meanwhile (Discord allows three seconds) is posted
        in the channel instead: the move is stored, so its answer must not get lost.
        """
        if interaction.response.is_done():
            message = await interaction.followup.send(**out.kwargs(), ephemeral=ephemeral, wait=True)
            return message.id
        try:
            callback = await interaction.response.send_message(**out.kwargs(), ephemeral=ephemeral)
        except discord.NotFound as error:
            if ephemeral or error.code != UNKNOWN_INTERACTION or interaction.channel_id is None:
                raise
            log.warning("interaction %s expired before the answer; posting it in the channel", interaction.id)
            posted = await self.client.get_partial_messageable(interaction.channel_id).send(**out.kwargs())
            return posted.id
        return callback.message_id

    async def say(self, interaction: discord.Interaction[Any], content: str) -> None:
        """A short note only the user sees."""
        if interaction.response.is_done():
            await interaction.followup.send(content, ephemeral=True, allowed_mentions=nobody())
        else:
            await interaction.response.send_message(content, ephemeral=True, allowed_mentions=nobody())

    # ------------------------------------------------------------------ buttons and selects

    async def press(self, interaction: discord.Interaction[Any], press: Press) -> None:
        try:
            await self._press(interaction, press)
        except Exception as error:
            await self.failed(interaction, error)

    async def _press(self, interaction: discord.Interaction[Any], press: Press) -> None:
        if not self.fresh(interaction):
            return
        async with self._locks.hold(interaction.channel_id or 0):
            await self._apply_press(interaction, press)

    async def _apply_press(self, interaction: discord.Interaction[Any], press: Press) -> None:
        view = await self.view_of(interaction)
        lang = view.language
        record = view.record
        if record is None or record.id != press.game or record.version != press.version:
            # Another process may have applied this very press a moment ago: show its answer then.
            earlier = await self.croupier.answered(f"interaction:{interaction.id}")
            if earlier is not None:
                await self.answer(interaction, earlier, view)
            else:
                await self.say(interaction, texts.render("discord.button_outdated", {}, lang))
            return
        game = GAMES[record.kind]
        state = game.load(record.snapshot)
        to_act = game.to_act(state)
        presser = str(interaction.user.id)
        if to_act != presser:
            names = {seat.player: seat.name for seat in game.table(state)}
            note = texts.render(
                "discord.button_not_yours", {"player": to_act or "—"}, lang, lambda p: names.get(p, p)
            )
            await self.say(interaction, quiet(note))
            return
        words = words_for(choices_of(game, state), press.picked)
        if words is None:
            await self.say(interaction, texts.render("discord.button_outdated", {}, lang))
            return
        msg = replace(
            from_interaction(interaction, view, service_text(words)), expected_version=press.version
        )
        reply = await self.croupier.handle_text(msg)
        await self.answer(interaction, reply, view)

    # ------------------------------------------------------------------ turn timeouts

    async def post_timeouts(self) -> int:
        """Apply the turn timeout where it is due and post what happened; answers how many were posted."""
        posted = 0
        for record, reply in await self.croupier.apply_due_timeouts():
            if reply.duplicate or reply.silent or not reply.ok:
                continue  # another process posted it, or the game moved on meanwhile
            channel_id = int(record.channel)
            channel = self.client.get_channel(channel_id)
            guild = getattr(channel, "guild", None)
            view = await read_channel(self.croupier.store, str(guild.id) if guild else "", record.channel)
            lang = view.settings.language or GAMES[record.kind].language
            target = channel if isinstance(channel, discord.abc.Messageable) else None
            try:
                await self.publish(
                    target or self.client.get_partial_messageable(channel_id),
                    channel_id,
                    reply,
                    lang,
                    actor=None,
                    before=record,
                )
            except discord.HTTPException as error:
                log.warning("could not post the timeout of game %s in %s: %s", record.id, channel_id, error)
                continue
            posted += 1
        return posted

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
        try:
            await self.say(interaction, texts.render(key, {}, lang))
        except discord.HTTPException as http_error:
            log.warning("could not tell the user about the failure of %s: %s", interaction.id, http_error)


def front_of(interaction: discord.Interaction[Any]) -> Front:
    """The front of the client that received the interaction (set up by :class:`CroupierBot`)."""
    front: Front = interaction.client.front
    return front
