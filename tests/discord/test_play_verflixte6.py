"""A whole Durchgang through Discord: a moderator opens it, three players join and play by typed forum
words, buttons and selects (a robbery by mention and one by select), and the close reveals the seed.
Rule ids: V6-S2 (joker choice shown), V6-S3 (Freiwurf), V6-S7 (stopp), V6-N5 (the robbing 1), V6-R6."""

from __future__ import annotations

import hashlib

import pytest

from bot.croupier import Croupier
from bot.exports import StandingsTable
from tests.conftest import BACKENDS
from tests.discord.helpers import Table, custom_id_for, embeds_of, option_values, select_of, table_text


@pytest.mark.parametrize("db_backend", BACKENDS, indirect=True)
async def test_V6_N5_full_durchgang_by_words_buttons_and_selects(table: Table) -> None:
    p = table.people
    # anna: Freiwurf 3, weiter 2, stopp → 5 | ben: Freiwurf 4, weiter 1 (robs anna 1), stopp → 6
    # carl: Freiwurf 5, weiter 1 (robs ben 1 by mention), stopp → 7
    table.dice.will_roll(3, 2, 4, 1, 5, 1)
    async with table.running() as bot:
        opened = await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        assert opened.embeds[0]["title"] == "Die verflixte 6! · Durchgang 1"
        record = await table.game()
        assert record is not None
        assert opened.embeds[0]["footer"]["text"] == f"Spiel-ID {record.id}"

        for player in (p.anna, p.ben, p.carl):
            joined = await table.slash_message(player, "mitmachen")
            assert "ist dabei" in joined.text()
        assert "Carl" in table_text(joined)
        assert "Jungfrau" in table_text(joined)

        # anna types the forum words
        freiwurf = await table.said(p.anna, "weiter")
        assert "Freiwurf für Anna: 🎲 3" in freiwurf.text()
        assert "▶ Anna — am Zug: **3**" in table_text(freiwurf)
        await table.said(p.anna, "weiter bitte!")
        stopped = await table.said(p.anna, "stopp")
        assert "Anna sagt stopp" in stopped.text()
        assert "Anna — Prinzessin: **5**" in table_text(stopped)
        assert stopped.content == f"<@{p.ben}>"  # the turn passed: ben is pinged, nobody else
        assert stopped.pings.users == (p.ben,)

        # ben plays with the board: jokers by multi-select, then buttons
        jokers = select_of(stopped, "Joker")
        assert jokers["max_values"] == 3
        chose = await table.pressed(
            stopped, jokers["custom_id"], p.ben, option_values(jokers, "Rattenlord", "ALL IN")
        )
        assert "Ben spielt mit: Rattenlord, ALL IN" in chose.text()
        card = chose.embeds[1]
        assert card["title"] == "🃏 Die Joker von Ben"
        assert [f["name"] for f in card["fields"]] == ["Rattenlord", "ALL IN"]
        thrown = await table.pressed(chose, custom_id_for(chose, "Freiwurf"), p.ben)
        assert "Freiwurf für Ben: 🎲 4" in thrown.text()
        assert [f["name"] for f in thrown.embeds[1]["fields"]] == ["Rattenlord", "ALL IN"]
        one = await table.pressed(thrown, custom_id_for(thrown, "Weiter"), p.ben)
        assert "Ben darf 1 Auge" in one.text()  # the robbing 1: k = 1
        victims = select_of(one, "beraubst")
        assert sorted(o["label"] for o in victims["options"]) == ["Anna", "Carl"]
        robbed = await table.pressed(one, victims["custom_id"], p.ben, option_values(victims, "Anna"))
        assert "Ben raubt Anna 1 Auge" in robbed.text()
        assert "Anna — Prinzessin: **4**" in table_text(robbed)
        assert "Ben — am Zug: **6**" in table_text(robbed)
        done = await table.pressed(robbed, custom_id_for(robbed, "Stopp"), p.ben)
        assert "Ben sagt stopp" in done.text()
        assert done.content == f"<@{p.carl}>"

        # carl chooses a joker with the slash command, then types, robbing ben by mention
        chosen = await table.slash_message(p.carl, "joker", {"joker": "kälteschutz"}, subcommand="waehlen")
        assert "Carl spielt mit: Kälteschutz" in chosen.text()
        assert [f["name"] for f in chosen.embeds[1]["fields"]] == ["Kälteschutz"]
        await table.said(p.carl, "weiter")
        offer = await table.said(p.carl, "weiter")
        assert "Carl darf 1 Auge" in offer.text()
        by_mention = await table.said(p.carl, f"raube <@{p.ben}>")
        assert "Carl raubt Ben 1 Auge" in by_mention.text()
        assert "Ben — Prinzessin: **5**" in table_text(by_mention)
        await table.said(p.carl, "stopp")

        closed = await table.slash_message(p.moni, "durchgang", subcommand="schliessen")
        assert "geschlossen" in closed.text()
        assert closed.components == []

        standings = await bot.front.croupier.standings_table(str(p.channel))
        assert isinstance(standings, StandingsTable)
        assert [(row.name, row.total) for row in standings.rows] == [("Carl", 7), ("Ben", 5), ("Anna", 4)]
        shown = await table.slash_message(p.anna, "tabelle")
        assert "Carl" in shown.embeds[0]["description"]
        assert shown.embeds[0]["title"] == "🏆 Turnier"


async def test_commitment_is_shown_at_the_open_and_the_seed_at_the_close(table: Table) -> None:
    """With the verifiable dice (no script), the open posts SHA-256(seed) and the close reveals the seed."""
    p = table.people
    async with table.running(Croupier(store=table.store)):
        opened = await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        commitment = next(f for f in opened.embeds[0]["fields"] if "Commitment" in f["name"])
        record = await table.game()
        assert record is not None
        assert f"`{record.commitment}`" in commitment["value"]
        assert record.commitment not in (opened.embeds[0].get("description") or "")  # shown once
        closed = await table.slash_message(p.moni, "durchgang", subcommand="schliessen")
        seed = next(f for f in closed.embeds[0]["fields"] if "Seed" in f["name"])
        assert f"`{record.seed.hex()}`" in seed["value"]
        assert hashlib.sha256(record.seed).hexdigest() == record.commitment
        verified = await table.slash_message(p.anna, "pruefen", {"spiel-id": record.id})
        assert verified.embeds[0]["description"].startswith("✅ Durchgang 1")


async def test_moderators_skip_and_remove_players_leave_and_anyone_reads_the_rules(table: Table) -> None:
    """Rules §6: a moderator may skip a Jungfrau to the end of the queue or remove her; a player who
    has not played may leave."""
    p = table.people
    async with table.running():
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        for player in (p.anna, p.ben, p.carl):
            await table.slash_message(player, "mitmachen")
        left = await table.slash_message(p.carl, "aussteigen")
        assert "Carl zieht sich aus dem Durchgang zurück" in left.text()
        skipped = await table.slash_message(
            p.moni, "durchgang", {"spieler": p.anna}, subcommand="ueberspringen"
        )
        assert "Anna rückt ans Ende der Warteschlange" in skipped.text()
        assert skipped.content == f"<@{p.ben}>"  # ben is first in the queue now
        removed = await table.slash_message(p.moni, "durchgang", {"spieler": p.ben}, subcommand="entfernen")
        assert "Ben wurde aus dem Durchgang genommen" in removed.text()
        record = await table.game()
        assert record is not None
        assert [seat.player for seat in record.participants] == [str(p.anna)]
        _, rules = await table.slash(p.ben, "regeln")
        assert rules.ephemeral
        assert embeds_of(rules)[0]["description"]
        _, jokers = await table.slash(p.ben, "joker-info")
        assert jokers.ephemeral
        assert "Rattenlord" in embeds_of(jokers)[0]["description"]
