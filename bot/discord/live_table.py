"""The live table of a game played in its own thread: the thread's first message, edited in place after
every public reply (only the newest state is drawn: edits are coalesced in the outbox), never pinging
anyone; and what follows the game's end — the thread archived and locked, a result post in a text
channel home (a forum has no message box of its own, so it gets none)."""

from __future__ import annotations

import logging
from collections.abc import Mapping

import discord

from bot import texts
from bot.discord import threads
from bot.discord.boards import live_view
from bot.discord.delivery import Delivery, Tracked
from bot.discord.embeds import live_embeds
from bot.discord.mentions import nobody
from bot.discord.outbox import Outbox
from bot.discord.outgoing import Outgoing
from bot.replies import Reply

log = logging.getLogger(__name__)


class LiveTables:
    def __init__(self, client: discord.Client, outbox: Outbox, delivery: Delivery) -> None:
        self.client = client
        self.outbox = outbox
        self.delivery = delivery
        # Answers that are a live table's edit (a thread's opening) and wait for it: an edit that
        # replaces a waiting one (the outbox keeps only the newest) owes their acknowledgement too.
        self._owed: dict[str, list[Tracked]] = {}

    def redraw(
        self, reply: Reply, game_channel: int, commands: Mapping[str, str], *, tracked: Tracked | None = None
    ) -> None:
        """Queue the live table's edit to show ``reply`` (replacing an edit still waiting). ``tracked``:
        the edit is the answer itself (a thread's opening), retried until it is there."""
        live = reply.live
        if live is None or not live.channel.isdigit() or not live.message_id.isdigit():
            return
        channel_id, message_id = int(live.channel), int(live.message_id)
        out = Outgoing(live_embeds(reply, commands), nobody(), view=live_view(reply, game_channel))

        if tracked is not None:
            self._owed.setdefault(live.message, []).append(tracked)

        async def edit() -> None:
            owed = self._owed.pop(live.message, [])
            made = await self.delivery.edit(channel_id, message_id, out, tracked=owed[0] if owed else None)
            for also in owed[1:] if made else ():
                self.delivery.acknowledge(also)

        self.outbox.put(channel_id, edit, latest=("live", live.message))

    def close(self, reply: Reply, thread_id: int) -> None:
        """After a game's final reply (queued before this): archive and lock its thread, and give a
        text-channel home its result line with a link to the thread."""

        async def chores() -> None:
            lang = reply.language
            await threads.close(self.client, thread_id, texts.render("discord.thread.cannot_lock", {}, lang))
            if not reply.result:
                return
            home = await self._home_of(thread_id)
            if not isinstance(home, discord.TextChannel):
                return  # a forum: its posts are the record
            facts = {"result": reply.result, "thread": f"<#{thread_id}>"}
            line = texts.render("discord.thread.result_post", facts, lang)
            await self.delivery.post(home.id, Outgoing([], nobody(), content=line))

        self.outbox.put(thread_id, chores)

    async def _home_of(self, thread_id: int) -> discord.abc.GuildChannel | None:
        thread = self.client.get_channel(thread_id)
        if thread is None:
            try:
                thread = await self.client.fetch_channel(thread_id)
            except discord.HTTPException as error:
                log.warning("cannot find the finished game's thread %s: %s", thread_id, error)
                return None
        return await threads.home_of(self.client, thread) if isinstance(thread, discord.Thread) else None
