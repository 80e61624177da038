"""One message the bot is about to send, whatever the route (a channel post, an interaction's answer,
an edit), and how a reply about a game becomes one."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import discord

from bot.discord.boards import build_board
from bot.discord.embeds import game_embeds
from bot.discord.mentions import only
from bot.replies import Reply
from engine.numbers import digits


@dataclass
class Outgoing:
    embeds: list[discord.Embed]
    allowed_mentions: discord.AllowedMentions
    content: str | None = None
    view: discord.ui.View | None = None
    files: list[discord.File] = field(default_factory=list)

    def kwargs(self) -> dict[str, Any]:
        """For ``send``: a new message."""
        out: dict[str, Any] = {"embeds": self.embeds, "allowed_mentions": self.allowed_mentions}
        if self.content:
            out["content"] = self.content
        if self.view is not None:
            out["view"] = self.view
        if self.files:
            out["files"] = self.files
        return out

    def edit_kwargs(self) -> dict[str, Any]:
        """For ``edit``: the message becomes exactly this one (no leftover content, buttons or files)."""
        return {
            "content": self.content or None,
            "embeds": self.embeds,
            "allowed_mentions": self.allowed_mentions,
            "view": self.view,
            "attachments": list(self.files),
        }

    def headed(self, line: str, allowed: discord.AllowedMentions) -> Outgoing:
        """The same message with ``line`` in front of its content (a re-posted interaction answer)."""
        content = f"{line}\n{self.content}" if self.content else line
        return replace(self, content=content, allowed_mentions=allowed)


def outgoing(reply: Reply) -> Outgoing:
    """A reply about a game as embeds, the board of the player to act, and a ping for whoever must
    act now (and nobody else)."""
    wake = reply.wake
    return Outgoing(
        embeds=game_embeds(reply),
        allowed_mentions=only(wake),
        content=f"<@{wake}>" if wake is not None and digits(wake) else None,
        view=build_board(reply.board),
    )
