"""Boards under the croupier's replies: only the player to act may press, a press after a restart still
works (persistent dynamic items), and a board the game has moved past answers "outdated"."""

from __future__ import annotations

from tests.discord.helpers import Table, asked, custom_id_for, labels, note, refusal, says, story

CONTINUE = says("choice.continue")  # the buttons' labels, as the game's catalogue names them
STOP = says("choice.stop")


async def opened_with(table: Table, *players: int) -> None:
    p = table.people
    await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
    for player in players:
        await table.slash_message(player, "mitmachen")


async def test_V6_S6_wrong_player_pressing_gets_a_private_note_and_nothing_changes(table: Table) -> None:
    p = table.people
    table.dice.will_roll(4)
    async with table.running():
        await opened_with(table, p.anna, p.ben)
        board = await table.said(p.anna, "weiter")
        assert labels(board)[:2] == [CONTINUE, STOP]
        before = await table.game()
        _, answer = await table.press(board, custom_id_for(board, STOP), p.ben)
        assert answer.ephemeral
        assert answer.type == 4
        assert note(answer) == refusal("error.button_not_yours", player="Anna")
        after = await table.game()
        assert after is not None
        assert before is not None
        assert (after.version, after.snapshot, after.dice_used) == (
            before.version,
            before.snapshot,
            before.dice_used,
        )
        assert len(await table.log(after.id)) == len(await table.log(before.id))


async def test_boards_keep_working_after_a_restart_and_stale_ones_say_so(table: Table) -> None:
    p = table.people
    table.dice.will_roll(3, 5, 2)
    async with table.running():
        await opened_with(table, p.anna, p.ben)
        first_board = await table.said(p.anna, "weiter")  # Freiwurf 3
    async with table.running():  # a new process: nothing in memory, the same database
        pressed = await table.pressed(first_board, custom_id_for(first_board, CONTINUE), p.anna)
        assert story(pressed) == [says("v6.thrown", face=5, player="Anna", total=8), asked("Anna")]
    async with table.running():  # and again: the typed line moves the game past the last board
        await table.said(p.anna, "weiter")  # 2 → 10
        _, stale = await table.press(pressed, custom_id_for(pressed, STOP), p.anna)
        assert stale.ephemeral
        assert stale.data is not None
        assert note(stale) == refusal("error.outdated_choice")
        record = await table.game()
        assert record is not None
        assert [seat.points for seat in record.participants if seat.player == str(p.anna)] == [10]


async def test_a_new_board_strips_the_buttons_of_the_previous_one(table: Table) -> None:
    p = table.people
    table.dice.will_roll(3, 5)
    async with table.running():
        await opened_with(table, p.anna)
        first = await table.said(p.anna, "weiter")
        second = await table.pressed(first, custom_id_for(first, CONTINUE), p.anna)
        assert second.components
        stripped = await table.emu.next_message(
            p.channel, action="edit", predicate=lambda m: m.message_id == first.message_id
        )
        assert stripped.components == []
        assert stripped.embeds == first.embeds
        assert table.emu.message(first.message_id)["components"] == []
