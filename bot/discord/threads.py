"""A game's own thread: created for its opening (a forum post, or a thread started from a message in a
text channel), archived and locked when it ends, removed again when the opening was refused after all.

Creating and closing threads needs Create Public Threads, Send Messages in Threads and Manage
Threads (docs/discord.md); without them the bot says so in the log and, where it can, in the channel.
A forum that requires a tag gets one the bot may apply (a moderator-only tag needs Manage Threads);
a guild at Discord's cap of active threads gets no new one. Either way the moderator is told why.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any, Final, Literal

import discord

from bot.discord import escape
from bot.discord.delivery import THREAD_ARCHIVED
from bot.discord.mentions import nobody

log = logging.getLogger(__name__)

NAME_MAX = 100  # Discord's limit for a channel (thread) name
ARCHIVE_AFTER_MIN: Final[Literal[10080]] = 10080  # a week without messages: a slow game's turns fit
_BLANKS = re.compile(r"\s+")


@dataclass(frozen=True)
class GameThread:
    """A thread made for a game: its id and where its first message (the live table) is."""

    thread_id: int
    home_id: int
    first_channel: int  # a forum post's first message is in the post; a text thread's in its channel
    first_message: int
    in_forum: bool

    @property
    def live_message(self) -> str:
        return f"{self.first_channel}:{self.first_message}"


TAG_MODERATED = 40066  # "There are no tags available that can be set by non-moderators"
TOO_MANY_THREADS = 160006  # "Maximum number of active threads reached"


class CannotCreateThread(Exception):
    """Discord refused the thread: the opening does not happen. ``why`` is the catalogue line that tells
    the moderator (missing permissions, no tag the bot may apply, too many active threads)."""

    def __init__(self, reason: str, why: str = "discord.thread.cannot_create") -> None:
        super().__init__(reason)
        self.why = why


def thread_name(title: str) -> str:
    """A thread name from the service's title: one line, no mention syntax, at most 100 characters."""
    one_line = _BLANKS.sub(" ", escape.one_line(title)).strip()
    safe = discord.utils.escape_mentions(one_line)
    return safe if len(safe) <= NAME_MAX else safe[: NAME_MAX - 1] + "…"


async def home_of(client: discord.Client, channel: Any) -> discord.abc.GuildChannel | None:
    """The channel a game's thread is made in: a thread's parent, or the channel itself."""
    parent_id = getattr(channel, "parent_id", None)
    home_id = parent_id if parent_id is not None else getattr(channel, "id", None)
    if home_id is None:
        return None
    found = client.get_channel(home_id)
    if found is None:
        try:
            found = await client.fetch_channel(home_id)
        except discord.HTTPException as error:
            log.warning("cannot see the channel %s a thread was asked for in: %s", home_id, error)
            return None
    return found if isinstance(found, discord.abc.GuildChannel) else None


async def create(
    client: discord.Client, home: discord.abc.GuildChannel, title: str, placeholder: str
) -> GameThread:
    """A new thread named ``title`` in ``home`` whose first message says ``placeholder`` (it becomes the
    live table once the game is open). Raises :class:`CannotCreateThread` when Discord refuses."""
    name = thread_name(title)
    try:
        if isinstance(home, discord.ForumChannel):
            return await _forum_post(client, home, name, placeholder)
        if isinstance(home, discord.TextChannel):
            return await _text_thread(home, name, placeholder)
    except discord.Forbidden as error:
        needs = (  # a forum post needs Send Messages (Discord ignores Create Public Threads there)
            "Send Messages"
            if isinstance(home, discord.ForumChannel)
            else "Create Public Threads and Send Messages in Threads"
        )
        log.error(
            "cannot create a game thread in channel %s (%s): the bot needs %s there (docs/discord.md)",
            home.id,
            error.text or error.code,
            needs,
        )
        forum = isinstance(home, discord.ForumChannel)
        raise CannotCreateThread(
            str(error), "discord.thread.cannot_post" if forum else "discord.thread.cannot_create"
        ) from error
    except discord.HTTPException as error:
        if error.code == TOO_MANY_THREADS:
            log.error(
                "cannot create a game thread in channel %s: the server has as many active threads as "
                "Discord allows (%s); archive some, or switch threads off there",
                home.id,
                error.text or error.code,
            )
            raise CannotCreateThread(str(error), "discord.thread.too_many") from error
        if error.code == TAG_MODERATED:
            _no_tag(home, error.text or str(error.code))
        raise
    raise CannotCreateThread(f"channel {home.id} takes no threads ({type(home).__name__})")


def _no_tag(forum: discord.abc.GuildChannel, why: str) -> None:
    log.error(
        "cannot create a game post in forum %s: it requires a tag, and every tag is for moderators only "
        "(%s); give the bot Manage Threads there, or add a tag everyone may apply (docs/discord.md)",
        forum.id,
        why,
    )
    raise CannotCreateThread(why, "discord.thread.no_tag")


def tag_for(forum: discord.ForumChannel) -> discord.ForumTag | None:
    """The tag a post of the bot gets in a forum that requires one: the first the bot may apply — a
    moderator-only tag only with Manage Threads there. None: the forum requires none."""
    if not forum.flags.require_tag or not forum.available_tags:
        return None
    me = forum.guild.me
    moderates = me is not None and forum.permissions_for(me).manage_threads
    for tag in forum.available_tags:
        if moderates or not tag.moderated:
            return tag
    _no_tag(forum, "no tag the bot may apply")
    return None  # never reached: _no_tag raises


async def _forum_post(
    client: discord.Client, forum: discord.ForumChannel, name: str, first: str
) -> GameThread:
    """A forum post, through Discord's route as its API describes it (discord.py's helper adds a
    query parameter the API does not declare)."""
    payload: dict[str, Any] = {
        "name": name,
        "auto_archive_duration": ARCHIVE_AFTER_MIN,
        "message": {"content": first, "allowed_mentions": {"parse": []}},
    }
    tag = tag_for(forum)
    if tag is not None:
        payload["applied_tags"] = [str(tag.id)]
    route = discord.http.Route("POST", "/channels/{channel_id}/threads", channel_id=forum.id)
    data = await client.http.request(route, json=payload)
    thread_id = int(data["id"])
    message_id = int((data.get("message") or {}).get("id") or thread_id)  # a post's first message has its id
    return GameThread(thread_id, forum.id, thread_id, message_id, in_forum=True)


async def _text_thread(channel: discord.TextChannel, name: str, first: str) -> GameThread:
    starter = await channel.send(first, allowed_mentions=nobody())
    try:
        thread = await starter.create_thread(name=name, auto_archive_duration=ARCHIVE_AFTER_MIN)
    except discord.HTTPException:
        await _quietly(starter.delete())
        raise
    return GameThread(thread.id, channel.id, channel.id, starter.id, in_forum=False)


async def remove(client: discord.Client, made: GameThread, note: str) -> None:
    """Undo a thread whose game was not opened after all (another moderator was quicker): delete it,
    or — without Manage Threads — leave the refusal in it and archive it."""
    try:
        await client.http.delete_channel(made.thread_id)
        if not made.in_forum:
            await client.http.delete_message(made.first_channel, made.first_message)
        return
    except discord.HTTPException as error:
        log.info("could not delete the unused thread %s (%s); archiving it", made.thread_id, error)
    edited = discord.http.handle_message_parameters(content=note, embeds=[], allowed_mentions=nobody())
    await _quietly(client.http.edit_message(made.first_channel, made.first_message, params=edited))
    await _quietly(client.http.edit_channel(made.thread_id, archived=True))


async def close(client: discord.Client, thread_id: int, cannot_lock: str, *, again: bool = False) -> bool:
    """Archive and lock a finished game's thread, so it stays as the record. Without Manage Threads
    it is archived only, after a note saying why. Answers whether it is locked. A failure that may
    pass (a 5xx, a timeout) and a 404 (the thread is gone) are raised: the caller retries, or stops.
    ``again``: the thread was just unarchived for this (it is not unarchived twice)."""
    try:
        await client.http.edit_channel(thread_id, archived=True, locked=True)
        return True
    except discord.Forbidden as error:
        log.error(
            "cannot lock the finished game's thread %s (%s): the bot needs Manage Threads (docs/discord.md)",
            thread_id,
            error.text or error.code,
        )
    except discord.HTTPException as error:
        if error.code != THREAD_ARCHIVED or again:
            raise
        return await _close_archived(client, thread_id, cannot_lock)
    await _quietly(client.http.send_message(thread_id, params=_note(cannot_lock)))
    await _quietly(client.http.edit_channel(thread_id, archived=True))
    return False


async def _close_archived(client: discord.Client, thread_id: int, cannot_lock: str) -> bool:
    """An archived thread takes no change but being unarchived: done if it is locked already (an
    earlier try Discord made but never answered), else (Discord archived it after a quiet week)
    unarchived and closed again."""
    thread = await client.fetch_channel(thread_id)
    if isinstance(thread, discord.Thread) and thread.locked:
        return True
    try:
        await client.http.edit_channel(thread_id, archived=False)
    except discord.Forbidden as error:
        log.error("the finished game's thread %s stays archived but unlocked (%s)", thread_id, error.text)
        return False
    return await close(client, thread_id, cannot_lock, again=True)


def _note(text: str) -> discord.http.MultipartParameters:
    return discord.http.handle_message_parameters(content=text, allowed_mentions=nobody())


async def _quietly(call: Any) -> None:
    try:
        await call
    except discord.HTTPException as error:
        log.info("a thread chore failed: %s", error)
