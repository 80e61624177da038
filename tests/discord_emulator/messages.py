"""Message objects as Discord serves them, and the per-session view the gateway sends (guild_id, member,
content blanked for bots without the message-content intent)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from . import payloads
from .gateway import MESSAGE_CONTENT, Session
from .mentions import Pings
from .models import StoredMessage, User, World
from .snowflakes import iso

DEFAULT = 0
REPLY = 19
CHAT_INPUT_COMMAND = 20

EPHEMERAL = 1 << 6
LOADING = 1 << 7


def message_object(
    world: World,
    *,
    message_id: int,
    channel_id: int,
    author: User,
    content: str,
    pings: Pings,
    kind: int = DEFAULT,
    embeds: list[dict[str, Any]] | None = None,
    components: list[dict[str, Any]] | None = None,
    attachments: list[dict[str, Any]] | None = None,
    flags: int = 0,
    tts: bool = False,
    reference: StoredMessage | None = None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    message: dict[str, Any] = {
        "id": str(message_id),
        "channel_id": str(channel_id),
        "author": payloads.user(author),
        "content": content,
        "timestamp": iso(world.created_at(message_id)),
        "edited_timestamp": None,
        "tts": tts,
        "mention_everyone": pings.everyone,
        "mentions": [payloads.user(world.user(u)) for u in pings.users if u in world.users],
        "mention_roles": [str(r) for r in pings.roles],
        "attachments": attachments or [],
        "embeds": [normalise_embed(e) for e in embeds or []],
        "reactions": [],
        "pinned": False,
        "type": kind,
        "flags": flags,
        "components": components or [],
    }
    if reference is not None:
        message["type"] = REPLY if kind == DEFAULT else kind
        message["message_reference"] = {
            "type": 0,
            "message_id": str(reference.id),
            "channel_id": str(reference.channel_id),
            **({"guild_id": str(reference.guild_id)} if reference.guild_id else {}),
        }
        message["referenced_message"] = copy.deepcopy(reference.payload)
    if extra:
        message.update(extra)
    return message


def normalise_embed(embed: dict[str, Any]) -> dict[str, Any]:
    """Discord echoes embeds with their type filled in."""
    result = dict(embed)
    result.setdefault("type", "rich")
    if result.get("fields") is not None:
        result["fields"] = [{"inline": False, **f} for f in result["fields"]]
    return result


def mark_edited(message: dict[str, Any]) -> None:
    message["edited_timestamp"] = iso(datetime.now(tz=UTC))


def gateway_message(world: World, stored: StoredMessage) -> dict[str, Any]:
    """The MESSAGE_CREATE / MESSAGE_UPDATE body: the message plus guild_id and the partial members."""
    data = copy.deepcopy(stored.payload)
    if stored.guild_id is None:
        return data
    guild = world.guild(stored.guild_id)
    data["guild_id"] = str(stored.guild_id)
    author = guild.members.get(stored.author_id)
    if author is not None and "webhook_id" not in data:
        data["member"] = payloads.member(world, author, with_user=False)
    for mention in data.get("mentions", []):
        member = guild.members.get(int(mention["id"]))
        if member is not None:
            mention["member"] = payloads.member(world, member, with_user=False)
    return data


def content_view(bot_id: int) -> Callable[[Session, dict[str, Any]], dict[str, Any]]:
    """Without the MESSAGE_CONTENT intent a bot sees empty content, except in DMs, its own messages and
    messages that mention it."""

    def view(session: Session, data: dict[str, Any]) -> dict[str, Any]:
        if session.wants(MESSAGE_CONTENT) or "guild_id" not in data:
            return data
        if int(data["author"]["id"]) == bot_id or any(
            int(m["id"]) == bot_id for m in data.get("mentions", [])
        ):
            return data
        blanked = dict(data, content="", embeds=[], attachments=[], components=[])
        blanked.pop("poll", None)
        return blanked

    return view
