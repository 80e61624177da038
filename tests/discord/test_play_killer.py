"""A short Killer game through Discord, played to the end with typed French words, the keep
multi-select and the target select (K5-S1 setup, K5-K1 keeping, K5-A1 attack, K5-D1, K5-E1 the end)."""

from __future__ import annotations

from typing import Any

from tests.discord.helpers import Table, option_values, says, select_of, story


def killer_says(key: str, **facts: Any) -> str:
    """What the croupier says in a Killer game: in French, the game's own language."""
    return says(key, "fr", "killer", **facts)


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
        assert killer_says("killer.rolled", player="Anna", faces=[6] * 5) in story(started)
        assert started.content == f"<@{p.anna}>"

        keep = select_of(started, killer_says("select.keep"))
        assert [o["label"] for o in keep["options"]] == [killer_says("choice.keep_die", face=6)] * 5
        assert keep["max_values"] == 5
        kept = await table.pressed(started, keep["custom_id"], p.anna, [o["value"] for o in keep["options"]])
        assert story(kept) == [
            killer_says("killer.kept", player="Anna", values=[6] * 5, total=30),
            killer_says("killer.hit_points_set", player="Anna", hp=30),
            killer_says("killer.rolled", player="Ben", faces=[3, 1, 1, 1, 1]),
            killer_says("killer.keep_asked", player="Ben", example="3 1"),
        ]
        assert kept.content == f"<@{p.ben}>"

        await table.said(p.ben, "garde tout")  # 7 PDV
        rolled = await table.said(p.anna, "garde tout")  # 2 2 1 1 1 = 7: an attack of 4
        targets = select_of(rolled, killer_says("select.target"))
        assert [o["label"] for o in targets["options"]] == [killer_says("choice.attack", target="Ben")]
        attacked = await table.pressed(rolled, targets["custom_id"], p.anna, option_values(targets, "Ben"))
        told = story(attacked)
        assert killer_says("killer.damaged", victim="Ben", damage=12, hits=3, value=4, hp=-5) in told
        assert killer_says("killer.dying", player="Ben", hp=-5) in told

        last = await table.said(p.ben, "garde tout")
        assert story(last)[-2:] == [
            killer_says("killer.died", player="Ben", hp=-6),
            killer_says("killer.won", winner="Anna", hp=30),
        ]
        assert last.components == []
        assert last.content == ""
    assert await table.game() is None  # the finished game is closed
    assert bot.is_closed()
