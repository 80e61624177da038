"""Builders of Discord JSON payloads (API v10 shapes) from the emulator's records.

Field sets follow Discord's documentation closely enough that discord.py's parsers see what production sends.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from .models import (
    CATEGORY,
    DM,
    PRIVATE_THREAD,
    THREAD_ONLY_TYPES,
    VOICE,
    Channel,
    Guild,
    Member,
    Role,
    User,
    World,
)
from .permissions import VIEW_CHANNEL
from .snowflakes import iso

Payload = dict[str, Any]


def user(record: User) -> Payload:
    payload: Payload = {
        "id": str(record.id),
        "username": record.username,
        "discriminator": "0",
        "global_name": record.global_name,
        "avatar": None,
        "avatar_decoration_data": None,
        "public_flags": 0,
        "primary_guild": None,
    }
    if record.bot:
        payload["bot"] = True
    return payload


def current_user(record: User) -> Payload:
    """GET /users/@me: the bot's own user with the private fields Discord adds."""
    return {
        **user(record),
        "flags": 0,
        "mfa_enabled": True,
        "verified": True,
        "email": None,
        "locale": "en-US",
        "banner": None,
        "accent_color": None,
        "bio": "",
    }


def role(record: Role) -> Payload:
    payload: Payload = {
        "id": str(record.id),
        "name": record.name,
        "color": record.color,
        "colors": {"primary_color": record.color, "secondary_color": None, "tertiary_color": None},
        "hoist": record.hoist,
        "icon": None,
        "unicode_emoji": None,
        "position": record.position,
        "permissions": str(record.permissions),
        "managed": record.managed,
        "mentionable": record.mentionable,
        "flags": 0,
    }
    if record.bot_id is not None:
        payload["tags"] = {"bot_id": str(record.bot_id)}
    return payload


def member(
    world: World, record: Member, *, with_user: bool = True, permissions: int | None = None
) -> Payload:
    payload: Payload = {
        "nick": record.nick,
        "avatar": None,
        "banner": None,
        "roles": [str(r) for r in record.role_ids],
        "joined_at": iso(record.joined_at),
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "communication_disabled_until": None,
    }
    if with_user:
        payload["user"] = user(world.user(record.user_id))
    if permissions is not None:
        payload["permissions"] = str(permissions)
    return payload


def thread_member(thread_id: int, user_id: int, joined: datetime) -> Payload:
    return {"id": str(thread_id), "user_id": str(user_id), "join_timestamp": iso(joined), "flags": 0}


def thread(world: World, record: Channel, *, viewer_id: int | None = None) -> Payload:
    """A thread channel object (types 10/11/12), with `member` when `viewer_id` has joined it."""
    state = record.thread
    assert state is not None
    metadata: Payload = {
        "archived": state.archived,
        "auto_archive_duration": state.auto_archive_duration,
        "archive_timestamp": iso(state.archive_timestamp),
        "locked": state.locked,
        "create_timestamp": iso(state.created_at),
    }
    if record.type == PRIVATE_THREAD:
        metadata["invitable"] = state.invitable
    payload: Payload = {
        "id": str(record.id),
        "type": record.type,
        "guild_id": str(record.guild_id),
        "parent_id": str(record.parent_id),
        "owner_id": str(state.owner_id),
        "name": record.name,
        "last_message_id": str(record.last_message_id) if record.last_message_id else None,
        "rate_limit_per_user": record.rate_limit_per_user,
        "flags": record.flags,
        "message_count": state.message_count,
        "member_count": min(len(state.members), 50),
        "total_message_sent": state.total_message_sent,
        "thread_metadata": metadata,
    }
    parent = world.channels.get(record.parent_id or 0)
    if parent is not None and parent.type in THREAD_ONLY_TYPES:
        payload["applied_tags"] = [str(t) for t in state.applied_tags]
    if viewer_id is not None and viewer_id in state.members:
        payload["member"] = thread_member(record.id, viewer_id, state.members[viewer_id])
    return payload


def forum_tag(tag: dict[str, Any]) -> Payload:
    return {
        "id": str(tag["id"]),
        "name": tag["name"],
        "moderated": bool(tag.get("moderated", False)),
        "emoji_id": tag.get("emoji_id"),
        "emoji_name": tag.get("emoji_name"),
    }


def channel(
    world: World, record: Channel, *, with_guild_id: bool = True, viewer_id: int | None = None
) -> Payload:
    if record.thread is not None:
        return thread(world, record, viewer_id=viewer_id)
    if record.type == DM:
        return {
            "id": str(record.id),
            "type": DM,
            "last_message_id": str(record.last_message_id) if record.last_message_id else None,
            "recipients": [user(world.user(u)) for u in record.recipient_ids],
            "flags": 0,
        }
    payload: Payload = {
        "id": str(record.id),
        "type": record.type,
        "name": record.name,
        "position": record.position,
        "permission_overwrites": [o.to_payload() for o in record.overwrites],
        "parent_id": str(record.parent_id) if record.parent_id else None,
        "nsfw": record.nsfw,
        "flags": 0,
    }
    if with_guild_id:
        payload["guild_id"] = str(record.guild_id)
    payload["flags"] = record.flags
    if record.type == VOICE:
        payload.update(bitrate=64000, user_limit=0, rtc_region=None, rate_limit_per_user=0)
    elif record.type != CATEGORY:
        payload.update(
            topic=record.topic,
            rate_limit_per_user=record.rate_limit_per_user,
            last_message_id=str(record.last_message_id) if record.last_message_id else None,
        )
        if record.default_auto_archive_duration is not None:
            payload["default_auto_archive_duration"] = record.default_auto_archive_duration
    if record.type in THREAD_ONLY_TYPES:
        payload.update(
            available_tags=[forum_tag(t) for t in record.available_tags],
            default_reaction_emoji=None,
            default_thread_rate_limit_per_user=0,
            default_sort_order=None,
            default_forum_layout=0,
        )
    return payload


def guild(world: World, record: Guild) -> Payload:
    """The guild object of GET /guilds/{id} (no members or channels, as in the REST answer)."""
    return {
        "id": str(record.id),
        "name": record.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(record.owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 1,
        "explicit_content_filter": 0,
        "roles": [role(r) for r in sorted(record.roles.values(), key=lambda r: r.position)],
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "application_id": None,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "safety_alerts_channel_id": None,
        "max_members": 500000,
        "max_video_channel_users": 25,
        "vanity_url_code": None,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": record.locale,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
        "approximate_member_count": len(record.members),
        "approximate_presence_count": 0,
    }


def active_threads(
    world: World, record: Guild, viewer_id: int | None, channel_ids: set[int] | None = None
) -> list[Payload]:
    """The guild's unarchived threads the viewer can see (in those parent channels, when given)."""
    found = []
    for thread_id in record.thread_ids:
        item = world.channels[thread_id]
        if item.thread is None or item.thread.archived:
            continue
        if channel_ids is not None and item.parent_id not in channel_ids:
            continue
        if viewer_id is not None and not world.can(record.id, viewer_id, thread_id, VIEW_CHANNEL):
            continue
        found.append(thread(world, item, viewer_id=viewer_id))
    return found


def guild_create(
    world: World,
    record: Guild,
    *,
    members: list[Member],
    initial: bool,
    large_threshold: int,
    viewer_id: int | None = None,
) -> Payload:
    """GUILD_CREATE: the guild plus channels, members sent and counts. `initial` marks a guild announced
    as unavailable in READY; it then arrives with unavailable=false (discord.py: guild_available)."""
    payload = guild(world, record)
    payload.pop("approximate_member_count")
    payload.pop("approximate_presence_count")
    payload.update(
        joined_at=iso(record.joined_at) if record.joined_at else None,
        large=len(record.members) > large_threshold,
        member_count=len(record.members),
        voice_states=[],
        members=[member(world, m) for m in members],
        channels=[channel(world, world.channels[c], with_guild_id=False) for c in record.channel_ids],
        threads=active_threads(world, record, viewer_id),
        presences=[],
        stage_instances=[],
        guild_scheduled_events=[],
        soundboard_sounds=[],
        embedded_activities=[],
        lazy=True,
    )
    if initial:
        payload["unavailable"] = False
    return payload


def application(app_id: int, owner: User, *, name: str, flags: int, guild_count: int) -> Payload:
    return {
        "id": str(app_id),
        "name": name,
        "icon": None,
        "description": "",
        "summary": "",
        "type": None,
        "hook": True,
        "bot_public": True,
        "bot_require_code_grant": False,
        "verify_key": "0" * 64,
        "owner": user(owner),
        "team": None,
        "flags": flags,
        "rpc_origins": [],
        "tags": [],
        "interactions_endpoint_url": None,
        "role_connections_verification_url": None,
        "approximate_guild_count": guild_count,
        "integration_types_config": {"0": {}},
        "redirect_uris": [],
    }
