"""The turn timeout (rules §6): a player who lets the deadline pass is stopped with the running total,
the croupier posts it in the channel and pings the next player — exactly once, also from the
background clock of a freshly started bot (deadlines live in the database)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import timedelta

from bot.settings_words import described
from tests.discord.helpers import Table, row, says, story, table_rows
from tests.discord_emulator import BotMessage


def timed_out(player: str) -> Callable[[BotMessage], bool]:
    """Whether a message is the croupier's post about ``player``'s turn timing out."""
    line = says("v6.timed_out", player=player)
    return lambda message: line in story(message)


async def test_V6_turn_timeout_stops_the_player_and_posts_once(table: Table) -> None:
    p = table.people
    table.dice.will_roll(5)
    async with table.running() as bot:
        changed = await table.slash_message(p.moni, "einstellungen", {"zugzeit": "90s"})
        assert changed.embeds[0]["description"] == says(
            "common.settings_changed", game=None, settings=described({"turn_timeout_seconds": 90})
        )
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        await table.slash_message(p.anna, "mitmachen")
        await table.slash_message(p.ben, "mitmachen")
        await table.said(p.anna, "weiter")
        assert await bot.front.post_timeouts() == 0  # not due yet
        table.clock.now += timedelta(seconds=91)
        assert await bot.front.post_timeouts() == 1
        posted = await table.emu.next_message(p.channel, predicate=timed_out("Anna"))
        assert story(posted) == [
            says("v6.timed_out", player="Anna"),
            says("v6.stopped", player="Anna", total=5),
            says("v6.next_up", next_player="Ben"),
        ]
        assert table_rows(posted) == [row("Anna", "prinzessin", 5), row("Ben", "jungfrau", 0, to_act=True)]
        assert posted.content == f"<@{p.ben}>"
        assert posted.pings.users == (p.ben,)
        assert posted.components  # ben's board
        assert await bot.front.post_timeouts() == 0


async def test_a_restarted_bot_applies_a_deadline_that_passed_while_it_was_away(table: Table) -> None:
    p = table.people
    table.dice.will_roll(5)
    async with table.running():
        await table.slash_message(p.moni, "einstellungen", {"zugzeit": "1m"})
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        await table.slash_message(p.anna, "mitmachen")
        await table.slash_message(p.ben, "mitmachen")
        await table.said(p.anna, "weiter")
    table.clock.now += timedelta(minutes=2)
    table.options = dataclasses.replace(table.options, turn_clock_seconds=0.05)
    async with table.running():
        posted = await table.emu.next_message(p.channel, predicate=timed_out("Anna"))
        assert posted.content == f"<@{p.ben}>"
    record = await table.game()
    assert record is not None
    assert record.to_act == str(p.ben)
