"""Who a message really pings: mention syntax in the content filtered by `allowed_mentions`, as Discord does.

Tests of "no reply ever pings @everyone or roles" then assert on what Discord would have notified.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

USER_MENTION = re.compile(r"<@!?(\d+)>")
ROLE_MENTION = re.compile(r"<@&(\d+)>")
EVERYONE = re.compile(r"@(everyone|here)\b")


@dataclass(frozen=True)
class Pings:
    users: tuple[int, ...] = ()
    roles: tuple[int, ...] = ()
    everyone: bool = False
    replied_user: bool = False

    @property
    def anyone(self) -> bool:
        return bool(self.users or self.roles or self.everyone or self.replied_user)


def written(content: str) -> tuple[list[int], list[int], bool]:
    """Users, roles and @everyone/@here as written in the text, in order of appearance."""
    users = list(dict.fromkeys(int(m) for m in USER_MENTION.findall(content)))
    roles = list(dict.fromkeys(int(m) for m in ROLE_MENTION.findall(content)))
    return users, roles, bool(EVERYONE.search(content))


def effective(
    content: str,
    allowed: dict[str, Any] | None,
    *,
    replied_author: int | None,
    mentionable_roles: set[int],
    may_mention_everyone: bool,
) -> Pings:
    """Discord's allowed_mentions rules: absent means "parse everything", present means only what it lists."""
    users, roles, everyone = written(content)
    roles = [r for r in roles if r in mentionable_roles or may_mention_everyone]
    everyone = everyone and may_mention_everyone
    if allowed is None:
        return Pings(tuple(users), tuple(roles), everyone, replied_author is not None)
    parse = set(allowed.get("parse") or ())
    allowed_users = {int(u) for u in allowed.get("users") or ()}
    allowed_roles = {int(r) for r in allowed.get("roles") or ()}
    users = [u for u in users if "users" in parse or u in allowed_users]
    roles = [r for r in roles if "roles" in parse or r in allowed_roles]
    everyone = everyone and "everyone" in parse
    replied = replied_author is not None and bool(allowed.get("replied_user", False))
    return Pings(tuple(users), tuple(roles), everyone, replied)
