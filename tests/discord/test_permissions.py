"""A channel that denies the bot a permission never freezes a game, and never makes the bot hammer it.

- Without Send Messages the move is stored, its answer is tried once and then held — no further request —
  until the channel's permissions change; interaction answers (webhooks, which need no channel
  permission) go out at once meanwhile, and the first player who uses a command there learns privately
  what is missing; the log says it once.
- Without Read Message History the answer goes out without its reply reference and names the player;
  without Embed Links it goes out as text — the story, the table as a code block, the words to type — and
  a thread's live table is drawn as text instead of going stale; the channel is told once of each.
- A channel of a guild the bot was removed from is undeliverable, not retried.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import Callable

import pytest

from bot.discord import failures
from bot.discord.client import CroupierBot
from bot.store import LogEntry
from tests.discord.helpers import Table, asked, drawn, says, story
from tests.discord.test_forum import Hall, hall_of
from tests.discord_emulator import permissions as perms

QUICK = {"retry_start_seconds": 0.05, "retry_cap_seconds": 0.2, "acknowledge_after_seconds": 0.05}
ANSWER_WITHIN_S = 3.0  # Discord's own window for a first answer; the promise


@pytest.fixture
def quick(table: Table) -> Table:
    table.options = dataclasses.replace(table.options, **QUICK)
    return table


async def deny(table: Table, permissions: int, channel: int | None = None) -> None:
    """A moderator denies the bot ``permissions`` in the channel (a member overwrite)."""
    emu = table.emu
    overwrite = perms.Overwrite(emu.bot_id, perms.MEMBER_OVERWRITE, deny=permissions)
    await emu.set_overwrites(channel or table.people.channel, [overwrite])


async def until(check: Callable[[], bool], timeout: float = 5.0) -> None:  # noqa: ASYNC109
    """A safety net, not a measure: until ``check`` holds."""
    async with asyncio.timeout(timeout):
        while True:
            if check():
                return
            await asyncio.sleep(0.02)


async def settled(table: Table, message_id: str) -> LogEntry:
    async with asyncio.timeout(5):
        while True:
            with table.store.transaction(read_only=True) as uow:
                entry = uow.log.find(message_id)
            if entry is not None and entry.delivery != "pending":
                return entry
            await asyncio.sleep(0.02)


async def opened(table: Table) -> None:
    p = table.people
    await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
    await table.slash_message(p.anna, "mitmachen")


def refused_posts(table: Table, channel: int) -> list[int]:
    return [
        r.status
        for r in table.emu.requests
        if r.operation == "create_message" and r.path.endswith(f"/{channel}/messages") and r.status >= 400
    ]


def errors_naming(caplog: pytest.LogCaptureFixture, words: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR and words in r.getMessage()]


def freiwurf_story(face: int) -> list[str]:
    return [says("v6.freiwurf", player="Anna", face=face, total=face), asked("Anna")]


async def test_with_send_messages_denied_an_ephemeral_slash_command_there_is_answered_within_3_s(
    quick: Table, caplog: pytest.LogCaptureFixture
) -> None:
    table, p, emu = quick, quick.people, quick.emu
    table.dice.will_roll(4)
    async with table.running() as bot:
        await opened(table)
        await deny(table, perms.SEND_MESSAGES)
        line = await table.say(p.anna, "weiter")
        await until(lambda: bot.front.delivery.holds.hold_of(p.channel) is not None)  # tried once, refused

        started = time.monotonic()
        sent = await emu.slash_command(p.guild, p.channel, p.ben, "regeln")
        answers = await emu.wait_for_answers(
            sent, lambda a: any(m.embeds for m in a.messages) and len(a.messages) >= 2, timeout=10
        )
        assert time.monotonic() - started < ANSWER_WITHIN_S  # the rules, not a "thinking…"
        rules, why = answers.messages
        assert rules.ephemeral
        assert rules.embeds
        assert why.ephemeral  # and, privately, why the channel stays silent
        assert why.content == drawn(
            "discord.permission.held", permission=drawn("discord.permission.name.send_messages")
        )

        later = await emu.slash_command(p.guild, p.channel, p.carl, "hilfe")
        once = await emu.wait_for_answers(later, lambda a: bool(a.messages))
        await asyncio.sleep(0.2)
        assert len(emu.answers(later).messages) == len(once.messages) == 1  # told once per hold

        assert refused_posts(table, p.channel) == [403]  # one try, then held: no request per retry
        assert len(errors_naming(caplog, failures.SEND_MESSAGES)) == 1  # said once in the log
        assert (await table.log(1))[-1].delivery == "pending"

        await emu.set_overwrites(p.channel, [])  # a moderator gives the permission back
        answer = await table.answer_to(line)
        assert story(answer) == freiwurf_story(4)
        assert (await settled(table, f"discord:{line}")).delivery == "delivered"
        assert bot.front.delivery.holds.hold_of(p.channel) is None
    assert refused_posts(table, p.channel) == [403]


async def test_a_public_move_by_slash_command_in_a_held_channel_is_answered_at_once(quick: Table) -> None:
    """The answer of a /zug is a webhook call: it does not wait behind the channel's held post."""
    table, p, emu = quick, quick.people, quick.emu
    table.dice.will_roll(4, 2)
    async with table.running() as bot:
        await opened(table)
        await deny(table, perms.SEND_MESSAGES)
        line = await table.say(p.anna, "weiter")
        await until(lambda: bot.front.delivery.holds.hold_of(p.channel) is not None)
        started = time.monotonic()
        sent = await emu.slash_command(p.guild, p.channel, p.anna, "zug", {"worte": "weiter"})
        answers = await emu.wait_for_answers(sent, lambda a: any(m.embeds for m in a.messages))
        assert time.monotonic() - started < ANSWER_WITHIN_S
        answer = next(m for m in answers.messages if m.embeds)
        assert not answer.ephemeral
        assert story(answer) == [says("v6.thrown", face=2, player="Anna", total=6), asked("Anna")]
        await emu.set_overwrites(p.channel, [])
        earlier = await table.answer_to(line)  # the held one follows once the channel takes posts
        assert story(earlier) == freiwurf_story(4)


async def test_without_read_message_history_and_embed_links_a_moves_answer_arrives_with_its_story_and_totals(
    quick: Table, caplog: pytest.LogCaptureFixture
) -> None:
    table, p, emu = quick, quick.people, quick.emu
    table.dice.will_roll(4)
    async with table.running():
        await opened(table)
        await deny(table, perms.READ_MESSAGE_HISTORY | perms.EMBED_LINKS)
        line = await table.say(p.anna, "weiter")
        named = drawn("discord.delivery.answer_for", name=f"<@{p.anna}>")
        answer = await emu.next_message(p.channel, predicate=lambda m: m.content.startswith(named))
        assert answer.message_reference is None  # not a reply: Discord would refuse it (160002) …
        assert answer.body.get("embeds") == []  # … and drop the embeds
        assert answer.embeds == []
        lines = answer.content.splitlines()
        assert lines[0] == named
        assert freiwurf_story(4) == [line for line in lines if line in freiwurf_story(4)]  # the story
        block = lines[lines.index("```text") + 1 : lines.index("```")]  # the table as a code block
        assert [row.split("  ") for row in block] == [["▶ Anna", says("role.playing"), "4"]]  # the total
        assert answer.components  # the board stays: the words to press
        assert refused_posts(table, p.channel) == []  # known from the channel's permissions: no 403

        def notes() -> list[str]:
            said = [m for m in emu.bot_messages if m.channel_id == p.channel]
            return [m.content for m in said if m.content.startswith("ℹ️")]

        await until(lambda: len(notes()) >= 2)
        assert sorted(notes()) == sorted(
            [
                drawn(
                    "discord.permission.degraded_embeds",
                    permission=drawn("discord.permission.name.embed_links"),
                ),
                drawn(
                    "discord.permission.degraded_history",
                    permission=drawn("discord.permission.name.read_message_history"),
                ),
            ]
        )  # the channel is told once of each
        assert errors_naming(caplog, failures.READ_MESSAGE_HISTORY)  # the log names the right permission
        assert errors_naming(caplog, failures.EMBED_LINKS)
        assert (await settled(table, f"discord:{line}")).delivery == "delivered"


async def test_a_reply_refused_for_want_of_read_message_history_goes_out_naming_the_player(
    quick: Table, caplog: pytest.LogCaptureFixture
) -> None:
    """The cache did not know (160002 came from Discord): the same answer goes again without the reply
    reference, naming the player, at once — and later answers there are no replies from the start."""
    table, p, emu = quick, quick.people, quick.emu
    table.dice.will_roll(4, 2)
    async with table.running():
        await opened(table)
        emu.fail_requests(
            operation="create_message",
            channel=p.channel,
            status=403,
            code=160002,
            message="Cannot reply without permission to read message history",
        )
        line = await table.say(p.anna, "weiter")
        named = drawn("discord.delivery.answer_for", name=f"<@{p.anna}>")
        answer = await emu.next_message(p.channel, predicate=lambda m: m.content.startswith(named))
        assert answer.message_reference is None
        assert story(answer) == freiwurf_story(4)  # the embeds are allowed: still the full answer
        assert refused_posts(table, p.channel) == [403]
        assert errors_naming(caplog, failures.READ_MESSAGE_HISTORY)
        assert (await settled(table, f"discord:{line}")).delivery == "delivered"


async def test_a_text_answer_refused_as_a_reply_goes_out_as_text_naming_the_player(quick: Table) -> None:
    """Without Embed Links (known) the answer is text; Discord then refuses it as a reply (160002, not
    known): it goes again as text with the player's name in front, still within a message."""
    table, p, emu = quick, quick.people, quick.emu
    table.dice.will_roll(4)
    async with table.running():
        await opened(table)
        await deny(table, perms.EMBED_LINKS)
        emu.fail_requests(operation="create_message", channel=p.channel, status=403, code=160002)
        line = await table.say(p.anna, "weiter")
        named = drawn("discord.delivery.answer_for", name=f"<@{p.anna}>")
        answer = await emu.next_message(p.channel, predicate=lambda m: m.content.startswith(named))
        assert answer.message_reference is None
        assert answer.embeds == []
        assert all(said in answer.content.splitlines() for said in freiwurf_story(4))
        assert (await settled(table, f"discord:{line}")).delivery == "delivered"


async def test_embeds_discord_dropped_are_sent_again_as_text(quick: Table) -> None:
    """Embed Links taken away without the bot hearing of it (its cache says it may embed): Discord takes
    the post and drops its embeds; the bot sees that and turns the message into the text answer."""
    table, p, emu = quick, quick.people, quick.emu
    table.dice.will_roll(4)
    async with table.running():
        await opened(table)
        channel = emu.world.channel(p.channel)
        channel.overwrites = [perms.Overwrite(emu.bot_id, perms.MEMBER_OVERWRITE, deny=perms.EMBED_LINKS)]
        line = await table.say(p.anna, "weiter")
        edited = await emu.next_message(
            p.channel, action="edit", predicate=lambda m: "```text" in m.content, timeout=5
        )
        shown = emu.message(edited.message_id)
        assert shown["message_reference"]["message_id"] == str(line)  # still the reply to the line
        lines = shown["content"].splitlines()
        assert all(said in lines for said in freiwurf_story(4))
        assert (await settled(table, f"discord:{line}")).delivery == "delivered"


async def test_a_threads_live_table_is_drawn_as_text_without_embed_links(table: Table) -> None:
    """A live table is one message, edited in place: as text it shows the title, the table and the
    commitment, and every move redraws it — it never stays stale."""
    hall: Hall = await hall_of(table)
    p, emu = table.people, table.emu
    table.dice.will_roll(4)
    async with table.running():
        await deny(table, perms.EMBED_LINKS, channel=hall.text)
        sent, _ = await hall.slash(
            hall.text, p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen"
        )
        pointer = await emu.next_message(hall.text, predicate=lambda m: m.interaction_id == sent.id)
        thread = int(pointer.content.split("<#")[1].split(">")[0])
        first = await hall.live_edit((hall.text, thread), lambda m: "**" in m.content)
        assert first.embeds == []
        await hall.public(thread, p.anna, "mitmachen")
        joined = await hall.live_edit((hall.text, thread), lambda m: "Anna" in m.content)
        assert "```text" in joined.content
        assert not joined.embeds
        assert emu.message(thread)["embeds"] == []  # nothing stale is left behind


async def test_a_held_channel_of_a_guild_the_bot_left_is_undeliverable(
    quick: Table, caplog: pytest.LogCaptureFixture
) -> None:
    table, p, emu = quick, quick.people, quick.emu
    table.dice.will_roll(4)
    async with table.running() as bot:
        await opened(table)
        await deny(table, perms.SEND_MESSAGES)
        line = await table.say(p.anna, "weiter")
        await until(lambda: bot.front.delivery.holds.hold_of(p.channel) is not None)
        await emu.remove_bot(p.guild)
        assert (await settled(table, f"discord:{line}")).delivery == "undeliverable"
        assert refused_posts(table, p.channel) == [403]
        assert bot.front.delivery.ledger.undeliverable == 1


async def test_the_invalid_requests_are_counted_and_shown(quick: Table) -> None:
    """Every 401, 403 and 429 the bot gets is counted over ten minutes (Discord's ban limit)."""
    table, p = quick, quick.people
    table.dice.will_roll(4)
    async with table.running() as bot:
        assert isinstance(bot, CroupierBot)
        await opened(table)
        await deny(table, perms.SEND_MESSAGES)
        await table.say(p.anna, "weiter")
        await until(lambda: bot.front.delivery.holds.hold_of(p.channel) is not None)
        report = bot.front.delivery.ledger.snapshot()
        assert report["invalid_requests_10min"] == 1
        assert report["held"][p.channel]["missing"] == failures.SEND_MESSAGES
        assert report["failures"][failures.PERMISSION] == 1


async def test_refusals_in_a_channel_without_send_messages_are_tried_once_in_all(
    quick: Table, caplog: pytest.LogCaptureFixture
) -> None:
    """Every bad line gets a refusal, but in a channel that refused the bot it is not even tried again:
    the held channel costs one refused request, however much is typed."""
    table, p = quick, quick.people
    caplog.set_level(logging.INFO, logger="bot.discord.delivery")
    async with table.running() as bot:
        await opened(table)
        await deny(table, perms.SEND_MESSAGES)
        for _ in range(3):
            await table.say(p.ben, "weiter")  # ben has not joined: a refusal each time
        await until(lambda: bot.front.delivery.holds.hold_of(p.channel) is not None)
        await until(lambda: sum("a note to it is dropped" in r.getMessage() for r in caplog.records) == 2)
        assert refused_posts(table, p.channel) == [403]
