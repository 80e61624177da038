"""Text from players and moderators in the bot's Discord messages: shown as typed, never as markup.

A nickname such as ``[Anna](https://evil.example/login)`` must not become a link the bot wrote, ``# Ben``
no heading, ``||x||`` no spoiler, ``<@123>`` or ``@everyone`` no ping, ``https://…`` no clickable link, and
a right-to-left override no name that reads as someone else's. :func:`name` is for a name inserted
into a sentence (``DiscordSpelling.name``, the running table, titles); :func:`plain` for a sentence that
holds no markup of its own (a refusal, a card title, a note).

Both are idempotent — escaping escaped text changes nothing — so a name the service already escaped
(through ``DiscordSpelling.name``) may safely pass through the front end's escaping again. The price is
that a backslash typed before a markdown character is not shown.
"""

from __future__ import annotations

import re

import discord

# Escaped wherever they stand: emphasis, strike, spoiler, code, link brackets, and "<" (mentions,
# channels, custom emoji, timestamps, slash-command mentions, <https://…> links).
_ANYWHERE = "\\*_~|`[]<"
# Escaped at the start of a line: headings, sub-text, lists, quotes.
_LINE_START = "#->+"
_ESCAPABLE = re.escape(_ANYWHERE + _LINE_START + ".:")

_UNESCAPE = re.compile(rf"\\([{_ESCAPABLE}])")
_ANYWHERE_RE = re.compile(f"[{re.escape(_ANYWHERE)}]")
_LINE_START_RE = re.compile(rf"^(\s*)([{re.escape(_LINE_START)}])", re.MULTILINE)
_ORDERED_ITEM = re.compile(r"^(\s*\d+)\.", re.MULTILINE)  # "1. " starts a numbered list
_SCHEME = re.compile(r":(?=/)")  # "https://…" would be a clickable link
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def plain(text: str) -> str:
    """A sentence as literal text: no markdown, no link, no mention (line breaks are kept)."""
    text = _BIDI.sub("", _UNESCAPE.sub(r"\1", text))
    text = _ANYWHERE_RE.sub(lambda match: "\\" + match.group(0), text)
    text = _LINE_START_RE.sub(lambda match: f"{match.group(1)}\\{match.group(2)}", text)
    text = _ORDERED_ITEM.sub(lambda match: f"{match.group(1)}\\.", text)
    text = _SCHEME.sub(r"\\:", text)
    return discord.utils.escape_mentions(text)


# A slash-command mention as the bot writes it (bot.discord.commands): ``</mitmachen:ID>``, not
# preceded by the backslash that escaped text would carry.
_COMMAND_MENTION = re.compile(r"(?<!\\)</[-_\w]+(?: [-_\w]+){0,2}:\d{1,20}>")


def keeping_commands(text: str) -> str:
    """:func:`plain`, except for the command mentions the bot wrote itself: a refusal's sentence may
    name a command to use (``{cmd[open]}``), and outside text inside it arrives escaped already (the
    service escapes names and typed words for Discord), so its ``<`` carries a backslash."""
    parts: list[str] = []
    last = 0
    for match in _COMMAND_MENTION.finditer(text):
        parts += [plain(text[last : match.start()]), match.group(0)]
        last = match.end()
    parts.append(plain(text[last:]))
    return "".join(parts)


def name(text: str) -> str:
    """A display name (or any outside word) for a sentence: one line, literal (see :func:`plain`)."""
    return plain(_CONTROL.sub(" ", text))


def one_line(text: str) -> str:
    """Control characters as spaces and no direction overrides: for places without markdown (the
    standings picture, code blocks)."""
    return _BIDI.sub("", _CONTROL.sub(" ", text))


def unescaped(text: str) -> str:
    """Text as it read before :func:`plain` or :func:`name` escaped it for Discord (for other media,
    such as the web page showing a game played on Discord, which escape for themselves)."""
    return _UNESCAPE.sub(r"\1", text).replace("@\u200b", "@")
