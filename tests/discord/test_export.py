"""The standings for everyone (text or a picture) and as a file for admins only (V6-R7 standings)."""

from __future__ import annotations

import csv
import io

from tests.discord.helpers import Table, embeds_of, note, refusal, says


async def play_one_durchgang(table: Table) -> None:
    p = table.people
    table.dice.will_roll(4, 2)
    await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
    await table.slash_message(p.anna, "mitmachen")
    await table.slash_message(p.ben, "mitmachen")
    await table.said(p.anna, "weiter")
    await table.said(p.anna, "stopp")
    await table.said(p.ben, "weiter")
    await table.said(p.ben, "stopp")
    await table.slash_message(p.moni, "durchgang", subcommand="schliessen")


async def test_V6_R7_export_is_a_file_for_admins_and_refused_for_others(table: Table) -> None:
    p = table.people
    async with table.running():
        await table.slash_message(p.moni, "turnier", {"name": "Frühjahr 2024"})
        await play_one_durchgang(table)
        _sent, answer = await table.slash(p.ada, "export", {"format": "csv"})
        assert answer.type == 4
        assert answer.ephemeral
        (upload,) = answer.files
        assert upload.filename == "frühjahr-2024.csv"
        rows = list(csv.reader(io.StringIO(upload.data.decode("utf-8"))))
        columns = [says(f"standings.column.{name}", game=None) for name in ("tournament", "rank", "player")]
        assert rows[0][:3] == columns
        assert rows[1][:3] == ["Frühjahr 2024", "1", "Anna"]
        assert rows[2][:3] == ["Frühjahr 2024", "2", "Ben"]
        assert answer.data is not None
        assert note(answer) == says("discord.export_ready", game=None, name="Frühjahr 2024", format="csv")

        # a server may show the command to everyone; the croupier still checks the right
        _, refused = await table.slash(p.anna, "export", {"format": "csv"}, check_permissions=False)
        assert refused.ephemeral
        assert not refused.files
        assert refused.data is not None
        assert note(refused) == refusal("error.not_admin", game=None)


async def test_V6_R7_standings_as_text_and_as_a_picture(table: Table) -> None:
    p = table.people
    async with table.running():
        _, empty = await table.slash(p.anna, "tabelle")
        assert embeds_of(empty)[0]["description"] == says("common.no_tournament", game=None)
        await play_one_durchgang(table)
        text = await table.slash_message(p.anna, "tabelle")
        lines = text.embeds[0]["description"].strip("`\n").splitlines()
        column = {name: says(f"standings.column.{name}", game=None) for name in ("rank", "player", "total")}
        assert lines[0].split() == [column["rank"], column["player"], "D1", column["total"]]
        assert lines[1].split() == ["1", "Anna", "4", "4"]
        assert lines[2].split() == ["2", "Ben", "2", "2"]
        picture = await table.slash_message(p.anna, "tabelle", {"bild": True})
        (attachment,) = picture.message["attachments"]
        assert attachment["filename"] == "tabelle.png"
        assert table.emu.attachment_data(attachment).startswith(b"\x89PNG\r\n\x1a\n")
        assert picture.embeds[0]["image"]["url"] == "attachment://tabelle.png"
