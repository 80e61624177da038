"""What the emulated Discord knows: users, guilds with roles/members/channels, messages, commands.

Plain mutable records owned by one emulator; payload shapes live in payloads.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from . import permissions as perms
from .snowflakes import snowflake_time

TEXT = 0
DM = 1
VOICE = 2
CATEGORY = 4
NEWS = 5
ANNOUNCEMENT_THREAD = 10
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
FORUM = 15
MEDIA = 16

THREAD_TYPES = frozenset({ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD})
THREAD_ONLY_TYPES = frozenset({FORUM, MEDIA})  # channels that hold posts (threads), not messages
ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
REQUIRE_TAG = 1 << 4  # forum channel flag: a post needs a tag


class UsageError(ValueError):
    """The test asked for something a real Discord user could not do (unknown ids, hidden channel …)."""


@dataclass
class User:
    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    locale: str = "de"


@dataclass
class Role:
    id: int
    guild_id: int
    name: str
    permissions: int
    position: int
    managed: bool = False
    bot_id: int | None = None
    mentionable: bool = False
    hoist: bool = False
    color: int = 0


@dataclass
class Member:
    user_id: int
    guild_id: int
    nick: str | None
    role_ids: list[int]
    joined_at: datetime


@dataclass
class ThreadState:
    """What a thread has beyond a channel: its creator, metadata and members (user id → join time)."""

    owner_id: int
    created_at: datetime
    archive_timestamp: datetime
    auto_archive_duration: int = 1440
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    archiver_id: int | None = None
    applied_tags: list[int] = field(default_factory=list)
    members: dict[int, datetime] = field(default_factory=dict)
    message_count: int = 0
    total_message_sent: int = 0


@dataclass
class Channel:
    id: int
    type: int
    name: str | None
    guild_id: int | None
    position: int = 0
    topic: str | None = None
    parent_id: int | None = None
    nsfw: bool = False
    overwrites: list[perms.Overwrite] = field(default_factory=list)
    recipient_ids: list[int] = field(default_factory=list)
    last_message_id: int | None = None
    rate_limit_per_user: int = 0
    flags: int = 0
    default_auto_archive_duration: int | None = None
    available_tags: list[dict[str, Any]] = field(default_factory=list)  # forum/media channels
    thread: ThreadState | None = None  # set for threads (types 10, 11, 12)

    @property
    def is_thread(self) -> bool:
        return self.thread is not None

    def tag_id(self, name: str) -> int:
        for tag in self.available_tags:
            if tag["name"] == name:
                return int(tag["id"])
        raise UsageError(
            f"channel {self.id} has no tag {name!r} (it has {[t['name'] for t in self.available_tags]})"
        )


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    locale: str
    roles: dict[int, Role] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)
    thread_ids: list[int] = field(default_factory=list)
    joined_at: datetime | None = None

    @property
    def everyone(self) -> Role:
        return self.roles[self.id]


@dataclass
class StoredMessage:
    """A message as the emulator serves it; `payload` is the Discord message object, kept current on edits."""

    id: int
    channel_id: int
    guild_id: int | None
    author_id: int
    payload: dict[str, Any]
    ephemeral: bool = False
    interaction_id: int | None = None
    deleted: bool = False


class World:
    """Registry of everything the emulated Discord holds, with the permission questions Discord answers."""

    def __init__(self) -> None:
        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, StoredMessage] = {}
        self.channel_messages: dict[int, list[int]] = {}
        self.attachments: dict[int, bytes] = {}

    def user(self, user_id: int) -> User:
        try:
            return self.users[user_id]
        except KeyError:
            raise UsageError(f"unknown user {user_id}") from None

    def guild(self, guild_id: int) -> Guild:
        try:
            return self.guilds[guild_id]
        except KeyError:
            raise UsageError(f"unknown guild {guild_id}") from None

    def channel(self, channel_id: int) -> Channel:
        try:
            return self.channels[channel_id]
        except KeyError:
            raise UsageError(f"unknown channel {channel_id}") from None

    def member(self, guild_id: int, user_id: int) -> Member:
        try:
            return self.guild(guild_id).members[user_id]
        except KeyError:
            raise UsageError(f"user {user_id} is not a member of guild {guild_id}") from None

    def message(self, message_id: int) -> StoredMessage:
        stored = self.messages.get(message_id)
        if stored is None or stored.deleted:
            raise UsageError(f"unknown message {message_id}")
        return stored

    def add_message(self, stored: StoredMessage) -> None:
        self.messages[stored.id] = stored
        self.channel_messages.setdefault(stored.channel_id, []).append(stored.id)
        channel = self.channels.get(stored.channel_id)
        if channel is not None and not stored.ephemeral:
            channel.last_message_id = stored.id
            if channel.thread is not None:
                if stored.id != channel.id:  # a forum post's starter message (same id) is not counted
                    channel.thread.message_count += 1
                channel.thread.total_message_sent += 1
                stored.payload["position"] = channel.thread.total_message_sent - 1

    def send_permission(self, channel: Channel) -> int:
        """The permission a send needs here: in threads it is SEND_MESSAGES_IN_THREADS, not SEND_MESSAGES."""
        return perms.SEND_MESSAGES_IN_THREADS if channel.is_thread else perms.SEND_MESSAGES

    def permissions(self, guild_id: int, user_id: int, channel_id: int | None = None) -> int:
        """What Discord would compute for this member, in the channel when one is given."""
        guild = self.guild(guild_id)
        member = guild.members.get(user_id)
        if member is None:
            return 0
        base = perms.base_permissions(
            everyone=guild.everyone.permissions,
            role_permissions=(guild.roles[r].permissions for r in member.role_ids if r in guild.roles),
            is_owner=guild.owner_id == user_id,
        )
        if channel_id is None:
            return base
        channel = self.channel(channel_id)
        if channel.thread is not None:  # a thread has no overwrites: its parent's permissions apply
            granted = self.permissions(guild_id, user_id, channel.parent_id)
            if (
                channel.type == PRIVATE_THREAD
                and user_id not in channel.thread.members
                and not granted & perms.MANAGE_THREADS
            ):
                return 0  # a private thread is seen by its members and the thread moderators only
            return granted
        overwrites = list(channel.overwrites)
        if channel.parent_id is not None and not overwrites and channel.parent_id in self.channels:
            overwrites = list(self.channels[channel.parent_id].overwrites)  # synced with its category
        return perms.channel_permissions(
            base,
            guild_id=guild_id,
            member_id=user_id,
            member_role_ids=member.role_ids,
            overwrites=overwrites,
        )

    def can(self, guild_id: int | None, user_id: int, channel_id: int | None, needed: int) -> bool:
        if guild_id is None:  # direct messages: only the two participants exist
            return (
                channel_id is None
                or user_id in self.channel(channel_id).recipient_ids
                or self._is_bot(user_id)
            )
        return self.permissions(guild_id, user_id, channel_id) & needed == needed

    def _is_bot(self, user_id: int) -> bool:
        user = self.users.get(user_id)
        return user is not None and user.bot

    def created_at(self, snowflake: int) -> datetime:
        return snowflake_time(snowflake)
