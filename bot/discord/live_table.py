"""The live table of a game played in its own thread: the thread's first message, edited in place after
every public reply (only the newest state is drawn: edits are coalesced in the outbox), never pinging
anyone; and what follows the game's end — the thread archived and locked, a result post in a text
channel home (a forum has no message box of its own, so it gets none). Both closing steps are retried
until done and recorded by the service step by step; a start redoes what an earlier process left
(:mod:`bot.discord.catch_up`)."""

from __future__ import annotations

import functools
import logging
from collections.abc import Mapping
from datetime import datetime

import discord

from bot import texts
from bot.discord import threads
from bot.discord.boards import live_view
from bot.discord.delivery import Delivery, ResultLine, Tracked
from bot.discord.embeds import live_embeds
from bot.discord.limits import CONTENT_MAX
from bot.discord.mentions import nobody
from bot.discord.outbox import Outbox
from bot.discord.outgoing import Outgoing
from bot.discord.plain_text import live_content
from bot.replies import Reply
from bot.service.forum import RESULT, THREAD
from engine.numbers import digits

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
        if live is None or not digits(live.channel) or not digits(live.message_id):
            return
        channel_id, message_id = int(live.channel), int(live.message_id)
        view = live_view(reply, game_channel)
        out = Outgoing(
            live_embeds(reply, commands), nobody(), view=view, text=lambda: [live_content(reply, commands)]
        )

        if tracked is not None:
            self._owed.setdefault(live.message, []).append(tracked)

        async def edit() -> None:
            owed = self._owed.pop(live.message, [])
            made = await self.delivery.edit(
                channel_id, message_id, out, tracked=owed[0] if owed else None, lang=reply.language
            )
            for also in owed[1:] if made else ():
                self.delivery.acknowledge(also)

        self.outbox.put(channel_id, edit, latest=("live", live.message))

    def close(
        self,
        reply: Reply,
        thread_id: int,
        *,
        ended_at: datetime,
        close: bool = True,
        post: bool = True,
        look_first: bool = False,
    ) -> None:
        """After a game's final reply (queued before this, in the thread): archive and lock its thread,
        then give a text-channel home its result line with a link to the thread. Each step is retried
        until done and then recorded by the service, so a start redoes only what is left (``close``,
        ``post``; ``look_first``: the line may be in the home already — an earlier process's)."""
        game_id, live = reply.game_id, reply.live
        if game_id is None or live is None:
            return
        lang = reply.language
        # A text channel's thread starts from a message in the channel (the live table): that channel
        # is the home and takes the line. A forum post's live table is in the post: a forum gets none.
        home = int(live.channel) if live.channel != str(thread_id) and digits(live.channel) else None

        async def close_thread() -> None:
            note = texts.render("discord.thread.cannot_lock", {}, lang)
            what = f"closing the finished game's thread {thread_id}"
            closing = functools.partial(threads.close, self.client, thread_id, note)
            if await self.delivery.persist(what, closing, thread_id):
                await self.delivery.closing_done(game_id, THREAD)

        async def post_result() -> None:
            if home is None or not reply.result:
                await self.delivery.closing_done(game_id, RESULT)
                return
            line = Outgoing([], nobody(), content=result_post(reply.result, thread_id, lang))
            await self.delivery.post(home, line, tracked=ResultLine(game_id, ended_at), look_first=look_first)

        if close:
            self.outbox.put(thread_id, close_thread)
        if post:
            self.outbox.put(thread_id, post_result)  # after the closing: the thread's queue keeps the order


def result_post(result: str, thread_id: int, lang: str) -> str:
    """A home's result line with the link to the thread, within a message: a result too long for it
    (a great many tied leaders) is cut at a name, and says so."""
    post = texts.render("discord.thread.result_post", {"result": result, "thread": f"<#{thread_id}>"}, lang)
    if len(post) <= CONTENT_MAX:
        return post
    room = CONTENT_MAX - (len(post) - len(result)) - 2
    cut = result[:room]
    at = max(cut.rfind(", "), cut.rfind(" "))
    shortened = f"{cut[:at] if at > 0 else cut} …"
    return texts.render(
        "discord.thread.result_post", {"result": shortened, "thread": f"<#{thread_id}>"}, lang
    )
