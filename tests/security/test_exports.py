"""Item 2 of the security issue: a display name cannot turn an export into something else.

CSV: a cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is a formula to
spreadsheets (``=HYPERLINK(...)`` opens a link, ``=cmd|...`` ran programs); such name cells get a
leading single quote (OWASP's advice), so the name is shown as typed and never evaluated. Numbers stay
numbers. Markdown and BBCode: a name cannot open a link, a tag, or a new table row.
"""

from __future__ import annotations

import csv
import io
import json

import pytest

from bot.exports import StandingsRow, StandingsTable, column, to_bbcode, to_csv, to_json, to_markdown

FORMULAS = [
    '=HYPERLINK("https://evil.example/login","Anna")',
    "+1+cmd|' /C calc'!A0",
    "-2+3",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "\t=1+1",
    "\r=1+1",
]
HARMLESS = ["Anna", "Ben-Hur", "Zoë = Zoe", "1st place", "'quoted"]


def table_of(*names: str, tournament: str = "Frühjahr 2024") -> StandingsTable:
    rows = tuple(
        StandingsRow(
            rank=index + 1,
            player=str(1000 + index),
            name=name,
            points=(-3, None),
            total=-3,
            best=-3,
            zombies=0,
        )
        for index, name in enumerate(names)
    )
    return StandingsTable(tournament=tournament, scoring="sum", durchgaenge=(1, 2), rows=rows)


def csv_rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


@pytest.mark.parametrize("name", FORMULAS, ids=["equals", "plus", "minus", "at", "tab", "cr"])
def test_csv_name_cells_that_a_spreadsheet_would_evaluate_start_with_a_quote(name: str) -> None:
    header, row = csv_rows(to_csv(table_of(name)))
    assert header[:3] == [column("tournament", "de"), column("rank", "de"), column("player", "de")]
    assert row[2] == "'" + name.replace("\t", " ").replace("\r", " ")  # shown as typed, never evaluated
    assert row[3:] == ["-3", "", "-3", "-3", "0"]  # numbers stay numbers, negative ones too


def test_a_line_break_in_a_name_cannot_add_a_csv_row() -> None:
    rows = csv_rows(to_csv(table_of("Anna\r\n2,=1+1,0,0,999,999,0", "Ben")))
    assert [row[2] for row in rows] == [column("player", "de"), "Anna  2,'=1+1,0,0,999,999,0", "Ben"]


def test_csv_keeps_harmless_names_as_they_are() -> None:
    rows = csv_rows(to_csv(table_of(*HARMLESS)))
    assert [row[2] for row in rows[1:]] == HARMLESS


def test_no_csv_cell_starts_with_a_formula_character() -> None:
    for row in csv_rows(to_csv(table_of(*FORMULAS, *HARMLESS))):
        for cell in row:
            if cell.lstrip("-").isdigit():
                continue  # a number
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell


# Names that are harmless under the file's own separator but hold a formula after a `;` or `,`: German
# Excel opens a `.csv` with `;` as separator, and a tab-separated reading exists too.
SPLIT_FORMULAS = [
    "x;=cmd|' /C calc'!A0",
    'x; "=HYPERLINK(""https://evil.example"")',
    "Anna,@SUM(1+1)",
    "a;b;+1+1;-2",
]


def _evaluated(cell: str) -> bool:
    """Whether a spreadsheet would read the cell as a formula (a number, negative too, is a number)."""
    shown = cell.strip(' "')
    return shown.startswith(("=", "+", "-", "@")) and not shown.lstrip("+-").isdigit()


@pytest.mark.parametrize("separator", [",", ";", "\t"], ids=["comma", "semicolon", "tab"])
def test_every_csv_cell_is_quoted_and_none_is_a_formula_under_any_separator(separator: str) -> None:
    text = to_csv(table_of(*SPLIT_FORMULAS, *FORMULAS, *HARMLESS, tournament="Cup;=1+1"))
    rows = csv_rows(text)
    again = io.StringIO()
    csv.writer(again, lineterminator="\n", quoting=csv.QUOTE_ALL).writerows(rows)
    assert text == again.getvalue()  # every cell quoted: a separator inside a name stays inside it
    read = list(csv.reader(io.StringIO(text), delimiter=separator))  # as a spreadsheet splits it …
    naive = [line.split(separator) for line in text.splitlines()]  # … and as a careless import does
    evaluated = [cell for row in read + naive for cell in row if _evaluated(cell)]
    assert evaluated == []
    shown = [row[2] for row in rows[1:]]
    assert shown[0] == "x;'=cmd|' /C calc'!A0"  # shown as typed, a quote before the formula's start


def test_json_keeps_names_exact() -> None:
    data = json.loads(to_json(table_of(*FORMULAS)))
    assert [row["name"] for row in data["rows"]] == FORMULAS


HOSTILE = [
    "[Anna](https://evil.example/login)",
    "[url=https://evil.example]Anna[/url]",
    "Anna | 99 | 99",
    "Anna\n| 1 | Fake | 999 |",
    "<script>alert(1)</script>",
    "**Anna** _x_ `y`",
]


def test_markdown_escapes_names_and_the_tournament() -> None:
    text = to_markdown(table_of(*HOSTILE, tournament="[Cup](https://evil.example)"))
    lines = text.splitlines()
    assert lines[0] == r"**\[Cup\]\(https://evil\.example\)**"
    rows = [line for line in lines if line.startswith("| ") and not line.startswith("| Rang")]
    assert len(rows) == len(HOSTILE)  # one row per player: a name cannot add a row
    assert "](" not in text.replace(r"\](", "")  # no link can form
    assert "<script>" not in text
    for line in rows:
        assert line.count(" | ") == 6  # rank, name, D1, D2, total, best, zombies: cells stay put
    assert r"\[Anna\]\(https://evil\.example/login\)" in text


def test_bbcode_escapes_names_and_the_tournament() -> None:
    text = to_bbcode(table_of(*HOSTILE, tournament="[url=https://evil.example]Cup[/url]"))
    assert "[url" not in text
    assert "[/url]" not in text
    rows = [line for line in text.splitlines() if line.startswith("[tr][td]")]
    assert len(rows) == len(HOSTILE)
    assert "［url=https://evil.example］Anna［/url］" in text


def test_no_export_passes_on_terminal_escapes() -> None:
    """`croupier export` prints to a terminal: a name must not carry an escape sequence into it."""
    table = table_of(
        "\x1b]8;;https://evil.example\x07Anna\x1b]8;;\x07", "\x1b[2J\x1b[HBen", tournament="\x1b[31mCup"
    )
    for render in (to_csv, to_markdown, to_bbcode, to_json):
        assert "\x1b" not in render(table), render.__name__
