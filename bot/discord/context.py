"""Who is speaking where: the channel's settings and open game, the speaker's rights, and the
:class:`Incoming` line the service gets from a Discord message or interaction."""

from __future__ import annotations

from dataclasses import dataclass

import discord

from bot.croupier import Incoming
from bot.games import language_of
from bot.store import ChannelSettings, ChannelState, GameRecord, Store
from bot.texts import LANGUAGES

_ROLE_MENTION_PREFIXES = ("<@&", "@")


@dataclass(frozen=True)
class ChannelView:
    """One read of what the front end needs before asking the service: settings and open game."""

    settings: ChannelSettings
    record: GameRecord | None

    @property
    def language(self) -> str:
        return language_of(ChannelState(self.settings, self.record))


async def read_channel(store: Store, guild: str, channel: str) -> ChannelView:
    """Settings and open game of a channel in one read-only transaction."""
    async with store.unit_of_work(read_only=True) as uow:
        state = await uow.channels.state(guild, channel)
    return ChannelView(state.settings, state.game)


def language_of_locale(locale: discord.Locale | str | None) -> str:
    """The catalogue language closest to a Discord locale (for answers when the store cannot say)."""
    code = str(locale or "").split("-")[0].lower()
    return code if code in LANGUAGES else "de"


def has_moderator_role(member: discord.abc.User, role_setting: str | None) -> bool:
    """Whether the member carries the configured moderator role, given by id, mention or name."""
    if not role_setting or not isinstance(member, discord.Member):
        return False
    wanted = role_setting.strip()
    for prefix in _ROLE_MENTION_PREFIXES:
        if wanted.startswith(prefix):
            wanted = wanted[len(prefix) :].rstrip(">")
            break
    folded = wanted.casefold()
    return any(str(role.id) == wanted or role.name.casefold() == folded for role in member.roles)


def may_moderate(
    permissions: discord.Permissions, member: discord.abc.User, role_setting: str | None
) -> bool:
    """Moderators: the configured role, or Manage Server (Administrator implies it)."""
    return permissions.manage_guild or permissions.administrator or has_moderator_role(member, role_setting)


def may_administer(permissions: discord.Permissions) -> bool:
    """Admins (export): Administrator or Manage Server."""
    return permissions.administrator or permissions.manage_guild


def from_message(message: discord.Message, text: str, view: ChannelView) -> Incoming:
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
        text=text,
        is_moderator=may_moderate(permissions, author, view.settings.moderator_role),
        is_admin=may_administer(permissions),
    )


def from_interaction(interaction: discord.Interaction, view: ChannelView, text: str = "") -> Incoming:
    permissions = interaction.permissions
    return Incoming(
        message_id=f"interaction:{interaction.id}",
        guild=str(interaction.guild_id or ""),
        channel=str(interaction.channel_id or ""),
        author=str(interaction.user.id),
        author_name=interaction.user.display_name,
        text=text,
        is_moderator=may_moderate(permissions, interaction.user, view.settings.moderator_role),
        is_admin=may_administer(permissions),
    )
