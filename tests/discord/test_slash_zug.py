"""``/zug WORTE`` (``/move``, ``/coup``): the words of a move through the same parser as a typed line —
the same move, the same answer, exactly once — and words that hold no move get a private refusal.
Rule ids: V6-S3 (the Freiwurf), V6-S7 (stopp)."""

from __future__ import annotations

from tests.discord.helpers import Table, note, refusal, row, says, story, table_rows


async def test_V6_S3_zug_plays_the_words_as_if_typed(table: Table) -> None:
    p = table.people
    table.dice.will_roll(3, 5)
    async with table.running():
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        await table.slash_message(p.anna, "mitmachen")
        await table.slash_message(p.ben, "mitmachen")
        freiwurf = await table.slash_message(p.anna, "zug", {"worte": "weiter"})
        typed = await table.said(p.anna, "weiter")  # the same words typed: the same kind of answer
        assert story(freiwurf)[0] == says("v6.freiwurf", player="Anna", face=3, total=3)
        assert story(typed)[0] == says("v6.thrown", player="Anna", face=5, total=8)
        assert row("Anna", "playing", 8, to_act=True) in table_rows(typed)


async def test_V6_S7_zug_answers_only_the_player_to_act_and_refuses_chatter(table: Table) -> None:
    p = table.people
    table.dice.will_roll(3)
    async with table.running():
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        await table.slash_message(p.anna, "mitmachen")
        await table.slash_message(p.ben, "mitmachen")
        _, early = await table.slash(p.ben, "zug", {"worte": "weiter"})
        assert early.ephemeral
        assert note(early) == refusal("error.not_your_turn", player="Anna")
        _, chatter = await table.slash(p.anna, "zug", {"worte": "hallo zusammen"})
        assert chatter.ephemeral
        assert note(chatter) == refusal("error.not_a_command")
        await table.slash_message(p.anna, "zug", {"worte": "weiter"})
        stopped = await table.slash_message(p.anna, "zug", {"worte": "stopp"})
        assert story(stopped) == [
            says("v6.stopped", player="Anna", total=3),
            says("v6.next_up", next_player="Ben"),
        ]
        record = await table.game()
        assert record is not None
        log = await table.log(record.id)
        assert [entry.text for entry in log if entry.command and entry.command["type"] != "Open"][-2:] == [
            "weiter",
            "stopp",
        ]


async def test_zug_without_a_game_is_refused_privately(table: Table) -> None:
    p = table.people
    async with table.running():
        _, refused = await table.slash(p.anna, "zug", {"worte": "weiter"})
        assert refused.ephemeral
        assert note(refused) == table.refusal("error.no_open_game", game=None)


async def test_a_redelivered_zug_moves_once(table: Table) -> None:
    p = table.people
    table.dice.will_roll(4, 4)
    async with table.running():
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        await table.slash_message(p.anna, "mitmachen")
        sent, response = await table.slash(p.anna, "zug", {"worte": "weiter"})
        assert response.type == 4
        await table.emu.redeliver(sent.id)  # the gateway delivers the same interaction again
        again = await table.slash_message(p.anna, "zug", {"worte": "weiter"})  # a new one moves on
        assert story(again)[0] == says("v6.thrown", player="Anna", face=4, total=8)
        record = await table.game()
        assert record is not None
        assert record.dice_used == 2
