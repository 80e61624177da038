"""Two ``croupier run`` processes on one PostgreSQL, one Discord shard each, and one of them stopped: the one
still running times out the players of its own guilds only. A move typed in a guild of the stopped
process while its player's deadline passes is read when that process is back — before it applies any
deadline there — and answered as the move it was (rules §6: the timeout is for a player who did not
move). The turn clock runs as in production (every 30 seconds); the channels' turn time is short (a
moderator's ``/einstellungen zugzeit:20s``) so the deadlines pass within the test.
"""

from __future__ import annotations

import pytest

from bot.store import Store
from tests.discord.helpers import says, story
from tests.discord_emulator import DiscordEmulator, shard_of
from tests.multiprocess.fleet import Fleet
from tests.multiprocess.replay import games_in
from tests.multiprocess.rooms import Round, furnish

pytestmark = pytest.mark.postgres

SHARDS = 2
TURN = "20s"
TIMEOUT_PATIENCE_S = 120.0  # the deadline, then at most one 30-second turn clock round, on busy cores


async def test_no_player_of_a_stopped_process_is_timed_out_before_it_caught_up(
    emu: DiscordEmulator, fleet: Fleet, store: Store
) -> None:
    away = await furnish(emu, "Spelunke", shard=(0, SHARDS))  # its process will be stopped
    awake = await furnish(emu, "Taverne", shard=(1, SHARDS))
    assert (shard_of(away.guild, SHARDS), shard_of(awake.guild, SHARDS)) == (0, 1)
    guilds = [away.guild, awake.guild]
    sharding = {"DISCORD_SHARD_COUNT": str(SHARDS)}
    first = await fleet.start("shard-0", guilds, DISCORD_SHARD_IDS="0", **sharding)
    second = await fleet.start("shard-1", guilds, DISCORD_SHARD_IDS="1", **sharding)
    await first.ready()
    await second.ready()

    there = Round(emu, away, store)
    await there.slash(away.moni, "einstellungen", {"zugzeit": TURN})
    await there.slash(away.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
    await there.slash(away.anna, "mitmachen")
    await there.slash(away.ben, "mitmachen")  # anna is to act, within 20 seconds
    assert await first.stop() == 0
    line = await emu.send_message(away.channel, away.anna, "weiter")  # in time, but nobody reads it now

    here = Round(emu, awake, store)
    await here.slash(awake.moni, "einstellungen", {"zugzeit": TURN})
    await here.slash(awake.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
    await here.slash(awake.anna, "mitmachen")
    await here.slash(awake.ben, "mitmachen")  # a later deadline than the other anna's
    timed_out = says("v6.timed_out", player="Anna")
    await emu.next_message(
        awake.channel, predicate=lambda m: timed_out in story(m), timeout=TIMEOUT_PATIENCE_S
    )  # the running process's clock went round after both deadlines had passed …
    assert not any(
        m.channel_id == away.channel for m in emu.bot_messages if m.action == "create" and m.message_id > line
    )
    record = await there.game()
    assert record is not None
    assert (record.to_act, record.dice_used) == (str(away.anna), 0)  # … and left the other guild alone

    back = await fleet.start("shard-0-again", guilds, DISCORD_SHARD_IDS="0", **sharding)
    await back.ready()
    answer = await there.reply_to(line)
    [face] = await there.dice_of(line)
    assert story(answer)[0] == says("v6.freiwurf", player="Anna", face=face, total=face)
    assert await fleet.stop_all() == {"shard-0": 0, "shard-1": 0, "shard-0-again": 0}
    assert fleet.problems() == {}

    assert not any(timed_out in story(m) for m in emu.bot_messages if m.channel_id == away.channel)
    [(_, entries)] = await games_in(store, away.channel)
    logged = [entry.message_id for entry in entries]
    assert f"discord:{line}" in logged
    assert not any(message_id.startswith("timeout:") for message_id in logged)
