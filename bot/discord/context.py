"""Who is speaking where: the :class:`Incoming` the service gets from a Discord message or interaction.

The front end reads nothing from the store: it passes the author's roles and server permissions, and
the service decides — with the channel's settings it loads anyway — who moderates.
"""

from __future__ import annotations

import discord

from bot.croupier import Incoming
from bot.discord.mentions import service_text
from bot.texts import LANGUAGES


def language_of_locale(locale: discord.Locale | str | None) -> str:
    """The catalogue language closest to a Discord locale (for answers when the store cannot say)."""
    code = str(locale or "").split("-")[0].lower()
    return code if code in LANGUAGES else "de"


def may_moderate(permissions: discord.Permissions) -> bool:
    """Moderators by server permission (Manage Server; Administrator implies it). The configured
    moderator role is checked by the service against the author's roles."""
    return permissions.manage_guild or permissions.administrator


def may_administer(permissions: discord.Permissions) -> bool:
    """Admins (export): Administrator or Manage Server."""
    return permissions.administrator or permissions.manage_guild


def roles_of(user: discord.abc.User) -> tuple[tuple[str, str], ...]:
    if not isinstance(user, discord.Member):
        return ()
    return tuple((str(role.id), role.name) for role in user.roles)


def from_message(message: discord.Message, text: str | None = None) -> Incoming:
    assert message.guild is not None
    author = message.author
    permissions = (
        author.guild_permissions if isinstance(author, discord.Member) else discord.Permissions.none()
    )
    return Incoming(
        message_id=f"discord:{message.id}",
        guild=str(message.guild.id),
        channel=str(message.channel.id),
        author=str(author.id),
        author_name=author.display_name,
        text=service_text(message.content).strip() if text is None else text,
        is_moderator=may_moderate(permissions),
        is_admin=may_administer(permissions),
        roles=roles_of(author),
    )


def from_interaction(interaction: discord.Interaction, text: str = "") -> Incoming:
    permissions = interaction.permissions
    return Incoming(
        message_id=f"interaction:{interaction.id}",
        guild=str(interaction.guild_id or ""),
        channel=str(interaction.channel_id or ""),
        author=str(interaction.user.id),
        author_name=interaction.user.display_name,
        text=service_text(text),
        is_moderator=may_moderate(permissions),
        is_admin=may_administer(permissions),
        roles=roles_of(interaction.user),
    )
