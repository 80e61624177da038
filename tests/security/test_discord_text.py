"""Item 3 of the security issue: what players and moderators type is shown literally on Discord.

A nickname ``[Anna](https://evil.example/login)`` must never become a link the bot wrote — not in a
story line, the running table, a card's title, a refusal, the standings (text or picture) or an export
note; nor may a name open a heading, a spoiler, a code block, a mention or a clickable URL.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot import markup
from bot.discord import escape
from bot.discord.commands import DiscordSpelling
from bot.discord.embeds import refusal_content, standings_cells, standings_embeds
from bot.exports import StandingsRow, StandingsTable
from bot.replies import Reply
from tests.discord.helpers import Table, asked, refusal, row, says, story, table_rows

NICK = "[Anna](https://evil.example/login)"
SHOWN = r"\[Anna\](https\://evil.example/login)"
CUP = "[Cup](https://evil.example/cup)"
HOSTILE_NAMES = [
    NICK,
    "[Anna](<https://evil.example>)",
    "# Anna",
    "-# Anna",
    "> Anna",
    "1. Anna",
    "||Anna||",
    "**Anna**",
    "`Anna`",
    "```Anna```",
    "<@123456789012345678>",
    "<#123456789012345678>",
    "<t:1700000000:R>",
    "</mitmachen:123456789012345678>",
    "@everyone",
    "https://evil.example",
    "Anna\n# Ben",
    "\u202eannA",
    "a\\*b*",
    "\\[x\\](https://evil.example)",
]


def unescaped(text: str) -> list[str]:
    """What in ``text`` Discord would read as markup: special characters without a backslash before
    them, a line-start marker, a URL scheme, a mention."""
    found = []
    escaped = False
    at_line_start = True
    for index, ch in enumerate(text):
        if escaped:
            escaped = False
            at_line_start = False
            continue
        if ch == "\\":
            escaped = True
            continue
        if ch in "*_~|`[]<":
            found.append(ch)
        if at_line_start and ch in "#->+":
            found.append(f"line start {ch}")
        if ch == ":" and text[index + 1 : index + 2] == "/":
            found.append("scheme")
        if ch == "\n":
            at_line_start = True
        elif not ch.isspace():
            at_line_start = False
    if re.search(r"@(everyone|here|[!&]?\d{17,20})", text):
        found.append("mention")
    if re.search(r"^\s*\d+\.", text, re.MULTILINE):
        found.append("numbered list")
    if re.search("[\u202a-\u202e\u2066-\u2069]", text):
        found.append("direction override")
    return found


@pytest.mark.parametrize("hostile", HOSTILE_NAMES)
def test_a_name_is_literal_text(hostile: str) -> None:
    shown = escape.name(hostile)
    assert unescaped(shown) == []
    assert "\n" not in shown
    assert escape.name(shown) == shown  # escaping twice changes nothing


@given(st.text())
def test_any_text_escapes_to_literal_text_once(text: str) -> None:
    shown = escape.plain(text)
    assert unescaped(shown) == []
    assert escape.plain(shown) == shown
    assert unescaped(escape.name(text)) == []


def test_plain_names_are_unchanged() -> None:
    for name in ("Anna", "Anne-Marie", "Zoë", "Jean-Luc d'Arc", "Ben 2.0", "🎲 Würfelkönig"):
        assert escape.name(name) == name


def test_discord_spelling_escapes_names_and_typed_text() -> None:
    assert DiscordSpelling().outside(NICK) == SHOWN
    assert DiscordSpelling().spell(f"{markup.name('u1', NICK):} ist dabei.", "de") == f"{SHOWN} ist dabei."
    assert DiscordSpelling().spell(f"„{markup.outside(NICK):}“", "de") == f"„{SHOWN}“"


def test_a_refusal_repeating_typed_text_is_literal() -> None:
    reply = Reply(
        ok=False, lines=("Unbekannter Joker „[x](https://evil.example)“.",), error_code="unknown_joker"
    )
    content = refusal_content(reply)
    assert content == "⚠️ Unbekannter Joker „\\[x\\](https\\://evil.example)“."
    assert unescaped(content) == []


def test_the_standings_show_names_literally() -> None:
    rows = tuple(
        StandingsRow(rank=i + 1, player=str(i), name=name, points=(1,), total=1, best=1, zombies=0)
        for i, name in enumerate(["Anna\n9  Fake  999", "```x```", NICK])
    )
    table = StandingsTable(tournament=CUP, scoring="sum", durchgaenge=(1,), rows=rows)
    (embed,) = standings_embeds(table, "de")
    assert embed.title == says("discord.standings_title", game=None, name=escape.name(CUP))
    assert unescaped(embed.title or "") == []
    _, cells = standings_cells(table, "de")
    assert all("\n" not in cell and "```" not in cell for line in cells for cell in line)
    assert (embed.description or "").count("```") == 2  # one code block: a name cannot close it
    assert len((embed.description or "").splitlines()) == 2 + 1 + len(rows)  # fences, header, one per row


# ---------------------------------------------------------------------- end to end, through Discord


def texts_of(table: Table) -> list[str]:
    """Every text the bot sent: messages (content, embeds) and interaction answers."""
    shown = [message.text() for message in table.emu.bot_messages]
    for response in table.emu.interaction_responses:
        data = response.data or {}
        shown.append(str(data.get("content") or ""))
        for embed in data.get("embeds") or []:
            shown += [embed.get("title") or "", embed.get("description") or ""]
            shown += [f"{f.get('name', '')} {f.get('value', '')}" for f in embed.get("fields") or []]
    return shown


def never_raw(table: Table, *raw: str) -> None:
    for text in texts_of(table):
        for hostile in raw:
            assert hostile not in text, text
        assert "https://evil" not in text, text  # no clickable link either


async def hostile_member(table: Table) -> int:
    return await table.emu.add_member(table.people.guild, "mallory", nick=NICK)


async def test_a_hostile_nickname_is_literal_in_the_table_cards_and_refusals(table: Table) -> None:
    p = table.people
    mallory = await hostile_member(table)
    table.dice.will_roll(3)
    async with table.running():
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        joined = await table.slash_message(mallory, "mitmachen")
        assert table_rows(joined) == [row(SHOWN, "jungfrau", 0, to_act=True)]
        await table.slash_message(p.anna, "mitmachen")
        refused = await table.said(p.anna, "weiter")  # mallory is first
        assert refused.content == refusal("error.not_your_turn", player=SHOWN)
        chosen = await table.slash_message(mallory, "joker", {"joker": "Rattenlord"}, subcommand="waehlen")
        assert chosen.embeds[1]["title"] == says("highlight.jokers", player=SHOWN)
        thrown = await table.said(mallory, "weiter")
        assert row(SHOWN, "playing", 3, to_act=True, jokers=["Rattenlord"]) in table_rows(thrown)
        typo = await table.said(mallory, "weiter mit Joker [Rattenlord](https://evil.example/x)")
        assert typo.message_reference is not None
        assert unescaped(typo.content.removeprefix("⚠️ ")) == []
    for message in table.emu.bot_messages:
        for embed in message.embeds:
            assert unescaped(embed.get("title") or "") == []
            for field in embed.get("fields") or []:
                if field["name"] == says("discord.field.table", game=None):
                    for line in field["value"].splitlines():
                        assert unescaped(line.split(" — ")[0]) == []


async def test_a_hostile_nickname_is_literal_in_the_story(table: Table) -> None:
    p = table.people
    mallory = await hostile_member(table)
    table.dice.will_roll(3)
    async with table.running():
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        joined = await table.slash_message(mallory, "mitmachen")
        assert story(joined)[0] == says("v6.joined", name=SHOWN, position=1)
        await table.slash_message(p.anna, "mitmachen")
        thrown = await table.said(mallory, "weiter")
        assert story(thrown) == [says("v6.freiwurf", player=SHOWN, face=3, total=3), asked(SHOWN)]
    never_raw(table, NICK)


async def test_a_hostile_tournament_name_is_literal_in_standings_pictures_and_exports(table: Table) -> None:
    p = table.people
    shown = escape.name(CUP)
    async with table.running():
        await table.slash_message(p.moni, "turnier", {"name": CUP})
        table.dice.will_roll(4)
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        await table.slash_message(p.anna, "mitmachen")
        await table.said(p.anna, "weiter")
        await table.said(p.anna, "stopp")
        await table.slash_message(p.moni, "durchgang", subcommand="schliessen")
        text = await table.slash_message(p.anna, "tabelle")
        assert text.embeds[0]["title"] == says("discord.standings_title", game=None, name=shown)
        picture = await table.slash_message(p.anna, "tabelle", {"bild": True})
        assert picture.embeds[0]["title"] == says("discord.standings_title", game=None, name=shown)
        _, exported = await table.slash(p.ada, "export", {"format": "markdown"})
        assert exported.data is not None
        note = str(exported.data.get("content") or "")
        assert note == says("discord.export_ready", game=None, name=shown, format="markdown")
        assert unescaped(note) == []


async def test_a_hostile_tournament_name_is_literal_when_the_tournament_is_created(table: Table) -> None:
    p = table.people
    async with table.running():
        await table.slash_message(p.moni, "turnier", {"name": CUP})
    never_raw(table, CUP)
