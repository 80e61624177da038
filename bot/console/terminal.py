"""The console channel: several people type into one terminal as ``[#ID ]NAME: TEXT``.

It is a front end like Discord: every line goes through the croupier service and the store, so a
Durchgang played here is durable, exportable and verifiable. ``#ID`` is the message id that makes a
line exactly-once across restarts (without it the line number of this run is used).

A line holds at most :data:`LINE_MAX` characters, as a Discord message does; a longer one is answered
with a refusal and does nothing (and is read in bounded pieces, however long it is).
"""

from __future__ import annotations

import asyncio
import io
import os
import re
import secrets
import shlex
import stat
import sys
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from json.encoder import encode_basestring as _json_string
from typing import TextIO

from bot import markup
from bot.observability import answers
from bot.option_words import options, split
from bot.replies import Reply, text_of
from bot.service.croupier import Croupier
from bot.service.requests import (
    Adjust,
    ChangeSettings,
    Corrections,
    Disqualify,
    Export,
    Help,
    Incoming,
    Info,
    Line,
    Moderate,
    Move,
    NewTournament,
    OpenGame,
    Refuse,
    Reinstate,
    Request,
    Rules,
    Standings,
    Tournaments,
    Undo,
    Verify,
)
from bot.spelling import CONSOLE
from bot.store import StoreUnavailable
from bot.texts import DEFAULT, has, render
from engine.game import Close, Command, Join, Leave, Remove, Skip, Start
from engine.numbers import ID_MAX, whole_number

CHANNEL = "console"
GUILD = "console"
LINE_MAX = 2000  # characters, as in a Discord message
_READ_MAX = 4 * LINE_MAX  # what is read of a line at most; the rest of a longer one is skipped
_LINE = re.compile(r"^\s*(?:#(?P<id>\S+)\s+)?(?P<name>[^:]+?)\s*:\s*(?P<text>.*)$")
TOO_LONG = "error.line_too_long"  # the catalogue key, once the catalogues have it


def too_long_text(length: int) -> str:
    """The refusal of a too long line until the catalogues have :data:`TOO_LONG`."""
    return (
        f"This line has {length} characters; a line holds at most {LINE_MAX}, as on Discord. "
        "Nothing was done."
    )


@dataclass(frozen=True)
class Answer:
    """What the console prints for one input line."""

    id: str
    ok: bool
    text: str
    silent: bool = False

    def as_json(self) -> str:
        """``json.dumps({"id": …, "ok": …, "text": …}, ensure_ascii=False)``, written without its
        machinery around the two strings (a few microseconds of every line)."""
        ok = "true" if self.ok else "false"
        return f'{{"id": {_json_string(self.id)}, "ok": {ok}, "text": {_json_string(self.text)}}}'


@dataclass
class Console:
    croupier: Croupier
    moderators: frozenset[str] = frozenset()
    admins: frozenset[str] = frozenset()
    # Lines without #ID are numbered per run; the run's own token keeps line 3 of today from being
    # taken for line 3 of yesterday's session on the same database.
    session: str = field(default_factory=lambda: secrets.token_hex(4))
    _line_number: int = field(default=0)

    async def handle(self, raw: str) -> Answer | None:
        """Answer one input line; None for a blank line."""
        if not raw.strip():
            return None
        self._line_number += 1
        if len(raw) > LINE_MAX:  # before the pattern: its work grows with the line
            return await self._too_long(str(self._line_number), len(raw))
        match = _LINE.match(raw)
        if match is None:
            return await self._refuse(str(self._line_number), "bad_line")
        line_id = match["id"] or str(self._line_number)
        message_id = f"console:{line_id}" if match["id"] else f"console:{self.session}:{line_id}"
        name, text = match["name"].strip(), match["text"].strip()
        msg = Incoming(
            message_id=message_id,
            guild=GUILD,
            channel=CHANNEL,
            author=name,
            author_name=name,
            text=text,
            is_moderator=name in self.moderators,
            is_admin=name in self.admins,
        )
        request = self._request(msg)
        try:
            reply = await self.croupier.handle(request)
            if isinstance(request, Info) and reply.error_code == "unknown_topic":
                reply = await self._unknown_topic(msg, reply)
        except StoreUnavailable:
            return Answer(line_id, False, render("error.store_unavailable", {}, DEFAULT))
        return Answer(
            line_id, reply.ok, self._with_hint(reply, console_text(reply), name), silent=reply.silent
        )

    def _with_hint(self, reply: Reply, text: str, name: str) -> str:
        """A refusal for want of a role, in a console nobody holds it in, says how to name one."""
        unnamed = (reply.error_code == "not_moderator" and not self.moderators) or (
            reply.error_code == "not_admin" and not self.admins
        )
        if not unnamed:
            return text
        return f"{text}\n{render('console.name_a_moderator', {'name': name}, reply.language)}"

    async def _refuse(self, line_id: str, code: str) -> Answer:
        msg = Incoming(message_id="", guild=GUILD, channel=CHANNEL, author="", author_name="")
        try:
            reply = (await self.croupier.handle(Refuse(msg, code))).spelled(CONSOLE)
        except StoreUnavailable:
            return Answer(line_id, False, render(f"error.{code}", {}, DEFAULT))
        return Answer(line_id, False, reply.text)

    async def _too_long(self, line_id: str, length: int) -> Answer:
        if not has(TOO_LONG, "en"):
            return Answer(line_id, False, too_long_text(length))
        msg = Incoming(message_id="", guild=GUILD, channel=CHANNEL, author="", author_name="")
        try:
            facts = {"limit": LINE_MAX, "length": length}
            reply = (await self.croupier.handle(Refuse(msg, "line_too_long", facts))).spelled(CONSOLE)
        except StoreUnavailable:
            return Answer(line_id, False, too_long_text(length))
        return Answer(line_id, False, reply.text)

    async def _unknown_topic(self, msg: Incoming, reply: Reply) -> Reply:
        """A topic's name typed as a command (``/jokers``, ``/odds``) that no game explains is an
        unknown command; ``/info`` of it keeps its own answer. (Asked only then: every other line is
        answered without this coroutine.)"""
        verb = _words(msg.text)[0].lower() if msg.text.startswith("/") else ""
        if verb != "/info":
            return await self.croupier.handle(Refuse(msg, "unknown_command", {"command": verb}))
        return reply

    def _request(self, msg: Incoming) -> Request[Reply]:
        """What a console line asks of the service: a chat line, or a slash command's request."""
        if not msg.text.startswith("/"):
            return Line(msg)
        words = _words(msg.text)
        verb, args = words[0].lower(), words[1:]
        if verb in ("/skip", "/remove") and not args:
            return Refuse(msg, "name_missing", {"command": verb})
        command = _lifecycle(verb, args, msg)
        if command is not None:
            return Move(msg, command)
        build = _REQUESTS.get(verb)
        if build is None:
            # A topic's name typed as a command (``/jokers``, ``/odds``) is ``/info`` of it.
            return Refuse(msg, "unknown_command", {"command": verb}) if args else Info(msg, verb[1:])
        return build(msg, args)


def console_text(reply: Reply) -> str:
    """``reply.spelled(CONSOLE).text`` without spelling and copying what the text does not show (the
    cards, the closing result, the other two dozen fields): of a line's work on the event loop, that
    copy cost about a tenth. The text shows the story, and the title over the running table."""
    lang = reply.language
    lines = [_spelled(line, lang) for line in reply.lines]
    title = _spelled(reply.title, lang) if reply.table else ""  # shown over the table only
    return text_of(lines, title, reply.table, lang)


def _spelled(text: str, lang: str) -> str:
    """A neutral sentence as the console writes it. Cached: a game's prompts and title come back
    line after line ("anna, wie geht's weiter?"), and their spelling depends on nothing else — but
    the help's listing of the commands, which names the games installed (a test may install more)."""
    if not text:
        return text
    if markup.OPEN + "commands" in text:
        return CONSOLE.spell(text, lang)
    return _spelled_plainly(text, lang)


@lru_cache(maxsize=4096)
def _spelled_plainly(text: str, lang: str) -> str:
    return CONSOLE.spell(text, lang)


def _verify(msg: Incoming, args: list[str]) -> Request[Reply]:
    """``/verify`` or ``/verify ID``; anything else is answered with the form it takes."""
    game_id = whole_number(args[0], ID_MAX) if args else None
    if len(args) > 1 or (args and game_id is None):
        return Refuse(msg, "verify_usage")
    return Verify(msg, game_id)


def _adjust(msg: Incoming, args: list[str]) -> Request[Reply]:
    """``/adjust NAME ±N REASON``: the name is every word before the first signed whole number."""
    found = _adjustment(args)
    if found is None:
        return Refuse(msg, "adjust_usage")
    return Moderate(msg, Adjust(*found))


_REQUESTS: dict[str, Callable[[Incoming, list[str]], Request[Reply]]] = {
    "/tournament": lambda msg, args: Moderate(msg, NewTournament(*_name_and_scoring(args))),
    "/open": lambda msg, args: Moderate(msg, OpenGame(args[0] if args else "", _options(msg, 2))),
    "/standings": lambda msg, args: Standings(msg),
    "/tournaments": lambda msg, args: Tournaments(msg),
    "/export": lambda msg, args: Export(msg, args[0] if args else "markdown"),
    "/verify": _verify,
    "/settings": lambda msg, args: Moderate(msg, ChangeSettings(_options(msg, 1))),
    "/help": lambda msg, args: Help(msg),
    "/rules": lambda msg, args: Rules(msg),
    "/info": lambda msg, args: Info(msg, " ".join(args)),
    "/undo": lambda msg, args: Moderate(msg, Undo(" ".join(args))),
    "/adjust": _adjust,
    "/disqualify": lambda msg, args: Moderate(msg, Disqualify(*_name_and_reason(args))),
    "/reinstate": lambda msg, args: Moderate(msg, Reinstate(*_name_and_reason(args))),
    "/corrections": lambda msg, args: Corrections(msg),
}


_UNQUOTED = re.compile(r"[^'\"\\]*")  # no quote and no backslash: nothing for shlex to undo
_SHELL_SPACE = re.compile(r"[ \t\r\n]+")  # what shlex splits at


def _words(text: str) -> list[str]:
    """A slash command's words as ``shlex.split`` reads them (a quoted name keeps its spaces), or at
    whitespace when its quotes do not pair. A line without quotes or backslashes — nearly every one —
    is split at shlex's whitespace straight away (its lexer took 10 µs for ``/join``)."""
    if _UNQUOTED.fullmatch(text):
        return [word for word in _SHELL_SPACE.split(text) if word]
    try:
        return shlex.split(text)
    except ValueError:
        return text.split()


def _options(msg: Incoming, after: int) -> dict[str, str]:
    """The options of a command line, after its first ``after`` words (the verb, a game's name): a
    value runs to the next ``key=`` (:mod:`bot.option_words`)."""
    return options(split(msg.text)[after:])


def _lifecycle(verb: str, args: Sequence[str], msg: Incoming) -> Command | None:
    target = " ".join(args)
    if verb == "/join":
        return Join(msg.author_name)
    if verb == "/leave":
        return Leave()
    if verb == "/start":
        return Start()
    if verb == "/skip" and target:
        return Skip(target)
    if verb == "/remove" and target:
        return Remove(target)
    if verb == "/close":
        return Close()
    return None


def _name_and_scoring(args: Sequence[str]) -> tuple[str, str]:
    scoring = "sum"
    words = []
    for word in args:
        if word.lower().startswith("scoring="):
            scoring = word.split("=", 1)[1].lower()
        else:
            words.append(word)
    return " ".join(words), scoring


def _name_and_reason(args: Sequence[str]) -> tuple[str, str]:
    """``NAME REASON…`` (a name with spaces is quoted: ``"Anna Maria" Grund``)."""
    return (args[0] if args else ""), " ".join(args[1:])


_POINTS_MAX = 999_999_999


def _points(word: str) -> int | None:
    """``5``, ``+5``, ``-5`` or ``−5`` (the typographic minus) → a number of points; None otherwise."""
    sign = -1 if word[:1] in ("-", "−") else 1
    amount = whole_number(word[1:] if word[:1] in ("+", "-", "−") else word, _POINTS_MAX)
    return None if amount is None else sign * amount


def _adjustment(args: Sequence[str]) -> tuple[str, int, str] | None:
    """``NAME ±N REASON…`` → (name, points, reason); None when no name comes before a whole number."""
    for index, word in enumerate(args):
        points = _points(word) if index > 0 else None
        if points is not None:
            return " ".join(args[:index]), points, " ".join(args[index + 1 :])
    return None


async def run_console(
    console: Console,
    stdin: TextIO = sys.stdin,
    stdout: TextIO = sys.stdout,
    as_json: bool = False,
    banner: str | None = None,
) -> int:
    """Read lines until EOF; answer each before reading the next (so a crash loses no answer)."""
    printer = _Printer(stdout, as_json)
    if banner and not as_json:
        printer.banner(banner)
    async for raw in _lines(stdin):
        arrived = time.perf_counter()
        answer = await console.handle(raw.rstrip("\n"))
        if answer is not None:
            printer.show(answer)
            if not answer.silent:
                answers.answered("console", time.perf_counter() - arrived)
    return 0


async def _lines(stdin: TextIO) -> AsyncIterator[str]:
    """The input's lines, each at most :data:`_READ_MAX` characters (see :func:`_read_line`). A pipe
    (how front ends and tests feed the console) is read on the event loop itself; a terminal or file
    by a helper thread, a line at a time."""
    loop = asyncio.get_running_loop()
    if _is_pipe(stdin):
        reader = asyncio.StreamReader(limit=4 * _READ_MAX)  # bytes: a character takes at most four
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), stdin)
        while raw := await _read_piped_line(reader):
            yield raw.decode(stdin.encoding or "utf-8", errors="replace")[:_READ_MAX]
        return
    while raw_line := await loop.run_in_executor(None, _read_line, stdin):
        yield raw_line


async def _read_piped_line(reader: asyncio.StreamReader) -> bytes:
    """The next line of a pipe; of a line longer than the reader's limit only its beginning, the rest
    skipped; b"" at the end of the input."""
    try:
        return await reader.readuntil(b"\n")
    except asyncio.IncompleteReadError as ended:
        return ended.partial
    except asyncio.LimitOverrunError as over:
        head = await reader.readexactly(over.consumed)
        while True:  # skip the rest of the line
            try:
                await reader.readuntil(b"\n")
                return head
            except asyncio.IncompleteReadError:
                return head
            except asyncio.LimitOverrunError as more:
                await reader.readexactly(more.consumed)


def _is_pipe(stream: TextIO) -> bool:
    try:
        return stat.S_ISFIFO(os.fstat(stream.fileno()).st_mode)
    except (OSError, ValueError, io.UnsupportedOperation):
        return False


def _read_line(stdin: TextIO) -> str:
    """The next line, or its first :data:`_READ_MAX` characters when longer (the rest is skipped, so
    a huge line costs no memory and is answered once); "" at the end of the input."""
    line = stdin.readline(_READ_MAX)
    if len(line) == _READ_MAX and not line.endswith("\n"):
        while True:
            rest = stdin.readline(_READ_MAX)
            if not rest or rest.endswith("\n"):
                break
    return line


class _Printer:
    def __init__(self, stdout: TextIO, as_json: bool) -> None:
        self.stdout = stdout
        self.as_json = as_json
        self.rich = None
        if not as_json:
            from rich.console import Console as RichConsole

            self.rich = RichConsole(file=stdout, highlight=False, soft_wrap=True)

    def banner(self, text: str) -> None:
        assert self.rich is not None
        self.rich.print(f"[bold]{text}[/bold]")

    def show(self, answer: Answer) -> None:
        if self.as_json:
            self.stdout.write(answer.as_json() + "\n")
            self.stdout.flush()
            return
        assert self.rich is not None
        if answer.silent:
            return
        style = "" if answer.ok else "red"
        self.rich.print(f"[dim]#{answer.id}[/dim] " + _escape(answer.text), style=style)
        self.stdout.flush()


def _escape(text: str) -> str:
    from rich.markup import escape

    return escape(text)
