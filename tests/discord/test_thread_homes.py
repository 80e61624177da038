"""The channel where a Durchgang was announced knows the thread it is played in. /mitmachen in the channel
(or in another post of the forum) signs the player up for that Durchgang — its answer goes to the thread,
the player is told where it is played, with a link — instead of "no game is open in this channel". A
seated player's game word typed in the channel beside the thread is answered once with a pointer to the
thread (no answer line after line); /zug there gets the pointer as well. Nothing is changed by a
pointer."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import GameRecord
from tests.discord.helpers import Table, drawn, never_pings_broadly, row, story, table_rows, title
from tests.discord.test_forum import Hall, hall_of
from tests.discord.test_thread_closing import opened_in_thread
from tests.discord_emulator import BotMessage


@pytest.fixture
async def hall(table: Table) -> Hall:
    return await hall_of(table)


def pointer(hall: Hall, thread: int) -> str:
    """The refusal that points at the game's thread, with its link."""
    refused = hall.table.refusal("error.played_in_thread", title=title(1))
    return f"{refused} {drawn('discord.thread.go_there', thread=f'<#{thread}>')}"


def replies_to(hall: Hall, channel: int, line: int) -> list[BotMessage]:
    return [
        m
        for m in hall.emu.bot_messages
        if m.channel_id == channel
        and m.action == "create"
        and m.message_reference is not None
        and int(m.message_reference["message_id"]) == line
    ]


async def test_mitmachen_in_the_channel_joins_the_durchgang_of_its_thread_and_names_it(hall: Hall) -> None:
    p, emu = hall.table.people, hall.emu
    async with hall.table.running():
        thread = await opened_in_thread(hall, hall.text)  # anna signed up in the thread
        sent, response = await hall.slash(hall.text, p.ben, "mitmachen")  # where the opening was announced
        assert response.ephemeral, response
        assert response.data is not None
        assert response.data["content"] == drawn(
            "discord.thread.joined_there", title=title(1), thread=f"<#{thread}>"
        )
        joined = await emu.next_message(
            thread, predicate=lambda m: hall.table.says("v6.joined", name="Ben", position=2) in story(m)
        )
        never_pings_broadly(joined, {p.anna})
        live = await hall.live_edit(
            (hall.text, thread), lambda m: bool(table_rows(m)) and len(table_rows(m)) == 2
        )
        assert table_rows(live) == [row("Anna", "jungfrau", 0, to_act=True), row("Ben", "jungfrau", 0)]
        await emu.redeliver(sent.id)  # the same command again: nobody joins twice
        await asyncio.sleep(0.2)
    record = game_in(hall, thread)
    assert [seat.player for seat in record.participants] == [str(p.anna), str(p.ben)]


def game_in(hall: Hall, thread: int) -> GameRecord:
    with hall.table.store.transaction(read_only=True) as uow:
        record = uow.games.open_in(str(thread))
    assert record is not None
    return record


async def test_mitmachen_in_another_post_of_the_forum_joins_the_durchgang_post(hall: Hall) -> None:
    p, emu = hall.table.people, hall.emu
    async with hall.table.running():
        post = await opened_in_thread(hall, hall.lobby)
        _, response = await hall.slash(hall.lobby, p.carl, "mitmachen")
        assert response.data is not None
        assert response.data["content"] == drawn(
            "discord.thread.joined_there", title=title(1), thread=f"<#{post}>"
        )
        await emu.next_message(
            post, predicate=lambda m: hall.table.says("v6.joined", name="Carl", position=2) in story(m)
        )
    assert [seat.player for seat in game_in(hall, post).participants] == [str(p.anna), str(p.carl)]


async def test_a_seated_players_word_beside_the_thread_is_pointed_there_once(hall: Hall) -> None:
    p, emu = hall.table.people, hall.emu
    async with hall.table.running():
        thread = await opened_in_thread(hall, hall.text)
        first = await emu.send_message(hall.text, p.anna, "weiter")
        told = await emu.next_message(
            hall.text,
            predicate=lambda m: (
                m.message_reference is not None and int(m.message_reference["message_id"]) == first
            ),
        )
        assert told.content == pointer(hall, thread)
        never_pings_broadly(told)
        again = await emu.send_message(hall.text, p.anna, "stopp")  # once per player and game
        stranger = await emu.send_message(hall.text, p.ben, "weiter")  # not seated: chatter
        _, slash = await hall.slash(hall.text, p.anna, "zug", {"worte": "weiter"})  # asked outright
        assert slash.ephemeral, slash
        assert slash.data is not None
        assert slash.data["content"] == pointer(hall, thread)
        await asyncio.sleep(0.3)
        assert replies_to(hall, hall.text, again) == []
        assert replies_to(hall, hall.text, stranger) == []
    record = game_in(hall, thread)
    assert record.dice_used == 0  # nothing was played from the channel
    assert record.to_act == str(p.anna)
