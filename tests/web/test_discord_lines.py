"""A game played on Discord keeps its replies as Discord showed them — names escaped for Markdown;
the web page shows them as the players wrote them (and escapes them for HTML itself), with Discord's
inline code spans, and no other markup, as code."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.discord.escape import name, unescaped
from bot.store import LogEntry
from bot.web.pages import _move, code_spans

NOW = datetime(2026, 12, 2, 20, 0, tzinfo=UTC)


def entry(message_id: str, line: str) -> LogEntry:
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
        reply={"ok": True, "lines": [line]},
        created_at=NOW,
    )


def test_a_discord_reply_is_shown_without_discords_escapes() -> None:
    typed = "anna_b *the* [best]"
    escaped = f"Freiwurf für {name(typed)}: 🎲 4."
    assert escaped != f"Freiwurf für {typed}: 🎲 4."  # Discord's form differs
    assert _move(entry("discord:17", escaped), {}).lines == ((f"Freiwurf für {typed}: 🎲 4.",),)
    assert _move(entry("interaction:18", escaped), {}).lines == ((f"Freiwurf für {typed}: 🎲 4.",),)


def test_a_console_reply_is_shown_as_it_was_written() -> None:
    line = "Freiwurf für a\\_b: 🎲 4."  # a backslash the console player really typed
    assert _move(entry("console:5", line), {}).lines == ((line,),)


def test_unescaping_undoes_escaping() -> None:
    for text in ("plain", "a_b", "**x**", "[A](https://evil.example)", "@everyone", "# heading", "1. item"):
        assert unescaped(name(text)) == text


def test_digits_in_the_croupiers_line_never_become_a_name() -> None:
    """A nickname made of ``@`` and another player's id is a bare sign in the croupier's lines: not
    that player, and not the id."""
    anna = "100000000000000001"
    line = f"{name('@' + anna)} ist dabei."  # as Discord got it: the mention broken by a zero-width space
    assert _move(entry("discord:17", line), {anna: "Anna"}).lines == (("@… ist dabei.",),)


def test_inline_code_is_split_from_the_text_without_its_backticks() -> None:
    assert code_spans("Commitment: `dcec4e` — offen.") == ("Commitment: ", "dcec4e", " — offen.")
    assert code_spans("`a` und `b`") == ("", "a", " und ", "b", "")
    assert code_spans("ohne Code") == ("ohne Code",)
    assert code_spans("ein ` allein") == ("ein ` allein",)  # no partner: text


def test_a_backtick_in_a_discord_name_is_text_not_code() -> None:
    typed = "a`b *c*"
    line = f"Seed von {name(typed)}: `5eed`"
    assert code_spans(line, escaped=True) == (f"Seed von {typed}: ", "5eed", "")
    assert _move(entry("discord:17", line), {}).lines == ((f"Seed von {typed}: ", "5eed", ""),)
