"""Discord's limits on one message, and the packing that keeps every message within them by
construction: long answers continue in further messages instead of being cut or refused.

The limits (https://discord.com/developers/docs/resources/message#embed-object-embed-limits and
#create-message-jsonform-params): content 2,000 characters; at most 10 embeds, together at most
6,000 characters of title, description, field names and values, footer text and author name; per
embed at most 25 fields, a title of 256, a description of 4,096, a field name of 256 and value of
1,024, a footer of 2,048 and an author name of 256. Discord answers anything beyond with a 400.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import discord

CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TOTAL_MAX = 6000
FIELDS_MAX = 25
TITLE_MAX = 256
DESCRIPTION_MAX = 4096
FIELD_NAME_MAX = 256
FIELD_MAX = 1024
FOOTER_MAX = 2048
AUTHOR_MAX = 256
MESSAGES_MAX = 10  # one answer continues in at most this many messages (then says what is left out)

FENCE = "```"


def clip(text: str, limit: int) -> str:
    """At most ``limit`` characters; a cut shows as "…" (for single values: a title, a name)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def chunks(lines: Iterable[str], limit: int) -> list[str]:
    """Lines joined into pieces of at most ``limit`` characters, broken only at line ends (a single
    line longer than ``limit`` is broken at the limit: nothing is dropped)."""
    pieces: list[str] = []
    current = ""
    for raw in lines:
        for line in _broken(raw, limit):
            candidate = f"{current}\n{line}" if current else line
            if len(candidate) > limit and current:
                pieces.append(current)
                current = line
            else:
                current = candidate
    if current:
        pieces.append(current)
    return pieces


def _broken(line: str, limit: int) -> list[str]:
    return [line[start : start + limit] for start in range(0, len(line), limit)] or [""]


def content_chunks(lines: Sequence[str], limit: int = CONTENT_MAX) -> list[str]:
    """Message contents of at most ``limit`` characters from lines that may hold code blocks (a line
    starting with three backticks opens one, a line of just three backticks closes it): a block cut
    between two messages is closed at the end of the first and opened again in the next, so both
    render. Broken only at line ends, but for a line longer than a whole message."""
    pieces: list[str] = []
    current: list[str] = []
    fence: str | None = None  # the line that opened the code block we are in
    for raw in lines:
        for line in _broken(raw, limit - 2 * len(FENCE) - 8):
            after = _fence_after(fence, line)
            closing = len(FENCE) + 1 if after is not None else 0
            if current and len("\n".join([*current, line])) + closing > limit:
                pieces.append("\n".join([*current, FENCE] if fence is not None else current))
                current = [fence] if fence is not None else []
            current.append(line)
            fence = after
    if current and current != [fence]:
        pieces.append("\n".join([*current, FENCE] if fence is not None else current))
    return pieces


def _fence_after(fence: str | None, line: str) -> str | None:
    if fence is None:
        return line if line.startswith(FENCE) else None
    return None if line == FENCE else fence


def messages(embeds: Sequence[discord.Embed]) -> list[list[discord.Embed]]:
    """Embeds, each within the per-embed limits, in order into as few messages as hold them."""
    packed: list[list[discord.Embed]] = []
    current: list[discord.Embed] = []
    size = 0
    for embed in embeds:
        length = len(embed)
        if current and (len(current) >= EMBEDS_MAX or size + length > EMBED_TOTAL_MAX):
            packed.append(current)
            current, size = [], 0
        current.append(embed)
        size += length
    if current:
        packed.append(current)
    return packed


def fits(embeds: Sequence[discord.Embed], content: str | None = None) -> bool:
    """Whether one message with these embeds and content is within every limit (a check for tests
    and for what arrives from elsewhere; the builders fit by construction)."""
    if content is not None and len(content) > CONTENT_MAX:
        return False
    if len(embeds) > EMBEDS_MAX or sum(len(embed) for embed in embeds) > EMBED_TOTAL_MAX:
        return False
    for embed in embeds:
        if len(embed.title or "") > TITLE_MAX or len(embed.description or "") > DESCRIPTION_MAX:
            return False
        if len(embed.footer.text or "") > FOOTER_MAX or len(embed.author.name or "") > AUTHOR_MAX:
            return False
        if len(embed.fields) > FIELDS_MAX:
            return False
        for item in embed.fields:
            if len(item.name or "") > FIELD_NAME_MAX or len(item.value or "") > FIELD_MAX:
                return False
    return True
