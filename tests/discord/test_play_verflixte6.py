"""A whole Durchgang through Discord: a moderator opens it, three players join and play by typed forum
words, buttons and selects (a robbery by mention and one by select), and the close reveals the seed.
Rule ids: V6-S2 (joker choice shown), V6-S3 (Freiwurf), V6-S7 (stopp), V6-N5 (the robbing 1), V6-R6."""

from __future__ import annotations

import hashlib

import pytest

from bot.exports import StandingsTable
from bot.service.croupier import Croupier
from tests.conftest import BACKENDS
from tests.discord.helpers import (
    Table,
    asked,
    custom_id_for,
    embeds_of,
    option_values,
    row,
    says,
    select_of,
    story,
    table_rows,
    title,
)

CONTINUE = says("choice.continue")  # the buttons' labels, as the game's catalogue names them
STOP = says("choice.stop")


@pytest.mark.parametrize("db_backend", BACKENDS, indirect=True)
async def test_V6_N5_full_durchgang_by_words_buttons_and_selects(table: Table) -> None:
    p = table.people
    # anna: Freiwurf 3, weiter 2, stopp → 5 | ben: Freiwurf 4, weiter 1 (robs anna 1), stopp → 6
    # carl: Freiwurf 5, weiter 1 (robs ben 1 by mention), stopp → 7
    table.dice.will_roll(3, 2, 4, 1, 5, 1)
    async with table.running() as bot:
        opened = await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        assert opened.embeds[0]["title"] == title(1)
        record = await table.game()
        assert record is not None
        assert opened.embeds[0]["footer"]["text"] == says("discord.footer.game", game=None, id=record.id)

        for position, (player, name) in enumerate([(p.anna, "Anna"), (p.ben, "Ben"), (p.carl, "Carl")], 1):
            joined = await table.slash_message(player, "mitmachen")
            assert story(joined)[0] == says("v6.joined", name=name, position=position)
        assert table_rows(joined) == [
            row("Anna", "jungfrau", 0, to_act=True),
            row("Ben", "jungfrau", 0),
            row("Carl", "jungfrau", 0),
        ]

        # anna types the forum words
        freiwurf = await table.said(p.anna, "weiter")
        assert story(freiwurf) == [says("v6.freiwurf", player="Anna", face=3, total=3), asked("Anna")]
        assert row("Anna", "playing", 3, to_act=True) in table_rows(freiwurf)
        await table.said(p.anna, "weiter bitte!")
        stopped = await table.said(p.anna, "stopp")
        assert story(stopped) == [
            says("v6.stopped", player="Anna", total=5),
            says("v6.next_up", next_player="Ben"),
        ]
        assert row("Anna", "prinzessin", 5) in table_rows(stopped)
        assert stopped.content == f"<@{p.ben}>"  # the turn passed: ben is pinged, nobody else
        assert stopped.pings.users == (p.ben,)

        # ben plays with the board: jokers by multi-select, then buttons
        jokers = select_of(stopped, says("select.jokers"))
        assert jokers["max_values"] == 3
        chose = await table.pressed(
            stopped, jokers["custom_id"], p.ben, option_values(jokers, "Rattenlord", "ALL IN")
        )
        assert story(chose) == [says("v6.jokers_chosen", player="Ben", jokers=["Rattenlord", "ALL IN"])]
        card = chose.embeds[1]
        assert card["title"] == says("highlight.jokers", player="Ben")
        assert [f["name"] for f in card["fields"]] == ["Rattenlord", "ALL IN"]
        assert [f["value"] for f in card["fields"]] == [
            says("v6.joker_info.Rattenlord"),
            says("v6.joker_info.ALL IN"),
        ]
        thrown = await table.pressed(chose, custom_id_for(chose, says("choice.freiwurf")), p.ben)
        assert story(thrown) == [
            says("v6.freiwurf", player="Ben", face=4, total=4),
            asked("Ben", "Rattenlord", "ALL IN"),
        ]
        assert [f["name"] for f in thrown.embeds[1]["fields"]] == ["Rattenlord", "ALL IN"]
        one = await table.pressed(thrown, custom_id_for(thrown, CONTINUE), p.ben)
        assert story(one) == [  # the robbing 1: k = 1
            says("v6.thrown", face=1, player="Ben", total=5),
            says("v6.robbery_offered", player="Ben", amount=1, victims=["Anna", "Carl"]),
        ]
        victims = select_of(one, says("select.victim"))
        assert sorted(o["label"] for o in victims["options"]) == ["Anna", "Carl"]
        robbed = await table.pressed(one, victims["custom_id"], p.ben, option_values(victims, "Anna"))
        assert story(robbed) == [
            says("v6.robbed", robber="Ben", victim="Anna", amount=1, robber_total=6, victim_total=4),
            asked("Ben", "Rattenlord", "ALL IN"),
        ]
        assert row("Anna", "prinzessin", 4) in table_rows(robbed)
        assert row("Ben", "playing", 6, to_act=True, jokers=("Rattenlord", "ALL IN")) in table_rows(robbed)
        done = await table.pressed(robbed, custom_id_for(robbed, STOP), p.ben)
        assert story(done) == [
            says("v6.stopped", player="Ben", total=6),
            says("v6.next_up", next_player="Carl"),
        ]
        assert done.content == f"<@{p.carl}>"

        # carl chooses a joker with the slash command, then types, robbing ben by mention
        chosen = await table.slash_message(p.carl, "joker", {"joker": "kälteschutz"}, subcommand="waehlen")
        assert story(chosen) == [says("v6.jokers_chosen", player="Carl", jokers=["Kälteschutz"])]
        assert [f["name"] for f in chosen.embeds[1]["fields"]] == ["Kälteschutz"]
        await table.said(p.carl, "weiter")
        offer = await table.said(p.carl, "weiter")
        assert story(offer) == [
            says("v6.thrown", face=1, player="Carl", total=6),
            says("v6.robbery_offered", player="Carl", amount=1, victims=["Anna", "Ben"]),
        ]
        by_mention = await table.said(p.carl, f"raube <@{p.ben}>")
        assert story(by_mention) == [
            says("v6.robbed", robber="Carl", victim="Ben", amount=1, robber_total=7, victim_total=5),
            asked("Carl", "Kälteschutz"),
        ]
        assert row("Ben", "prinzessin", 5) in table_rows(by_mention)
        last = await table.said(p.carl, "stopp")
        assert story(last) == [says("v6.stopped", player="Carl", total=7), table.says("v6.all_played")]

        closed = await table.slash_message(p.moni, "durchgang", subcommand="schliessen")
        assert story(closed) == [says("v6.closed")]
        assert closed.components == []

        standings = await bot.front.croupier.standings_table(str(p.channel))
        assert isinstance(standings, StandingsTable)
        assert [(standing.name, standing.total) for standing in standings.rows] == [
            ("Carl", 7),
            ("Ben", 5),
            ("Anna", 4),
        ]
        shown = await table.slash_message(p.anna, "tabelle")
        assert "Carl" in shown.embeds[0]["description"]
        assert shown.embeds[0]["title"] == says("discord.standings_title", game=None, name="Turnier")


async def test_commitment_is_shown_at_the_open_and_the_seed_at_the_close(table: Table) -> None:
    """With the verifiable dice (no script), the open posts SHA-256(seed) and the close reveals the seed."""
    p = table.people
    async with table.running(Croupier(store=table.store)):
        opened = await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        field_name = {key: says(f"discord.field.{key}", game=None) for key in ("commitment", "seed")}
        commitment = next(f for f in opened.embeds[0]["fields"] if f["name"] == field_name["commitment"])
        record = await table.game()
        assert record is not None
        assert f"`{record.commitment}`" in commitment["value"]
        assert record.commitment not in (opened.embeds[0].get("description") or "")  # shown once
        closed = await table.slash_message(p.moni, "durchgang", subcommand="schliessen")
        seed = next(f for f in closed.embeds[0]["fields"] if f["name"] == field_name["seed"])
        assert f"`{record.seed.hex()}`" in seed["value"]
        assert hashlib.sha256(record.seed).hexdigest() == record.commitment
        verified = await table.slash_message(p.anna, "pruefen", {"spiel-id": record.id})
        shortened = record.commitment[:16] + "…"  # as bot/service/verify.py shows a commitment
        assert verified.embeds[0]["description"] == says(
            "common.verify_no_dice", game=None, title=title(1), id=record.id, commitment=shortened
        )


async def test_moderators_skip_and_remove_players_leave_and_anyone_reads_the_rules(table: Table) -> None:
    """Rules §6: a moderator may skip a Jungfrau to the end of the queue or remove her; a player who
    has not played may leave."""
    p = table.people
    async with table.running():
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        for player in (p.anna, p.ben, p.carl):
            await table.slash_message(player, "mitmachen")
        left = await table.slash_message(p.carl, "aussteigen")
        assert story(left) == [says("v6.left", player="Carl")]
        skipped = await table.slash_message(  # a seat as the autocomplete offers it: its id
            p.moni, "durchgang", {"spieler": str(p.anna)}, subcommand="ueberspringen"
        )
        assert story(skipped) == [says("v6.skipped", player="Anna"), says("v6.next_up", next_player="Ben")]
        assert skipped.content == f"<@{p.ben}>"  # ben is first in the queue now
        removed = await table.slash_message(p.moni, "durchgang", {"spieler": "Ben"}, subcommand="entfernen")
        assert story(removed) == [says("v6.removed", player="Ben"), says("v6.next_up", next_player="Anna")]
        record = await table.game()
        assert record is not None
        assert [seat.player for seat in record.participants] == [str(p.anna)]
        _, rules = await table.slash(p.ben, "regeln")
        assert rules.ephemeral
        assert embeds_of(rules)[0]["description"]
        _, jokers = await table.slash(p.ben, "info", {"thema": "jokers"})
        assert jokers.ephemeral
        assert embeds_of(jokers)[0]["title"] == says("info.jokers.title")
        assert says("v6.joker_info.Rattenlord") in embeds_of(jokers)[0]["description"].splitlines()
