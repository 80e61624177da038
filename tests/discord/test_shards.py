"""Two shards in one process, as Discord really treats them: each has a session of its own, and Discord may
invalidate one while the other stays connected. discord.py then identifies that shard again and fires
only ``on_shard_ready`` (``on_ready`` never fires again with two shards): the croupier catches that
shard's guilds up there — a move typed in the gap is answered once — while the other shard's guilds are
played live all along. A session that resumes gets what it missed replayed by Discord and reads no
history. A guild's turn timeout waits for its shard (rules §6: the timeout is for a player who did not
move).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import timedelta

import pytest

from bot.discord.options import BotOptions
from bot.service.croupier import Croupier
from bot.store import Store
from tests.dice import Dice
from tests.discord.conftest import MODERATOR_ROLE
from tests.discord.helpers import READY_QUICKLY, Clock, FastBot, asked, says, story
from tests.discord_emulator import BotMessage, DiscordEmulator, running_client, shard_of

SHARDS = 2
PATIENCE_S = 10.0  # a safety net, not a measure


class ShardedBot(FastBot):
    """The croupier client whose re-identify of a held shard waits until the test lets it, and which
    counts its ``on_ready`` and ``on_shard_ready`` events."""

    def __init__(self, croupier: Croupier, options: BotOptions) -> None:
        super().__init__(croupier, options)
        self.held: dict[int, asyncio.Event] = {}
        self.readies = 0
        self.shard_readies: list[int] = []

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        gate = self.held.get(shard_id or 0)
        if gate is not None and not initial:
            await gate.wait()

    def hold(self, shard_id: int) -> asyncio.Event:
        gate = self.held[shard_id] = asyncio.Event()
        return gate

    async def on_ready(self) -> None:
        self.readies += 1
        await super().on_ready()

    async def on_shard_ready(self, shard_id: int) -> None:
        self.shard_readies.append(shard_id)
        await super().on_shard_ready(shard_id)


@dataclass(frozen=True)
class Room:
    guild: int
    channel: int
    moni: int
    anna: int
    ben: int


async def furnish(emu: DiscordEmulator, store: Store, name: str, shard: int) -> Room:
    """A guild on ``shard`` with a game channel that plays in place, a moderator and two players."""
    guild = await emu.add_guild(name, shard=(shard, SHARDS))
    channel = await emu.add_channel(guild, "verflixte-6")
    moderators = await emu.add_role(guild, MODERATOR_ROLE)
    room = Room(
        guild,
        channel,
        moni=await emu.add_member(guild, "moni", nick="Moni", roles=[moderators]),
        anna=await emu.add_member(guild, "anna", nick="Anna"),
        ben=await emu.add_member(guild, "ben", nick="Ben"),
    )
    with store.transaction() as uow:
        uow.settings.set(str(guild), str(channel), threads=False)
        uow.commit()
    return room


@dataclass
class Rooms:
    emu: DiscordEmulator
    store: Store
    playing: Room  # on shard 0
    other: Room  # on shard 1
    dice: Dice
    clock: Clock

    def options(self, **changed: object) -> BotOptions:
        base = {
            "guild_ids": (self.playing.guild, self.other.guild),
            "shard_count": SHARDS,
            "turn_clock_seconds": None,
            "guild_ready_timeout": READY_QUICKLY,
        }
        return BotOptions(**{**base, **changed})  # type: ignore[arg-type]

    @contextlib.asynccontextmanager
    async def running(self, **changed: object) -> AsyncIterator[ShardedBot]:
        croupier = Croupier(store=self.store, dice_factory=self.dice.factory, clock=self.clock)
        bot = ShardedBot(croupier, self.options(**changed))
        async with running_client(bot, self.emu.token):
            await asyncio.wait_for(bot.front.caught_up.wait(), PATIENCE_S)
            yield bot

    async def slash(self, room: Room, user: int, name: str, **kw: object) -> BotMessage:
        options = kw.pop("options", None)
        sent = await self.emu.slash_command(room.guild, room.channel, user, name, options, **kw)  # type: ignore[arg-type]
        response = await self.emu.wait_for_response(sent)
        assert response.type == 4, response
        assert not response.ephemeral, response
        return await self.emu.next_message(room.channel, predicate=lambda m: m.interaction_id == sent.id)

    async def seated(self, room: Room) -> None:
        """A Durchgang open in the room with anna and ben signed up."""
        await self.slash(room, room.moni, "durchgang", options={"spiel": "verflixte6"}, subcommand="oeffnen")
        await self.slash(room, room.anna, "mitmachen")
        await self.slash(room, room.ben, "mitmachen")

    async def answer_to(self, room: Room, line: int) -> BotMessage:
        return await self.emu.next_message(room.channel, predicate=lambda m: answers(m, line))


async def until(condition: Callable[[], bool]) -> None:
    async with asyncio.timeout(PATIENCE_S):
        while True:
            if condition():
                return
            await asyncio.sleep(0.01)


def answers(message: BotMessage, line: int) -> bool:
    reference = message.message_reference
    return message.action == "create" and reference is not None and int(reference["message_id"]) == line


def answers_to(emu: DiscordEmulator, line: int) -> list[BotMessage]:
    return [m for m in emu.bot_messages if answers(m, line)]


def history_reads(emu: DiscordEmulator, channel: int) -> list[dict[str, str]]:
    """The queries of the bot's reads of the channel's history."""
    return [
        r.query
        for r in emu.requests
        if r.method == "GET"
        and r.route == "/channels/{channel_id}/messages"
        and r.params["channel_id"] == str(channel)
    ]


@pytest.fixture
async def rooms(discord_emulator: DiscordEmulator, croupier_store: Store) -> Rooms:
    emu = discord_emulator
    playing = await furnish(emu, croupier_store, "Spelunke", 0)
    other = await furnish(emu, croupier_store, "Taverne", 1)
    assert (shard_of(playing.guild, SHARDS), shard_of(other.guild, SHARDS)) == (0, 1)
    return Rooms(emu, croupier_store, playing, other, Dice(), Clock())


async def test_a_move_typed_while_its_shard_identifies_again_alone_is_answered_once(rooms: Rooms) -> None:
    emu, here, there = rooms.emu, rooms.playing, rooms.other
    rooms.dice.will_roll(4)  # each game rolls the script from its start
    async with rooms.running() as bot:
        assert bot.readies == 1
        assert sorted(bot.shard_readies) == [0, 1]
        await rooms.seated(here)
        await rooms.seated(there)
        gate = bot.hold(0)
        assert await emu.invalidate_shard(0) == 1  # shard 0 only: shard 1 stays connected
        await emu.wait_for_gateway("invalid_session", lambda r: r.shard == (0, SHARDS))
        line = await emu.send_message(here.channel, here.anna, "weiter")
        assert not any(
            r.kind == "dispatch" and r.data["t"] == "MESSAGE_CREATE" and r.data["d"]["id"] == str(line)
            for r in emu.gateway_log
        )  # the gap: no session of shard 0 hears it, and none ever will

        # Meanwhile the other shard's guild plays on, live.
        elsewhere = await emu.send_message(there.channel, there.anna, "weiter")
        thrown = await rooms.answer_to(there, elsewhere)
        assert story(thrown) == [says("v6.freiwurf", player="Anna", face=4, total=4), asked("Anna")]
        assert [s.shard for s in emu.connected_sessions()] == [(1, SHARDS)]

        gate.set()  # shard 0 identifies again: discord.py fires on_shard_ready for it alone
        answer = await rooms.answer_to(here, line)
        assert story(answer) == [says("v6.freiwurf", player="Anna", face=4, total=4), asked("Anna")]
        assert bot.readies == 1  # on_ready never came again
        assert sorted(bot.shard_readies) == [0, 0, 1]
        assert history_reads(emu, there.channel) == []  # only the shard that was away is read
        assert [q["after"] for q in history_reads(emu, here.channel)] != []
        await asyncio.sleep(0.2)  # nothing more comes
    assert len(answers_to(emu, line)) == 1
    with rooms.store.transaction(read_only=True) as uow:
        entry = uow.log.find(f"discord:{line}")
    assert entry is not None
    assert list(entry.dice) == [4]


async def test_a_resumed_session_gets_the_gap_replayed_and_reads_no_history(rooms: Rooms) -> None:
    emu, here = rooms.emu, rooms.playing
    rooms.dice.will_roll(5)
    async with rooms.running() as bot:
        await rooms.seated(here)
        reads_before = len(history_reads(emu, here.channel))
        emu.gateway.resumes_open.clear()  # the reconnect takes a while
        await emu.disconnect_all()
        await emu.wait_for_gateway("close", lambda r: r.shard == (0, SHARDS))
        line = await emu.send_message(here.channel, here.anna, "weiter")
        emu.gateway.resumes_open.set()
        answer = await rooms.answer_to(here, line)
        assert story(answer) == [says("v6.freiwurf", player="Anna", face=5, total=5), asked("Anna")]
        await emu.wait_for_gateway("resumed", lambda r: r.shard == (0, SHARDS))
        await asyncio.sleep(0.2)
        assert len(history_reads(emu, here.channel)) == reads_before  # Discord replayed it: nothing read
        assert sorted(bot.shard_readies) == [0, 1]  # no new session, so no catch-up
    assert len(answers_to(emu, line)) == 1


async def test_a_shard_away_holds_its_guilds_timeouts_not_the_other_shards(rooms: Rooms) -> None:
    emu, here, there = rooms.emu, rooms.playing, rooms.other
    rooms.dice.will_roll(2)
    async with rooms.running() as bot:
        for room in (here, there):
            await rooms.slash(room, room.moni, "einstellungen", options={"zugzeit": "1m"})
            await rooms.seated(room)
        gate = bot.hold(0)
        await emu.invalidate_shard(0)
        await emu.wait_for_gateway("invalid_session", lambda r: r.shard == (0, SHARDS))
        line = await emu.send_message(here.channel, here.anna, "weiter")  # in time, but in the gap
        rooms.clock.now += timedelta(minutes=2)  # both deadlines have passed
        await until(lambda: bot.front.serving() == {str(there.guild)})  # discord.py saw the shard go
        assert await bot.front.post_timeouts() == 1  # the other guild's player, not this one's
        timed_out = says("v6.timed_out", player="Anna")
        await emu.next_message(there.channel, predicate=lambda m: timed_out in story(m))
        gate.set()
        answer = await rooms.answer_to(here, line)
        assert story(answer) == [says("v6.freiwurf", player="Anna", face=2, total=2), asked("Anna")]
        await bot.front.caught_up.wait()
        assert bot.front.serving() == {str(here.guild), str(there.guild)}
        assert await bot.front.post_timeouts() == 0  # anna moved in time: nothing is due here
    assert not any(timed_out in story(m) for m in emu.bot_messages if m.channel_id == here.channel)


async def test_a_process_times_out_no_player_of_a_guild_it_does_not_serve(rooms: Rooms) -> None:
    """A process that runs shard 1 only leaves shard 0's deadlines to the process that reads its moves."""
    emu, here = rooms.emu, rooms.playing
    async with rooms.running() as bot:
        await rooms.slash(here, here.moni, "einstellungen", options={"zugzeit": "1m"})
        await rooms.seated(here)
    rooms.clock.now += timedelta(minutes=2)
    async with rooms.running(shard_ids=(1,)) as bot:
        assert bot.front.serving() == {str(rooms.other.guild)}
        assert await bot.front.post_timeouts() == 0
        assert await bot.front.post_reminders() == 0
    with rooms.store.transaction(read_only=True) as uow:
        record = uow.games.open_in(str(here.channel))
    assert record is not None
    assert record.to_act == str(here.anna)
    timed_out = says("v6.timed_out", player="Anna")
    assert not any(timed_out in story(m) for m in emu.bot_messages)


async def test_a_line_typed_while_its_shard_catches_up_waits_for_the_lines_before_it(rooms: Rooms) -> None:
    """The shard reads the gap slowly; a line that arrives live meanwhile is answered after the gap's
    line, in the order both were typed, each once."""
    emu, here = rooms.emu, rooms.playing
    rooms.dice.will_roll(4, 3)
    async with rooms.running() as bot:
        await rooms.seated(here)
        gate = bot.hold(0)
        await emu.invalidate_shard(0)
        await emu.wait_for_gateway("invalid_session", lambda r: r.shard == (0, SHARDS))
        gap = await emu.send_message(here.channel, here.anna, "weiter")
        slow = emu.fail_requests(
            route="/channels/{channel_id}/messages",
            method="GET",
            channel=here.channel,
            hang=math.inf,
            then="process",
        )
        gate.set()
        await until(lambda: slow.times == 0)  # the history read is held
        live = await emu.send_message(here.channel, here.anna, "weiter")  # arrives while it catches up
        await asyncio.sleep(0.2)
        assert answers_to(emu, live) == []  # it waits for the gap's line
        slow.release()
        first = await rooms.answer_to(here, gap)
        second = await rooms.answer_to(here, live)
        assert story(first) == [says("v6.freiwurf", player="Anna", face=4, total=4), asked("Anna")]
        assert story(second)[0] == says("v6.thrown", player="Anna", face=3, total=7)
        await asyncio.sleep(0.2)
    assert (len(answers_to(emu, gap)), len(answers_to(emu, live))) == (1, 1)
