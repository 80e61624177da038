"""What the service reads off a request's message: the key its channel is remembered under, whether its
author moderates there, and how its logged answer's delivery starts."""

from __future__ import annotations

from bot.service.requests import Incoming, role_id_of
from bot.store import ChannelSettings


def key_of(msg: Incoming) -> tuple[str, str, str]:
    """What a channel's warm entry is kept under: its settings depend on the guild and the home."""
    return (msg.guild, msg.channel, msg.home)


def delivery_of(msg: Incoming) -> str | None:
    """What a logged answer's delivery starts as: pending when the front end acknowledges it."""
    return "pending" if msg.tracked else None


def moderates(msg: Incoming, settings: ChannelSettings) -> bool:
    return msg.is_moderator or holds_role(msg, settings.moderator_role)


def holds_role(msg: Incoming, role_setting: str | None) -> bool:
    """Whether the author carries the configured moderator role. Given by id (or mention) it is that
    role alone — a role *named* like the id is another role. Given by name it is any role of that
    name (case folded), which whoever may create roles can make: the start warns of it
    (:func:`bot.discord.client.warn_of_role_names`) and the deployment guide says to prefer the id."""
    if not role_setting:
        return False
    wanted = role_id_of(role_setting)
    if wanted is not None:
        return any(role_id == wanted for role_id, _ in msg.roles)
    folded = role_setting.strip().removeprefix("@").casefold()
    return any(name.casefold() == folded for _, name in msg.roles)
