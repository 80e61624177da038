"""Which channels' posts wait, why, and what wakes them — and what each channel lacks that its posts
work around (see :mod:`bot.discord.delivery` for when a channel is held or degraded).

A held channel's posts wait without a request until :meth:`Holds.released` says its permissions may
have changed (a channel, role or guild update), or for the hourly probe; a channel of a guild the bot
was removed from ends the waiting. A degraded channel (no Embed Links, no Read Message History) is said
once in the log and once in the channel; an update that gives the permission back ends the working
around. The plain data of both lives in the :class:`~bot.discord.failures.Ledger`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import datetime

import discord

from bot import texts
from bot.discord import failures
from bot.discord.failures import MISSING_ACCESS, PERMANENT, PERMISSION, TRANSIENT, Hold, Ledger
from bot.discord.mentions import nobody
from bot.discord.rights import Rights, label, rights_in
from bot.observability import delivery as observed

log = logging.getLogger(__name__)

PROBE_AFTER_S = 3600.0  # a held channel is tried once more after this long without an update
HOMES_MAX = 10_000  # channels whose guild is remembered (to know a removed guild's channels)
NOTE_TIMEOUT_S = 30.0


class Gone(Exception):
    """The channel will never take the post (undeliverable, ``kind``: the failure's class — permanent
    or refused), or the bot is stopping (``stopping``)."""

    def __init__(self, stopping: bool = False, kind: str = PERMANENT) -> None:
        super().__init__("stopping" if stopping else "gone")
        self.stopping = stopping
        self.kind = kind


class Holds:
    def __init__(self, client: discord.Client, ledger: Ledger, probe_after: float = PROBE_AFTER_S) -> None:
        self.client = client
        self.ledger = ledger
        self.probe_after = probe_after
        self.stopping = False
        self._wake: dict[int, asyncio.Event] = {}  # held channel → set when it may be tried again
        self._trouble: dict[int, asyncio.Event] = {}  # channel → set while its posts do not go out
        self._homes: dict[int, int] = {}  # channel → its guild, as last seen in the cache
        self._gone_guilds: set[int] = set()
        self._tried: dict[int, float] = {}  # held channel → when it was last refused
        self._noted: set[tuple[int, str]] = set()  # (channel, permission) told in the channel
        self._notes: set[asyncio.Task[None]] = set()  # the notes under way (kept from the collector)

    # ------------------------------------------------------------------ what the client tells us

    def stop(self) -> None:
        """The bot is stopping: nothing waits any more (what is not posted stays pending)."""
        self.stopping = True
        for event in self._wake.values():
            event.set()

    def released(self, *, channel: int | None = None, guild: int | None = None) -> int:
        """A channel's (or a whole guild's) permissions may have changed: its held posts are tried
        again now, and what it was degraded for is checked again. Answers how many holds were woken."""
        woken = 0
        for held, hold in list(self.ledger.held.items()):
            if self._concerns(held, hold.guild, channel, guild):
                self._wake.setdefault(held, asyncio.Event()).set()
                woken += 1
        for degraded in list(self.ledger.degraded):
            if self._concerns(degraded, self._homes.get(degraded), channel, guild):
                self._recheck(degraded)
        return woken

    def _concerns(self, place: int, home: int | None, channel: int | None, guild: int | None) -> bool:
        parent = getattr(self.client.get_channel(place), "parent_id", None)  # a thread's channel
        return (channel is not None and channel in (place, parent)) or (guild is not None and home == guild)

    def guild_removed(self, guild_id: int) -> None:
        """The bot left the guild (or was removed): its held posts are undeliverable."""
        self._gone_guilds.add(guild_id)
        self.released(guild=guild_id)

    def guild_joined(self, guild_id: int) -> None:
        self._gone_guilds.discard(guild_id)

    def troubled(self, channel_id: int) -> asyncio.Event:
        """Set while the channel's posts do not go out (held, or failing): a public interaction answer
        then no longer waits for them."""
        return self._trouble.setdefault(channel_id, asyncio.Event())

    def hold_of(self, channel_id: int) -> Hold | None:
        return self.ledger.held.get(channel_id)

    def may_try(self, channel_id: int) -> bool:
        """Whether a post that is tried once only (a note) may be tried: the channel is not held, or
        was released since, or its probe is due."""
        if channel_id not in self.ledger.held:
            return True
        wake = self._wake.get(channel_id)
        return (wake is not None and wake.is_set()) or time.monotonic() - self._tried.get(
            channel_id, 0.0
        ) >= self.probe_after

    # ------------------------------------------------------------------ what a channel allows

    def rights(self, channel_id: int) -> Rights:
        """The bot's permissions in the channel (and its guild, remembered for when the guild goes)."""
        rights = rights_in(self.client, channel_id)
        if rights.guild is not None:
            if len(self._homes) >= HOMES_MAX and channel_id not in self._homes:
                self._homes.pop(next(iter(self._homes)))
            self._homes[channel_id] = rights.guild
        return rights

    def known(self, channel_id: int) -> bool:
        """Whether the channel is still one of a guild the bot is in (a 50001 there is View Channel)."""
        return self.client.get_channel(channel_id) is not None or (
            channel_id in self._homes and not self.gone(channel_id)
        )

    def gone(self, channel_id: int) -> bool:
        """Whether the channel belongs to a guild the bot was removed from."""
        guild = self._homes.get(channel_id)
        return guild is not None and guild in self._gone_guilds

    def failed(self, channel_id: int, error: BaseException) -> str:
        """The class of a failure in the channel, counted in the ledger."""
        kind = failures.classify(error, channel_known=self.known(channel_id))
        self.ledger.failed(kind, error)
        return kind

    # ------------------------------------------------------------------ holding

    def hold(self, channel_id: int, kind: str, error: BaseException | None) -> None:
        """The channel's posts wait from now on; the log says why, once per hold."""
        code = error.code if isinstance(error, discord.HTTPException) else None
        rights = self.rights(channel_id)
        missing = ""
        if kind == PERMISSION:
            missing = rights.blocking() if rights.known else ""
            if not missing and code == MISSING_ACCESS:
                missing = failures.VIEW_CHANNEL
        hold = self.ledger.held.get(channel_id)
        self.troubled(channel_id).set()
        self._tried[channel_id] = time.monotonic()
        if hold is not None and (hold.kind, hold.missing) == (kind, missing):
            log.info("channel %s is still held (%s)", channel_id, hold.describe())
            return
        guild = rights.guild or self._homes.get(channel_id)
        since = datetime.now().astimezone()
        self.ledger.held[channel_id] = Hold(channel_id, guild, kind, missing, code, since)
        if kind == TRANSIENT:
            log.error(
                "channel %s (guild %s): Discord keeps failing (%s); its posts wait for the hourly probe",
                channel_id,
                guild,
                said(error),
            )
            return
        log.error(
            "channel %s (guild %s): the bot cannot post there — %s; its posts wait until a channel, role "
            "or guild update or the hourly probe (docs/discord.md, permissions); %d invalid requests in "
            "the last 10 minutes",
            channel_id,
            guild,
            f"it lacks {missing}" if missing else f"Discord refused it ({said(error)})",
            self.ledger.invalid_recent(),
        )

    async def turn(self, channel_id: int) -> None:
        """Until the channel may be tried: at once if it is not held, else when it is released or the
        probe is due. Raises :class:`Gone` when the bot stops or the channel's guild is gone."""
        if self.gone(channel_id):
            raise Gone
        while channel_id in self.ledger.held:
            if self.stopping:
                raise Gone(stopping=True)
            wake = self._wake.setdefault(channel_id, asyncio.Event())
            try:
                await asyncio.wait_for(wake.wait(), self.probe_after)
            except TimeoutError:
                if self.ledger.braking:
                    log.warning("channel %s: probe put off, too many invalid requests lately", channel_id)
                    continue
                self.ledger.held[channel_id].probes += 1
                log.info("channel %s: probing whether it takes posts again", channel_id)
            wake.clear()
            if self.stopping:
                raise Gone(stopping=True)
            if self.gone(channel_id):
                raise Gone
            return

    def went_through(self, channel_id: int) -> None:
        """A post (or a probe) went through: the channel is no longer held."""
        hold = self.ledger.held.pop(channel_id, None)
        self.troubled(channel_id).clear()
        self._wake.pop(channel_id, None)
        self._tried.pop(channel_id, None)
        if hold is not None:
            log.warning(
                "channel %s takes posts again (held since %s: %s)", channel_id, hold.since, hold.describe()
            )

    def dropped(self, channel_id: int, kind: str = PERMANENT) -> None:
        """The channel's answer is undeliverable (a failure of class ``kind``): nothing waits for it
        any more."""
        self.ledger.undeliverable += 1
        observed.given_up(kind)
        self.ledger.held.pop(channel_id, None)
        self._tried.pop(channel_id, None)
        self.troubled(channel_id).clear()

    # ------------------------------------------------------------------ degrading

    def degraded(self, channel_id: int, permission: str, lang: str) -> None:
        """The channel's answers work around a missing permission: said once in the log and once in
        the channel."""
        missing = self.ledger.degraded.setdefault(channel_id, set())
        if permission in missing:
            return
        missing.add(permission)
        how = "without reply references" if permission == failures.READ_MESSAGE_HISTORY else "as plain text"
        log.error(
            "channel %s: the bot lacks %s; its answers go %s until it is granted (docs/discord.md)",
            channel_id,
            permission,
            how,
        )
        if (channel_id, permission) not in self._noted and channel_id not in self.ledger.held:
            self._noted.add((channel_id, permission))
            task = asyncio.get_running_loop().create_task(
                self._note(channel_id, permission, lang), name=f"degraded-note-{channel_id}"
            )
            self._notes.add(task)
            task.add_done_callback(self._notes.discard)

    async def _note(self, channel_id: int, permission: str, lang: str) -> None:
        key = "history" if permission == failures.READ_MESSAGE_HISTORY else "embeds"
        text = texts.render(
            f"discord.permission.degraded_{key}", {"permission": label(permission, lang)}, lang
        )
        try:
            await asyncio.wait_for(
                self.client.get_partial_messageable(channel_id).send(content=text, allowed_mentions=nobody()),
                NOTE_TIMEOUT_S,
            )
        except Exception as error:
            log.info("could not tell channel %s what it lacks: %s", channel_id, said(error))

    def _recheck(self, channel_id: int) -> None:
        """After an update: a permission the channel has again is no longer worked around."""
        rights = self.rights(channel_id)
        if not rights.known:
            return
        missing = self.ledger.degraded.get(channel_id, set())
        back = {
            permission
            for permission in missing
            if (permission == failures.EMBED_LINKS and rights.embed)
            or (permission == failures.READ_MESSAGE_HISTORY and rights.history)
        }
        for permission in back:
            missing.discard(permission)
            self._noted.discard((channel_id, permission))
            log.info("channel %s: %s is granted again", channel_id, permission)
        if not missing:
            self.ledger.degraded.pop(channel_id, None)


def said(error: BaseException | None) -> str:
    """A failure as a log shows it: Discord's status, code and message."""
    if error is None:
        return "refused"
    if isinstance(error, discord.HTTPException):
        return f"{error.status} {error.code}: {error.text}" if error.text else f"{error.status} {error.code}"
    return str(error) or type(error).__name__
