"""A short Killer game through Discord, played to the end with typed French words, the keep
multi-select and the target select (K5-S1 setup, K5-K1 keeping, K5-A1 attack, K5-D1, K5-E1 the end)."""

from __future__ import annotations

from tests.discord.helpers import Table, option_values, select_of


async def test_K5_E1_killer_game_to_the_end_by_words_and_selects(table: Table) -> None:
    p = table.people
    # setup: anna 6 6 6 6 6 (30 PDV), ben 3 1 1 1 1 (7 PDV); anna keeps 2 2 1 1 1 = 7: an attack of 4
    # on ben (4 4 4 1 2, then 1 2) leaves him dying; ben's 5 6 4 4 4 = 23 is a miss: dead, anna wins.
    table.dice.will_roll(6, 6, 6, 6, 6, 3, 1, 1, 1, 1, 2, 2, 1, 1, 1, 4, 4, 4, 1, 2, 1, 2, 5, 6, 4, 4, 4)
    async with table.running() as bot:
        await table.slash_message(p.moni, "durchgang", {"spiel": "killer"}, subcommand="oeffnen")
        await table.slash_message(p.anna, "mitmachen")
        await table.slash_message(p.ben, "mitmachen")
        started = await table.slash_message(p.moni, "durchgang", subcommand="starten")
        assert "Anna lance : 6, 6, 6, 6, 6" in started.text()
        assert started.content == f"<@{p.anna}>"

        keep = select_of(started, "dés")
        assert [o["label"] for o in keep["options"]] == ["6"] * 5
        assert keep["max_values"] == 5
        kept = await table.pressed(started, keep["custom_id"], p.anna, [o["value"] for o in keep["options"]])
        assert "Anna garde 6, 6, 6, 6, 6 (total 30)" in kept.text()
        assert kept.content == f"<@{p.ben}>"

        await table.said(p.ben, "garde tout")  # 7 PDV
        rolled = await table.said(p.anna, "garde tout")  # 2 2 1 1 1 = 7: an attack of 4
        targets = select_of(rolled, "attaques")
        assert [o["label"] for o in targets["options"]] == ["Ben"]
        attacked = await table.pressed(rolled, targets["custom_id"], p.anna, option_values(targets, "Ben"))
        assert "Ben perd" in attacked.text()
        assert "tombe à" in attacked.text()

        last = await table.said(p.ben, "garde tout")
        assert "Ben est mort" in last.text()
        assert "Anna gagne la partie avec 30 PDV" in last.text()
        assert last.components == []
        assert last.content == ""
    assert await table.game() is None  # the finished game is closed
    assert bot.is_closed()
