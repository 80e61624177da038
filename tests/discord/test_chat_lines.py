"""Typed lines: chatter gets no answer, a refused command a short reason (and nothing changes), and a
command from someone other than the player to act is refused (rules §6, V6-S6, V6-S7, V6-J unknown name)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.service.croupier import NOTHING_OPEN_EVERY
from tests.discord.helpers import Table, asked, refusal, says, story


async def answered(table: Table, message_id: int) -> bool:
    return any(
        m.message_reference is not None and int(m.message_reference["message_id"]) == message_id
        for m in table.emu.bot_messages
    )


@pytest.mark.parametrize(
    ("who", "line", "key", "facts"),
    [
        ("ben", "weiter", "error.not_your_turn", {"player": "Anna"}),
        ("anna", "stopp", "error.stop_before_freiwurf", {}),
        # the engine suggests the jokers closest to the typo, best first
        (
            "anna",
            "weiter mit Joker Rattenlrd",
            "error.unknown_joker",
            {"name": "Rattenlrd", "suggestions": ["Rattenlord"]},
        ),
    ],
    ids=["V6-S4-not-your-turn", "V6-S7-stopp-before-freiwurf", "V6-J-unknown-joker-suggestion"],
)
async def test_a_refused_line_gets_its_reason_and_changes_nothing(
    table: Table, who: str, line: str, key: str, facts: dict[str, Any]
) -> None:
    p = table.people
    async with table.running():
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        await table.slash_message(p.anna, "mitmachen")
        await table.slash_message(p.ben, "mitmachen")
        before = await table.game()
        refused = await table.said(getattr(p, who), line)
        assert refused.content == refusal(key, **facts)
        assert not refused.embeds
        assert not refused.components
        assert refused.message_reference is not None
        after = await table.game()
        assert before is not None
        assert after is not None
        assert (after.version, after.snapshot) == (before.version, before.snapshot)


async def test_chatter_is_not_answered_with_or_without_a_game(table: Table) -> None:
    p = table.people
    table.dice.will_roll(2)
    async with table.running():
        before_game = await table.say(p.anna, "Wann geht's los?")
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        await table.slash_message(p.anna, "mitmachen")
        chatter = await table.say(p.anna, "na, wer traut sich heute?")
        thrown = await table.said(p.anna, "weiter")  # answered after the chatter was handled
        assert story(thrown) == [says("v6.freiwurf", player="Anna", face=2, total=2), asked("Anna")]
        assert not await answered(table, before_game)
        assert not await answered(table, chatter)


async def test_a_game_word_with_no_game_open_is_told_once_who_opens_one(table: Table) -> None:
    """ "weiter" where no Durchgang is open: that none is and who opens one, the command clickable —
    once per player and a few minutes (a chat that keeps typing it is not flooded)."""
    p = table.people
    async with table.running():
        told = await table.said(p.anna, "weiter")
        assert told.content == table.refusal("error.nothing_open")
        assert "</durchgang oeffnen:" in told.content  # the command as a clickable mention
        again = await table.say(p.anna, "weiter")
        other = await table.said(p.ben, "weiter")  # another player is told too
        assert other.content == told.content
        table.clock.now += NOTHING_OPEN_EVERY
        later = await table.said(p.anna, "weiter")  # a few minutes on, once more
        assert later.content == told.content
        assert not await answered(table, again)


async def test_a_spectator_s_move_is_told_how_to_join(table: Table) -> None:
    p = table.people
    async with table.running():
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        await table.slash_message(p.anna, "mitmachen")
        refused = await table.said(p.ben, "weiter")
        assert refused.content == table.refusal("error.join_first", player="Anna")
        assert "</mitmachen:" in refused.content
