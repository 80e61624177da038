"""What the bot must be allowed in a server, as the invite link asks for it (docs/discord.md names the
same permissions and what breaks without each)."""

from __future__ import annotations

import discord

SCOPES = ("bot", "applications.commands")


def needed() -> discord.Permissions:
    """View Channels, Send Messages, Embed Links, Attach Files, Read Message History; for games in
    threads and forum posts: Create Public Threads, Send Messages in Threads, Manage Threads (to lock a
    finished game's thread, and to remove a thread whose opening lost a race)."""
    return discord.Permissions(
        view_channel=True,
        send_messages=True,
        embed_links=True,
        attach_files=True,
        read_message_history=True,
        create_public_threads=True,
        send_messages_in_threads=True,
        manage_threads=True,
    )


def invite_url(application_id: int) -> str:
    """The link that adds the bot to a server with the permissions it needs."""
    scopes = "%20".join(SCOPES)
    return (
        f"https://discord.com/oauth2/authorize?client_id={application_id}&scope={scopes}"
        f"&permissions={needed().value}"
    )
