"""The neutral form of what the croupier says (bot.markup): nothing a player types can forge a span,
each medium spells the same line its own way, and the log reads entries of older versions — which hold
the text Discord got, escaped for Markdown — as what they said."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot import markup
from bot.discord import escape
from bot.discord.commands import DiscordSpelling
from bot.replies import Reply
from bot.spelling import CONSOLE

NICK = "*ben*_<@&1>"


@given(st.text())
def test_typed_text_is_one_span_of_exactly_that_text(typed: str) -> None:
    """Whatever a player types — ⟦, ⟧, |, backslashes, a whole fake span — reads back as that text."""
    line = f"Freiwurf für {markup.name('u1', typed):}: {markup.outside(typed):}."
    assert markup.spans(line) == [
        ("", ("Freiwurf für ",)),
        ("name", ("u1", typed)),
        ("", (": ",)),
        ("text", (typed,)),
        ("", (".",)),
    ]
    assert markup.plain(line) == f"Freiwurf für {typed}: {typed}."


@given(st.text(alphabet="ab ⟦⟧|"))
def test_a_line_without_escapes_reads_as_token_by_token(line: str) -> None:
    """The shortcut for lines without a backslash reads them exactly as the token walker does:
    unpaired brackets, ``⟦`` inside a span, empty spans and a span left open."""
    assert markup._unescaped_spans(line) == markup._token_spans(line)


def test_a_forged_span_in_a_name_stays_text() -> None:
    forged = "⟦cmd|join⟧ ⟦name|2|Anna⟧ \\⟧"
    line = f"{markup.name('u1', forged):} ist dabei."
    assert markup.plain(line) == f"{forged} ist dabei."
    assert DiscordSpelling().spell(line, "de") == f"{escape.name(forged)} ist dabei."


def test_each_medium_spells_the_same_line() -> None:
    template = markup.template("Seed von {player}: `{seed}` — mit {cmd[join]} dabei, **jetzt**.")
    line = template.format(player=markup.name("u1", NICK), seed=markup.outside("5eed"), cmd=markup.COMMANDS)
    assert CONSOLE.spell(line, "de") == f"Seed von {NICK}: `5eed` — mit /join dabei, **jetzt**."
    discord = DiscordSpelling().spell(line, "de")
    assert discord == f"Seed von {escape.name(NICK)}: `5eed` — mit /mitmachen dabei, **jetzt**."


def test_the_log_keeps_the_neutral_form_and_says_so() -> None:
    said = Reply(ok=True, lines=(f"{markup.name('u1', NICK):} ist dabei.",), title="Durchgang 1")
    logged = said.to_log()
    assert logged["form"] == markup.FORM
    again = Reply.from_log(logged)
    assert again.lines == said.lines
    assert again.spelled(CONSOLE).lines == (f"{NICK} ist dabei.",)


def test_an_older_entry_spelled_for_discord_reads_as_it_was_said() -> None:
    """Written by an older version for Discord (no "form"): on a repeat Discord shows it escaped once,
    the console as typed; its inline code stays code."""
    older = {"ok": True, "lines": [f"Seed von {escape.name(NICK)}: `5eed`"], "title": "Durchgang 1"}
    again = Reply.from_log(older)
    assert again.duplicate
    assert again.spelled(CONSOLE).lines == (f"Seed von {NICK}: `5eed`",)
    assert again.spelled(DiscordSpelling()).lines == (f"Seed von {escape.name(NICK)}: `5eed`",)
    assert again.spelled(CONSOLE).title == "Durchgang 1"
