"""What the bot does when it (re)connects, before it handles live events: deliver the answers an
earlier process left pending and finish the thread closings it left undone (after those answers: a
thread's last answer goes out before it is locked), then read every open game's channel from its last
handled line and handle what was typed meanwhile, in order, exactly once (the command log sees to
"once").

Only channels of this process's guilds are read (several shard processes share one database). The
live events that arrive meanwhile wait (``Front.caught_up``), and so does the turn clock: a deadline
that passed while the bot was away applies only after the lines typed before it were read.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from bot import texts
from bot.discord.delivery import Tracked
from bot.discord.mentions import service_text
from bot.forum import Pending
from bot.observability.metrics import CATCH_UP_LINES, CATCH_UP_RUNS
from bot.store import CatchUpPoint

if TYPE_CHECKING:
    from bot.discord.front import Front

log = logging.getLogger(__name__)

Readable = discord.TextChannel | discord.Thread | discord.VoiceChannel


async def start(front: Front, *, deliver: bool) -> None:
    """The start (``deliver``: also the pending answers — once per process) or a reconnect."""
    front.caught_up.clear()
    try:
        if deliver:
            front.started_at = front.croupier.clock()
            await deliver_pending(front)
            await finish_closings(front)
        lines = await catch_up(front)
        CATCH_UP_RUNS.inc()
        CATCH_UP_LINES.inc(lines)
        if lines:
            log.info("caught up with %d line(s) typed while the bot was away", lines)
    except Exception:
        log.exception("catching up after connecting failed; going on with live events")
    finally:
        front.caught_up.set()


async def deliver_pending(front: Front) -> int:
    """Queue every answer an earlier process logged but never saw delivered (each checked against
    the channel's history first); answers how many were queued."""
    assert front.started_at is not None
    queued = 0
    for pending in await front.croupier.pending_deliveries(front.started_at):
        channel = await _channel(front, pending.channel)
        if channel is None:
            continue
        if pending.reply.private:
            front.delivery.acknowledge(Tracked(pending.log_id))  # nothing to show in a channel
            continue
        _redeliver(front, channel.id, pending)
        queued += 1
    if queued:
        log.info("delivering %d answer(s) left pending by an earlier start", queued)
    return queued


async def finish_closings(front: Front) -> int:
    """Queue what is left of the thread closings of games an earlier process ended — the final live
    table and the thread's archiving and locking if that is not done, the home's result line (looked
    for in its history first) if that is not posted; answers how many games were queued."""
    assert front.started_at is not None
    ours = {str(guild.id) for guild in front.client.guilds}
    queued = 0
    for closing in await front.croupier.pending_closings(front.started_at):
        if closing.guild not in ours or not closing.channel.isdigit():
            continue  # another shard process's guild
        thread_id, reply = int(closing.channel), closing.reply
        if closing.close:  # an archived thread takes no edit: the table first
            front.live.redraw(reply, thread_id, front.commands(reply.language))
        front.live.close(
            reply,
            thread_id,
            ended_at=closing.ended_at,
            close=closing.close,
            post=closing.post,
            look_first=True,
        )
        queued += 1
    if queued:
        log.info("finishing the closing of %d thread(s) left undone by an earlier start", queued)
    return queued


def _redeliver(front: Front, channel_id: int, pending: Pending) -> None:
    reply = pending.reply
    tracked = Tracked.of(pending.log_id, pending.message_id, pending.logged_at)
    if reply.thread_title and reply.live is not None:  # a thread's opening: its live table
        front.live.redraw(
            reply, channel_id, front.croupier.spelling.commands(reply.language), tracked=tracked
        )
        return
    reference = None
    if tracked.answering is not None:
        reference = discord.MessageReference(
            message_id=tracked.answering, channel_id=channel_id, fail_if_not_exists=False
        )
    elif tracked.interaction is not None:  # the token is long gone: a channel message naming the player
        name = f"<@{pending.actor}>" if pending.actor.isdigit() else pending.actor
        line = texts.render("discord.delivery.answer_for", {"name": name}, reply.language)
        front.publish(
            channel_id,
            reply,
            pending.message_id,
            header=line,
            look_first=True,
            logged_at=pending.logged_at,
            closing=False,
        )
        return
    front.publish(
        channel_id,
        reply,
        pending.message_id,
        reference=reference,
        look_first=True,
        logged_at=pending.logged_at,
        closing=False,  # finish_closings knows which steps are left
    )


async def catch_up(front: Front) -> int:
    """Read each open game's channel after its last handled line; answers how many lines were read."""
    read = 0
    for point in await front.croupier.catch_up_points():
        channel = await _channel(front, point.channel, guild=point.guild)
        if channel is None:
            continue
        read += await _read(front, channel, point)
    return read


async def _read(front: Front, channel: Readable, point: CatchUpPoint) -> int:
    after = int(point.after) if point.after and point.after.isdigit() else None
    start = discord.Object(after if after is not None else discord.utils.time_snowflake(point.opened_at))
    read = 0
    try:
        async for message in channel.history(after=start, oldest_first=True, limit=None):
            if message.author.bot or message.webhook_id is not None or message.guild is None:
                continue
            text = service_text(message.content).strip()
            if not text or not front.first_time(message.id):
                continue
            read += 1
            await front.line(message, text, catching_up=True)
    except discord.HTTPException as error:
        log.error(
            "cannot read the history of channel %s to catch up (%s): the bot needs Read Message History "
            "(docs/discord.md)",
            channel.id,
            error.text or error.status,
        )
    return read


async def _channel(front: Front, channel: str, *, guild: str | None = None) -> Readable | None:
    """The channel, if it belongs to one of this process's guilds (a shard process sees only its own)."""
    if not channel.isdigit():
        return None
    ours = {g.id for g in front.client.guilds}
    if guild is not None and (not guild.isdigit() or int(guild) not in ours):
        return None
    found = front.client.get_channel(int(channel))
    if found is None:
        try:
            found = await front.client.fetch_channel(int(channel))
        except discord.HTTPException as error:
            log.info("channel %s cannot be read (%s)", channel, error)
            return None
    guild_id = getattr(getattr(found, "guild", None), "id", None)
    if guild_id not in ours or not isinstance(found, Readable):
        return None
    return found
