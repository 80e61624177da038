"""The web page reads the command log's replies in the neutral form (bot.markup) and shows them as
the players wrote them (escaping for HTML itself), inline code as code. Entries an older version logged
hold the text of the medium that asked — names escaped for Markdown when it was Discord — and read
the same."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime
from typing import Any

from bot import markup
from bot.discord.escape import name
from bot.service.pages import _move, web_line
from bot.store import LogEntry

NOW = datetime(2026, 12, 2, 20, 0, tzinfo=UTC)


def entry(message_id: str, line: str, *, neutral: bool = False) -> LogEntry:
    reply: dict[str, Any] = {"ok": True, "lines": [line]}
    if neutral:
        reply["form"] = markup.FORM
    return LogEntry(
        id=1,
        message_id=message_id,
        game_id=1,
        channel="c",
        actor="u1",
        text="weiter",
        command={"type": "Continue"},
        events=[],
        dice=[4],
        dice_from=0,
        reply=reply,
        created_at=NOW,
    )


def test_a_neutral_reply_shows_the_name_as_typed() -> None:
    typed = "anna_b *the* [best] ⟦cmd|join⟧ \\"
    line = f"Freiwurf für {markup.name('u1', typed):}: 🎲 4."
    assert _move(entry("discord:17", line, neutral=True), {}).lines == ((f"Freiwurf für {typed}: 🎲 4.",),)
    assert _move(entry("console:5", line, neutral=True), {}).lines == ((f"Freiwurf für {typed}: 🎲 4.",),)


def test_a_legacy_discord_reply_is_shown_without_discords_escapes() -> None:
    typed = "anna_b *the* [best]"
    escaped = f"Freiwurf für {name(typed)}: 🎲 4."
    assert escaped != f"Freiwurf für {typed}: 🎲 4."  # Discord's form differs
    assert _move(entry("discord:17", escaped), {}).lines == ((f"Freiwurf für {typed}: 🎲 4.",),)
    assert _move(entry("interaction:18", escaped), {}).lines == ((f"Freiwurf für {typed}: 🎲 4.",),)


def test_a_legacy_console_reply_is_shown_as_it_was_written() -> None:
    line = "Freiwurf für a\\_b: 🎲 4."  # a backslash the console player really typed
    assert _move(entry("console:5", line), {}).lines == ((line,),)


def test_the_legacy_reading_undoes_discords_escaping() -> None:
    for text in ("plain", "a_b", "**x**", "[A](https://evil.example)", "@everyone", "# heading", "1. item"):
        assert markup.legacy_unescaped(name(text)) == text


def test_digits_in_the_croupiers_line_never_become_a_name() -> None:
    """A nickname made of ``@`` and another player's id is a bare sign in the croupier's lines: not
    that player, and not the id."""
    anna = "100000000000000001"
    legacy = f"{name('@' + anna)} ist dabei."  # as Discord got it: the mention broken by a zero-width space
    assert _move(entry("discord:17", legacy), {anna: "Anna"}).lines == (("@… ist dabei.",),)
    neutral = f"{markup.name('u2', '@' + anna):} ist dabei."
    assert _move(entry("discord:17", neutral, neutral=True), {anna: "Anna"}).lines == (("@… ist dabei.",),)


def test_inline_code_is_split_from_the_text_without_its_backticks() -> None:
    commitment = markup.template("Commitment: `{c}` — offen.").format(c=markup.outside("dcec4e"))
    assert web_line(commitment) == ("Commitment: ", "dcec4e", " — offen.")
    assert web_line(markup.template("`a` und `b`")) == ("", "a", " und ", "b", "")
    assert web_line("ohne Code") == ("ohne Code",)
    assert web_line(markup.template("ein ` allein")) == ("ein ` allein",)  # no partner: text


def test_a_backtick_in_a_name_is_text_not_code() -> None:
    typed = "a`b *c*"
    legacy = f"Seed von {name(typed)}: `5eed`"
    assert _move(entry("discord:17", legacy), {}).lines == ((f"Seed von {typed}: ", "5eed", ""),)
    neutral = markup.template("Seed von {p}: `{s}`").format(p=markup.outside(typed), s=markup.outside("5eed"))
    shown = _move(entry("discord:17", neutral, neutral=True), {}).lines
    assert shown == ((f"Seed von {typed}: ", "5eed", ""),)


def test_the_web_the_service_and_the_console_load_without_the_discord_front_end() -> None:
    """The pages read the neutral log entries themselves: serving them (or the console) loads nothing
    of the Discord front end."""
    code = (
        "import sys, bot.service.pages, bot.web.app, bot.web.server, bot.service.croupier\n"
        "import bot.console.terminal\n"
        "print(sorted(m for m in sys.modules if m.startswith('bot.discord')))"
    )
    command = [sys.executable, "-c", code]
    done = subprocess.run(command, capture_output=True, text=True, check=True, timeout=60)
    assert done.stdout.strip() == "[]"
