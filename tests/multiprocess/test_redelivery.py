"""A whole Durchgang in which the gateway delivers every event twice — chat lines, slash commands and a
button press — to one ``croupier run`` process on PostgreSQL: each is applied once and answered once."""

from __future__ import annotations

import pytest

from bot.store import Store
from tests.discord_emulator import DiscordEmulator
from tests.multiprocess.deliveries import sessions_by_event
from tests.multiprocess.door import made_by
from tests.multiprocess.fleet import Fleet
from tests.multiprocess.replay import games_in, replay
from tests.multiprocess.rooms import Round, furnish

pytestmark = pytest.mark.postgres


async def test_every_event_delivered_twice_is_applied_and_answered_once(
    emu: DiscordEmulator, fleet: Fleet, store: Store
) -> None:
    room = await furnish(emu, "Spelunke")
    bot = await fleet.start("only", [room.guild])
    await bot.ready()
    [session] = emu.connected_sessions()

    r = Round(emu, room, store, twice=True)
    await r.play()
    assert await fleet.stop_all() == {"only": 0}
    assert fleet.problems() == {}

    received = sessions_by_event(emu)
    sent = [*r.messages, *(i.id for i in r.interactions)]
    assert len(sent) == len(r.applied) >= 8  # more when anna's dice ask for more words
    assert all(received[event] == [session.id, session.id] for event in sent)

    [(record, entries)] = await games_in(store, room.channel)
    assert record.status == "closed"
    assert [entry.message_id for entry in entries] == r.applied  # each once, in the order played
    reference = replay(record, entries)
    assert reference.snapshot == record.snapshot
    assert len(reference.dice) == record.dice_used == sum(len(entry.dice) for entry in entries)

    door = fleet.doors["only"]
    answers = [m for m in emu.bot_messages if m.action == "create" and m.channel_id == room.channel]
    for message_id in r.messages:
        replies = [
            m
            for m in answers
            if m.message_reference is not None and int(m.message_reference["message_id"]) == message_id
        ]
        assert len(replies) == 1, message_id
    for interaction in r.interactions:
        callbacks = [c for c in door.calls if c.interaction_id == interaction.id]
        assert [200 <= c.status < 300 for c in callbacks] == [True]  # one answer, never a second try
        assert sum(m.interaction_id == interaction.id for m in answers) == 1
    assert all(made_by([door], answer) == ["only"] for answer in r.answers.values())
