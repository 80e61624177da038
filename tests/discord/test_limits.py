"""The largest tournaments the bot is asked to carry fit Discord's limits in every answer — nothing is
refused (400) and nothing is cut: 100 players with 32-character display names full of markdown, 20
rounds, 41 tournaments in the channel, 45 corrections with long reasons, a running Durchgang of 100.

Every answer type goes through the real client and the emulator (which refuses, as Discord does, a
message over 2,000 characters of content or 6,000 of embeds, or an embed over its own limits): the move's
answer (as embeds, and as text without Embed Links), ``/tabelle`` as text and as a picture,
``/korrektur liste``, ``/prüfen``, ``/turniere``, ``/hilfe``, ``/regeln``, the close with its seed; in a
thread, the live table and the home's result line naming a hundred tied leaders.

The tournament is played through the croupier service on the bot's store (the path every front end
takes), then shown through Discord."""

from __future__ import annotations

import asyncio
import itertools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import pytest

from bot.discord.limits import CONTENT_MAX
from bot.service.croupier import Croupier, Incoming
from bot.service.forum import LEADERS_NAMED
from engine.game import Close, Join
from tests.discord.helpers import BLANK_FIELD, Table, drawn
from tests.discord.test_forum import Hall, hall_of
from tests.discord_emulator import BotMessage, SentInteraction
from tests.discord_emulator import permissions as perms

PLAYERS = 100
ROUNDS = 20
TOURNAMENTS = 41
ADJUSTMENTS = 40
DISQUALIFIED = 5
REASON = "Regelverstoß laut Protokoll der Turnierleitung, mit Zeugen und Zeitstempel. " * 6  # ~460


def display_name(number: int) -> str:
    """32 characters — Discord's longest display name — with markdown that escaping lengthens."""
    return f"{number:03d} *Wü_rfel~König* [x](y) ||z||"[:32].ljust(32, "#")


@dataclass
class Crowd:
    ids: list[int]
    names: list[str]

    def name_of(self, member: int) -> str:
        return self.names[self.ids.index(member)]


async def crowd(table: Table) -> Crowd:
    ids = [
        await table.emu.add_member(table.people.guild, f"spieler{n:03d}", nick=display_name(n))
        for n in range(PLAYERS + DISQUALIFIED)  # the last five will be disqualified
    ]
    return Crowd(ids, [display_name(n) for n in range(PLAYERS + DISQUALIFIED)])


class Service:
    """Messages to the croupier service as the Discord front end would make them (ids as its own)."""

    def __init__(self, croupier: Croupier, guild: int, channel: int, parent: int | None = None) -> None:
        self.croupier = croupier
        self.guild, self.channel, self.parent = str(guild), str(channel), str(parent or "")
        self.ids = itertools.count(1)

    def msg(self, author: int, name: str, text: str = "", *, moderator: bool = False) -> Incoming:
        return Incoming(
            message_id=f"seed:{id(self)}:{next(self.ids)}",  # never one of another Service
            guild=self.guild,
            channel=self.channel,
            parent=self.parent,
            place="thread" if self.parent else "",
            author=str(author),
            author_name=name,
            text=text,
            is_moderator=moderator,
            is_admin=moderator,
        )


async def seeded(table: Table, people: Crowd) -> None:
    """41 tournaments; in the last, 20 closed Durchgänge (the first with all 100 players) and 45
    corrections — played through the service with scripted dice."""
    p = table.people
    dice = table.dice
    service = Service(
        Croupier(store=table.store, dice_factory=dice.factory, clock=table.clock), p.guild, p.channel
    )
    croupier, moni = service.croupier, (p.moni, "Moni")
    for number in range(TOURNAMENTS):
        name = f"Frühjahrsturnier {number:02d} der Spelunke mit einem langen Namen"
        assert (await croupier.new_tournament(service.msg(*moni, moderator=True), name)).ok
    for number in range(ROUNDS):
        seated = list(zip(people.ids, people.names, strict=True))[: len(people.ids) if number == 0 else 2]
        assert (await croupier.open_game(service.msg(*moni, moderator=True), "verflixte6", {})).ok
        for member, name in seated:
            assert (await croupier.execute(service.msg(member, name), Join(name))).ok
        dice.will_roll(*[3] * len(seated))
        for member, name in seated:
            assert (await croupier.handle_text(service.msg(member, name, "weiter"))).ok
            assert (await croupier.handle_text(service.msg(member, name, "stopp"))).ok
        assert (await croupier.execute(service.msg(*moni, moderator=True), Close())).ok
    for member in people.ids[:ADJUSTMENTS]:
        assert (await croupier.adjust(service.msg(*moni, moderator=True), str(member), -3, REASON)).ok
    for member in people.ids[-DISQUALIFIED:]:
        assert (await croupier.disqualify(service.msg(*moni, moderator=True), str(member), REASON)).ok


async def joined(croupier: Croupier, service: Service, people: Crowd) -> None:
    """The first 100 sign up (the disqualified may not)."""
    for member, name in list(zip(people.ids, people.names, strict=True))[:PLAYERS]:
        assert (await croupier.execute(service.msg(member, name), Join(name))).ok


# ---------------------------------------------------------------------- reading what was sent


async def answer_of(
    table: Table, sent: SentInteraction, parts: Callable[[list[BotMessage]], bool]
) -> list[BotMessage]:
    """The messages answering an interaction (its response and followups), once ``parts`` says they
    are all there (a safety net of a timeout, not a measure)."""
    answers = await table.emu.wait_for_answers(
        sent, lambda a: parts([m for m in a.messages if m.action in ("create", "edit")]), timeout=20
    )
    return [m for m in answers.messages if m.action in ("create", "edit")]


def code_rows(messages: Iterable[BotMessage]) -> list[str]:
    """The lines of every code block in the messages' embeds and content (headers included)."""
    rows: list[str] = []
    for message in messages:
        texts = [message.content, *((e.get("description") or "") for e in message.embeds)]
        for text in texts:
            for block in re.findall(r"```(?:text)?\n(.*?)\n```", text, re.S):
                rows += block.splitlines()
    return rows


def player_rows(messages: Iterable[BotMessage]) -> list[str]:
    """The standings rows of code blocks: a rank, then a name starting with its number."""
    return [row for row in code_rows(messages) if re.match(r"\s*\d+\s+\d{3} ", row)]


def note_lines(messages: Iterable[BotMessage]) -> list[str]:
    return [
        line
        for message in messages
        for embed in message.embeds
        for field in embed.get("fields") or []
        for line in field["value"].splitlines()
    ]


def table_rows(messages: Iterable[BotMessage]) -> list[str]:
    """The running-table rows of a game answer across its messages (fields titled as the table, and
    their untitled continuations)."""
    title = drawn("discord.field.table")
    return [
        row
        for message in messages
        for embed in message.embeds
        for field in embed.get("fields") or []
        if field["name"] in (title, BLANK_FIELD)
        for row in field["value"].splitlines()
    ]


def no_refusals(table: Table) -> None:
    refused = [(r.method, r.path, r.status, r.response) for r in table.emu.requests if r.status == 400]
    assert refused == []


def shown_number(row: str) -> str:
    """The three-digit number a player's name starts with, as a row shows it."""
    found = re.search(r"\b(\d{3}) ", row)
    assert found is not None, row
    return found.group(1)


@pytest.mark.usefixtures("people")
async def test_the_largest_tournament_is_answered_in_full_without_a_400(table: Table) -> None:
    p, emu = table.people, table.emu
    people = await crowd(table)
    await seeded(table, people)
    kept = people.ids[:PLAYERS]
    async with table.running(Croupier(store=table.store, clock=table.clock)) as bot:  # verifiable dice
        # /tabelle: every player still in the tournament, in as many code blocks as they need
        sent = await emu.slash_command(p.guild, p.channel, p.anna, "tabelle")
        corrections = ADJUSTMENTS + DISQUALIFIED
        standings = await answer_of(table, sent, lambda ms: len(note_lines(ms)) >= corrections)
        rows = player_rows(standings)
        assert sorted(shown_number(row) for row in rows) == [f"{n:03d}" for n in range(len(kept))]
        assert len(note_lines(standings)) == corrections  # every correction under the table
        assert len(standings) > 1  # continued in followups, not cut

        # /tabelle bild: the picture, the players it does not draw as text, and the notes
        sent = await emu.slash_command(p.guild, p.channel, p.anna, "tabelle", {"bild": True})
        pictured = await answer_of(table, sent, lambda ms: len(note_lines(ms)) >= corrections)
        assert pictured[0].embeds[0]["image"]["url"].startswith("attachment://")
        rest = [shown_number(row) for row in player_rows(pictured)]
        assert len(set(rest)) == len(rest) == len(kept) - 60  # the picture holds 60; the rest as text
        ranked = [shown_number(row) for row in rows]  # /tabelle's order: by rank
        assert rest == ranked[60:]

        # /korrektur liste: every correction, continued
        sent = await emu.slash_command(p.guild, p.channel, p.anna, "korrektur", subcommand="liste")
        listed = await answer_of(table, sent, lambda ms: sum(reasons(m) for m in ms) >= corrections)
        assert sum(reasons(m) for m in listed) == corrections
        assert all(m.ephemeral for m in listed)

        # /turniere: all 41 tournaments
        sent = await emu.slash_command(p.guild, p.channel, p.anna, "turniere")
        tournaments = await answer_of(
            table, sent, lambda ms: sum(m.text().count("Frühjahrsturnier") for m in ms) >= TOURNAMENTS
        )
        assert sum(m.text().count("Frühjahrsturnier") for m in tournaments) == TOURNAMENTS

        for name in ("pruefen", "hilfe", "regeln"):
            sent = await emu.slash_command(p.guild, p.channel, p.anna, name)
            assert await answer_of(table, sent, bool)

        # a running Durchgang of 100: the move's answer carries the story, the commitment, the turn
        # and all 100 rows (continued); without Embed Links the same as text
        opening = await table.slash_message(
            p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen"
        )
        commitment_field = drawn("discord.field.commitment")
        assert any(f["name"] == commitment_field for f in opening.embeds[0]["fields"])
        service = Service(bot.front.croupier, p.guild, p.channel)
        await joined(bot.front.croupier, service, people)
        first = people.ids[0]
        line = await emu.send_message(p.channel, first, "weiter")
        answer = await posted_after(table, line, lambda ms: len(table_rows(ms)) >= PLAYERS)
        head = answer[0]
        assert head.message_reference is not None
        assert int(head.message_reference["message_id"]) == line
        assert drawn("discord.field.turn") in {f["name"] for f in head.embeds[0]["fields"]}  # with the story
        assert sorted(shown_number(row) for row in table_rows(answer)) == [f"{n:03d}" for n in range(PLAYERS)]

        await emu.set_overwrites(
            p.channel, [perms.Overwrite(emu.bot_id, perms.MEMBER_OVERWRITE, deny=perms.EMBED_LINKS)]
        )
        line = await emu.send_message(p.channel, first, "stopp")
        as_text = await posted_after(table, line, lambda ms: len(code_rows(ms)) >= PLAYERS)
        assert all(not m.embeds for m in as_text)
        assert all(len(m.content) <= CONTENT_MAX for m in as_text)
        assert len(as_text) > 1  # continued in further messages
        assert sorted({shown_number(row) for row in code_rows(as_text)}) == [
            f"{n:03d}" for n in range(PLAYERS)
        ]
        await emu.set_overwrites(p.channel, [])

        # the close reveals the seed beside the final table of 100
        closing = await table.slash_message(p.moni, "durchgang", subcommand="schliessen")
        closed = [closing, *await followups_of(table, closing)]
        seed_field = drawn("discord.field.seed")
        assert any(f["name"] == seed_field for f in closing.embeds[0]["fields"])
        assert len(table_rows(closed)) == PLAYERS
    no_refusals(table)


def reasons(message: BotMessage) -> int:
    """How many lines of the message give a correction's reason."""
    return sum(REASON.split(",")[0] in line for line in message.text().splitlines())


async def posted_after(
    table: Table, line: int, complete: Callable[[list[BotMessage]], bool]
) -> list[BotMessage]:
    """The bot's posts in the channel after the chat line, once ``complete`` says the answer is all there."""
    channel = table.people.channel

    def posts() -> list[BotMessage]:
        return [
            m
            for m in table.emu.bot_messages
            if m.channel_id == channel
            and m.action == "create"
            and m.via == "channel"
            and m.message_id > line
            and not m.content.startswith("ℹ️")
        ]

    try:
        async with asyncio.timeout(10):
            while True:
                if complete(posts()):
                    return posts()
                await asyncio.sleep(0.05)
    except TimeoutError:
        raise


async def followups_of(table: Table, message: BotMessage) -> list[BotMessage]:
    await asyncio.sleep(0.3)
    return [
        m for m in table.emu.bot_messages if m.answering == message.interaction_id and m.via == "followup"
    ]


async def test_a_threads_live_table_of_100_and_its_result_line_fit(table: Table) -> None:
    """A live table is one message: it shows what fits and counts the rest; the home's result line
    names ten tied leaders and counts the others — within 2,000 characters, never given up."""
    hall: Hall = await hall_of(table)
    p, emu = table.people, table.emu
    people = await crowd(table)
    async with table.running() as bot:
        sent, _ = await hall.slash(
            hall.text, p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen"
        )
        pointer = await emu.next_message(hall.text, predicate=lambda m: m.interaction_id == sent.id)
        thread = int(pointer.content.split("<#")[1].split(">")[0])
        service = Service(bot.front.croupier, p.guild, thread, parent=hall.text)
        last = Crowd(people.ids[PLAYERS - 1 : PLAYERS], people.names[PLAYERS - 1 : PLAYERS])
        await joined(
            bot.front.croupier, service, Crowd(people.ids[: PLAYERS - 1], people.names[: PLAYERS - 1])
        )
        await hall.public(thread, last.ids[0], "mitmachen")  # a public reply: the live table is redrawn

        def counted(message: BotMessage) -> bool:
            rows = table_rows([message])
            return bool(rows) and rows[-1].startswith("…")

        live = await hall.live_edit((hall.text, thread), counted)
        *shown, more = table_rows([live])
        assert more == drawn("discord.table.more", count=PLAYERS - len(shown))  # the rest counted
        assert [shown_number(row) for row in shown] == [f"{n:03d}" for n in range(len(shown))]

        await hall.public(thread, p.moni, "durchgang", subcommand="schliessen")
        result = await emu.next_message(
            hall.text, predicate=lambda m: f"<#{thread}>" in m.content and "🏁" in m.content
        )
        assert len(result.content) <= CONTENT_MAX
        assert f" {PLAYERS - LEADERS_NAMED} " in result.content  # "… und 90 weitere (0)"
        assert result.content.endswith(f"<#{thread}>")
    no_refusals(table)
