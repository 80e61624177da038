"""Answers as plain message text, for a channel where the bot lacks Embed Links: Discord drops the
embeds of such a post that has text and refuses one that has only embeds, so the player to act would
get a bare ping. The text carries the same: the story with the words to type, the running table as a
code block, who acts until when, the commitment or seed and the game id; the board stays under it.

Lines here are joined and split into messages by :func:`bot.discord.limits.content_chunks`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

import discord

from bot import texts
from bot.discord import escape
from bot.discord.embeds import BLANK, live_status, must_fields, story_of
from bot.discord.limits import CONTENT_MAX, FENCE, clip
from bot.replies import Reply, Row

NAME_WIDTH = 32  # a display name is at most 32 characters on Discord


def game_lines(reply: Reply) -> list[str]:
    """A reply about a game as message lines: title, story, table, turn, commitment or seed, cards."""
    lang = reply.language
    lines: list[str] = []
    if reply.title:
        lines.append(f"**{escape.plain(reply.title)}**")
    lines += story_of(reply)
    lines += table_block(reply.table, lang)
    lines += [f"{name}: {value}" for name, value in must_fields(reply)]
    for card in reply.cards:
        lines.append(f"**{escape.plain(card.title)}**")
        lines += [f"{name}: {text}" for name, text in card.entries]
    if reply.game_id is not None:
        lines.append(texts.render("discord.footer.game", {"id": reply.game_id}, lang))
    return lines


def table_block(rows: Sequence[Row], lang: str) -> list[str]:
    """The running table as a code block: marker, name, role, points, details, in columns."""
    if not rows:
        return []
    names = [_cell(row.name)[:NAME_WIDTH] for row in rows]
    roles = [_cell(row.role_label) for row in rows]
    points = [texts.number(row.points) for row in rows]
    width = (max(map(len, names)), max(map(len, roles)), max(map(len, points)))
    body = []
    for row, name, role, score in zip(rows, names, roles, points, strict=True):
        marker = "▶" if row.to_act else "•"
        line = f"{marker} {name.ljust(width[0])}  {role.ljust(width[1])}  {score.rjust(width[2])}"
        body.append(f"{line}  {_cell(row.details)}".rstrip() if row.details else line)
    return [f"**{texts.render('discord.field.table', {}, lang)}**", f"{FENCE}text", *body, FENCE]


def _cell(text: str) -> str:
    """Outside text in a code block: as typed (nothing renders there), one line, no fence."""
    return escape.one_line(escape.unescaped(text)).replace("`", "ˋ")


def live_content(reply: Reply, commands: Mapping[str, str]) -> str:
    """A live table as one message text (it is edited in place): title, state, turn, options,
    commitment, seed, and the table in the room left — the rows beyond it counted."""
    live = reply.live
    assert live is not None
    lang = reply.language
    head: list[str] = []
    if reply.title:
        head.append(f"**{escape.plain(reply.title)}**")
    status = live_status(reply, commands)
    if status:
        head.append(status)
    tail = [f"{name}: {value}" for name, value in must_fields(_without_seed_lines(reply))]
    if live.options:
        shown = " · ".join(f"{escape.name(key)}={escape.name(value)}" for key, value in live.options)
        tail.append(f"{texts.render('discord.field.options', {}, lang)}: {shown}")
    if live.commitment:
        tail.append(f"{texts.render('discord.field.commitment', {}, lang)}: `{live.commitment}`")
    if live.seed:
        tail.append(f"{texts.render('discord.field.seed', {}, lang)}: `{live.seed}`")
    if reply.game_id is not None:
        tail.append(texts.render("discord.live.footer", {"id": reply.game_id}, lang))
    block = table_block(reply.table, lang)
    for seats in range(len(reply.table), -1, -1):
        if seats < len(reply.table):
            block = table_block(reply.table[:seats], lang)
            block.append(texts.render("discord.table.more", {"count": len(reply.table) - seats}, lang))
        text = "\n".join([*head, *block, *tail])
        if len(text) <= CONTENT_MAX:
            return text
    return clip("\n".join([*head, *tail]), CONTENT_MAX)


def _without_seed_lines(reply: Reply) -> Reply:
    """The live table shows its commitment and seed from ``live``: only the turn comes from the reply."""
    return replace(reply, commitment=None, seed=None)


def embeds_lines(embeds: Sequence[discord.Embed]) -> list[str]:
    """Any embeds as message lines (a plain answer: rules, a list): title, text, fields, footer."""
    lines: list[str] = []
    for embed in embeds:
        if embed.title:
            lines.append(f"**{embed.title}**")
        if embed.description:
            lines += embed.description.splitlines()
        for item in embed.fields:
            if item.name and item.name != BLANK:
                lines.append(f"**{item.name}**")
            lines += (item.value or "").splitlines()
        if embed.footer.text:
            lines.append(embed.footer.text)
    return lines
