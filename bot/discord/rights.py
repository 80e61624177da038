"""What the bot may do in a channel, as discord.py's cache of the guild computes it (roles, channel
overwrites, a thread's parent): so a post is shaped for the channel before it is sent — plain text
where Embed Links is missing, no reply reference without Read Message History — and a refusal names
the permission that is really missing. The cache follows channel, role and guild updates; where it
knows nothing (a channel not cached), everything is assumed allowed and Discord's answer decides."""

from __future__ import annotations

from dataclasses import dataclass

import discord

from bot import texts
from bot.discord import failures


@dataclass(frozen=True)
class Rights:
    known: bool = False
    guild: int | None = None
    view: bool = True
    send: bool = True
    embed: bool = True
    attach: bool = True
    history: bool = True
    thread: bool = False

    @property
    def send_name(self) -> str:
        return failures.SEND_MESSAGES_IN_THREADS if self.thread else failures.SEND_MESSAGES

    def blocking(self, *, files: bool = False) -> str:
        """The permission without which nothing can be posted here ("" when none is missing)."""
        if not self.view:
            return failures.VIEW_CHANNEL
        if not self.send:
            return self.send_name
        if files and not self.attach:
            return failures.ATTACH_FILES
        return ""


def rights_in(client: discord.Client, channel_id: int) -> Rights:
    channel = client.get_channel(channel_id)
    guild = getattr(channel, "guild", None)
    me = getattr(guild, "me", None)
    if channel is None or guild is None or me is None or not hasattr(channel, "permissions_for"):
        return Rights()
    try:
        granted = channel.permissions_for(me)
    except discord.ClientException:  # a thread whose parent is not cached
        return Rights(guild=guild.id)
    thread = isinstance(channel, discord.Thread)
    return Rights(
        known=True,
        guild=guild.id,
        view=granted.view_channel,
        send=granted.send_messages_in_threads if thread else granted.send_messages,
        embed=granted.embed_links,
        attach=granted.attach_files,
        history=granted.read_message_history,
        thread=thread,
    )


def label(permission: str, lang: str) -> str:
    """A permission's name as Discord's settings show it in ``lang`` ("Links einbetten")."""
    return texts.render(f"discord.permission.name.{permission.lower().replace(' ', '_')}", {}, lang)
