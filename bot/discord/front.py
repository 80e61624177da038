"""The bridge between Discord and the croupier service, and the one place where failures become answers.

Every way in — a chat line, a slash command, a button — becomes one call of the service; every
:class:`Reply` goes out as embeds with the board it carries. The front end never reads the store or a
game: what it draws is in the reply. A store outage, a Discord error or a bug is caught here (and
only here): the user gets a short answer, the log the details, and the bot keeps running.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands

from bot import texts
from bot.croupier import Croupier, Incoming, might_be_command
from bot.discord import escape
from bot.discord.boards import Press, build_board
from bot.discord.context import from_interaction, from_message, language_of_locale
from bot.discord.embeds import game_embeds, refusal_content, text_embeds
from bot.discord.mentions import nobody, only, quiet, service_text
from bot.keyed_locks import KeyedLocks
from bot.replies import Reply
from bot.store import StoreUnavailable

log = logging.getLogger(__name__)

Draw = Callable[["Front", discord.Interaction[Any], Reply], Awaitable[bool]]

RECENT_IDS = 4096
BOARDS_MAX = 10_000  # channels whose live board is remembered (the oldest are forgotten first)
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


def outgoing(reply: Reply) -> Outgoing:
    """A reply about a game as embeds, the board of the player to act, and a ping for whoever must
    act now (and nobody else)."""
    wake = reply.wake
    return Outgoing(
        embeds=game_embeds(reply),
        allowed_mentions=only(wake),
        content=f"<@{wake}>" if wake is not None and wake.isdigit() else None,
        view=build_board(reply.board),
    )


class Front:
    def __init__(self, client: discord.Client, croupier: Croupier) -> None:
        self.client = client
        self.croupier = croupier
        self._recent = Recent(RECENT_IDS)
        # channel id → the message carrying the live board, the most recently moved last. Bounded: a
        # forgotten board keeps its buttons, which still answer (the service checks the game's version).
        self._boards: OrderedDict[int, int] = OrderedDict()
        # One move at a time per channel, from asking the service to posting the answer, so answers
        # appear in the order the moves were applied.
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
            async with self._locks.hold(message.channel.id):
                await self._on_line(message, text)
        except StoreUnavailable as error:
            log.warning("store unavailable while handling message %s: %s", message.id, error)
            if might_be_command(text):
                lang = language_of_locale(message.guild.preferred_locale)
                await self._answer_line(message, texts.render("error.store_unavailable", {}, lang))
        except discord.HTTPException as error:
            log.warning(
                "could not answer message %s in channel %s: %s", message.id, message.channel.id, error
            )
        except Exception:
            log.exception("message %s in channel %s failed", message.id, message.channel.id)

    async def _on_line(self, message: discord.Message, text: str) -> None:
        reply = await self.croupier.handle_text(from_message(message, text))
        if reply.silent or reply.duplicate:
            return
        if not reply.ok:
            await self._answer_line(message, refusal_content(reply))
            return
        await self.publish(message.channel, reply, reference=message)

    async def _answer_line(self, message: discord.Message, content: str) -> None:
        await message.reply(content, allowed_mentions=nobody(), mention_author=False)

    # ------------------------------------------------------------------ replies

    async def publish(
        self,
        channel: discord.abc.Messageable,
        reply: Reply,
        *,
        reference: discord.Message | None = None,
    ) -> discord.Message:
        out = outgoing(reply)
        kwargs = out.kwargs()
        if reference is not None:
            kwargs["reference"] = reference.to_reference(fail_if_not_exists=False)
            kwargs["mention_author"] = False
        sent = await channel.send(**kwargs)
        await self._board_moved(sent.channel.id, sent.id if out.view is not None else None)
        return sent

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

    # ------------------------------------------------------------------ slash commands

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
        draw: Draw | None = None,
    ) -> None:
        """Run one service call for a slash command and answer with its reply (``draw`` may draw it
        its own way — a picture, a file — and answers whether it did)."""
        if not self.fresh(interaction):
            return
        async with self._locks.hold(interaction.channel_id or 0):
            reply = await run(from_interaction(interaction, text))
            if draw is None or not await draw(self, interaction, reply):
                await self.answer(interaction, reply, ephemeral=ephemeral)

    async def answer(
        self, interaction: discord.Interaction[Any], reply: Reply, *, ephemeral: bool = False
    ) -> None:
        if not reply.ok:
            await self.say(interaction, refusal_content(reply))
            return
        if reply.game_id is None:
            embeds = text_embeds(quiet(reply.text), escape.plain(reply.title))
            await self.send(interaction, Outgoing(embeds, nobody()), ephemeral or reply.private)
            return
        if reply.private:  # advice: the story for the asker alone, no board
            await self.send(interaction, Outgoing(game_embeds(reply), nobody()), ephemeral=True)
            return
        out = outgoing(reply)
        message_id = await self.send(interaction, out, ephemeral)
        channel_id = interaction.channel_id or 0
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
            if not self.fresh(interaction):
                return
            async with self._locks.hold(interaction.channel_id or 0):
                msg = from_interaction(interaction)
                reply = await self.croupier.press(msg, press.game, press.version, press.picked)
                await self.answer(interaction, reply)
        except Exception as error:
            await self.failed(interaction, error)

    # ------------------------------------------------------------------ turn timeouts

    async def post_timeouts(self) -> int:
        """Apply the turn timeout where it is due and post what happened; answers how many were posted."""
        posted = 0
        for channel, reply in await self.croupier.apply_due_timeouts():
            if reply.duplicate or reply.silent or not reply.ok:
                continue  # another process posted it, or the game moved on meanwhile
            channel_id = int(channel)
            try:
                await self.publish(self.client.get_partial_messageable(channel_id), reply)
            except discord.HTTPException as error:
                log.warning(
                    "could not post the timeout of game %s in %s: %s", reply.game_id, channel_id, error
                )
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
