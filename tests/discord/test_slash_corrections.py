"""Moderator corrections on Discord (``/korrektur …``): an undo restores the game and the next roll is a
new die, an adjustment counts in ``/tabelle``, a disqualified player cannot join; each is a public note,
a player is refused privately and nothing changes, a redelivered interaction is applied once, and the
commands carry English and French names. Rule id: V6-S3 (the Freiwurf the undo takes back to)."""

from __future__ import annotations

import pytest

from bot.discord.translator import valid_name
from bot.service.corrections import MAX_ADJUSTMENT, MAX_REASON, when
from bot.texts import signed
from tests.conftest import BACKENDS
from tests.discord.helpers import Table, asked, note, refusal, row, says, story, table_rows

LOCALES = {"de": "de", "en-US": "en", "en-GB": "en", "fr": "fr"}


def corrections(table: Table) -> int:
    with table.store.transaction(read_only=True) as uow:
        tournament = uow.tournaments.current(str(table.people.channel))
        return 0 if tournament is None else len(uow.corrections.of_tournament(tournament.id))


async def closed_durchgang(table: Table) -> None:
    """anna: Freiwurf 3, stopp → 3; ben: Freiwurf 4, stopp → 4; closed."""
    p = table.people
    table.dice.will_roll(3, 4)
    await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
    await table.slash_message(p.anna, "mitmachen")
    await table.slash_message(p.ben, "mitmachen")
    for player in (p.anna, p.ben):
        await table.said(player, "weiter")
        await table.said(player, "stopp")
    await table.slash_message(p.moni, "durchgang", subcommand="schliessen")


@pytest.mark.parametrize("db_backend", BACKENDS, indirect=True)
async def test_V6_S3_an_undo_restores_the_points_and_the_next_roll_is_a_new_die(table: Table) -> None:
    p = table.people
    table.dice.will_roll(3, 5, 2)
    async with table.running():
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        await table.slash_message(p.anna, "mitmachen")
        await table.slash_message(p.ben, "mitmachen")
        await table.said(p.anna, "weiter")  # Freiwurf 3
        await table.said(p.anna, "weiter")  # 5 → 8, which the moderator takes back
        undone = await table.slash_message(
            p.moni, "korrektur", {"grund": "Versehen"}, subcommand="rueckgaengig"
        )
        facts = {"player": "Anna", "move": "weiter", "reason": "Versehen", "moderator": "Moni", "dice": [5]}
        assert story(undone) == [says("common.undone_dice", **facts), asked("Anna")]  # and whose turn
        assert row("Anna", "playing", 3, to_act=True) in table_rows(undone)
        again = await table.said(p.anna, "weiter")
        assert story(again)[0] == says("v6.thrown", player="Anna", face=2, total=5)  # not the voided 5
        record = await table.game()
        assert record is not None
        assert record.dice_used == 3
        voided = [entry for entry in await table.log(record.id) if entry.voided]
        assert [(entry.text, list(entry.dice)) for entry in voided] == [("weiter", [5])]
        assert corrections(table) == 1


@pytest.mark.parametrize("db_backend", BACKENDS, indirect=True)
async def test_an_adjustment_shows_in_the_standings(table: Table) -> None:
    p = table.people
    async with table.running():
        await closed_durchgang(table)
        adjusted = await table.slash_message(
            p.moni, "korrektur", {"spieler": p.ben, "punkte": -3, "grund": "Strafe"}, subcommand="punkte"
        )
        facts = {"name": "Ben", "points": signed(-3), "reason": "Strafe", "moderator": "Moni"}
        assert adjusted.embeds[0]["description"] == says(
            "common.adjusted", game=None, tournament="Turnier", **facts
        )
        shown = await table.slash_message(p.anna, "tabelle")
        lines = shown.embeds[0]["description"].strip("`\n").splitlines()
        ranked = [line.split() for line in lines[1:]]
        assert [(cells[1], cells[-1]) for cells in ranked] == [("Anna", "3"), ("Ben", "1")]  # 4 − 3
        fields = {f["name"]: f["value"] for f in shown.embeds[0].get("fields") or []}
        heading = says("common.standings_adjustments", game=None)
        line = says("common.standings_adjustment", game=None, name="Ben", points=signed(-3), reason="Strafe")
        assert fields == {heading: line}
    exported = await table.croupier().standings_table(str(p.channel))
    assert exported is not None
    assert {r.name: (r.total, r.adjustment) for r in exported.rows} == {"Anna": (3, 0), "Ben": (1, -3)}


async def test_a_disqualified_player_cannot_join_until_reinstated(table: Table) -> None:
    p = table.people
    async with table.running():
        await closed_durchgang(table)
        out = await table.slash_message(
            p.moni, "korrektur", {"spieler": p.anna, "grund": "Absprache"}, subcommand="disqualifizieren"
        )
        facts = {"name": "Anna", "reason": "Absprache", "moderator": "Moni", "tournament": "Turnier"}
        assert out.embeds[0]["description"] == says("common.disqualified", game=None, **facts)
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        _, barred = await table.slash(p.anna, "mitmachen")
        assert barred.ephemeral
        assert note(barred) == refusal("error.disqualified_cannot_join", name="Anna", reason="Absprache")
        back = await table.slash_message(
            p.moni, "korrektur", {"spieler": p.anna, "grund": "geklärt"}, subcommand="zulassen"
        )
        facts = {**facts, "reason": "geklärt"}
        assert back.embeds[0]["description"] == says("common.reinstated", game=None, **facts)
        joined = await table.slash_message(p.anna, "mitmachen")
        assert story(joined)[0] == says("v6.joined", name="Anna", position=1)


async def test_a_player_may_not_correct_and_nothing_changes(table: Table) -> None:
    p = table.people
    table.dice.will_roll(3)
    async with table.running():
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        await table.slash_message(p.anna, "mitmachen")
        await table.said(p.anna, "weiter")
        before = await table.game()
        attempts = [
            ("rueckgaengig", {"grund": "bitte"}),
            ("punkte", {"spieler": p.anna, "punkte": 50, "grund": "bitte"}),
            ("disqualifizieren", {"spieler": p.ben, "grund": "bitte"}),
        ]
        for subcommand, options in attempts:
            _, refused = await table.slash(p.ben, "korrektur", options, subcommand=subcommand)
            assert refused.ephemeral, subcommand
            assert note(refused) == refusal("error.not_moderator", game=None), subcommand
        after = await table.game()
        assert after == before
        assert corrections(table) == 0
        _, listed = await table.slash(p.ben, "korrektur", subcommand="liste")  # the list is for everybody
        assert listed.ephemeral
        assert note(listed) == ""
        assert listed.data is not None
        assert listed.data["embeds"][0]["description"] == says(
            "common.corrections_none", game=None, name="Turnier"
        )


async def test_an_undo_after_the_close_is_refused_with_the_command_to_use(table: Table) -> None:
    p = table.people
    async with table.running():
        await closed_durchgang(table)
        _, refused = await table.slash(p.moni, "korrektur", {"grund": "zu spät"}, subcommand="rueckgaengig")
        assert refused.ephemeral
        title = table.says("game.round", number=1)  # the game just closed, named
        assert note(refused) == table.refusal("error.undo_game_closed", game=None, title=title)
        ids = {c["name"]: c["id"] for c in table.emu.synced_commands(p.guild)}
        assert f"</korrektur punkte:{ids['korrektur']}>" in note(refused)  # a clickable /korrektur punkte


async def test_a_redelivered_correction_is_applied_once(table: Table) -> None:
    p = table.people
    async with table.running():
        await closed_durchgang(table)
        sent, answered = await table.slash(
            p.moni, "korrektur", {"spieler": p.ben, "punkte": 2, "grund": "Bonus"}, subcommand="punkte"
        )
        assert answered.type == 4
        await table.emu.redeliver(sent.id)  # the gateway delivers the same interaction again
        _, listed = await table.slash(p.anna, "korrektur", subcommand="liste")
        assert listed.data is not None
        facts = {"when": when(table.clock.now), "moderator": "Moni", "name": "Ben", "reason": "Bonus"}
        assert listed.data["embeds"][0]["description"].splitlines() == [
            says("common.corrections_title", game=None, name="Turnier"),
            says("common.correction.adjust", game=None, points=signed(2), number="–", move="–", **facts),
        ]
    assert corrections(table) == 1


async def test_the_corrections_have_german_english_and_french_names(table: Table) -> None:
    async with table.running():
        synced = {c["name"]: c for c in table.emu.synced_commands(table.people.guild)}
    group = synced["korrektur"]
    parts = [group, *group["options"]]
    assert [o["name"] for o in group["options"]] == [
        "rueckgaengig", "punkte", "disqualifizieren", "zulassen", "liste",
    ]  # fmt: skip
    for part in parts:
        path = "korrektur" if part is group else f"korrektur.{part['name']}"
        localized = part["name_localizations"]
        for locale, lang in LOCALES.items():
            assert localized[locale] == says(f"discord.cmd.{path}.name", lang, None), (path, locale)
            assert valid_name(localized[locale])
    reason = next(o for o in parts[1]["options"] if o["name"] == "grund")
    assert reason["name_localizations"]["en-US"] == says("discord.param.grund.name", "en", None)
    assert reason["max_length"] == MAX_REASON
    points = next(o for o in parts[2]["options"] if o["name"] == "punkte")
    assert (points["min_value"], points["max_value"]) == (-MAX_ADJUSTMENT, MAX_ADJUSTMENT)


async def test_a_player_who_left_the_server_can_still_be_penalised(table: Table) -> None:
    """Discord sends a player who left as a user without a member: the penalty goes through all the
    same, publicly, and counts in the standings."""
    p = table.people
    async with table.running():
        await closed_durchgang(table)
        await table.emu.remove_member(p.guild, p.ben)
        adjusted = await table.slash_message(
            p.moni, "korrektur", {"spieler": p.ben, "punkte": -3, "grund": "Verlassen"}, subcommand="punkte"
        )
        facts = {"name": "Ben", "points": signed(-3), "reason": "Verlassen", "moderator": "Moni"}
        assert adjusted.embeds[0]["description"] == says(
            "common.adjusted", game=None, tournament="Turnier", **facts
        )
        disqualified = await table.slash_message(
            p.moni, "korrektur", {"spieler": p.ben, "grund": "Verlassen"}, subcommand="disqualifizieren"
        )
        assert disqualified.embeds
    assert corrections(table) == 2


async def test_a_user_who_never_played_here_is_refused_with_a_reason_not_an_error(table: Table) -> None:
    p = table.people
    stranger = await table.emu.add_member(p.guild, "zoe", nick="Zoe")
    async with table.running():
        await closed_durchgang(table)
        await table.emu.remove_member(p.guild, stranger)
        _, response = await table.slash(
            p.moni, "korrektur", {"spieler": stranger, "punkte": 2, "grund": "Bonus"}, subcommand="punkte"
        )
        assert response.ephemeral
        assert note(response) == refusal("error.correction_unknown_player", game=None, name=str(stranger))
    assert corrections(table) == 0
