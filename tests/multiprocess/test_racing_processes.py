"""Two unsharded ``croupier run`` processes on one PostgreSQL both receive every event of one guild —
Discord does this when the same bot runs twice, e.g. ``docker-compose up --scale bot=2`` without shard
settings — and race on the same game. The database keeps them apart: every command is applied once.

Who answers what, with both processes receiving everything:
* an applied chat line: once, by whichever process applied it; the other finds the line in the command
  log and stays silent;
* a refused chat line: twice, one identical refusal from each process (a refusal changes nothing, so
  there is no log entry to recognise it by);
* a slash command: once — both processes answer with the same reply (the later one from the log),
  Discord accepts the first callback and refuses the other process's with 40060 "already acknowledged";
  that process takes it as answered elsewhere and says nothing more (no error, no channel post).

Buttons are left out of the race on purpose: the process that loses a pressed button finds the board
outdated and may answer that privately before the winner posts the move (see the report / docs).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable

import pytest

from bot.store import Store
from tests.discord.helpers import refusal, says, story, synced_ids, title
from tests.discord_emulator import BotMessage, DiscordEmulator, SentInteraction
from tests.multiprocess.deliveries import sessions_by_event
from tests.multiprocess.door import DoorCall, made_by
from tests.multiprocess.fleet import Fleet
from tests.multiprocess.replay import games_in, replay
from tests.multiprocess.rooms import ANSWER_PATIENCE_S, Round, furnish

pytestmark = pytest.mark.postgres

ALREADY_ACKNOWLEDGED = 40060
EPHEMERAL = 1 << 6
# The answer, and the loser's answer (refused: the interaction was acknowledged already).
CALLBACKS_PER_RACED_INTERACTION = 2


async def test_two_processes_receiving_every_event_apply_each_command_once(
    emu: DiscordEmulator, fleet: Fleet, store: Store
) -> None:
    room = await furnish(emu, "Spelunke")
    bots = [await fleet.start(name, [room.guild]) for name in ("one", "two")]
    await asyncio.gather(*(bot.ready() for bot in bots))
    sessions = emu.connected_sessions()
    assert [session.shard for session in sessions] == [(0, 1), (0, 1)]  # both run the only shard

    r = Round(emu, room, store)
    opened = await r.slash(room.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
    assert opened.embeds[0]["title"] == title(1)
    # Two sign-ups at the same moment, each raced by both processes: four attempts on one version.
    await asyncio.gather(r.slash(room.anna, "mitmachen"), r.slash(room.ben, "mitmachen"))
    await r.say(room.anna, "weiter")  # the Freiwurf
    await r.say(room.anna, "weiter")
    await r.finish_spiel(room.anna)
    await r.say(room.ben, "weiter")
    await r.say(room.ben, "stopp")
    refused = await emu.send_message(room.channel, room.carl, "weiter")  # carl never joined
    refusals = [await r.reply_to(refused)]
    closed = await r.slash(room.moni, "durchgang", subcommand="schliessen")
    assert says("v6.closed") in story(closed)
    # Both processes handled every slash command once all three callbacks arrived.
    await settled(fleet, r.interactions)

    assert await fleet.stop_all() == {"one": 0, "two": 0}  # nothing is in flight any more

    # Both processes received every event the players sent, once each.
    received = sessions_by_event(emu)
    both = sorted(session.id for session in sessions)
    for event in [*r.messages, refused, *(i.id for i in r.interactions)]:
        assert sorted(received[event]) == both, event

    # The store: each command applied once, the dice in the log are the dice used, and the game is
    # what one croupier makes of its log with the game's own seeded dice.
    [(record, entries)] = await games_in(store, room.channel)
    assert record.status == "closed"
    logged = [entry.message_id for entry in entries]
    assert Counter(logged) == Counter(r.applied)
    assert set(Counter(logged).values()) == {1}
    assert f"discord:{refused}" not in logged
    assert record.dice_used == sum(len(entry.dice) for entry in entries)
    reference = replay(record, entries)
    assert reference.snapshot == record.snapshot
    assert len(reference.dice) == record.dice_used

    doors = list(fleet.doors.values())
    answers = [m for m in emu.bot_messages if m.action == "create" and m.channel_id == room.channel]
    # Applied chat lines: exactly one answer each, by one process.
    for message_id in r.messages:
        replies = [m for m in answers if _references(m, message_id)]
        assert len(replies) == 1, message_id
        assert len(made_by(doors, replies[0])) == 1
    # The refused line: judged once (the refusal is recorded), so answered once, by one process.
    synced = synced_ids(emu, room.guild)  # the refusal names /mitmachen as the synced command's mention
    assert refusals[0].content == refusal("error.join_first", synced=synced)
    assert len(made_by(doors, refusals[0])) == 1
    assert sum(_references(m, refused) for m in answers) == 1
    # Slash commands: one accepted callback each; the other two attempts were refused by "Discord" as
    # already acknowledged.
    for sent in r.interactions:
        attempts = [c for door in doors for c in door.calls if c.interaction_id == sent.id]
        accepted = [c for c in attempts if c.status < 300]
        assert len(attempts) == CALLBACKS_PER_RACED_INTERACTION
        assert len(accepted) == 1, attempts
        (turned_down,) = [c for c in attempts if c not in accepted]
        assert turned_down.status == 400
        assert turned_down.answer["code"] == ALREADY_ACKNOWLEDGED
        # The loser's try carried the same reply (from the log).
        assert turned_down.body["data"]["embeds"] == accepted[0].body["data"]["embeds"]
        assert sum(m.interaction_id == sent.id for m in answers) == 1
    # Nothing went wrong in either process: a lost race is no error.
    assert fleet.problems() == {}


async def settled(fleet: Fleet, interactions: list[SentInteraction]) -> None:
    """Until every interaction got all its callback attempts (each process has finished with it)."""

    def callback_to(interaction_id: int) -> Callable[[DoorCall], bool]:
        return lambda call: call.interaction_id == interaction_id

    for sent in interactions:
        for _ in range(CALLBACKS_PER_RACED_INTERACTION):
            await fleet.calls.wait(callback_to(sent.id), timeout=ANSWER_PATIENCE_S, what="callback")


def _references(message: BotMessage, message_id: int) -> bool:
    reference = message.message_reference
    return reference is not None and int(reference["message_id"]) == message_id
