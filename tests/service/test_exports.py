"""The exports' one rule for words (README, "Standings and exports"): CSV, Markdown and BBCode — read by
people — have their headings and notes in the table's language; JSON — read by programs — has English
keys that do not change with it. Markdown and BBCode write a negative number with a typographic minus,
CSV with the ASCII one a spreadsheet reads as a number. Every format names its tournament."""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import replace

import pytest

from bot.exports import (
    FORMATS,
    StandingsNote,
    StandingsRow,
    StandingsTable,
    column,
    to_bbcode,
    to_csv,
    to_json,
)
from bot.exports import to_markdown as markdown
from bot.texts import LANGUAGES, MINUS, number, render

ROWS = (
    StandingsRow(rank=1, player="u1", name="Anna", points=(12, None), total=12, best=12, zombies=0),
    StandingsRow(rank=2, player="u2", name="Ben", points=(-3, 2), total=-1, best=2, zombies=1),
)
NOTES = (StandingsNote("adjust", "u2", "Ben", "Regelverstoß", -2),)


def table(lang: str) -> StandingsTable:
    return StandingsTable("Sommer", "sum", (1, 2), ROWS, NOTES, language=lang)


def headings(lang: str) -> list[str]:
    rounds = [column("round", lang, number=n) for n in (1, 2)]
    tail = [column(name, lang) for name in ("total", "best", "zombies")]
    return [column("rank", lang), column("player", lang), *rounds, *tail]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_formats_for_people_have_their_headings_in_the_tables_language(lang: str) -> None:
    rows = list(csv.reader(io.StringIO(to_csv(table(lang)))))
    assert rows[0] == [column("tournament", lang), *headings(lang)]
    assert rows[4] == [column(name, lang) for name in ("note", "player", "points", "reason")]
    assert rows[5][0] == render("standings.note.adjust", {}, lang)
    assert "| " + " | ".join(headings(lang)) + " |" in markdown(table(lang)).splitlines()
    assert "[tr]" + "".join(f"[th]{h}[/th]" for h in headings(lang)) + "[/tr]" in to_bbcode(table(lang))
    assert render("common.standings_adjustments", {}, lang) in markdown(table(lang))


def test_the_json_keys_are_english_and_the_same_in_every_language() -> None:
    exported = {lang: json.loads(to_json(table(lang))) for lang in LANGUAGES}
    keys = {lang: sorted(data) for lang, data in exported.items()}
    assert keys["de"] == keys["en"] == keys["fr"]
    assert exported["de"] == exported["fr"]  # nothing in it depends on the language
    assert set(exported["en"]) == {"tournament", "scoring", "rounds", "rows", "adjustments", "disqualified"}
    assert exported["en"]["rounds"] == [1, 2]
    row_keys = {key for row in exported["en"]["rows"] for key in row}
    assert all(re.fullmatch(r"[a-z_]+", key) for key in set(exported["en"]) | row_keys)


def test_markdown_and_bbcode_write_negative_totals_with_a_typographic_minus() -> None:
    shown = {fmt: FORMATS[fmt](table("de")) for fmt in ("markdown", "bbcode")}
    ben_md = next(line for line in shown["markdown"].splitlines() if "Ben" in line and line.startswith("|"))
    assert ben_md.split(" | ")[2:5] == [number(-3), "2", number(-1)]
    assert f"[td]{number(-1)}[/td]" in shown["bbcode"]
    for text in shown.values():
        assert not re.search(r"(?<![\w-])-\d", text)  # no ASCII minus before a number
        assert MINUS in text
    ben_csv = next(row for row in csv.reader(io.StringIO(to_csv(table("de")))) if "Ben" in row)
    assert ben_csv[3:6] == ["-3", "2", "-1"]  # a spreadsheet reads these as numbers


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_every_format_names_its_tournament(fmt: str) -> None:
    assert "Sommer" in FORMATS[fmt](table("fr"))
    empty = replace(table("fr"), rows=(), notes=(), durchgaenge=())
    assert "Sommer" in FORMATS[fmt](empty)
