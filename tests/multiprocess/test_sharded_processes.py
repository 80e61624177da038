"""Two ``croupier run`` processes on one PostgreSQL, one Discord shard each, playing four guilds at once.

The emulator routes each guild to shard (guild_id >> 22) % 2, as Discord does. Evidence that no game is
touched by the wrong process comes from three independent records: the emulator's gateway log (which
session received each user event), each process's own REST door (which process made each call that
acts in a guild, and created each answer), and the store (each event applied once, and every game
equal to a single-process re-run of its log with its own seeded dice).
"""

from __future__ import annotations

import asyncio

import pytest

from bot.store import Store
from tests.discord_emulator import DiscordEmulator, shard_of
from tests.multiprocess.deliveries import deliveries, sessions_by_event
from tests.multiprocess.door import made_by
from tests.multiprocess.fleet import Fleet
from tests.multiprocess.replay import games_in, replay
from tests.multiprocess.rooms import Round, furnish

pytestmark = pytest.mark.postgres

SHARDS = 2
ROOMS_PER_SHARD = 2


async def test_each_process_plays_only_the_guilds_of_its_shard(
    emu: DiscordEmulator, fleet: Fleet, store: Store
) -> None:
    rooms = [
        await furnish(emu, f"Spelunke {shard}{letter}", shard=(shard, SHARDS))
        for shard in range(SHARDS)
        for letter in "ab"[:ROOMS_PER_SHARD]
    ]
    owner = {room.guild: f"shard-{shard_of(room.guild, SHARDS)}" for room in rooms}
    assert sorted(owner.values()) == ["shard-0", "shard-0", "shard-1", "shard-1"]
    guild_ids = [room.guild for room in rooms]
    bots = [
        await fleet.start(
            f"shard-{shard}", guild_ids, DISCORD_SHARD_COUNT=str(SHARDS), DISCORD_SHARD_IDS=str(shard)
        )
        for shard in range(SHARDS)
    ]
    await asyncio.gather(*(bot.ready() for bot in bots))
    sessions = {session.shard: session.id for session in emu.connected_sessions()}
    assert len(emu.connected_sessions()) == 2
    assert sorted(sessions) == [(0, SHARDS), (1, SHARDS)]
    process_of_session = {sessions[(shard, SHARDS)]: f"shard-{shard}" for shard in range(SHARDS)}

    rounds = [Round(emu, room, store) for room in rooms]
    await asyncio.gather(*(r.play() for r in rounds))  # four Durchgänge at the same time

    assert await fleet.stop_all() == {"shard-0": 0, "shard-1": 0}  # a clean stop on SIGTERM
    assert fleet.problems() == {}

    # The gateway: every event of a guild (users' and the bot's own posts) reached only the session of
    # the guild's shard; each event the players sent reached it once.
    for delivery in deliveries(emu):
        assert process_of_session[delivery.session_id] == owner[delivery.guild_id], delivery
    received = sessions_by_event(emu)
    for r in rounds:
        sent = [*r.messages, *(i.id for i in r.interactions)]
        assert len(sent) == len(r.applied)
        assert all(received[event] == [sessions[(shard_of(r.room.guild, SHARDS), SHARDS)]] for event in sent)

    # The REST doors: every call acting in a guild came from its owner; each process served its two.
    for name, door in fleet.doors.items():
        served = door.guilds_served()
        assert served == {guild for guild, process in owner.items() if process == name}
        assert all(owner[g] == name for c in door.calls if (g := door.guild_of(c)) is not None)

    for r in rounds:
        # Every answer the players saw was made by the owner, once.
        for log_id, answer in r.answers.items():
            assert made_by(fleet.doors.values(), answer) == [owner[r.room.guild]], log_id

        # The store: one game per guild, every event applied once in the order sent, and the final
        # state exactly what one croupier makes of that log with the game's own dice.
        games = await games_in(store, r.room.channel)
        assert len(games) == 1
        record, entries = games[0]
        assert record.status == "closed"
        assert [entry.message_id for entry in entries] == r.applied
        reference = replay(record, entries)
        assert reference.snapshot == record.snapshot
        assert reference.finished
        assert len(reference.dice) == record.dice_used == sum(len(entry.dice) for entry in entries)
        roles = {seat.player: seat.role for seat in record.participants}
        assert set(roles) == {str(r.room.anna), str(r.room.ben)}
        assert set(roles.values()) <= {"prinzessin", "zombie"}
