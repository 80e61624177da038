"""What the croupier says, in a neutral form every medium spells its own way.

The service renders its sentences once, for no medium: plain text with a small markup for the parts
a medium spells differently — a player's name, outside text (a tournament's name, a typed word), a
command, inline code, strong text and the listing of the commands. Discord escapes names for
Markdown and names commands as mentions, the console writes them plainly, the web escapes for HTML
(:func:`spans` gives the parts, each front end spells them). The command log keeps this form, so a
repeat and the web pages read what was said, not what one medium made of it.

Spans are ``⟦kind|argument|…⟧``:

- ``⟦name|<participant id>|<shown name>⟧`` — a player, by id and by the name the sentence shows;
- ``⟦text|<outside text>⟧`` — anything else people typed;
- ``⟦cmd|<command key>⟧`` — a command (``join``, ``open`` …);
- ``⟦code|…⟧`` and ``⟦strong|…⟧`` — what the catalogues write as `` `code` `` and ``**strong**``;
- ``⟦commands|<topic>,…⟧`` — the listing of the commands for a game with these topics (``*``: all).

Why markup in the text rather than a list of structured spans: a reply's lines, titles and cards stay
strings — logged as JSON strings, clipped, chunked, compared as strings by every front end and test —
and one parser turns a line into spans where a medium draws it. It cannot be forged: outside text enters
a sentence only through :func:`name` or :func:`outside`, which escape the markup's own characters
(``\\``, ``⟦``, ``⟧``, ``|``) with a backslash, and catalogue text is escaped the same way when its
template is read (:func:`template`); so whatever a player types reads back as text, never as a span.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from functools import lru_cache
from typing import Any

OPEN, CLOSE, SEP, ESC = "⟦", "⟧", "|", "\\"
FORM = 2  # the stored reply's "form": this markup (older entries, without it, hold Discord's text)

_SPECIAL = re.compile(r"[\\⟦⟧|]")
_TOKEN = re.compile(r"\\(.)|⟦|⟧|\|", re.DOTALL)


def escaped(text: str) -> str:
    """Text as it stands inside the markup: its special characters preceded by a backslash. Most text
    has none: looking for each is cheaper than a substitution that finds nothing."""
    if ESC in text or OPEN in text or CLOSE in text or SEP in text:
        return _SPECIAL.sub(lambda match: ESC + match.group(0), text)
    return text


class Marked(str):
    """Outside text in a sentence: as a ``str`` it is the text itself (what the catalogues' format
    specs inflect: "d'anna", a code's word), formatted it is its span. ``rewrap`` puts a spec's result
    back into a span of the same kind."""

    __slots__ = ("args", "kind")
    kind: str
    args: tuple[str, ...]

    def __new__(cls, text: str, kind: str, *args: str) -> Marked:
        made = super().__new__(cls, text)
        made.kind, made.args = kind, args
        return made

    def __format__(self, spec: str) -> str:
        if spec == "code":
            return code(self)
        return span(self.kind, *self.args, str(self)) if not spec else str(self).__format__(spec)

    def rewrap(self, text: str) -> str:
        return span(self.kind, *self.args, text)


class Neutral(str):
    """A sentence in this form already (a title put into another sentence): not outside text."""

    __slots__ = ()


def span(kind: str, *args: str) -> str:
    return OPEN + SEP.join(map(escaped, (kind, *args))) + CLOSE


def name(player: str, shown: str) -> Marked:
    """A player in a sentence: by participant id, shown as ``shown``."""
    return Marked(shown, "name", player)


def outside(text: str) -> Marked:
    """Text someone typed, in a sentence: shown as typed, never as markup of any medium."""
    return Marked(text, "text")


def typed(text: str) -> Neutral:
    """Outside text standing alone (a title that is a tournament's name)."""
    return Neutral(span("text", text))


def command(key: str) -> str:
    return span("cmd", key)


def listing(topics: Collection[str] | None) -> Neutral:
    """The commands a help lists, for a game explaining ``topics`` (None: every command)."""
    return Neutral(span("commands", "*" if topics is None else ",".join(topics)))


def topics_of(argument: str) -> Collection[str] | None:
    return None if argument == "*" else tuple(t for t in argument.split(",") if t)


class Commands(dict[str, str]):
    """``{cmd[join]}`` in a template: every key becomes its command span."""

    def __missing__(self, key: str) -> str:
        return command(key)


COMMANDS = Commands()

# The catalogues' own markup, written as Discord users know it: `code` and **strong**.
_CODE = re.compile(r"`([^`]*)`")
_STRONG = re.compile(r"\*\*([^*{}]+)\*\*")
_ONE_FIELD = re.compile(r"\{(\w+)\}")


@lru_cache(maxsize=8192)
def template(text: str) -> str:
    """A catalogue template in the neutral form: its text escaped, `` `{field}` `` a code span over the
    fact (``{field:code}``), `` `…` `` and ``**…**`` over constant text spans. Braces are kept, so the
    result is still a template for :meth:`str.format`."""
    parts: list[str] = []
    last = 0
    for match in _CODE.finditer(text):
        parts.append(_strong(escaped(text[last : match.start()])))
        inner = match.group(1)
        field = _ONE_FIELD.fullmatch(inner)
        parts.append("{" + field.group(1) + ":code}" if field else span("code", inner))
        last = match.end()
    parts.append(_strong(escaped(text[last:])))
    return "".join(parts)


def _strong(text: str) -> str:
    return _STRONG.sub(lambda match: OPEN + "strong" + SEP + match.group(1) + CLOSE, text)


def code(value: Any) -> str:
    """The ``code`` format spec: a fact as inline code."""
    return span("code", str(value))


# --- reading it back -------------------------------------------------------------------------------

Span = tuple[str, tuple[str, ...]]  # ("", (text,)) for plain text, else (kind, arguments)


def spans(text: str) -> list[Span]:
    """A neutral line as its parts, in order: plain text as ``("", (text,))``, a span as its kind and
    arguments (unescaped). An unpaired ``⟧`` is text; a span left open runs to the end."""
    return _token_spans(text) if ESC in text else _unescaped_spans(text)


def _token_spans(text: str) -> list[Span]:
    """:func:`spans` token by token: what a line with escapes (a backslash) takes."""
    parts: list[Span] = []
    buffer: list[str] = []
    fields: list[str] | None = None  # inside a span: the arguments read so far
    last = 0
    for match in _TOKEN.finditer(text):
        buffer.append(text[last : match.start()])
        last = match.end()
        token = match.group(0)
        if match.group(1) is not None:
            buffer.append(match.group(1))
        elif token == OPEN and fields is None:
            if "".join(buffer):
                parts.append(("", ("".join(buffer),)))
            buffer, fields = [], []
        elif token == SEP and fields is not None:
            fields.append("".join(buffer))
            buffer = []
        elif token == CLOSE and fields is not None:
            fields.append("".join(buffer))
            parts.append((fields[0], tuple(fields[1:])))
            buffer, fields = [], None
        else:
            buffer.append(token)
    buffer.append(text[last:])
    rest = "".join(buffer)
    if fields is not None:
        fields.append(rest)
        parts.append((fields[0], tuple(fields[1:])))
    elif rest:
        parts.append(("", (rest,)))
    return parts


def _unescaped_spans(text: str) -> list[Span]:
    """:func:`spans` of a line without a backslash — nearly every line (only outside text holding one
    of the markup's characters has one): the parts lie between the brackets, read with ``str.find``
    and ``str.split`` in a fraction of the time :func:`_token_spans` takes. Inside a span ``⟦`` is
    text."""
    parts: list[Span] = []
    start = 0
    while (opening := text.find(OPEN, start)) >= 0:
        if opening > start:
            parts.append(("", (text[start:opening],)))
        closing = text.find(CLOSE, opening + 1)
        kind, *args = text[opening + 1 : closing if closing >= 0 else len(text)].split(SEP)
        parts.append((kind, tuple(args)))
        if closing < 0:
            return parts
        start = closing + 1
    if start < len(text):
        parts.append(("", (text[start:],)))
    return parts


class Speller:
    """How a medium writes each part; the default writes plain text (the console's spelling).
    ``text``: catalogue text; ``outside``: names and typed text; ``commands``: a command key → its
    spelling in ``lang``; ``listing``: the help's listing."""

    def text(self, text: str) -> str:
        return text

    def outside(self, text: str) -> str:
        return text

    def command(self, key: str, lang: str) -> str:
        return f"/{key}"

    def code(self, text: str) -> str:
        return f"`{text}`"  # in plain text as people write code and emphasis

    def strong(self, text: str) -> str:
        return f"**{text}**"

    def help_listing(self, lang: str, topics: Collection[str] | None) -> str:
        return ""

    def spell(self, line: str, lang: str) -> str:
        out: list[str] = []
        for kind, args in spans(line):
            out.append(self.part(kind, args, lang))
        return "".join(out)

    def part(self, kind: str, args: tuple[str, ...], lang: str) -> str:
        last = args[-1] if args else ""
        if kind == "":
            return self.text(last)
        if kind in ("name", "text"):
            return self.outside(last)
        if kind == "cmd":
            return self.command(last, lang)
        if kind == "code":
            return self.code(last)
        if kind == "strong":
            return self.strong(last)
        if kind == "commands":
            return self.help_listing(lang, topics_of(last))
        return self.outside(last)  # a kind this version does not know: shown as text


PLAIN = Speller()


def plain(line: str) -> str:
    """A neutral line as plain text, commands as the console types them (logs, tests, audits)."""
    return PLAIN.spell(line, "en")


# --- replies kept by older versions ---------------------------------------------------------------

# What older versions escaped for Discord (bot.discord.escape.plain): a backslash before one of these.
_LEGACY_ESCAPE = re.compile(r"\\([\\*_~|`\[\]<#\->+.:])")
_LEGACY_ESCAPE_OR_TICK = re.compile(r"\\.|`", re.DOTALL)


def legacy_unescaped(text: str) -> str:
    """Text as it read before an older version escaped it for Discord."""
    return _LEGACY_ESCAPE.sub(r"\1", text).replace("@\u200b", "@")


def from_legacy(line: str, *, discord: bool = True) -> str:
    """A line an older version logged — spelled for the medium that asked (Discord's escapes when
    ``discord``) — in the neutral form: its inline code as code spans, the rest as outside text (it
    holds names nobody can tell from the catalogue's words any more, so all of it is escaped)."""
    pattern = _LEGACY_ESCAPE_OR_TICK if discord else re.compile("`")
    ticks = [m.start() for m in pattern.finditer(line) if m.group() == "`"]
    out: list[str] = []
    last = 0

    def text(part: str) -> str:
        shown = legacy_unescaped(part) if discord else part
        return span("text", shown) if shown else ""

    for opening, closing in zip(ticks[::2], ticks[1::2], strict=False):
        out += [text(line[last:opening]), span("code", line[opening + 1 : closing])]
        last = closing + 1
    out.append(text(line[last:]))
    return "".join(out)
