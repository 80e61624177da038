"""Slash commands and presses handled while the store is blocked for five seconds — far beyond Discord's
three — are still answered: each is deferred in time, then answered with its privacy (a public move for
everyone, a refusal and the rules for the asker alone, never the other way round)."""

from __future__ import annotations

import asyncio
import time

from bot.service.croupier import Croupier
from tests.discord.helpers import Table, asked, custom_id_for, drawn, says, story
from tests.discord.test_slow_answers import SlowStore
from tests.discord.test_store_unavailable import shut_down_after
from tests.discord_emulator import InteractionAnswers, SentInteraction

BLOCKED_S = 5.0
CONTINUE = says("choice.continue")
STOP = says("choice.stop")


async def answered(table: Table, sent: SentInteraction) -> InteractionAnswers:
    """Once the interaction's answer is there: its deferred original edited, or a followup."""
    return await table.emu.wait_for_answers(sent, lambda a: bool(a.edits or a.followups), timeout=10)


async def test_interactions_while_the_store_is_blocked_are_deferred_then_answered(table: Table) -> None:
    p = table.people
    slow = SlowStore(table.store.engine, table.store._url, table.store.defaults)
    croupier = Croupier(store=slow, dice_factory=table.dice.factory, clock=table.clock)
    table.dice.will_roll(3, 5)
    async with table.running(croupier), shut_down_after(slow):
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        await table.slash_message(p.anna, "mitmachen")
        board = await table.said(p.anna, "weiter")  # Freiwurf 3: anna's board

        slow.gate = asyncio.Event()
        blocked_at = time.monotonic()
        move = await table.emu.click(board, custom_id_for(board, CONTINUE), p.anna)  # public
        join = await table.emu.slash_command(p.guild, p.channel, p.ben, "mitmachen")  # public
        twice = await table.emu.slash_command(p.guild, p.channel, p.anna, "mitmachen")  # a private refusal
        rules = await table.emu.slash_command(p.guild, p.channel, p.carl, "regeln")  # private by nature
        stale = await table.emu.click(board, custom_id_for(board, STOP), p.ben)  # a private refusal
        sent = (move, join, twice, rules, stale)
        for interaction in sent:  # every one acknowledged within Discord's three seconds
            response = await table.emu.wait_for_response(interaction, timeout=4)
            assert response.deferred, response
            assert response.after < 3, response
        await asyncio.sleep(BLOCKED_S - (time.monotonic() - blocked_at))
        slow.gate.set()

        moved = await answered(table, move)
        assert moved.response is not None
        assert moved.response.type == 6  # a button: a deferred update
        (thrown,) = moved.followups
        assert not thrown.ephemeral
        assert story(thrown) == [table.says("v6.thrown", face=5, player="Anna", total=8), asked("Anna")]

        joined = await answered(table, join)
        assert joined.response is not None
        assert joined.response.type == 5
        assert not joined.response.ephemeral
        (edit,) = joined.edits  # the public "thinking…" became the answer
        assert story(edit)[0] == table.says("v6.joined", name="Ben", position=2)
        assert not edit.ephemeral

        refused = await answered(table, twice)
        assert refused.response is not None
        assert not refused.response.ephemeral  # deferred publicly …
        assert [m.action for m in refused.messages] == ["create", "delete", "create"]  # … then deleted
        (told,) = refused.followups
        assert told.ephemeral
        assert told.content == table.refusal("error.already_joined", player="Anna")

        ruled = await answered(table, rules)
        assert ruled.response is not None
        assert ruled.response.ephemeral  # deferred privately
        (shown,) = ruled.edits
        assert shown.ephemeral
        assert story(shown) == [table.says("help.rules")]

        outdated = await answered(table, stale)
        assert outdated.response is not None
        assert outdated.response.type == 6
        (private,) = outdated.followups
        assert private.ephemeral
        assert private.content == table.refusal("error.outdated_choice")

        # nobody else saw the private ones
        public = table.emu.messages_in(p.channel)
        hidden = {str(told.message_id), str(shown.message_id), str(private.message_id)}
        assert not any(m["id"] in hidden for m in public)


async def test_a_moves_answer_outliving_the_interactions_token_is_posted_in_the_channel(table: Table) -> None:
    p = table.people
    slow = SlowStore(table.store.engine, table.store._url, table.store.defaults)
    croupier = Croupier(store=slow, dice_factory=table.dice.factory, clock=table.clock)
    table.emu.token_lifetime = 2.0  # Discord's fifteen minutes, shortened
    async with table.running(croupier), shut_down_after(slow):
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        slow.gate = asyncio.Event()
        join = await table.emu.slash_command(p.guild, p.channel, p.anna, "mitmachen")
        response = await table.emu.wait_for_response(join, timeout=4)
        assert response.deferred  # acknowledged in time …
        await asyncio.sleep(2.2)  # … but the store answers only after the token is gone
        slow.gate.set()
        joined = table.says("v6.joined", name="Anna", position=1)
        posted = await table.emu.next_message(p.channel, predicate=lambda m: joined in story(m))
        assert posted.via == "channel"
        assert posted.content.startswith(drawn("discord.delivery.answer_for", name=f"<@{p.anna}>"))
        assert not posted.pings.anyone  # the player is named, not pinged: she made the move herself
        assert table.emu.answers(join).refused  # the followup was refused: the token had expired
