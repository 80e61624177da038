"""Discord's permission arithmetic, so interactions carry the member's real permissions and the emulator
can refuse what Discord would refuse (a bot sending where it may not, a member invoking a hidden command)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

CREATE_INSTANT_INVITE = 1 << 0
KICK_MEMBERS = 1 << 1
BAN_MEMBERS = 1 << 2
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_AUDIT_LOG = 1 << 7
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
CHANGE_NICKNAME = 1 << 26
MANAGE_ROLES = 1 << 28
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38

ALL = (1 << 51) - 1

EVERYONE_DEFAULT = (
    CREATE_INSTANT_INVITE
    | ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | CHANGE_NICKNAME
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | CREATE_PRIVATE_THREADS
    | SEND_MESSAGES_IN_THREADS
)
"""Roughly what a fresh server grants @everyone."""

BOT_DEFAULT = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | ADD_REACTIONS
    | USE_EXTERNAL_EMOJIS
    | CREATE_PUBLIC_THREADS
    | SEND_MESSAGES_IN_THREADS
)
"""What a typical invite link asks for a croupier bot (its managed role); MANAGE_THREADS (to lock a thread)
is granted by a test that needs it."""

ROLE_OVERWRITE = 0
MEMBER_OVERWRITE = 1


@dataclass(frozen=True)
class Overwrite:
    """A channel permission overwrite for a role (kind 0) or a member (kind 1)."""

    target_id: int
    kind: int
    allow: int = 0
    deny: int = 0

    def to_payload(self) -> dict[str, object]:
        return {
            "id": str(self.target_id),
            "type": self.kind,
            "allow": str(self.allow),
            "deny": str(self.deny),
        }


def base_permissions(*, everyone: int, role_permissions: Iterable[int], is_owner: bool) -> int:
    """Guild-level permissions: owner and Administrator get everything, otherwise the union of roles."""
    if is_owner:
        return ALL
    total = everyone
    for permissions in role_permissions:
        total |= permissions
    if total & ADMINISTRATOR:
        return ALL
    return total


def channel_permissions(
    base: int,
    *,
    guild_id: int,
    member_id: int,
    member_role_ids: Iterable[int],
    overwrites: Iterable[Overwrite],
) -> int:
    """Discord's order: the @everyone overwrite, then all role overwrites together, then the member's."""
    if base & ADMINISTRATOR or base == ALL:
        return ALL
    by_target = {(o.kind, o.target_id): o for o in overwrites}
    total = base
    everyone = by_target.get((ROLE_OVERWRITE, guild_id))
    if everyone is not None:
        total = (total & ~everyone.deny) | everyone.allow
    allow = deny = 0
    for role_id in member_role_ids:
        overwrite = by_target.get((ROLE_OVERWRITE, role_id))
        if overwrite is not None:
            allow |= overwrite.allow
            deny |= overwrite.deny
    total = (total & ~deny) | allow
    personal = by_target.get((MEMBER_OVERWRITE, member_id))
    if personal is not None:
        total = (total & ~personal.deny) | personal.allow
    if not total & VIEW_CHANNEL:
        return 0
    return total
