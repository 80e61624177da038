"""What the bot is about to send, whatever the route (a channel post, an interaction's answer, an edit),
and how a reply about a game becomes it.

An :class:`Outgoing` is one message within Discord's limits; a long answer carries the messages that
continue it in ``more`` (built by :meth:`Outgoing.of`, so nothing is cut), and knows itself as plain
text for a channel where the bot may not embed (:meth:`Outgoing.as_text`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import discord

from bot import texts
from bot.discord import escape
from bot.discord.boards import build_board
from bot.discord.embeds import game_embeds, text_embeds
from bot.discord.limits import content_chunks, messages
from bot.discord.mentions import nobody, only, quiet
from bot.discord.plain_text import embeds_lines, game_lines
from bot.replies import Reply
from engine.numbers import digits


@dataclass
class Outgoing:
    embeds: list[discord.Embed]
    allowed_mentions: discord.AllowedMentions
    content: str | None = None
    view: discord.ui.View | None = None
    files: list[discord.File] = field(default_factory=list)
    more: list[Outgoing] = field(default_factory=list)  # the messages that continue this one, in order
    text: Callable[[], list[str]] | None = None  # the answer's lines as text; None: read off the embeds

    @classmethod
    def of(
        cls,
        embeds: Sequence[discord.Embed],
        allowed_mentions: discord.AllowedMentions,
        *,
        content: str | None = None,
        view: discord.ui.View | None = None,
        files: Sequence[discord.File] = (),
        text: Callable[[], list[str]] | None = None,
    ) -> Outgoing:
        """An answer of any length as its first message and those that continue it: the embeds packed
        into as few messages as hold them, a long content split at line ends; the ping, the board and
        the files go with the first message."""
        packed = messages(embeds)
        said = content_chunks(content.splitlines()) if content else []
        count = max(len(packed), len(said), 1)
        parts = [
            cls(
                embeds=list(packed[i]) if i < len(packed) else [],
                allowed_mentions=allowed_mentions if i == 0 else nobody(),
                content=said[i] if i < len(said) else None,
            )
            for i in range(count)
        ]
        first = parts[0]
        first.view, first.files, first.text, first.more = view, list(files), text, parts[1:]
        return first

    def kwargs(self) -> dict[str, Any]:
        """For ``send``: a new message (this one; ``more`` goes after it)."""
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

    def parts(self) -> list[Outgoing]:
        """Every message of the answer, in order."""
        return [replace(self, more=[]), *self.more]

    @property
    def embedded(self) -> bool:
        """Whether the answer shows anything as embeds (which a channel without Embed Links drops)."""
        return any(part.embeds for part in self.parts())

    def headed(self, line: str, allowed: discord.AllowedMentions) -> Outgoing:
        """The same answer with ``line`` in front of its content (a re-posted interaction answer, an
        answer that cannot be a reply): also in front of its text."""
        content = f"{line}\n{self.content}" if self.content else line
        base = self.text
        text = (lambda: [line, *base()]) if base is not None else None
        return replace(self, content=content, allowed_mentions=allowed, text=text)

    def as_text(self) -> Outgoing:
        """The answer as plain text (no embeds): its content, then its lines — the story, the table as
        a code block, what to type — in as many messages as that takes; the board, the ping and the
        files stay with the first."""
        if not self.embedded:
            return self
        lines = (
            self.text()
            if self.text is not None
            else embeds_lines([e for p in self.parts() for e in p.embeds])
        )
        head = self.content.splitlines() if self.content else []
        return Outgoing.of(
            [], self.allowed_mentions, content="\n".join([*head, *lines]), view=self.view, files=self.files
        )


def outgoing(reply: Reply) -> Outgoing:
    """A reply about a game as embeds (continued where long), the board of the player to act, and a
    ping for whoever must act now (and nobody else)."""
    wake = reply.wake
    return Outgoing.of(
        game_embeds(reply),
        only(wake),
        content=f"<@{wake}>" if wake is not None and digits(wake) else None,
        view=build_board(reply.board),
        text=lambda: game_lines(reply),
    )


def answer_for(user_id: int, lang: str) -> str:
    """The line naming the player an answer is for, where it cannot be a reply to them (the answer of
    an interaction that expired, a channel without Read Message History)."""
    return texts.render("discord.delivery.answer_for", {"name": f"<@{user_id}>"}, lang)


def plain(reply: Reply) -> Outgoing:
    """A reply about no game (settings, a tournament, help) as text embeds."""
    return Outgoing.of(
        text_embeds(quiet(reply.text), escape.plain(reply.title), lang=reply.language), nobody()
    )
