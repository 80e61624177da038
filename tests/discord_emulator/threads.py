"""Threads and forum posts: what Discord keeps for them, the gateway events it sends, and the REST routes a
bot uses (create a post in a forum, start a thread from a message or without one, modify, archive, lock,
delete, join; thread members; archived and active thread lists; channel permission overwrites).

Rules follow Discord's documentation: a thread has its parent's permissions (a private one is seen only by its
members and the thread moderators); sending in a thread needs SEND_MESSAGES_IN_THREADS; an archived thread
takes no changes except being unarchived, which a locked one allows only to MANAGE_THREADS; a message sent
into an archived thread unarchives it unless it is locked (then 50083), and no message in an archived
thread can be edited (50083); locking needs MANAGE_THREADS; a thread started from a message has that
message's id, and a forum post's first message has the thread's id; a guild has at most
`DiscordEmulator.active_thread_limit` active threads (160006 beyond); a moderated forum tag is applied only
with MANAGE_THREADS (40066 otherwise).

- https://discord.com/developers/docs/topics/threads#active-archived-threads — "Users cannot edit messages
  … in archived threads"; "Sending a message will automatically unarchive the thread, unless the thread
  has been locked by a moderator"; "guilds are capped at a certain number of active threads".
- https://discord.com/developers/docs/resources/channel#forum-tag-object — `moderated`: "whether this tag
  can only be added to or removed from threads by a member with the MANAGE_THREADS permission".
- https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes — 40066 "There
  are no tags available that can be set by non-moderators", 40067 "A tag is required to create a forum
  post in this channel", 50083 "Operation cannot be performed on an archived thread", 160006 "Maximum
  number of active threads reached".
"""

from __future__ import annotations

import copy
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from . import payloads
from . import permissions as perms
from .gateway import GUILD_MEMBERS, GUILD_MESSAGES, GUILDS, Session
from .mentions import Pings
from .messages import content_view, gateway_message, message_object
from .models import (
    ANNOUNCEMENT_THREAD,
    ARCHIVE_DURATIONS,
    NEWS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    REQUIRE_TAG,
    TEXT,
    THREAD_ONLY_TYPES,
    Channel,
    StoredMessage,
    ThreadState,
    UsageError,
)

if TYPE_CHECKING:
    from .rest import Call, RestApi
    from .server import DiscordEmulator

THREAD_CREATED = 18  # the system message a public thread without a starter message leaves in its parent
HAS_THREAD = 1 << 5  # message flag of a thread's starter message

THREAD_ARCHIVED = (400, 50083, "Thread is archived")
WRONG_CHANNEL_TYPE = (400, 50024, "Cannot execute action on this channel type")
NOT_A_TEXT_CHANNEL = (400, 50008, "Cannot send messages in a non-text channel")
THREAD_EXISTS = (400, 160004, "A thread has already been created for this message")
TAG_REQUIRED = (400, 40067, "A tag is required to create a forum post in this channel")
TAG_MODERATED = (400, 40066, "There are no tags available that can be set by non-moderators")
TOO_MANY_THREADS = (400, 160006, "Maximum number of active threads reached")


def now() -> datetime:
    return datetime.now(tz=UTC)


class Threads:
    """Thread state changes and their gateway events, shared by the REST routes and the test's users."""

    def __init__(self, emu: DiscordEmulator) -> None:
        self.emu = emu
        self.world = emu.world

    def get(self, thread_id: int) -> Channel:
        channel = self.world.channel(thread_id)
        if channel.thread is None:
            raise UsageError(f"channel {thread_id} is not a thread")
        return channel

    def state(self, channel: Channel) -> ThreadState:
        if channel.thread is None:
            raise UsageError(f"channel {channel.id} is not a thread")
        return channel.thread

    def bot_sees(self, channel: Channel) -> bool:
        return self.world.can(channel.guild_id, self.emu.bot_id, channel.id, perms.VIEW_CHANNEL)

    # changes ------------------------------------------------------------------------------------------------

    async def create(
        self,
        parent: Channel,
        owner_id: int,
        name: str,
        *,
        kind: int = PUBLIC_THREAD,
        thread_id: int | None = None,
        auto_archive_duration: int | None = None,
        invitable: bool = True,
        rate_limit_per_user: int = 0,
        applied_tags: list[int] | None = None,
    ) -> Channel:
        assert parent.guild_id is not None
        moment = now()
        duration = auto_archive_duration or parent.default_auto_archive_duration or 1440
        if duration not in ARCHIVE_DURATIONS:
            raise UsageError(f"auto_archive_duration must be one of {ARCHIVE_DURATIONS}")
        state = ThreadState(
            owner_id=owner_id,
            created_at=moment,
            archive_timestamp=moment,
            auto_archive_duration=duration,
            invitable=invitable,
            applied_tags=list(applied_tags or []),
            members={owner_id: moment},
        )
        thread = Channel(
            thread_id or self.emu.snowflakes.next(),
            kind,
            name,
            parent.guild_id,
            parent_id=parent.id,
            rate_limit_per_user=rate_limit_per_user,
            thread=state,
        )
        self.world.channels[thread.id] = thread
        self.world.guild(parent.guild_id).thread_ids.append(thread.id)
        if parent.type in THREAD_ONLY_TYPES:
            parent.last_message_id = thread.id  # a forum's "last message" is its newest post
        await self.dispatch("THREAD_CREATE", thread, newly_created=True)
        return thread

    async def update(
        self,
        thread: Channel,
        *,
        by: int | None,
        name: str | None = None,
        archived: bool | None = None,
        locked: bool | None = None,
        auto_archive_duration: int | None = None,
        invitable: bool | None = None,
        rate_limit_per_user: int | None = None,
        applied_tags: list[int] | None = None,
    ) -> None:
        state = self.state(thread)
        if name is not None:
            thread.name = name
        if archived is not None and archived != state.archived:
            state.archived = archived
            state.archive_timestamp = now()
            state.archiver_id = by if archived else None
        if locked is not None:
            state.locked = locked
        if auto_archive_duration is not None:
            state.auto_archive_duration = auto_archive_duration
        if invitable is not None:
            state.invitable = invitable
        if rate_limit_per_user is not None:
            thread.rate_limit_per_user = rate_limit_per_user
        if applied_tags is not None:
            state.applied_tags = list(applied_tags)
        await self.dispatch("THREAD_UPDATE", thread)

    async def delete(self, thread: Channel) -> None:
        assert thread.guild_id is not None
        visible = self.bot_sees(thread)
        self.world.guild(thread.guild_id).thread_ids.remove(thread.id)
        del self.world.channels[thread.id]
        if visible:
            data = {
                "id": str(thread.id),
                "guild_id": str(thread.guild_id),
                "parent_id": str(thread.parent_id),
                "type": thread.type,
            }
            await self.emu.gateway.dispatch("THREAD_DELETE", data, guild_id=thread.guild_id, intent=GUILDS)

    async def add_member(self, thread: Channel, user_id: int) -> None:
        state = self.state(thread)
        assert thread.guild_id is not None
        self.world.member(thread.guild_id, user_id)
        if user_id in state.members:
            return
        state.members[user_id] = now()
        member = payloads.thread_member(thread.id, user_id, state.members[user_id])
        guild_member = self.world.guild(thread.guild_id).members[user_id]
        member["member"] = payloads.member(self.world, guild_member)
        member["presence"] = None
        if user_id == self.emu.bot_id:  # the bot learns of a thread it can now see
            await self.dispatch("THREAD_CREATE", thread)
        await self._members_update(thread, added=[member], removed=[], about_bot=user_id == self.emu.bot_id)

    async def remove_member(self, thread: Channel, user_id: int) -> None:
        state = self.state(thread)
        if state.members.pop(user_id, None) is None:
            return
        await self._members_update(thread, added=[], removed=[user_id], about_bot=user_id == self.emu.bot_id)

    async def _members_update(
        self, thread: Channel, *, added: list[dict[str, Any]], removed: list[int], about_bot: bool
    ) -> None:
        state = self.state(thread)
        data = {
            "id": str(thread.id),
            "guild_id": str(thread.guild_id),
            "member_count": min(len(state.members), 50),
            "added_members": added,
            "removed_member_ids": [str(u) for u in removed],
        }
        intent = GUILDS if about_bot else GUILD_MEMBERS  # others' joins need the members intent
        if about_bot or self.bot_sees(thread):
            await self.emu.gateway.dispatch(
                "THREAD_MEMBERS_UPDATE", data, guild_id=thread.guild_id, intent=intent
            )

    async def dispatch(self, event: str, thread: Channel, *, newly_created: bool = False) -> None:
        if not self.bot_sees(thread):
            return  # a private thread the bot is not in: Discord tells it nothing
        data = payloads.thread(self.world, thread, viewer_id=self.emu.bot_id)
        if newly_created:
            data["newly_created"] = True
        await self.emu.gateway.dispatch(event, data, guild_id=thread.guild_id, intent=GUILDS)

    async def list_sync(self, guild_id: int, channel_ids: list[int] | None = None) -> None:
        guild = self.world.guild(guild_id)
        wanted = set(channel_ids) if channel_ids is not None else None

        def view(session: Session, _: dict[str, Any]) -> dict[str, Any]:
            threads = payloads.active_threads(self.world, guild, self.emu.bot_id, wanted)
            data: dict[str, Any] = {
                "guild_id": str(guild_id),
                "threads": [{k: v for k, v in t.items() if k != "member"} for t in threads],
                "members": [t["member"] for t in threads if "member" in t],
            }
            if channel_ids is not None:
                data["channel_ids"] = [str(c) for c in channel_ids]
            return data

        await self.emu.gateway.dispatch("THREAD_LIST_SYNC", {}, guild_id=guild_id, intent=GUILDS, view=view)

    async def thread_created_notice(self, parent: Channel, thread: Channel, author_id: int) -> None:
        """The THREAD_CREATED system message a public thread leaves in its text channel."""
        message_id = self.emu.snowflakes.next()
        payload = message_object(
            self.world,
            message_id=message_id,
            channel_id=parent.id,
            author=self.world.user(author_id),
            content=thread.name or "",
            pings=Pings(),
            kind=THREAD_CREATED,
            extra={
                "message_reference": {
                    "type": 0,
                    "channel_id": str(thread.id),
                    "guild_id": str(parent.guild_id),
                }
            },
        )
        stored = StoredMessage(message_id, parent.id, parent.guild_id, author_id, payload)
        self.world.add_message(stored)
        await self.emu.gateway.dispatch(
            "MESSAGE_CREATE",
            gateway_message(self.world, stored),
            guild_id=parent.guild_id,
            intent=GUILD_MESSAGES,
            view=content_view(self.emu.bot_id),
        )

    async def mark_starter(self, source: StoredMessage, thread: Channel) -> None:
        """A message a thread was started from carries the thread and the HAS_THREAD flag (MESSAGE_UPDATE)."""
        source.payload["thread"] = payloads.thread(self.world, thread)
        source.payload["flags"] = int(source.payload.get("flags") or 0) | HAS_THREAD
        await self.emu.gateway.dispatch(
            "MESSAGE_UPDATE",
            gateway_message(self.world, source),
            guild_id=source.guild_id,
            intent=GUILD_MESSAGES,
            view=content_view(self.emu.bot_id),
        )


class ThreadRoutes:
    """The REST routes of threads, forum posts and overwrites; registered on the RestApi."""

    def __init__(self, rest: RestApi) -> None:
        self.rest = rest
        self.emu = rest.emu
        self.world = rest.world
        self.threads = rest.emu.threads
        r = rest._route
        r("POST", "/channels/{channel_id}/threads", self.create_thread)
        r("POST", "/channels/{channel_id}/messages/{message_id}/threads", self.create_thread_from_message)
        r("PATCH", "/channels/{channel_id}", self.modify_channel)
        r("DELETE", "/channels/{channel_id}", self.delete_channel)
        r("GET", "/channels/{channel_id}/thread-members", self.list_members)
        r("PUT", "/channels/{channel_id}/thread-members/@me", self.join)
        r("DELETE", "/channels/{channel_id}/thread-members/@me", self.leave)
        r("GET", "/channels/{channel_id}/thread-members/{user_id}", self.get_member)
        r("PUT", "/channels/{channel_id}/thread-members/{user_id}", self.add_member)
        r("DELETE", "/channels/{channel_id}/thread-members/{user_id}", self.remove_member)
        r("GET", "/channels/{channel_id}/threads/archived/public", self.archived_public)
        r("GET", "/guilds/{guild_id}/threads/active", self.active)
        r("PUT", "/channels/{channel_id}/permissions/{overwrite_id}", self.put_overwrite)
        r("DELETE", "/channels/{channel_id}/permissions/{overwrite_id}", self.delete_overwrite)

    # helpers ------------------------------------------------------------------------------------------------

    def _granted(self, channel: Channel) -> int:
        assert channel.guild_id is not None
        return self.world.permissions(channel.guild_id, self.emu.bot_id, channel.id)

    def _require(self, channel: Channel, needed: int) -> None:
        from .rest import MISSING_PERMISSIONS, fail

        if self._granted(channel) & needed != needed:
            raise fail(MISSING_PERMISSIONS)

    def _thread(self, call: Call) -> Channel:
        from .rest import fail

        channel = self.rest._channel(call)
        if channel.thread is None:
            raise fail(WRONG_CHANNEL_TYPE)
        return channel

    def _tags(self, parent: Channel, raw: Any) -> list[int]:
        from .rest import fail, invalid_form

        tags = [int(t) for t in raw or []]
        known = {int(t["id"]): t for t in parent.available_tags}
        if any(t not in known for t in tags):
            raise invalid_form(
                {"applied_tags": {"_errors": [{"code": "TAG_UNKNOWN", "message": "Unknown tag"}]}}
            )
        moderated = any(known[t].get("moderated") for t in tags)
        if moderated and not self._granted(parent) & perms.MANAGE_THREADS:
            raise fail(TAG_MODERATED)  # a moderator-only tag, applied by the bot that is none
        return tags

    def _room_for_a_thread(self, guild_id: int) -> None:
        from .rest import fail

        guild = self.world.guild(guild_id)
        active = sum(
            1
            for t in guild.thread_ids
            if (thread := self.world.channels[t].thread) is not None and not thread.archived
        )
        if active >= self.emu.active_thread_limit:
            raise fail(TOO_MANY_THREADS)

    def _response(self, thread: Channel) -> dict[str, Any]:
        return payloads.thread(self.world, thread, viewer_id=self.emu.bot_id)

    # creating -----------------------------------------------------------------------------------------------

    async def create_thread(self, call: Call) -> tuple[int, Any]:
        from .rest import ApiError, fail, invalid_form

        parent = self.rest._channel(call)
        body = call.body if isinstance(call.body, dict) else {}
        if parent.thread is not None or parent.type not in (TEXT, NEWS, *THREAD_ONLY_TYPES):
            raise fail(WRONG_CHANNEL_TYPE)
        name = str(body.get("name") or "")
        duration = body.get("auto_archive_duration")
        slowmode = int(body.get("rate_limit_per_user") or 0)
        if parent.type in THREAD_ONLY_TYPES:  # a forum post: a thread and its first message at once
            message = body.get("message")
            if not isinstance(message, dict):
                raise invalid_form(
                    {
                        "message": {
                            "_errors": [{"code": "BASE_TYPE_REQUIRED", "message": "This field is required"}]
                        }
                    }
                )
            self._require(
                parent, perms.VIEW_CHANNEL | perms.SEND_MESSAGES | (perms.ATTACH_FILES if call.files else 0)
            )
            tags = self._tags(parent, body.get("applied_tags"))
            if parent.flags & REQUIRE_TAG and not tags:
                raise fail(TAG_REQUIRED)
            assert parent.guild_id is not None
            self._room_for_a_thread(parent.guild_id)
            self.rest._validate(message, call.files, creating=True)
            thread = await self.threads.create(
                parent,
                self.emu.bot_id,
                name,
                auto_archive_duration=duration,
                rate_limit_per_user=slowmode,
                applied_tags=tags,
            )
            starter = await self.rest.create_bot_message(
                thread, message, call.files, via="forum_post", message_id=thread.id
            )
            return 201, {**self._response(thread), "message": copy.deepcopy(starter.payload)}
        kind = int(body.get("type") or PRIVATE_THREAD)
        if kind not in (PUBLIC_THREAD, PRIVATE_THREAD, ANNOUNCEMENT_THREAD):
            raise invalid_form(
                {"type": {"_errors": [{"code": "BASE_TYPE_CHOICES", "message": "Invalid type"}]}}
            )
        if parent.type == NEWS and kind == PUBLIC_THREAD:
            kind = ANNOUNCEMENT_THREAD
        if parent.type == TEXT and kind == ANNOUNCEMENT_THREAD:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        create = perms.CREATE_PRIVATE_THREADS if kind == PRIVATE_THREAD else perms.CREATE_PUBLIC_THREADS
        self._require(parent, perms.VIEW_CHANNEL | create)
        assert parent.guild_id is not None
        self._room_for_a_thread(parent.guild_id)
        thread = await self.threads.create(
            parent,
            self.emu.bot_id,
            name,
            kind=kind,
            auto_archive_duration=duration,
            invitable=bool(body.get("invitable", True)),
            rate_limit_per_user=slowmode,
        )
        if kind != PRIVATE_THREAD:
            await self.threads.thread_created_notice(parent, thread, self.emu.bot_id)
        return 201, self._response(thread)

    async def create_thread_from_message(self, call: Call) -> tuple[int, Any]:
        from .rest import fail

        parent = self.rest._channel(call, needed=perms.VIEW_CHANNEL | perms.READ_MESSAGE_HISTORY)
        if parent.type not in (TEXT, NEWS):
            raise fail(WRONG_CHANNEL_TYPE)
        source = self.rest._message(call, parent)
        if source.id in self.world.channels:
            raise fail(THREAD_EXISTS)
        self._require(parent, perms.CREATE_PUBLIC_THREADS)
        assert parent.guild_id is not None
        self._room_for_a_thread(parent.guild_id)
        body = call.body if isinstance(call.body, dict) else {}
        thread = await self.threads.create(
            parent,
            self.emu.bot_id,
            str(body.get("name") or ""),
            kind=ANNOUNCEMENT_THREAD if parent.type == NEWS else PUBLIC_THREAD,
            thread_id=source.id,
            auto_archive_duration=body.get("auto_archive_duration"),
            rate_limit_per_user=int(body.get("rate_limit_per_user") or 0),
        )
        await self.threads.mark_starter(source, thread)
        return 201, self._response(thread)

    # modifying ----------------------------------------------------------------------------------------------

    async def modify_channel(self, call: Call) -> tuple[int, Any]:
        from .rest import MISSING_PERMISSIONS, fail

        channel = self.rest._channel(call)
        body = call.body if isinstance(call.body, dict) else {}
        if channel.thread is None:
            self._require(channel, perms.MANAGE_CHANNELS)
            if body.get("name"):
                channel.name = str(body["name"])
            if "topic" in body:
                channel.topic = body["topic"]
            if body.get("rate_limit_per_user") is not None:
                channel.rate_limit_per_user = int(body["rate_limit_per_user"])
            if body.get("available_tags") is not None and channel.type in THREAD_ONLY_TYPES:
                channel.available_tags = [
                    {**t, "id": int(t.get("id") or self.emu.snowflakes.next())}
                    for t in body["available_tags"]
                ]
            await self.emu.gateway.dispatch(
                "CHANNEL_UPDATE",
                payloads.channel(self.world, channel),
                guild_id=channel.guild_id,
                intent=GUILDS,
            )
            return 200, payloads.channel(self.world, channel)
        state = channel.thread
        granted = self._granted(channel)
        moderator = bool(granted & perms.MANAGE_THREADS)
        owner = state.owner_id == self.emu.bot_id
        unarchiving = state.archived and body.get("archived") is False
        if state.archived and not unarchiving:
            raise fail(THREAD_ARCHIVED)  # an archived thread only takes being unarchived
        if unarchiving and state.locked and not moderator:
            raise fail(MISSING_PERMISSIONS)
        if unarchiving and not granted & perms.SEND_MESSAGES_IN_THREADS:
            raise fail(MISSING_PERMISSIONS)
        if "locked" in body and bool(body["locked"]) != state.locked and not moderator:
            raise fail(MISSING_PERMISSIONS)
        owner_fields = ("name", "auto_archive_duration", "rate_limit_per_user", "invitable", "applied_tags")
        if any(k in body for k in owner_fields) and not (owner or moderator):
            raise fail(MISSING_PERMISSIONS)
        if body.get("archived") is True and not (owner or moderator):
            raise fail(MISSING_PERMISSIONS)
        parent = self.world.channels.get(channel.parent_id or 0)
        tags = None
        if body.get("applied_tags") is not None and parent is not None:
            tags = self._tags(parent, body["applied_tags"])
        await self.threads.update(
            channel,
            by=self.emu.bot_id,
            name=body.get("name") or None,
            archived=body.get("archived"),
            locked=body.get("locked"),
            auto_archive_duration=body.get("auto_archive_duration"),
            invitable=body.get("invitable"),
            rate_limit_per_user=body.get("rate_limit_per_user"),
            applied_tags=tags,
        )
        return 200, self._response(channel)

    async def delete_channel(self, call: Call) -> tuple[int, Any]:
        channel = self.rest._channel(call)
        answer = payloads.channel(self.world, channel)
        if channel.thread is not None:
            self._require(channel, perms.MANAGE_THREADS)
            await self.threads.delete(channel)
            return 200, answer
        self._require(channel, perms.MANAGE_CHANNELS)
        assert channel.guild_id is not None
        self.world.guild(channel.guild_id).channel_ids.remove(channel.id)
        del self.world.channels[channel.id]
        await self.emu.gateway.dispatch("CHANNEL_DELETE", answer, guild_id=channel.guild_id, intent=GUILDS)
        return 200, answer

    # thread members -----------------------------------------------------------------------------------------

    def _member_payload(self, thread: Channel, user_id: int, with_member: bool) -> dict[str, Any]:
        state = thread.thread
        assert state is not None
        assert thread.guild_id is not None
        payload = payloads.thread_member(thread.id, user_id, state.members[user_id])
        if with_member:
            payload["member"] = payloads.member(
                self.world, self.world.guild(thread.guild_id).members[user_id]
            )
        return payload

    async def list_members(self, call: Call) -> tuple[int, Any]:
        thread = self._thread(call)
        assert thread.thread is not None
        after = int(call.query.get("after", 0))
        limit = max(1, min(100, int(call.query.get("limit", 100))))
        ids = sorted(u for u in thread.thread.members if u > after)[:limit]
        return 200, [self._member_payload(thread, u, call.flag("with_member")) for u in ids]

    async def get_member(self, call: Call) -> tuple[int, Any]:
        from .rest import UNKNOWN_MEMBER, fail

        thread = self._thread(call)
        assert thread.thread is not None
        user_id = call.int_param("user_id", UNKNOWN_MEMBER)
        if user_id not in thread.thread.members:
            raise fail(UNKNOWN_MEMBER)
        return 200, self._member_payload(thread, user_id, call.flag("with_member"))

    def _open_thread(self, call: Call) -> Channel:
        from .rest import fail

        thread = self._thread(call)
        assert thread.thread is not None
        if thread.thread.archived:
            raise fail(THREAD_ARCHIVED)
        return thread

    async def join(self, call: Call) -> tuple[int, Any]:
        thread = self._open_thread(call)
        await self.threads.add_member(thread, self.emu.bot_id)
        return 204, None

    async def leave(self, call: Call) -> tuple[int, Any]:
        thread = self._open_thread(call)
        await self.threads.remove_member(thread, self.emu.bot_id)
        return 204, None

    async def add_member(self, call: Call) -> tuple[int, Any]:
        from .rest import UNKNOWN_MEMBER, fail

        thread = self._open_thread(call)
        assert thread.thread is not None
        assert thread.guild_id is not None
        self._require(thread, perms.SEND_MESSAGES_IN_THREADS)
        if thread.type == PRIVATE_THREAD and not thread.thread.invitable:
            self._require(thread, perms.MANAGE_THREADS)
        user_id = call.int_param("user_id", UNKNOWN_MEMBER)
        if user_id not in self.world.guild(thread.guild_id).members:
            raise fail(UNKNOWN_MEMBER)
        await self.threads.add_member(thread, user_id)
        return 204, None

    async def remove_member(self, call: Call) -> tuple[int, Any]:
        from .rest import UNKNOWN_MEMBER

        thread = self._open_thread(call)
        assert thread.thread is not None
        if not (thread.type == PRIVATE_THREAD and thread.thread.owner_id == self.emu.bot_id):
            self._require(thread, perms.MANAGE_THREADS)
        await self.threads.remove_member(thread, call.int_param("user_id", UNKNOWN_MEMBER))
        return 204, None

    # listing ------------------------------------------------------------------------------------------------

    def _listing(self, threads: list[Channel], *, has_more: bool | None = None) -> dict[str, Any]:
        answer: dict[str, Any] = {
            "threads": [payloads.thread(self.world, t) for t in threads],
            "members": [
                self._member_payload(t, self.emu.bot_id, False)
                for t in threads
                if t.thread is not None and self.emu.bot_id in t.thread.members
            ],
        }
        if has_more is not None:
            answer["has_more"] = has_more
        return answer

    async def archived_public(self, call: Call) -> tuple[int, Any]:
        parent = self.rest._channel(call, needed=perms.VIEW_CHANNEL | perms.READ_MESSAGE_HISTORY)
        assert parent.guild_id is not None
        before = datetime.fromisoformat(call.query["before"]) if "before" in call.query else None
        limit = max(2, min(100, int(call.query.get("limit", 50))))
        found = [
            self.world.channels[t]
            for t in self.world.guild(parent.guild_id).thread_ids
            if self.world.channels[t].parent_id == parent.id
        ]
        archived = [
            t
            for t in found
            if t.thread is not None
            and t.thread.archived
            and t.type != PRIVATE_THREAD
            and (before is None or t.thread.archive_timestamp < before)
        ]
        archived.sort(key=lambda t: t.thread.archive_timestamp if t.thread else now(), reverse=True)
        return 200, self._listing(archived[:limit], has_more=len(archived) > limit)

    async def active(self, call: Call) -> tuple[int, Any]:
        guild_id = self.rest._guild(call)
        guild = self.world.guild(guild_id)
        found = [
            self.world.channels[t]
            for t in guild.thread_ids
            if not self.world.channels[t].thread.archived  # type: ignore[union-attr]
            and self.threads.bot_sees(self.world.channels[t])
        ]
        return 200, self._listing(found)

    # permission overwrites ----------------------------------------------------------------------------------

    async def put_overwrite(self, call: Call) -> tuple[int, Any]:
        channel = self.rest._channel(call)
        if channel.thread is not None:
            from .rest import fail

            raise fail(WRONG_CHANNEL_TYPE)
        self._require(channel, perms.MANAGE_ROLES)
        body = call.body if isinstance(call.body, dict) else {}
        target = int(call.params["overwrite_id"])
        overwrite = perms.Overwrite(
            target, int(body.get("type") or 0), int(body.get("allow") or 0), int(body.get("deny") or 0)
        )
        rest = [o for o in channel.overwrites if o.target_id != target]
        await self.emu.set_overwrites(channel.id, [*rest, overwrite])
        return 204, None

    async def delete_overwrite(self, call: Call) -> tuple[int, Any]:
        channel = self.rest._channel(call)
        self._require(channel, perms.MANAGE_ROLES)
        target = int(call.params["overwrite_id"])
        await self.emu.set_overwrites(channel.id, [o for o in channel.overwrites if o.target_id != target])
        return 204, None
