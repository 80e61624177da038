"""Where Discord says no to a game's thread, the moderator hears why and nothing opens: a forum that
requires a tag gets one the bot may apply (a moderator-only tag only with Manage Threads), and with none
the moderator is told what to change; a server at Discord's cap of active threads gets no new thread.
And the final live table of a forum post that Discord archived in the meantime is still drawn — the
post is unarchived for it, then archived and locked (V6-R6 close)."""

from __future__ import annotations

import dataclasses
import logging

import pytest

from tests.discord.helpers import Table, drawn
from tests.discord.test_forum import Hall, hall_of
from tests.discord.test_thread_closing import (
    DISCORD_PY_TRIES,
    QUICK,
    all_closed,
    failed_at_least,
    left_to_close,
    locked,
    opened_in_thread,
)
from tests.discord_emulator import FORUM, DiscordEmulator, SentInteraction
from tests.discord_emulator import permissions as perms
from tests.discord_emulator.fixtures import quick_discord_retries  # noqa: F401  (the fixture)

MAY_MANAGE = perms.MANAGE_THREADS


async def opening(table: Table, channel: int) -> SentInteraction:
    p = table.people
    return await table.emu.slash_command(
        p.guild, channel, p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen"
    )


async def told_privately(emu: DiscordEmulator, sent: SentInteraction) -> str:
    answers = await emu.wait_for_answers(sent, lambda a: any(m.ephemeral for m in a.messages))
    (told,) = [m for m in answers.messages if m.ephemeral]
    return told.content


async def forum(table: Table, tags: list[str], moderated: list[str], *, bot_may_manage: bool) -> int:
    emu = table.emu
    overwrites = (
        [perms.Overwrite(emu.bot_id, perms.MEMBER_OVERWRITE, allow=MAY_MANAGE)] if bot_may_manage else []
    )
    return await emu.add_channel(
        table.people.guild,
        "durchgaenge",
        type=FORUM,
        tags=tags,
        moderated_tags=moderated,
        require_tag=True,
        overwrites=overwrites,
    )


async def game_post(table: Table, home: int, sent: SentInteraction) -> dict[str, object]:
    pointer = await table.emu.next_message(home, predicate=lambda m: m.interaction_id == sent.id)
    thread = int(pointer.content.split("<#")[1].split(">")[0])
    return table.emu.thread(thread)


async def test_a_forum_that_requires_a_tag_gets_one_the_bot_may_apply(table: Table) -> None:
    emu = table.emu
    home = await forum(table, ["Turnierleitung", "Durchgang"], ["Turnierleitung"], bot_may_manage=False)
    lobby = await emu.post_in_forum(home, table.people.moni, "Turnierleitung", "Hier.", tags=["Durchgang"])
    async with table.running():
        sent = await opening(table, lobby)
        post = await game_post(table, lobby, sent)
    assert post["applied_tags"] == [str(emu.tag_id(home, "Durchgang"))]  # not the moderators' first one


async def test_with_manage_threads_a_moderator_only_tag_will_do(table: Table) -> None:
    emu = table.emu
    home = await forum(table, ["Turnierleitung"], ["Turnierleitung"], bot_may_manage=True)
    lobby = await emu.post_in_forum(
        home, table.people.moni, "Turnierleitung", "Hier.", tags=["Turnierleitung"]
    )
    async with table.running():
        sent = await opening(table, lobby)
        post = await game_post(table, lobby, sent)
    assert post["applied_tags"] == [str(emu.tag_id(home, "Turnierleitung"))]


async def test_a_forum_whose_tags_are_all_for_moderators_is_named_and_nothing_opens(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    emu = table.emu
    home = await forum(
        table, ["Turnierleitung", "Archiv"], ["Turnierleitung", "Archiv"], bot_may_manage=False
    )
    lobby = await emu.post_in_forum(
        home, table.people.moni, "Turnierleitung", "Hier.", tags=["Turnierleitung"]
    )
    with caplog.at_level(logging.ERROR, logger="bot.discord.threads"):
        async with table.running():
            sent = await opening(table, lobby)
            assert await told_privately(emu, sent) == drawn("discord.thread.no_tag")
    assert [t["id"] for t in emu.threads_in(home)] == [str(lobby)]  # no game post
    assert any("requires a tag" in r.getMessage() and str(home) in r.getMessage() for r in caplog.records)
    with table.store.transaction(read_only=True) as uow:
        assert uow.forum.in_threads_of(str(table.people.guild), str(home)) == ()


async def test_at_discords_cap_of_active_threads_the_moderator_is_told_and_nothing_opens(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    emu, p = table.emu, table.people
    text = await emu.add_channel(p.guild, "tisch")
    busy = await emu.send_message(text, p.anna, "Plauderecke")
    await emu.start_thread(text, p.anna, "Plauderecke", message_id=busy)
    emu.active_thread_limit = 1  # the server is full
    with caplog.at_level(logging.ERROR, logger="bot.discord.threads"):
        async with table.running():
            sent = await opening(table, text)
            assert await told_privately(emu, sent) == drawn("discord.thread.too_many")
    assert len(emu.threads_in(text)) == 1
    assert [m for m in emu.messages_in(text) if m["author"]["id"] == str(emu.bot_id)] == []  # no placeholder
    assert any("active threads" in r.getMessage() for r in caplog.records)
    with table.store.transaction(read_only=True) as uow:
        assert uow.games.open_in(str(text)) is None


@pytest.mark.usefixtures("quick_discord_retries")
async def test_the_final_table_of_a_post_discord_archived_meanwhile_is_drawn(table: Table) -> None:
    """The bot stopped after the final reply, before the live table showed the end or the post was
    closed; Discord archived the quiet post meanwhile. A message in an archived thread takes no edit:
    at the next start the post is unarchived, the table drawn, the post archived and locked."""
    table.options = dataclasses.replace(table.options, **QUICK)
    hall: Hall = await hall_of(table)
    p, emu = table.people, hall.emu
    async with table.running():
        thread = await opened_in_thread(hall, hall.lobby)
        no_close = emu.fail_requests(operation="update_channel", channel=thread, status=500, times=1_000)
        no_table = emu.fail_requests(operation="update_message", channel=thread, status=500, times=1_000)
        await hall.public(thread, p.moni, "durchgang", subcommand="schliessen")
        await failed_at_least(hall, no_close, DISCORD_PY_TRIES)
        await failed_at_least(hall, no_table, DISCORD_PY_TRIES)
    assert emu.message(thread)["embeds"][0]["description"] != drawn("discord.live.finished")
    emu.clear_failures()
    await emu.archive_thread(thread)
    async with table.running():
        await locked(hall, thread)
        await all_closed(table)
    assert emu.message(thread)["embeds"][0]["description"] == drawn("discord.live.finished")
    metadata = emu.thread(thread)["thread_metadata"]
    assert (metadata["archived"], metadata["locked"]) == (True, True)
    assert left_to_close(table) == {}
    unarchived = [
        r for r in emu.requests if r.operation == "update_channel" and r.json == {"archived": False}
    ]
    assert len(unarchived) == 1  # for the table; the closing found the post open
