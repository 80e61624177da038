"""A redelivered MESSAGE_CREATE (the gateway resends after a resume) is applied once and answered once,
in the same process and after a restart (then the store's command log recognises it)."""

from __future__ import annotations

from tests.discord.helpers import Table, asked, row, says, story, table_rows


async def replies_to(table: Table, message_id: int) -> list[int]:
    return [
        m.message_id
        for m in table.emu.bot_messages
        if m.action == "create"
        and m.message_reference is not None
        and int(m.message_reference["message_id"]) == message_id
    ]


async def test_the_same_message_delivered_twice_is_applied_once(table: Table) -> None:
    p = table.people
    table.dice.will_roll(4, 2, 6)
    async with table.running():
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        await table.slash_message(p.anna, "mitmachen")
        twice = await table.say(p.anna, "weiter", times=2)
        answer = await table.answer_to(twice)
        assert story(answer) == [says("v6.freiwurf", player="Anna", face=4, total=4), asked("Anna")]
        later = await table.said(p.anna, "weiter")  # answered after the duplicate was dealt with
        assert story(later) == [says("v6.thrown", face=2, player="Anna", total=6), asked("Anna")]
        assert await replies_to(table, twice) == [answer.message_id]
    async with table.running():  # a restarted bot gets the old event again
        await table.emu.redeliver(twice)
        sync = await table.said(p.anna, "stopp")
        assert table_rows(sync) == [row("Anna", "prinzessin", 6)]
        assert await replies_to(table, twice) == [answer.message_id]
    record = await table.game()
    assert record is not None
    assert record.dice_used == 2
    entries = [e.message_id for e in await table.log(record.id)]
    assert entries.count(f"discord:{twice}") == 1
