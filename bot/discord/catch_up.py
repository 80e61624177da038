"""What the bot does when a shard begins a new session, before it handles that shard's live events:
at the shard's first session in this process, deliver the answers an earlier process left pending and
finish the thread closings it left undone (after those answers: a thread's last answer goes out
before it is locked); at every new session, read each open game's channel of the shard's guilds from
where it was last read and handle what was typed meanwhile, in order, exactly once (the command log
sees to "once").

Discord replays what a shard missed when it resumes its session
(https://discord.com/developers/docs/events/gateway#resuming), so a resume reads nothing. A new
session — the first, or one after Discord invalidated the old one (op 9) — gets no replay: discord.py
then fires ``on_shard_ready`` for that shard alone (``on_ready`` only when every shard of the process
identified together), and that is where the shard catches up.

Where a channel was last read: the newest message handled there with everything before it handled
too (:class:`Reads`, handed to the service every half minute and at shutdown, kept with its next
write), or the last chat line the command log holds for the game, whichever is newer — not only the
last move, so chatter is not read again and no line typed in a gap is skipped. A line that arrives
live while its shard is catching up waits, and the history is read only up to the first such line
(the live events bring the rest, in order). History is read in pages of 100 (Discord's page size) up
to :data:`HISTORY_CEILING` messages per channel, with a warning naming the channel if the ceiling
cuts a read short; without the Message Content intent nothing is read (the history would show only
empty messages).

Only channels of this process's guilds are read (several shard processes share one database). The
turn clock applies a guild's deadlines only once its shard has caught up (:mod:`bot.discord.readiness`).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING

import discord

from bot import texts
from bot.discord.delivery import Tracked
from bot.discord.mentions import service_text
from bot.discord.outgoing import answer_for
from bot.observability import catch_up as observed
from bot.service.forum import Pending
from bot.store import CatchUpPoint
from engine.numbers import digits

if TYPE_CHECKING:
    from bot.discord.front import Front
    from bot.service.croupier import Croupier

log = logging.getLogger(__name__)

Readable = discord.TextChannel | discord.Thread | discord.VoiceChannel

HISTORY_CEILING = 1_000  # messages read per channel and catch-up (ten of Discord's pages)
READS_KEPT = 10_000  # channels whose newest read line is remembered (the least recently read go first)


class Reads:
    """How far each channel was read — the newest line handled there, everything before it handled
    too — and the first line that arrived live while its shard was catching up."""

    def __init__(self, croupier: Croupier, noted_every: float, handed: Callable[[], None]) -> None:
        self._croupier = croupier
        self._noted_every = noted_every
        self._handed = handed  # the front end writes what the service holds once the process is quiet
        self._newest: OrderedDict[int, int] = OrderedDict()
        self._unnoted: dict[tuple[str, str], str] = {}
        self._live_from: dict[int, tuple[int, int]] = {}  # channel → (guild, first live line)
        self._noting: asyncio.Task[None] | None = None

    def saw(self, guild_id: int, channel_id: int, message_id: int) -> None:
        """The line was handled (live or from the history), and every line before it."""
        if message_id <= self._newest.get(channel_id, 0):
            return
        self._newest[channel_id] = message_id
        self._newest.move_to_end(channel_id)
        while len(self._newest) > READS_KEPT:
            self._newest.popitem(last=False)
        self._unnoted[(str(guild_id), str(channel_id))] = str(message_id)
        if self._noting is None or self._noting.done():
            self._noting = asyncio.create_task(self._note_later(), name="channel reads")

    def newest(self, channel_id: int) -> int | None:
        return self._newest.get(channel_id)

    def arrived_live(self, guild_id: int, channel_id: int, message_id: int) -> None:
        """A line came in while its shard was catching up: the history is read up to it, not further."""
        known = self._live_from.get(channel_id)
        if known is None or message_id < known[1]:
            self._live_from[channel_id] = (guild_id, message_id)

    def live_from(self, channel_id: int) -> int | None:
        found = self._live_from.get(channel_id)
        return found[1] if found is not None else None

    def caught_up(self, guild_ids: Collection[int]) -> None:
        """The shard of these guilds caught up: what arrived live meanwhile is ordinary live traffic."""
        for channel_id, (guild_id, _) in list(self._live_from.items()):
            if guild_id in guild_ids:
                del self._live_from[channel_id]

    async def _note_later(self) -> None:
        await asyncio.sleep(self._noted_every)
        self.note()

    def note(self) -> None:
        """Hand how far the channels were read to the service, which keeps it (where a game is open)
        with its next write — a move, most likely — or with the acknowledgements the front end writes
        once the process is quiet (:mod:`bot.service.acknowledgements`): no transaction of its own."""
        if not self._unnoted:
            return
        unnoted, self._unnoted = self._unnoted, {}
        self._croupier.note_reads_later(unnoted)
        self._handed()

    async def close(self) -> None:
        """Hand over what is left: the front end's shutdown writes it with the acknowledgements."""
        if self._noting is not None:
            self._noting.cancel()
        self.note()


async def shard_ready(front: Front, shard_id: int) -> None:
    """A new session of the shard is ready: catch its guilds up (see the module docstring), then let
    their live events and turn timeouts go."""
    readiness = front.caught_up
    session = readiness.connecting(shard_id)  # said by on_shard_connect already; this one is caught up
    guild_ids = {guild.id for guild in front.client.guilds if readiness.shard_of(guild.id) == shard_id}
    try:
        if readiness.first_time(shard_id):
            if front.started_at is None:  # before any answer of this process is logged
                front.started_at = front.croupier.clock()
            await deliver_pending(front, guild_ids)
            await finish_closings(front, guild_ids)
        else:
            log.info("shard %d has a new session: catching up with its %d guild(s)", shard_id, len(guild_ids))
        lines = await catch_up(front, guild_ids)
        observed.ran(shard_id, lines)
        if lines:
            log.info("shard %d: caught up with %d line(s) typed while it was away", shard_id, lines)
    except Exception:
        log.exception("catching up shard %d failed; going on with its live events", shard_id)
    finally:
        if readiness.caught_up(shard_id, session):
            front.reads.caught_up(guild_ids)


async def deliver_pending(front: Front, guild_ids: Collection[int]) -> int:
    """Queue every answer an earlier process logged but never saw delivered in these guilds (each
    checked against the channel's history first); answers how many were queued."""
    assert front.started_at is not None
    queued = 0
    for pending in await front.croupier.pending_deliveries(front.started_at):
        channel = await _channel(front, pending.channel, guild_ids)
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


async def finish_closings(front: Front, guild_ids: Collection[int]) -> int:
    """Queue what is left of the thread closings of games an earlier process ended in these guilds —
    the final live table and the thread's archiving and locking if that is not done, the home's
    result line (looked for in its history first) if that is not posted; answers how many games."""
    assert front.started_at is not None
    ours = {str(guild_id) for guild_id in guild_ids}
    queued = 0
    for closing in await front.croupier.pending_closings(front.started_at):
        if closing.guild not in ours or not digits(closing.channel):
            continue  # another shard's guild
        thread_id, reply = int(closing.channel), front.spelled(closing.reply)
        if closing.close:  # the table first, then the thread closes
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
    reply = front.spelled(pending.reply)
    tracked = Tracked.of(pending.log_id, pending.message_id, pending.logged_at)
    if reply.thread_title and reply.live is not None:  # a thread's opening: its live table
        front.live.redraw(reply, channel_id, front.commands(reply.language), tracked=tracked)
        return
    reference = None
    if tracked.answering is not None:
        reference = discord.MessageReference(
            message_id=tracked.answering, channel_id=channel_id, fail_if_not_exists=False
        )
    elif tracked.interaction is not None:  # the token is long gone: a channel message naming the player
        name = f"<@{pending.actor}>" if digits(pending.actor) else pending.actor
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
        named=answer_for(int(pending.actor), reply.language) if digits(pending.actor) else None,
        look_first=True,
        logged_at=pending.logged_at,
        closing=False,  # finish_closings knows which steps are left
    )


async def catch_up(front: Front, guild_ids: Collection[int]) -> int:
    """Read each open game's channel of these guilds from where it was last read; answers how many
    lines were handled."""
    if not front.client.intents.message_content:
        if guild_ids and front.reads_history:
            front.reads_history = False
            log.info(
                "typed lines are not caught up after a reconnect: without the Message Content intent "
                "the history shows only empty messages (players use the buttons and /zug)"
            )
        return 0
    ours = {str(guild_id) for guild_id in guild_ids}
    read = 0
    for point in await front.croupier.catch_up_points():
        if point.guild not in ours:
            continue
        channel = await _channel(front, point.channel, guild_ids)
        if channel is None:
            continue
        read += await _read(front, channel, point)
    return read


def _start(front: Front, channel_id: int, point: CatchUpPoint) -> int:
    """The newest of: the last logged chat line, the newest line noted as read, the newest this
    process read — else the game's opening."""
    known = [int(m) for m in (point.after, point.read) if m is not None and digits(m)]
    newest = front.reads.newest(channel_id)
    if newest is not None:
        known.append(newest)
    return max(known) if known else discord.utils.time_snowflake(point.opened_at)


async def _read(front: Front, channel: Readable, point: CatchUpPoint) -> int:
    start = _start(front, channel.id, point)
    read = seen = 0
    last = start
    try:
        async for message in channel.history(
            after=discord.Object(start), oldest_first=True, limit=HISTORY_CEILING
        ):
            seen += 1
            last = message.id
            live_from = front.reads.live_from(channel.id)
            if live_from is not None and message.id >= live_from:
                return read  # from here on the live events bring the lines, in order
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
    if seen >= HISTORY_CEILING:
        log.warning(
            "catching up channel %s stopped at the ceiling of %d messages (after message %s): what was "
            "typed there later while the bot was away is not read; players repeat what they still mean",
            channel.id,
            HISTORY_CEILING,
            last,
        )
    return read


async def _channel(front: Front, channel: str, guild_ids: Collection[int]) -> Readable | None:
    """The channel, if it belongs to one of these guilds (a shard process sees only its own)."""
    if not digits(channel):
        return None
    found = front.client.get_channel(int(channel))
    if found is None:
        try:
            found = await front.client.fetch_channel(int(channel))
        except discord.HTTPException as error:
            log.info("channel %s cannot be read (%s)", channel, error)
            return None
    guild_id = getattr(getattr(found, "guild", None), "id", None)
    if guild_id not in guild_ids or not isinstance(found, Readable):
        return None
    return found
