"""Who is speaking where: the :class:`Incoming` the service gets from a Discord message or interaction.

The front end reads nothing from the store: it passes the author's roles and server permissions, and
the service decides — with the channel's settings it loads anyway — who moderates. Where a message
was typed is passed as the channel, its parent (a thread's text channel or forum: the home of the
tournament) and the kind of place (see ``Incoming.place``). Everything from Discord is ``tracked``:
the front end acknowledges each answer it posts.
"""

from __future__ import annotations

import discord

from bot.discord.mentions import service_text
from bot.service.requests import Incoming
from bot.texts import LANGUAGES


def language_of_locale(locale: discord.Locale | str | None) -> str:
    """The registered language closest to a Discord locale (for answers when the store cannot say)."""
    return LANGUAGES.closest(locale.value if isinstance(locale, discord.Locale) else locale)


def may_moderate(permissions: discord.Permissions) -> bool:
    """Moderators by server permission (Manage Server; Administrator implies it). The configured
    moderator role is checked by the service against the author's roles."""
    return permissions.manage_guild or permissions.administrator


def may_administer(permissions: discord.Permissions) -> bool:
    """Admins (export): Administrator or Manage Server."""
    return permissions.administrator or permissions.manage_guild


def place_of(channel: object) -> tuple[str, str]:
    """``(place, parent)`` of a channel: a text channel, a forum, a thread of a text channel or a forum
    post (with the parent's id), or "" for anything else (a voice channel's chat, a DM)."""
    if isinstance(channel, discord.Thread):
        parent = channel.parent
        if isinstance(parent, discord.ForumChannel):
            return "post", str(channel.parent_id)
        return "thread", str(channel.parent_id)
    if isinstance(channel, discord.ForumChannel):
        return "forum", ""
    if isinstance(channel, discord.TextChannel):
        return "text", ""
    parent_id = getattr(channel, "parent_id", None)
    if getattr(channel, "type", None) in (
        discord.ChannelType.public_thread,
        discord.ChannelType.private_thread,
    ):
        return "thread", str(parent_id or "")
    return "", ""


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
    place, parent = place_of(message.channel)
    return Incoming(
        message_id=f"discord:{message.id}",
        guild=str(message.guild.id),
        channel=str(message.channel.id),
        parent=parent,
        place=place,
        tracked=True,
        author=str(author.id),
        author_name=author.display_name,
        text=service_text(message.content).strip() if text is None else text,
        is_moderator=may_moderate(permissions),
        is_admin=may_administer(permissions),
        roles=roles_of(author),
    )


def from_interaction(interaction: discord.Interaction, text: str = "") -> Incoming:
    permissions = interaction.permissions
    place, parent = place_of(interaction.channel)
    return Incoming(
        message_id=f"interaction:{interaction.id}",
        guild=str(interaction.guild_id or ""),
        channel=str(interaction.channel_id or ""),
        parent=parent,
        place=place,
        tracked=True,
        author=str(interaction.user.id),
        author_name=interaction.user.display_name,
        text=service_text(text),
        is_moderator=may_moderate(permissions),
        is_admin=may_administer(permissions),
        roles=roles_of(interaction.user),
    )
