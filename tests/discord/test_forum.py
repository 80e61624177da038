"""Discord as the forum: in a forum channel a moderator opens each Durchgang from any post (here a pinned
"Turnierleitung" post) and the croupier makes it a post of its own, whose first message is the live
table; the game is played there to the end, the post archived and locked; every Durchgang of the forum
counts in one tournament's standings, shown by /tabelle in any of its posts. In a text channel with
threads the same happens in a thread, and the channel gets a short result line (V6-R6 close, V6-R7
standings). With verifiable dice the close reveals the seed in the thread and on the final live table.
Closing a thread against Discord's failures: test_thread_closing.py."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import timedelta

import pytest

from bot.exports import column
from bot.service.croupier import Croupier
from bot.settings import DEFAULT_TURN_TIMEOUT_SECONDS
from engine.dice import derive_die
from tests.discord.helpers import (
    Table,
    asked,
    custom_id_for,
    drawn,
    never_pings_broadly,
    row,
    says,
    story,
    synced_ids,
    table_rows,
    title,
)
from tests.discord_emulator import FORUM, BotMessage, DiscordEmulator, InteractionResponse, SentInteraction
from tests.discord_emulator import permissions as perms

STOP = says("choice.stop")
JOIN = drawn("discord.live.join")


@dataclass
class Hall:
    """The table's guild with a forum and a text channel where games get threads; ``seen`` is what a
    moderator reads, step by step (the transcript of the closing note)."""

    table: Table
    forum: int
    lobby: int  # the "Turnierleitung" post of the forum
    text: int  # a text channel whose games get threads
    seen: list[str] = field(default_factory=list)

    @property
    def emu(self) -> DiscordEmulator:
        return self.table.emu

    async def slash(
        self, channel: int, user: int, name: str, options: Mapping[str, object] | None = None, **kw: object
    ) -> tuple[SentInteraction, InteractionResponse]:
        p = self.table.people
        sent = await self.emu.slash_command(p.guild, channel, user, name, options, **kw)  # type: ignore[arg-type]
        return sent, await self.emu.wait_for_response(sent)

    async def public(
        self, channel: int, user: int, name: str, options: Mapping[str, object] | None = None, **kw: object
    ) -> BotMessage:
        sent, response = await self.slash(channel, user, name, options, **kw)
        assert not response.ephemeral, response
        return await self.emu.next_message(channel, predicate=lambda m: m.interaction_id == sent.id)

    async def said(self, channel: int, user: int, text: str) -> BotMessage:
        line = await self.emu.send_message(channel, user, text)
        return await self.emu.next_message(
            channel,
            predicate=lambda m: (
                m.message_reference is not None and int(m.message_reference["message_id"]) == line
            ),
        )

    async def pressed(self, board: BotMessage, label: str, user: int) -> BotMessage:
        sent = await self.emu.click(board, custom_id_for(board, label), user)
        await self.emu.wait_for_response(sent)
        return await self.emu.next_message(board.channel_id, predicate=lambda m: m.interaction_id == sent.id)

    async def live_edit(self, live: tuple[int, int], what: Callable[[BotMessage], bool]) -> BotMessage:
        channel, message = live
        return await self.emu.next_message(
            channel, action="edit", predicate=lambda m: m.message_id == message and what(m)
        )

    def note(self, where: str, line: str) -> None:
        self.seen.append(f"[{where}] {line}")


@pytest.fixture
async def hall(table: Table) -> Hall:
    return await hall_of(table)


async def hall_of(table: Table) -> Hall:
    """The guild's forum (with its "Turnierleitung" post) and a text channel, where the bot may lock."""
    emu, p = table.emu, table.people
    bot_may_lock = [perms.Overwrite(emu.bot_id, perms.MEMBER_OVERWRITE, allow=perms.MANAGE_THREADS)]
    forum = await emu.add_channel(p.guild, "durchgaenge", type=FORUM, overwrites=bot_may_lock)
    text = await emu.add_channel(p.guild, "tisch", overwrites=bot_may_lock)
    lobby = await emu.post_in_forum(forum, p.moni, "Turnierleitung", "Hier eröffnet die Spielleitung.")
    return Hall(table, forum, lobby, text)


def game_posts(hall: Hall) -> list[dict[str, object]]:
    return [t for t in hall.emu.threads_in(hall.forum) if int(str(t["id"])) != hall.lobby]


async def play_a_durchgang(hall: Hall, home_channel: int, number: int, faces: tuple[int, int]) -> int:
    """Open Durchgang ``number`` from ``home_channel``, sign anna up by the live table's button and ben by
    /mitmachen, let each throw once and stop, close it; answers the game's thread."""
    p, emu = hall.table.people, hall.emu
    hall.table.dice.faces[:] = faces  # each game rolls the script from its start
    sent, pointer = await hall.slash(
        home_channel, p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen"
    )
    assert not pointer.ephemeral
    opening = await emu.next_message(home_channel, predicate=lambda m: m.interaction_id == sent.id)
    thread = int(opening.content.split("<#")[1].split(">")[0])
    assert opening.content == drawn("discord.thread.opened", title=title(number), thread=f"<#{thread}>")
    hall.note("Turnierleitung" if home_channel == hall.lobby else "#tisch", opening.content)
    assert emu.thread(thread)["name"] == drawn(
        "discord.thread.title", title=title(number), tournament="Turnier"
    )
    live_channel = thread if emu.thread(thread)["parent_id"] == str(hall.forum) else home_channel
    live = (live_channel, thread)  # the first message has the thread's id: a forum post's, a thread's start
    table_msg = await hall.live_edit(live, lambda m: bool(m.embeds))
    assert table_msg.embeds[0]["title"] == title(number)
    synced = synced_ids(emu, p.guild)  # the hint names /mitmachen as a mention of the synced command
    assert table_msg.embeds[0]["description"] == drawn("discord.live.open", synced=synced)
    assert [c["label"] for r in table_msg.components for c in r["components"]] == [JOIN]
    hall.note(
        emu.thread(thread)["name"], f"{table_msg.embeds[0]['title']} — {table_msg.embeds[0]['description']}"
    )

    join_id = table_msg.components[0]["components"][0]["custom_id"]
    pressed = await emu.click(table_msg, join_id, p.anna)
    await emu.wait_for_response(pressed)
    joined = await emu.next_message(
        thread, predicate=lambda m: hall.table.says("v6.joined", name="Anna", position=1) in story(m)
    )
    hall.note(emu.thread(thread)["name"], story(joined)[0])
    await hall.public(thread, p.ben, "mitmachen")
    after_join = await hall.live_edit(live, lambda m: bool(table_rows(m)) and len(table_rows(m)) == 2)
    assert table_rows(after_join) == [row("Anna", "jungfrau", 0, to_act=True), row("Ben", "jungfrau", 0)]
    never_pings_broadly(after_join)
    assert not after_join.pings.anyone  # an edit pings nobody

    thrown = await hall.said(thread, p.anna, "weiter")
    assert story(thrown) == [
        hall.table.says("v6.freiwurf", player="Anna", face=faces[0], total=faces[0]),
        asked("Anna"),
    ]
    deadline = next(f for f in thrown.embeds[0]["fields"] if f["name"] == drawn("discord.field.turn"))
    due = hall.table.clock.now + timedelta(seconds=DEFAULT_TURN_TIMEOUT_SECONDS)
    assert deadline["value"] == drawn(
        "discord.live.turn", name="Anna", deadline=f"<t:{int(due.timestamp())}:R>"
    )
    moved = await hall.live_edit(
        live, lambda m: row("Anna", "playing", faces[0], to_act=True) in table_rows(m)
    )
    live_deadline = next(f for f in moved.embeds[0]["fields"] if f["name"] == drawn("discord.field.turn"))
    assert live_deadline["value"] == deadline["value"]
    assert not moved.pings.anyone
    hall.note(emu.thread(thread)["name"], f"{' '.join(story(thrown))} [{deadline['value']}]")
    stopped = await hall.pressed(thrown, STOP, p.anna)
    hall.note(emu.thread(thread)["name"], f"{stopped.content} {' '.join(story(stopped))}")
    assert stopped.content == f"<@{p.ben}>"  # the per-move reply pings the player now to act, only
    assert stopped.pings.users == (p.ben,)
    await hall.said(thread, p.ben, "weiter")
    await hall.said(thread, p.ben, "stopp")

    closed = await hall.public(thread, p.moni, "durchgang", subcommand="schliessen")
    assert hall.table.says("v6.closed") in story(closed)
    hall.note(emu.thread(thread)["name"], story(closed)[0])
    final = await hall.live_edit(
        live, lambda m: drawn("discord.live.finished") == m.embeds[0].get("description")
    )
    assert final.components == []
    await emu.wait_for_gateway(
        "dispatch",
        lambda r: (
            r.data["t"] == "THREAD_UPDATE"
            and r.data["d"]["id"] == str(thread)
            and r.data["d"]["thread_metadata"]["locked"]
        ),
    )
    metadata = emu.thread(thread)["thread_metadata"]
    assert metadata["archived"] is True
    assert metadata["locked"] is True
    hall.note(emu.thread(thread)["name"], "(archiviert und gesperrt)")
    return thread


async def test_durchgaenge_in_a_forum_each_get_a_post_and_count_in_one_tournament(hall: Hall) -> None:
    p = hall.table.people
    async with hall.table.running():
        first = await play_a_durchgang(hall, hall.lobby, 1, (3, 4))
        second = await play_a_durchgang(hall, hall.lobby, 2, (5, 2))
        assert [int(str(t["id"])) for t in game_posts(hall)] == [first, second]
        assert [m["id"] for m in hall.emu.messages_in(hall.forum)] == []  # nothing in the forum itself
        standings = await hall.public(hall.lobby, p.anna, "tabelle")
        hall.note("Turnierleitung", standings.embeds[0]["title"])
        assert standings.embeds[0]["title"] == hall.table.says(
            "discord.standings_title", game=None, name="Turnier"
        )
        lines = standings.embeds[0]["description"].strip("`\n").splitlines()
        rounds = [column("round", "de", number=n) for n in (1, 2)]
        assert lines[0].split() == [
            column("rank", "de"),
            column("player", "de"),
            *rounds,
            column("total", "de"),
        ]
        assert [line.split() for line in lines[1:]] == [
            ["1", "Anna", "3", "5", "8"],
            ["2", "Ben", "4", "2", "6"],
        ]
        hall.seen.extend(f"    {line}" for line in lines)
        side = await hall.emu.post_in_forum(hall.forum, p.carl, "Plauderecke", "Wer führt?")
        elsewhere = await hall.public(side, p.carl, "tabelle")
        assert elsewhere.embeds == standings.embeds  # the same tournament from any post of the forum
    print("\n".join(hall.seen))


async def test_durchgaenge_in_a_text_channel_get_threads_and_the_channel_their_results(hall: Hall) -> None:
    p, emu = hall.table.people, hall.emu
    async with hall.table.running():
        threads = []
        for number, faces, leader, points in ((1, (3, 4), "Ben", 4), (2, (5, 2), "Anna", 5)):
            thread = await play_a_durchgang(hall, hall.text, number, faces)
            threads.append(thread)
            assert emu.thread(thread)["parent_id"] == str(hall.text)
            result = await emu.next_message(
                hall.text,
                predicate=lambda m, t=thread: (
                    m.via == "channel" and "🏁" in m.content and f"<#{t}>" in m.content
                ),
            )
            ahead = hall.table.says(
                "discord.thread.result", title=title(number), players=[leader], points=points
            )
            assert result.content == drawn("discord.thread.result_post", result=ahead, thread=f"<#{thread}>")
            assert not result.pings.anyone
            hall.note("#tisch", result.content)
            starter = emu.message(thread)  # the live table is the thread's starter message, in the channel
            assert starter["channel_id"] == str(hall.text)
            assert starter["embeds"][0]["description"] == drawn("discord.live.finished")
        assert len(set(threads)) == 2
        standings = await hall.public(hall.text, p.anna, "tabelle")
        lines = standings.embeds[0]["description"].strip("`\n").splitlines()
        assert [line.split() for line in lines[1:]] == [
            ["1", "Anna", "3", "5", "8"],
            ["2", "Ben", "4", "2", "6"],
        ]
        side = await emu.start_thread(hall.text, p.carl, "Plauderecke")  # any thread of the channel
        elsewhere = await hall.public(side, p.carl, "tabelle")
        assert elsewhere.embeds == standings.embeds  # one tournament: the channel's


async def test_the_player_to_act_is_reminded_once_before_the_timeout(hall: Hall) -> None:
    p, emu, clock = hall.table.people, hall.emu, hall.table.clock
    hall.table.dice.will_roll(3)
    async with hall.table.running() as bot:
        await hall.public(hall.text, p.moni, "einstellungen", {"zugzeit": "10m"})
        sent, _ = await hall.slash(
            hall.text, p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen"
        )
        pointer = await emu.next_message(hall.text, predicate=lambda m: m.interaction_id == sent.id)
        thread = int(pointer.content.split("<#")[1].split(">")[0])
        await hall.public(thread, p.anna, "mitmachen")
        await hall.public(thread, p.ben, "mitmachen")
        await hall.said(thread, p.anna, "weiter")  # anna has ten minutes for her next word
        clock.now += timedelta(minutes=7)
        assert await bot.front.post_reminders() == 0  # three minutes left: not yet
        clock.now += timedelta(minutes=1, seconds=30)
        assert await bot.front.post_reminders() == 1
        reminder = await emu.next_message(
            thread, predicate=lambda m: hall.table.says("discord.reminder.line", player="Anna") in story(m)
        )
        assert reminder.content == f"<@{p.anna}>"
        assert reminder.pings.users == (p.anna,)
        turn = next(f for f in reminder.embeds[0]["fields"] if f["name"] == drawn("discord.field.turn"))
        assert turn["value"].endswith(":R>")
        assert reminder.components  # her board, to press right away
        hall.note("reminder", f"{reminder.content} {story(reminder)[0]} [{turn['value']}]")
        assert await bot.front.post_reminders() == 0  # once per deadline
        clock.now += timedelta(minutes=2)
        assert await bot.front.post_timeouts() == 1  # her time ran out after all
        await emu.next_message(
            thread, predicate=lambda m: hall.table.says("v6.timed_out", player="Anna") in story(m)
        )
        clock.now += timedelta(minutes=8, seconds=30)
        assert await bot.front.post_reminders() == 1  # ben's deadline is a new one
        await emu.next_message(
            thread, predicate=lambda m: hall.table.says("discord.reminder.line", player="Ben") in story(m)
        )


async def test_two_moderators_opening_at_once_get_one_game_post(hall: Hall) -> None:
    p, emu = hall.table.people, hall.emu
    other = await emu.post_in_forum(hall.forum, p.ada, "Absprachen", "Wer eröffnet?")
    async with hall.table.running():
        options = {"spiel": "verflixte6"}
        first = await emu.slash_command(
            p.guild, hall.lobby, p.moni, "durchgang", options, subcommand="oeffnen"
        )
        second = await emu.slash_command(p.guild, other, p.ada, "durchgang", options, subcommand="oeffnen")
        answers = [await emu.wait_for_answers(s, lambda a: bool(a.messages)) for s in (first, second)]
        told = [m for a in answers for m in a.messages if m.action != "delete"]
        refused = [m for m in told if m.ephemeral]
        pointed = [m for m in told if not m.ephemeral and "<#" in m.content]
        assert len(pointed) == 1
        assert [m.content for m in refused] == [hall.table.refusal("error.game_already_open")]
    open_posts = [
        t for t in game_posts(hall) if not t["thread_metadata"]["archived"] and int(str(t["id"])) != other
    ]
    assert len(open_posts) == 1  # a thread made for the loser of the race is gone again
    made = [r for r in emu.requests if r.operation == "create_thread" and 200 <= r.status < 300]
    removed = [r for r in emu.requests if r.operation == "delete_channel"]
    assert len(made) - len(removed) == 1  # whichever moderator came second, no thread of theirs is left
    with hall.table.store.transaction(read_only=True) as uow:
        assert uow.games.open_in(str(open_posts[0]["id"])) is not None


async def test_without_manage_threads_a_finished_game_is_archived_with_a_note(table: Table) -> None:
    emu, p = table.emu, table.people
    forum = await emu.add_channel(p.guild, "durchgaenge", type=FORUM)  # the bot may not lock here
    lobby = await emu.post_in_forum(forum, p.moni, "Turnierleitung", "Hier eröffnet die Spielleitung.")
    hall = Hall(table, forum, lobby, text=0)
    async with table.running():
        sent, _ = await hall.slash(lobby, p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        pointer = await emu.next_message(lobby, predicate=lambda m: m.interaction_id == sent.id)
        thread = int(pointer.content.split("<#")[1].split(">")[0])
        await hall.public(thread, p.moni, "durchgang", subcommand="schliessen")
        note = await emu.next_message(
            thread, predicate=lambda m: m.content == drawn("discord.thread.cannot_lock")
        )
        assert not note.pings.anyone
        await emu.wait_for_gateway(
            "dispatch",
            lambda r: (
                r.data["t"] == "THREAD_UPDATE"
                and r.data["d"]["id"] == str(thread)
                and r.data["d"]["thread_metadata"]["archived"]
            ),
        )
        assert emu.thread(thread)["thread_metadata"]["locked"] is False


async def test_without_create_public_threads_the_moderator_is_told_and_nothing_opens(table: Table) -> None:
    emu, p = table.emu, table.people
    no_threads = perms.Overwrite(emu.bot_id, perms.MEMBER_OVERWRITE, deny=perms.CREATE_PUBLIC_THREADS)
    text = await emu.add_channel(p.guild, "tisch", overwrites=[no_threads])
    async with table.running():
        sent = await emu.slash_command(
            p.guild, text, p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen"
        )
        answers = await emu.wait_for_answers(sent, lambda a: any(m.ephemeral for m in a.messages))
        (told,) = [m for m in answers.messages if m.ephemeral]
        assert told.content == drawn("discord.thread.cannot_create")
        assert emu.threads_in(text) == []
        assert [
            m for m in emu.messages_in(text) if m["author"]["id"] == str(emu.bot_id)
        ] == []  # placeholder gone
    with table.store.transaction(read_only=True) as uow:
        assert uow.games.open_in(str(text)) is None


async def test_without_send_messages_in_a_forum_the_moderator_is_told_that_permission(table: Table) -> None:
    """A forum post needs Send Messages (Discord ignores Create Public Threads there): the moderator is
    told that permission, not the ones a text channel's thread needs, and nothing opens."""
    emu, p = table.emu, table.people
    no_posts = perms.Overwrite(emu.bot_id, perms.MEMBER_OVERWRITE, deny=perms.SEND_MESSAGES)
    forum = await emu.add_channel(p.guild, "durchgaenge", type=FORUM, overwrites=[no_posts])
    lobby = await emu.post_in_forum(forum, p.moni, "Turnierleitung", "Hier eröffnet die Spielleitung.")
    async with table.running():
        sent = await emu.slash_command(
            p.guild, lobby, p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen"
        )
        answers = await emu.wait_for_answers(sent, lambda a: any(m.ephemeral for m in a.messages))
        (told,) = [m for m in answers.messages if m.ephemeral]
        assert told.content == drawn("discord.thread.cannot_post")
        assert [t["id"] for t in emu.threads_in(forum)] == [str(lobby)]
    with table.store.transaction(read_only=True) as uow:
        assert uow.games.open_in(str(lobby)) is None


async def test_an_opening_whose_live_table_failed_is_drawn_once_posting_works(hall: Hall) -> None:
    p, emu = hall.table.people, hall.emu
    hall.table.options = dataclasses.replace(
        hall.table.options,
        retry_start_seconds=0.05,
        acknowledge_after_seconds=0.05,
        hold_probe_seconds=0.1,  # refused: held until the probe tries again (an hour in production)
    )
    async with hall.table.running():
        refusing = emu.fail_requests(operation="update_message", status=403, times=2)
        sent, _ = await hall.slash(
            hall.lobby, p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen"
        )
        pointer = await emu.next_message(hall.lobby, predicate=lambda m: m.interaction_id == sent.id)
        thread = int(pointer.content.split("<#")[1].split(">")[0])
        drawn_table = await hall.live_edit((thread, thread), lambda m: bool(m.embeds))
        assert refusing.spent
        assert drawn_table.embeds[0]["title"] == title(1)
        for _ in range(100):
            with hall.table.store.transaction(read_only=True) as uow:
                entry = uow.log.find(f"interaction:{sent.id}")
            if entry is not None and entry.delivery == "delivered":
                break
            await asyncio.sleep(0.02)
        assert entry is not None
        assert entry.delivery == "delivered"


def fields_of(message: BotMessage) -> dict[str, str]:
    return {f["name"]: f["value"] for f in message.embeds[0].get("fields") or []}


async def test_with_verifiable_dice_the_close_reveals_the_seed_in_the_thread_and_on_the_live_table(
    hall: Hall,
) -> None:
    """Verifiable dice (no script): the live table shows SHA-256(seed) from the opening and never the
    seed while the game runs; at the close (V6-R6) the thread's last reply reveals the seed, and so does
    the final live table, beside the commitment it matches — and the die anna threw is the seed's first."""
    p, emu, table = hall.table.people, hall.emu, hall.table
    commitment_field, seed_field = drawn("discord.field.commitment"), drawn("discord.field.seed")
    async with table.running(Croupier(store=table.store, clock=table.clock)):
        sent, _ = await hall.slash(
            hall.lobby, p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen"
        )
        pointer = await emu.next_message(hall.lobby, predicate=lambda m: m.interaction_id == sent.id)
        thread = int(pointer.content.split("<#")[1].split(">")[0])
        live = (thread, thread)  # a forum post's first message: the live table
        opening = await hall.live_edit(live, lambda m: bool(m.embeds))
        with table.store.transaction(read_only=True) as uow:
            record = uow.games.open_in(str(thread))
        assert record is not None
        assert fields_of(opening)[commitment_field] == f"`{record.commitment}`"
        await hall.public(thread, p.anna, "mitmachen")
        thrown = await hall.said(thread, p.anna, "weiter")
        running = await hall.live_edit(live, lambda m: seed_field not in fields_of(m) and bool(table_rows(m)))
        assert fields_of(running)[commitment_field] == f"`{record.commitment}`"
        closed = await hall.public(thread, p.moni, "durchgang", subcommand="schliessen")
        seed = record.seed.hex()
        assert fields_of(closed)[seed_field] == table.says("common.seed_revealed", game=None, seed=seed)
        final = await hall.live_edit(
            live, lambda m: m.embeds[0].get("description") == drawn("discord.live.finished")
        )
        assert fields_of(final)[seed_field] == f"`{seed}`"
        assert fields_of(final)[commitment_field] == f"`{record.commitment}`"
        assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == record.commitment
        face = derive_die(record.seed, record.id, 0)
        assert story(thrown)[0] == table.says("v6.freiwurf", player="Anna", face=face, total=face)
