"""`DiscordEmulator`: a fake Discord on 127.0.0.1 that the real discord.py client logs into.

    async with DiscordEmulator() as emu:
        use_endpoints(emu.api_base, emu.gateway_url)
        guild = await emu.add_guild("Spielhalle")
        ...

The test side acts as Discord's users (messages, slash commands, clicks) and reads back what the bot did.
"""

from __future__ import annotations

import base64
import copy
import secrets
import time
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime
from types import EllipsisType, TracebackType
from typing import Any, Self

from aiohttp import web

from . import conformance, payloads
from . import interactions as ix
from . import permissions as perms
from .faults import Fault, Faults
from .gateway import (
    DIRECT_MESSAGES,
    GUILD_MEMBERS,
    GUILD_MESSAGES,
    GUILD_PRESENCES,
    GUILDS,
    MESSAGE_CONTENT,
    PRIVILEGED,
    Gateway,
    GatewayRecord,
    Session,
)
from .journal import Journal
from .mentions import Pings, written
from .messages import content_view, gateway_message, mark_edited, message_object
from .models import (
    CATEGORY,
    DM,
    NEWS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    REQUIRE_TAG,
    TEXT,
    THREAD_ONLY_TYPES,
    THREAD_TYPES,
    Channel,
    Guild,
    Member,
    Role,
    StoredMessage,
    UsageError,
    User,
    World,
)
from .records import (
    BotMessage,
    InteractionAnswers,
    InteractionResponse,
    InteractionState,
    RecordedRequest,
    SentInteraction,
)
from .rest import RestApi
from .snowflakes import SnowflakeFactory, snowflake_time
from .threads import Threads
from .validation import iter_components

GATEWAY_PATH = "/gateway"
RESUME_PATH = "/gateway-resume"

APP_FLAG_PRESENCE_LIMITED = 1 << 13
APP_FLAG_MEMBERS_LIMITED = 1 << 15
APP_FLAG_CONTENT_LIMITED = 1 << 19
BOT_DM = 1  # the interaction context of a direct message with the bot
ACTIVE_THREAD_LIMIT = 1000  # a guild's active threads at most (Discord documents the cap, not its size)


def _token_for(bot_id: int) -> str:
    """A token shaped like Discord's: the bot id in base64url, a timestamp part and an HMAC part."""
    first = base64.urlsafe_b64encode(str(bot_id).encode()).decode().rstrip("=")
    return f"{first}.{secrets.token_urlsafe(4)}.{secrets.token_urlsafe(28)}"


class DiscordEmulator:
    def __init__(
        self,
        *,
        token: str | None = None,
        bot_name: str = "Croupier",
        recommended_shards: int = 1,
        allowed_privileged_intents: int = PRIVILEGED,
        heartbeat_interval_ms: int = 41_250,
        interaction_window: float = 3.0,
        token_lifetime: float = 15 * 60,
    ) -> None:
        self.recommended_shards = recommended_shards
        self.allowed_privileged_intents = allowed_privileged_intents
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.ack_heartbeats = True
        self.snowflakes = SnowflakeFactory()
        self.world = World()
        self.app_id = self.snowflakes.next()
        self.bot_id = self.app_id  # modern applications share the id of their bot user
        self.token = token or _token_for(self.bot_id)
        self.owner_id = self.snowflakes.next()
        self.world.users[self.bot_id] = User(self.bot_id, bot_name, bot=True)
        self.world.users[self.owner_id] = User(self.owner_id, "app-owner", global_name="App Owner")
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        self.interactions: dict[int, InteractionState] = {}
        self.interactions_by_token: dict[str, InteractionState] = {}
        self.requests: Journal[RecordedRequest] = Journal("REST request")
        self.bot_messages: Journal[BotMessage] = Journal("bot message")
        self.interaction_responses: Journal[InteractionResponse] = Journal("interaction response")
        self._delivered: dict[int, tuple[str, dict[str, Any], int | None, int]] = {}
        self.interaction_window = interaction_window  # seconds a bot has to answer an interaction
        self.token_lifetime = token_lifetime  # seconds its token then works for followups and edits
        self.interaction_clock: Callable[[], float] = time.monotonic
        self.active_thread_limit = ACTIVE_THREAD_LIMIT  # active threads a guild may have (threads.py)
        self.faults = Faults()
        self.spec = conformance.load_spec()
        self.spec_violations: list[conformance.SpecViolation] = []
        self.spec_allowlist: list[conformance.Allowed] = list(conformance.ALLOWLIST)
        self.threads = Threads(self)
        self._rest = RestApi(self)
        self.gateway = Gateway(self, lambda: self.resume_url)
        self._runner: web.AppRunner | None = None
        self._port = 0

    # lifecycle ----------------------------------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get(GATEWAY_PATH, self.gateway.handle)
        app.router.add_get(RESUME_PATH, self.gateway.handle)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._serve_attachment)
        app.router.add_route("*", "/{tail:.*}", self._rest.handle)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=2.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        address = self._runner.addresses[0]
        self._port = int(address[1])

    async def stop(self) -> None:
        if self._runner is None:
            return
        self.faults.stop()  # held (hanging) requests end now
        await self.gateway.close()
        await self._runner.cleanup()
        self._runner = None

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.stop()
        if exc is None:
            self.check_spec_violations()
        elif self.unexplained_violations():
            exc.add_note(conformance.report(self.unexplained_violations()))

    # conformance with Discord's OpenAPI description -------------------------------------------------------

    def unexplained_violations(self) -> list[conformance.SpecViolation]:
        """Requests the spec refuses that no allowlist entry names."""
        return conformance.unexplained(self.spec_violations, self.spec_allowlist)

    def check_spec_violations(self) -> None:
        """Raise AssertionError naming every unexplained violation (the emulator does so when it stops)."""
        found = self.unexplained_violations()
        if found:
            raise AssertionError(conformance.report(found))

    def take_spec_violations(self) -> list[conformance.SpecViolation]:
        """Hand the violations so far to the test (which asserts on them) and forget them."""
        taken, self.spec_violations = self.spec_violations, []
        return taken

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self._port}{GATEWAY_PATH}"

    @property
    def resume_url(self) -> str:
        return f"ws://127.0.0.1:{self._port}{RESUME_PATH}"

    async def _serve_attachment(self, request: web.Request) -> web.Response:
        data = self.world.attachments.get(int(request.match_info["attachment_id"]))
        if data is None:
            return web.Response(status=404)
        return web.Response(body=data)

    # the world: guilds, channels, roles, members ------------------------------------------------------------

    async def add_guild(
        self,
        name: str = "Test Guild",
        *,
        shard: tuple[int, int] | None = None,
        locale: str = "de",
        owner_id: int | None = None,
        everyone_permissions: int = perms.EVERYONE_DEFAULT,
        bot_permissions: int = perms.BOT_DEFAULT,
    ) -> int:
        """A guild the bot is in: @everyone, the bot's managed role and member, and an owner member.
        `shard=(id, count)` picks an id that Discord would route to that shard."""
        guild_id = self.snowflakes.for_shard(*shard) if shard else self.snowflakes.next()
        if owner_id is None:
            owner_id = self.snowflakes.next()
            self.world.users[owner_id] = User(owner_id, f"owner-{name.lower().replace(' ', '-')}"[:32])
        now = datetime.now(tz=UTC)
        guild = Guild(guild_id, name, owner_id, locale, joined_at=now)
        guild.roles[guild_id] = Role(guild_id, guild_id, "@everyone", everyone_permissions, 0)
        bot_role = Role(
            self.snowflakes.next(), guild_id, self.world.user(self.bot_id).username, bot_permissions, 1
        )
        bot_role.managed, bot_role.bot_id = True, self.bot_id
        guild.roles[bot_role.id] = bot_role
        guild.members[owner_id] = Member(owner_id, guild_id, None, [], now)
        guild.members[self.bot_id] = Member(self.bot_id, guild_id, None, [bot_role.id], now)
        self.world.guilds[guild_id] = guild
        await self._dispatch_guild_create(guild)  # reaches only sessions that identified before it existed
        return guild_id

    async def _dispatch_guild_create(self, guild: Guild) -> None:
        def view(session: Session, _: dict[str, Any]) -> dict[str, Any]:
            return self._guild_create(session, guild, initial=False)

        await self.gateway.dispatch("GUILD_CREATE", {}, guild_id=guild.id, intent=GUILDS, view=view)

    async def add_channel(
        self,
        guild_id: int,
        name: str,
        *,
        type: int = TEXT,
        topic: str | None = None,
        parent_id: int | None = None,
        overwrites: Iterable[perms.Overwrite] = (),
        tags: Iterable[str] = (),
        moderated_tags: Iterable[str] = (),
        require_tag: bool = False,
        default_auto_archive_duration: int | None = None,
    ) -> int:
        """A guild channel: text (default), voice, category, announcement, or a forum (`type=FORUM`, with
        `tags` — their ids via `tag_id` —, those of them only moderators may apply, and `require_tag`)."""
        moderated = set(moderated_tags)
        tags = list(tags)
        if moderated - set(tags):
            raise UsageError(f"moderated tags {sorted(moderated - set(tags))} are not among the tags")
        guild = self.world.guild(guild_id)
        if parent_id is not None and self.world.channel(parent_id).type != CATEGORY:
            raise UsageError(f"channel {parent_id} is not a category")
        if type in THREAD_TYPES:
            raise UsageError("threads are started with start_thread / post_in_forum")
        if (tags or require_tag) and type not in THREAD_ONLY_TYPES:
            raise UsageError("only forum and media channels have tags")
        channel = Channel(
            self.snowflakes.next(),
            type,
            name,
            guild_id,
            position=len(guild.channel_ids),
            topic=topic,
            parent_id=parent_id,
            overwrites=list(overwrites),
            flags=REQUIRE_TAG if require_tag else 0,
            default_auto_archive_duration=default_auto_archive_duration,
            available_tags=[
                {"id": self.snowflakes.next(), "name": t, "moderated": t in moderated} for t in tags
            ],
        )
        self.world.channels[channel.id] = channel
        guild.channel_ids.append(channel.id)
        await self.gateway.dispatch(
            "CHANNEL_CREATE", payloads.channel(self.world, channel), guild_id=guild_id, intent=GUILDS
        )
        return channel.id

    async def set_overwrites(self, channel_id: int, overwrites: Iterable[perms.Overwrite]) -> None:
        channel = self.world.channel(channel_id)
        channel.overwrites = list(overwrites)
        await self.gateway.dispatch(
            "CHANNEL_UPDATE", payloads.channel(self.world, channel), guild_id=channel.guild_id, intent=GUILDS
        )

    async def add_role(
        self,
        guild_id: int,
        name: str,
        *,
        permissions: int = 0,
        mentionable: bool = False,
        hoist: bool = False,
        color: int = 0,
    ) -> int:
        guild = self.world.guild(guild_id)
        role = Role(
            self.snowflakes.next(),
            guild_id,
            name,
            permissions,
            position=len(guild.roles),
            mentionable=mentionable,
            hoist=hoist,
            color=color,
        )
        guild.roles[role.id] = role
        await self.gateway.dispatch(
            "GUILD_ROLE_CREATE",
            {"guild_id": str(guild_id), "role": payloads.role(role)},
            guild_id=guild_id,
            intent=GUILDS,
        )
        return role.id

    async def add_member(
        self,
        guild_id: int,
        name: str,
        *,
        user_id: int | None = None,
        nick: str | None = None,
        roles: Iterable[int] = (),
        permissions: int | None = None,
        locale: str = "de",
        global_name: str | None = None,
        bot: bool = False,
    ) -> int:
        """A member (creating the user unless `user_id` names an existing one). `permissions` gives the member
        a personal role carrying exactly those permissions."""
        guild = self.world.guild(guild_id)
        if user_id is None:
            user_id = self.snowflakes.next()
        user = self.world.users.get(user_id)
        if user is None:
            self.world.users[user_id] = User(user_id, name, global_name=global_name, bot=bot, locale=locale)
        role_ids = list(roles)
        unknown = [r for r in role_ids if r not in guild.roles]
        if unknown:
            raise UsageError(f"roles {unknown} are not in guild {guild_id}")
        if permissions is not None:
            role_ids.append(await self.add_role(guild_id, f"{name}-permissions", permissions=permissions))
        member = Member(user_id, guild_id, nick, role_ids, datetime.now(tz=UTC))
        guild.members[user_id] = member
        data = payloads.member(self.world, member)
        data["guild_id"] = str(guild_id)
        await self.gateway.dispatch("GUILD_MEMBER_ADD", data, guild_id=guild_id, intent=GUILD_MEMBERS)
        return user_id

    async def update_member(
        self,
        guild_id: int,
        user_id: int,
        *,
        nick: str | EllipsisType | None = ...,
        roles: Iterable[int] | None = None,
    ) -> None:
        member = self.world.member(guild_id, user_id)
        if not isinstance(nick, EllipsisType):
            member.nick = nick
        if roles is not None:
            member.role_ids = list(roles)
        data = payloads.member(self.world, member)
        data["guild_id"] = str(guild_id)
        await self.gateway.dispatch("GUILD_MEMBER_UPDATE", data, guild_id=guild_id, intent=GUILD_MEMBERS)

    async def remove_bot(self, guild_id: int) -> None:
        """The bot is kicked from the guild: its sessions get GUILD_DELETE without ``unavailable`` ("If
        the unavailable field is not set, the user was removed from the guild",
        https://discord.com/developers/docs/events/gateway-events#guild-delete), and from then on every
        request about the guild's channels is refused with 50001 Missing Access."""
        guild = self.world.guild(guild_id)
        await self.gateway.dispatch("GUILD_DELETE", {"id": str(guild_id)}, guild_id=guild_id, intent=GUILDS)
        guild.members.pop(self.bot_id, None)

    async def remove_member(self, guild_id: int, user_id: int) -> None:
        """The member leaves the guild (or is kicked): the user stays a Discord user, so an interaction
        option naming them resolves to a user without a member object — "resolved ... members: partial
        member objects" exist only for members
        (https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-resolved-data-structure)."""
        guild = self.world.guild(guild_id)
        if user_id not in guild.members:
            raise UsageError(f"user {user_id} is not a member of guild {guild_id}")
        del guild.members[user_id]
        data = {"guild_id": str(guild_id), "user": payloads.user(self.world.user(user_id))}
        await self.gateway.dispatch("GUILD_MEMBER_REMOVE", data, guild_id=guild_id, intent=GUILD_MEMBERS)

    def dm_channel_sync(self, user_id: int) -> int:
        """The direct-message channel between the bot and a user (created on first use, as Discord does)."""
        self.world.user(user_id)
        for channel in self.world.channels.values():
            if channel.type == DM and channel.recipient_ids == [user_id]:
                return channel.id
        channel = Channel(self.snowflakes.next(), DM, None, None, recipient_ids=[user_id])
        self.world.channels[channel.id] = channel
        return channel.id

    async def dm_channel(self, user_id: int) -> int:
        return self.dm_channel_sync(user_id)

    # what users do ------------------------------------------------------------------------------------------

    def _check_can_post(self, channel: Channel, author_id: int) -> None:
        if channel.type == DM:
            if author_id not in channel.recipient_ids:
                raise UsageError(f"user {author_id} is not part of DM channel {channel.id}")
            return
        assert channel.guild_id is not None
        self.world.member(channel.guild_id, author_id)
        if channel.type in THREAD_ONLY_TYPES:
            raise UsageError(f"channel {channel.id} is a forum: users post with post_in_forum")
        needed = perms.VIEW_CHANNEL | self.world.send_permission(channel)
        if not self.world.can(channel.guild_id, author_id, channel.id, needed):
            raise UsageError(f"user {author_id} cannot write in channel {channel.id}")
        state = channel.thread
        if state is not None and state.archived:
            moderator = self.world.can(channel.guild_id, author_id, channel.id, perms.MANAGE_THREADS)
            if state.locked and not moderator:
                raise UsageError(f"thread {channel.id} is archived and locked: user {author_id} cannot write")

    async def send_message(
        self,
        channel_id: int,
        author_id: int,
        content: str,
        *,
        mentions: Iterable[int] = (),
        reply_to: int | None = None,
        times: int = 1,
    ) -> int:
        """A user posts `content`. Mentions are read from the text (<@id>, <@&id>, @everyone) plus `mentions`;
        `times=2` delivers the identical MESSAGE_CREATE twice, like a gateway redelivery."""
        channel = self.world.channel(channel_id)
        self._check_can_post(channel, author_id)
        if channel.thread is not None and channel.thread.archived:  # the client unarchives it first
            await self.threads.update(channel, by=author_id, archived=False)
        return await self._post(
            channel, author_id, content, mentions=mentions, reply_to=reply_to, times=times
        )

    async def _post(
        self,
        channel: Channel,
        author_id: int,
        content: str,
        *,
        mentions: Iterable[int] = (),
        reply_to: int | None = None,
        times: int = 1,
        message_id: int | None = None,
    ) -> int:
        channel_id = channel.id
        users, roles, everyone = written(content)
        users = list(dict.fromkeys([*users, *mentions]))
        guild_id = channel.guild_id
        may_everyone = self.world.can(guild_id, author_id, channel_id, perms.MENTION_EVERYONE)
        if guild_id is not None:
            guild_roles = self.world.guild(guild_id).roles
            roles = [r for r in roles if r in guild_roles and (guild_roles[r].mentionable or may_everyone)]
        reference = self.world.message(reply_to) if reply_to is not None else None
        if reference is not None and reference.author_id not in users:
            users.append(reference.author_id)
        message_id = message_id or self.snowflakes.next()
        payload = message_object(
            self.world,
            message_id=message_id,
            channel_id=channel_id,
            author=self.world.user(author_id),
            content=content,
            pings=Pings(tuple(users), tuple(roles), everyone and may_everyone),
            reference=reference,
        )
        stored = StoredMessage(message_id, channel_id, guild_id, author_id, payload)
        self.world.add_message(stored)
        intent = GUILD_MESSAGES if guild_id is not None else DIRECT_MESSAGES
        data = gateway_message(self.world, stored)
        self._delivered[message_id] = ("MESSAGE_CREATE", data, guild_id, intent)
        for _ in range(times):
            await self.redeliver(message_id)
        return message_id

    # threads and forum posts, as users make them ------------------------------------------------------------

    def tag_id(self, forum_id: int, name: str) -> int:
        """The id of a forum's tag by its name."""
        return self.world.channel(forum_id).tag_id(name)

    async def post_in_forum(
        self,
        forum_id: int,
        author_id: int,
        title: str,
        content: str,
        *,
        tags: Iterable[str] = (),
        auto_archive_duration: int | None = None,
    ) -> int:
        """A user opens a forum post: a thread (THREAD_CREATE) whose first message (MESSAGE_CREATE, same id as
        the thread) says `content`. Returns the thread id."""
        forum = self.world.channel(forum_id)
        if forum.type not in THREAD_ONLY_TYPES:
            raise UsageError(f"channel {forum_id} is not a forum")
        assert forum.guild_id is not None
        self.world.member(forum.guild_id, author_id)
        if not self.world.can(forum.guild_id, author_id, forum_id, perms.VIEW_CHANNEL | perms.SEND_MESSAGES):
            raise UsageError(f"user {author_id} cannot post in forum {forum_id}")
        tag_ids = [forum.tag_id(t) for t in tags]
        if forum.flags & REQUIRE_TAG and not tag_ids:
            raise UsageError(f"forum {forum_id} requires a tag")
        thread = await self.threads.create(
            forum, author_id, title, auto_archive_duration=auto_archive_duration, applied_tags=tag_ids
        )
        await self._post(thread, author_id, content, message_id=thread.id)
        return thread.id

    async def start_thread(
        self,
        channel_id: int,
        user_id: int,
        name: str,
        *,
        message_id: int | None = None,
        private: bool = False,
        auto_archive_duration: int | None = None,
    ) -> int:
        """A user starts a thread in a text channel, from one of its messages (the thread gets the message's
        id) or without one (public threads leave a THREAD_CREATED notice in the channel)."""
        channel = self.world.channel(channel_id)
        if channel.type not in (TEXT, NEWS):
            raise UsageError(f"threads are started in text channels, not in channel {channel_id}")
        assert channel.guild_id is not None
        needed = perms.CREATE_PRIVATE_THREADS if private else perms.CREATE_PUBLIC_THREADS
        if not self.world.can(channel.guild_id, user_id, channel_id, perms.VIEW_CHANNEL | needed):
            raise UsageError(f"user {user_id} may not start threads in channel {channel_id}")
        source = None
        if message_id is not None:
            source = self.world.message(message_id)
            if source.channel_id != channel_id or private:
                raise UsageError(f"message {message_id} cannot start a (private) thread in {channel_id}")
            if message_id in self.world.channels:
                raise UsageError(f"message {message_id} already has a thread")
        thread = await self.threads.create(
            channel,
            user_id,
            name,
            kind=PRIVATE_THREAD if private else PUBLIC_THREAD,
            thread_id=message_id,
            auto_archive_duration=auto_archive_duration,
        )
        if source is not None:
            await self.threads.mark_starter(source, thread)
        elif not private:
            await self.threads.thread_created_notice(channel, thread, user_id)
        return thread.id

    async def update_thread(
        self,
        thread_id: int,
        *,
        by: int | None = None,
        name: str | None = None,
        archived: bool | None = None,
        locked: bool | None = None,
        auto_archive_duration: int | None = None,
        tags: Iterable[str] | None = None,
    ) -> None:
        """A member (`by`), or Discord itself (`by=None`, e.g. the auto-archive timer), changes a thread
        (THREAD_UPDATE). Locking, and anything on a locked thread, needs MANAGE_THREADS."""
        thread = self.threads.get(thread_id)
        state = self.threads.state(thread)
        if by is not None:
            assert thread.guild_id is not None
            moderator = self.world.can(thread.guild_id, by, thread_id, perms.MANAGE_THREADS)
            if not moderator and (locked is not None or state.locked):
                raise UsageError(f"user {by} may not lock or change the locked thread {thread_id}")
            if not moderator and by != state.owner_id and (name is not None or archived):
                raise UsageError(f"user {by} may not rename or archive thread {thread_id}")
        parent = self.world.channel(thread.parent_id or 0)
        await self.threads.update(
            thread,
            by=by,
            name=name,
            archived=archived,
            locked=locked,
            auto_archive_duration=auto_archive_duration,
            applied_tags=None if tags is None else [parent.tag_id(t) for t in tags],
        )

    async def archive_thread(self, thread_id: int, *, locked: bool = False, by: int | None = None) -> None:
        """Archive (and lock) a thread, by a moderator `by` or by Discord's auto-archive timer."""
        await self.update_thread(thread_id, by=by, archived=True, locked=locked or None)

    async def delete_thread(self, thread_id: int) -> None:
        await self.threads.delete(self.threads.get(thread_id))

    async def join_thread(self, thread_id: int, user_id: int) -> None:
        """A member joins a thread (THREAD_MEMBERS_UPDATE)."""
        await self.threads.add_member(self.threads.get(thread_id), user_id)

    async def leave_thread(self, thread_id: int, user_id: int) -> None:
        await self.threads.remove_member(self.threads.get(thread_id), user_id)

    async def sync_threads(self, guild_id: int, channel_ids: Iterable[int] | None = None) -> None:
        """THREAD_LIST_SYNC: the guild's active threads the bot sees (in those channels, when given), as
        Discord sends when the bot gains access to channels."""
        await self.threads.list_sync(guild_id, None if channel_ids is None else list(channel_ids))

    def thread(self, thread_id: int) -> dict[str, Any]:
        """The thread as the bot would fetch it."""
        return payloads.thread(self.world, self.threads.get(thread_id), viewer_id=self.bot_id)

    def threads_in(self, channel_id: int, *, archived: bool | None = None) -> list[dict[str, Any]]:
        """The threads (forum posts) of a channel, oldest first; only archived or active ones when asked."""
        channel = self.world.channel(channel_id)
        assert channel.guild_id is not None
        found = []
        for thread_id in self.world.guild(channel.guild_id).thread_ids:
            thread = self.world.channels[thread_id]
            state = thread.thread
            if thread.parent_id == channel_id and state and (archived is None or state.archived == archived):
                found.append(payloads.thread(self.world, thread, viewer_id=self.bot_id))
        return found

    async def redeliver(self, event_id: int) -> int:
        """Dispatch again the exact MESSAGE_CREATE / INTERACTION_CREATE first sent for this id."""
        try:
            event, data, guild_id, intent = self._delivered[event_id]
        except KeyError:
            raise UsageError(f"nothing was delivered for id {event_id}") from None
        view = content_view(self.bot_id) if event == "MESSAGE_CREATE" else None
        if event == "MESSAGE_CREATE" and not self._bot_sees(int(data["channel_id"])):
            return 0  # Discord sends no events of a channel (or private thread) the bot cannot see
        return await self.gateway.dispatch(
            event, copy.deepcopy(data), guild_id=guild_id, intent=intent, view=view
        )

    def _bot_sees(self, channel_id: int) -> bool:
        channel = self.world.channels.get(channel_id)
        if channel is None or channel.guild_id is None:
            return True
        return self.world.can(channel.guild_id, self.bot_id, channel_id, perms.VIEW_CHANNEL)

    async def edit_message(self, message_id: int, content: str) -> None:
        """The author edits their message (MESSAGE_UPDATE)."""
        stored = self.world.message(message_id)
        if stored.author_id == self.bot_id:
            raise UsageError("the bot's messages are edited by the bot")
        stored.payload["content"] = content
        mark_edited(stored.payload)
        intent = GUILD_MESSAGES if stored.guild_id is not None else DIRECT_MESSAGES
        await self.gateway.dispatch(
            "MESSAGE_UPDATE",
            gateway_message(self.world, stored),
            guild_id=stored.guild_id,
            intent=intent,
            view=content_view(self.bot_id),
        )

    async def delete_message(self, message_id: int) -> None:
        stored = self.world.message(message_id)
        stored.deleted = True
        data: dict[str, Any] = {"id": str(message_id), "channel_id": str(stored.channel_id)}
        if stored.guild_id is not None:
            data["guild_id"] = str(stored.guild_id)
        intent = GUILD_MESSAGES if stored.guild_id is not None else DIRECT_MESSAGES
        await self.gateway.dispatch("MESSAGE_DELETE", data, guild_id=stored.guild_id, intent=intent)

    def find_command(self, guild_id: int | None, name: str, *, kind: int = 1) -> dict[str, Any]:
        """The synced command a user would see under that name: the guild's own first, then the global one."""
        for scope in (guild_id, None) if guild_id is not None else (None,):
            for command in self.commands.get(scope, []):
                if command["name"] == name and command["type"] == kind:
                    return command
        synced = {scope: [c["name"] for c in commands] for scope, commands in self.commands.items()}
        raise UsageError(f"no synced command /{name} (synced: {synced})")

    def _check_may_use(
        self, command: dict[str, Any], guild_id: int | None, channel_id: int, user_id: int
    ) -> None:
        if guild_id is None:
            # https://discord.com/developers/docs/interactions/application-commands#interaction-contexts:
            # `contexts` says where a global command can be used (0 guild, 1 bot DM, 2 private channel);
            # the deprecated `dm_permission` counts only when a command has no `contexts`.
            contexts = command.get("contexts")
            in_dms = BOT_DM in contexts if contexts is not None else command.get("dm_permission", True)
            if not in_dms:
                raise UsageError(f"/{command['name']} cannot be used in direct messages")
            return
        granted = self.world.permissions(guild_id, user_id, channel_id)
        if not granted & perms.VIEW_CHANNEL:
            raise UsageError(f"user {user_id} cannot see channel {channel_id}")
        if not granted & perms.USE_APPLICATION_COMMANDS:
            raise UsageError(f"user {user_id} may not use application commands in channel {channel_id}")
        required = command.get("default_member_permissions")
        if required is not None and (
            granted & int(required) != int(required) or (required == "0" and granted != perms.ALL)
        ):
            raise UsageError(
                f"/{command['name']} is hidden from user {user_id} (needs permissions {required})"
            )

    async def _send_interaction(
        self,
        kind: int,
        *,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        data: dict[str, Any],
        locale: str | None,
        message: StoredMessage | None = None,
        command_name: str | None = None,
    ) -> SentInteraction:
        interaction_id = self.snowflakes.next()
        token = f"aW50ZXJhY3Rpb24.{secrets.token_urlsafe(48)}"
        body = ix.envelope(
            self.world,
            interaction_id=interaction_id,
            token=token,
            app_id=self.app_id,
            bot_id=self.bot_id,
            kind=kind,
            guild_id=guild_id,
            channel_id=channel_id,
            user_id=user_id,
            data=data,
            locale=locale,
            message=copy.deepcopy(message.payload) if message is not None else None,
        )
        sent = SentInteraction(interaction_id, token, kind, guild_id, channel_id, user_id, body)
        state = InteractionState(
            sent, command_name=command_name, source_message_id=message.id if message is not None else None
        )
        self.interactions[interaction_id] = state
        self.interactions_by_token[token] = state
        self._delivered[interaction_id] = ("INTERACTION_CREATE", body, guild_id, 0)
        state.dispatched_at = self.interaction_clock()  # the 3-second window starts now
        await self.redeliver(interaction_id)
        return sent

    def _guild_of(self, channel_id: int, guild_id: int | None) -> int | None:
        channel = self.world.channel(channel_id)
        if channel.guild_id != guild_id:
            raise UsageError(f"channel {channel_id} is not in guild {guild_id}")
        return guild_id

    async def slash_command(
        self,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        name: str,
        options: Mapping[str, object] | None = None,
        *,
        subcommand: str | None = None,
        group: str | None = None,
        locale: str | None = None,
        check_permissions: bool = True,
    ) -> SentInteraction:
        """A user runs a synced slash command (type 2); user/role/channel options take ids."""
        self._guild_of(channel_id, guild_id)
        command = self.find_command(guild_id, name)
        if check_permissions:
            self._check_may_use(command, guild_id, channel_id, user_id)
        data = ix.command_data(
            self.world,
            command,
            guild_id=guild_id,
            channel_id=channel_id,
            user_id=user_id,
            options=options or {},
            group=group,
            subcommand=subcommand,
        )
        return await self._send_interaction(
            ix.APPLICATION_COMMAND,
            guild_id=guild_id,
            channel_id=channel_id,
            user_id=user_id,
            data=data,
            locale=locale,
            command_name=name,
        )

    async def autocomplete(
        self,
        guild_id: int | None,
        channel_id: int,
        user_id: int,
        name: str,
        options: Mapping[str, object],
        *,
        focused: str,
        subcommand: str | None = None,
        group: str | None = None,
        locale: str | None = None,
    ) -> SentInteraction:
        """A user is typing into option `focused` (its value is sent as the typed text)."""
        self._guild_of(channel_id, guild_id)
        command = self.find_command(guild_id, name)
        data = ix.command_data(
            self.world,
            command,
            guild_id=guild_id,
            channel_id=channel_id,
            user_id=user_id,
            options=options,
            group=group,
            subcommand=subcommand,
            focused=focused,
        )
        return await self._send_interaction(
            ix.AUTOCOMPLETE,
            guild_id=guild_id,
            channel_id=channel_id,
            user_id=user_id,
            data=data,
            locale=locale,
            command_name=name,
        )

    async def click(
        self,
        message: int | BotMessage,
        custom_id: str,
        user_id: int,
        values: list[str] | list[int] | None = None,
        *,
        locale: str | None = None,
    ) -> SentInteraction:
        """A user presses a button or picks from a select on a message (INTERACTION_CREATE type 3)."""
        message_id = message.message_id if isinstance(message, BotMessage) else message
        stored = self.world.message(message_id)
        if stored.ephemeral:
            owner = self.interactions.get(stored.interaction_id or 0)
            if owner is None or owner.sent.user_id != user_id:
                raise UsageError("only the user an ephemeral message was sent to can click it")
        channel = self.world.channel(stored.channel_id)
        if channel.type == DM:
            if user_id not in channel.recipient_ids:
                raise UsageError(f"user {user_id} is not part of DM channel {channel.id}")
        elif not self.world.can(channel.guild_id, user_id, channel.id, perms.VIEW_CHANNEL):
            raise UsageError(f"user {user_id} cannot see channel {channel.id}")
        found = [
            c
            for c in iter_components(stored.payload.get("components") or [])
            if c.get("custom_id") == custom_id
        ]
        if not found:
            present = [c.get("custom_id") for c in iter_components(stored.payload.get("components") or [])]
            raise UsageError(f"message {message_id} has no component {custom_id!r} (it has {present})")
        component = found[0]
        if component.get("disabled"):
            raise UsageError(f"component {custom_id!r} is disabled")
        data = ix.component_data(
            self.world,
            component,
            guild_id=channel.guild_id,
            channel_id=channel.id,
            user_id=user_id,
            values=values,
        )
        return await self._send_interaction(
            ix.MESSAGE_COMPONENT,
            guild_id=channel.guild_id,
            channel_id=channel.id,
            user_id=user_id,
            data=data,
            locale=locale,
            message=stored,
        )

    async def submit_modal(
        self, interaction: SentInteraction, values: Mapping[str, object], *, locale: str | None = None
    ) -> SentInteraction:
        """The user fills in and submits the modal the bot answered `interaction` with (type 5)."""
        state = self.interactions[interaction.id]
        if state.modal is None:
            raise UsageError(f"interaction {interaction.id} was not answered with a modal")
        data = {"custom_id": state.modal["custom_id"], "components": ix.modal_components(state.modal, values)}
        source = self.world.messages.get(state.source_message_id) if state.source_message_id else None
        return await self._send_interaction(
            ix.MODAL_SUBMIT,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            user_id=interaction.user_id,
            data=data,
            locale=locale,
            message=source,
        )

    # the gateway's view of the world (GatewayBackend) -------------------------------------------------------

    def _guild_create(self, session: Session, guild: Guild, *, initial: bool) -> dict[str, Any]:
        small = len(guild.members) <= session.large_threshold
        if session.wants(GUILD_PRESENCES) and small:
            members = list(guild.members.values())
        else:
            members = [guild.members[self.bot_id]]
        return payloads.guild_create(
            self.world,
            guild,
            members=members,
            initial=initial,
            large_threshold=session.large_threshold,
            viewer_id=self.bot_id,
        )

    def _session_guilds(self, session: Session) -> list[Guild]:
        return [g for g in self.world.guilds.values() if session.covers(g.id) and self.bot_id in g.members]

    def ready_payload(self, session: Session, resume_url: str) -> dict[str, Any]:
        return {
            "v": 10,
            "user": payloads.current_user(self.world.user(self.bot_id)),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in self._session_guilds(session)],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": resume_url,
            "shard": list(session.shard),
            "application": {"id": str(self.app_id), "flags": self._application_flags()},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": ["frankfurt", "rotterdam"],
            "user_settings": {},
            "auth": {},
            "_trace": ["emulator"],
        }

    def initial_guild_creates(self, session: Session) -> list[dict[str, Any]]:
        if not session.wants(GUILDS):
            return []
        return [self._guild_create(session, g, initial=True) for g in self._session_guilds(session)]

    def member_chunks(self, session: Session, request: dict[str, Any]) -> list[dict[str, Any]]:
        guild_ids = request.get("guild_id")
        ids: list[Any] = guild_ids if isinstance(guild_ids, list) else [guild_ids]
        query = str(request.get("query") or "").casefold()
        limit = int(request.get("limit") or 0)
        wanted = {int(u) for u in request.get("user_ids") or []}
        chunks = []
        for raw in ids:
            guild = self.world.guilds.get(int(raw or 0))
            if guild is None or not session.covers(guild.id):
                continue
            members = list(guild.members.values())
            if wanted:
                members = [m for m in members if m.user_id in wanted]
            elif query:
                members = [
                    m
                    for m in members
                    if self.world.user(m.user_id).username.casefold().startswith(query)
                    or (m.nick or "").casefold().startswith(query)
                ]
            if limit:
                members = members[:limit]
            pages = [members[i : i + 1000] for i in range(0, len(members), 1000)] or [[]]
            for index, page in enumerate(pages):
                chunk: dict[str, Any] = {
                    "guild_id": str(guild.id),
                    "members": [payloads.member(self.world, m) for m in page],
                    "chunk_index": index,
                    "chunk_count": len(pages),
                }
                if request.get("nonce"):
                    chunk["nonce"] = request["nonce"]
                if wanted and index == len(pages) - 1:
                    chunk["not_found"] = [str(u) for u in wanted - set(guild.members)]
                chunks.append(chunk)
        return chunks

    def _application_flags(self) -> int:
        flags = 0
        if self.allowed_privileged_intents & GUILD_PRESENCES:
            flags |= APP_FLAG_PRESENCE_LIMITED
        if self.allowed_privileged_intents & GUILD_MEMBERS:
            flags |= APP_FLAG_MEMBERS_LIMITED
        if self.allowed_privileged_intents & MESSAGE_CONTENT:
            flags |= APP_FLAG_CONTENT_LIMITED
        return flags

    def application_payload(self) -> dict[str, Any]:
        return payloads.application(
            self.app_id,
            self.world.user(self.owner_id),
            name=self.world.user(self.bot_id).username,
            flags=self._application_flags(),
            guild_count=sum(1 for g in self.world.guilds.values() if self.bot_id in g.members),
        )

    # gateway faults -----------------------------------------------------------------------------------------

    async def disconnect_all(self, code: int = 4000) -> int:
        """Drop every gateway websocket like a network blip; sessions stay resumable. Returns how many."""
        return await self.gateway.disconnect_all(code)

    async def cut_gateway(self) -> int:
        """Drop every gateway connection and refuse new ones until :meth:`restore_gateway` (an outage)."""
        return await self.gateway.cut_off()

    def restore_gateway(self) -> None:
        self.gateway.restore()

    async def request_reconnect(self) -> int:
        """Send opcode 7 RECONNECT to every connected session."""
        return await self.gateway.request_reconnect()

    async def invalidate_sessions(self) -> int:
        """INVALID_SESSION (not resumable) to everyone: clients must IDENTIFY again."""
        return await self.gateway.invalidate_sessions()

    async def invalidate_shard(self, shard_id: int) -> int:
        """INVALID_SESSION (not resumable) to one shard's session only; the other shards stay connected
        (see `Gateway.invalidate_shard`)."""
        return await self.gateway.invalidate_shard(shard_id)

    @property
    def gateway_log(self) -> Journal[GatewayRecord]:
        return self.gateway.records

    def connected_sessions(self) -> list[Session]:
        return [s for s in self.gateway.sessions.values() if s.connection is not None]

    # reading back -------------------------------------------------------------------------------------------

    def synced_commands(self, guild_id: int | None = None) -> list[dict[str, Any]]:
        return copy.deepcopy(self.commands.get(guild_id, []))

    def unknown_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.route is None]

    def messages_in(self, channel_id: int) -> list[dict[str, Any]]:
        """The channel as users see it now: oldest first, after edits, without deleted or ephemeral ones."""
        return [
            copy.deepcopy(self.world.messages[i].payload)
            for i in self.world.channel_messages.get(channel_id, [])
            if not self.world.messages[i].deleted and not self.world.messages[i].ephemeral
        ]

    def message(self, message_id: int) -> dict[str, Any]:
        return copy.deepcopy(self.world.message(message_id).payload)

    def attachment_data(self, attachment: dict[str, Any]) -> bytes:
        return self.world.attachments[int(attachment["id"])]

    def original_response(self, interaction: SentInteraction) -> dict[str, Any] | None:
        state = self.interactions[interaction.id]
        if state.original_message_id is None:
            return None
        return self.message(state.original_message_id)

    async def wait_for_request(
        self,
        predicate: Callable[[RecordedRequest], bool],
        timeout: float = 5.0,  # noqa: ASYNC109
    ) -> RecordedRequest:
        return await self.requests.wait(predicate, timeout=timeout)

    async def next_message(
        self,
        channel_id: int | None = None,
        *,
        action: str | None = "create",
        predicate: Callable[[BotMessage], bool] | None = None,
        timeout: float = 5.0,  # noqa: ASYNC109
    ) -> BotMessage:
        """The next bot message (any route: channel post, interaction response, followup) not yet returned."""

        def matches(item: BotMessage) -> bool:
            return (
                (channel_id is None or item.channel_id == channel_id)
                and (action is None or item.action == action)
                and (predicate is None or predicate(item))
            )

        return await self.bot_messages.wait(matches, timeout=timeout, what=f"bot message ({action})")

    async def wait_for_response(
        self,
        interaction: SentInteraction,
        timeout: float = 5.0,  # noqa: ASYNC109
    ) -> InteractionResponse:
        """The bot's callback to this interaction."""
        return await self.interaction_responses.wait(
            lambda r: r.interaction_id == interaction.id, timeout=timeout, what="interaction response"
        )

    def answers(self, interaction: SentInteraction) -> InteractionAnswers:
        """What the bot did about this interaction so far: its callback (deferred or not, and how long after
        the event), refused attempts (a late callback: 10062; an expired token: 50027), and every message
        created, edited or deleted answering it, in order."""
        state = self.interactions[interaction.id]
        return InteractionAnswers(
            interaction_id=interaction.id,
            response=state.response,
            refused=tuple(state.refused),
            messages=tuple(m for m in self.bot_messages if m.answering == interaction.id),
        )

    async def wait_for_answers(
        self,
        interaction: SentInteraction,
        predicate: Callable[[InteractionAnswers], bool] = lambda a: a.acknowledged or bool(a.refused),
        timeout: float = 5.0,  # noqa: ASYNC109
    ) -> InteractionAnswers:
        """Until the bot's answers to this interaction satisfy `predicate` (by default: it answered, or tried
        and was refused)."""
        if not predicate(self.answers(interaction)):  # every answer is a request: re-check as they arrive
            await self.requests.wait(
                lambda _: predicate(self.answers(interaction)),
                timeout=timeout,
                consume=False,
                what=f"answers to interaction {interaction.id}",
            )
        return self.answers(interaction)

    # injected REST failures ---------------------------------------------------------------------------------

    def fail_requests(
        self,
        *,
        operation: str | None = None,
        method: str | None = None,
        route: str | None = None,
        channel: int | None = None,
        status: int = 500,
        times: int = 1,
        retry_after: float = 0.1,
        is_global: bool = False,
        code: int | None = None,
        message: str | None = None,
        hang: float | None = None,
        then: str = "drop",
    ) -> Fault:
        """The next `times` requests that match (spec operationId, method, spec path template, channel —
        all given must match) fail with `status` (403 Missing Permissions, 500, 502/503/504 from the edge,
        429 with `retry_after`) or, with `hang` seconds (math.inf: until `fault.release()`), get no answer
        and then `then`: "drop" the connection, "fail" with `status`, or "process" late; `then="lose"`
        does the work at once and closes the connection instead of answering. Returns the rule;
        `fault.hits` lists the requests it answered."""
        return self.faults.add(
            Fault(
                method=method,
                route=route,
                operation=operation,
                channel=channel,
                status=status,
                times=times,
                retry_after=retry_after,
                is_global=is_global,
                code=code,
                message=message,
                hang=hang,
                then=then,
            )
        )

    def clear_failures(self) -> None:
        """Forget every injected failure (held requests go on)."""
        self.faults.clear()

    async def wait_for_gateway(
        self,
        kind: str,
        predicate: Callable[[GatewayRecord], bool] | None = None,
        timeout: float = 5.0,  # noqa: ASYNC109
    ) -> GatewayRecord:
        return await self.gateway.records.wait(
            lambda r: r.kind == kind and (predicate is None or predicate(r)),
            timeout=timeout,
            what=f"gateway {kind}",
        )

    async def wait_for_identify(
        self,
        shard: tuple[int, int] | None = None,
        timeout: float = 5.0,  # noqa: ASYNC109
    ) -> GatewayRecord:
        """The next accepted IDENTIFY (of that shard, when given)."""

        def accepted(record: GatewayRecord) -> bool:
            return record.session_id is not None and (shard is None or record.shard == shard)

        return await self.wait_for_gateway("identify", accepted, timeout)

    def created_at(self, snowflake: int) -> datetime:
        return snowflake_time(snowflake)
