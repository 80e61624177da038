"""Standings as files admins paste into the forum thread or a spreadsheet.

Every format renders the same :class:`StandingsTable`: rank, player, points per Durchgang, total, best
single result and number of Zombies — and under the table its notes: each moderator's points
adjustment (already counted in the total) and the disqualified players, with their reasons.

One rule for the words: CSV, Markdown and BBCode are read by people, so their column headings and
notes are in the channel's language (``standings.column.*`` in the shared catalogues); JSON is read by
programs, so its keys are English and never change with the language (``rounds`` holds the Durchgang
numbers). Every format names its tournament. Markdown and BBCode write a negative number with a
typographic minus ("−3"), as the croupier's sentences do; CSV keeps the ASCII "-3" a spreadsheet reads
as a number.

Names are whatever players call themselves, so no format lets one become markup: in CSV every cell is
quoted, and a name a spreadsheet would read as a formula gets a single quote before it (OWASP, "CSV
injection") — also a piece of a name that would start a cell of its own where the file is opened with
``;`` or a tab as separator (German Excel splits a ``.csv`` at ``;``); Markdown and BBCode escape what
would open a link, a tag or a new row.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable
from dataclasses import dataclass

from bot.texts import DEFAULT, number, render, signed


@dataclass(frozen=True)
class StandingsRow:
    rank: int
    player: str
    name: str
    points: tuple[int | None, ...]  # one per Durchgang, None where the player was not in it
    total: int
    best: int | None
    zombies: int
    adjustment: int = 0  # moderators' points adjustments, counted in ``total``


@dataclass(frozen=True)
class StandingsNote:
    """A line under the table: a moderator's points adjustment, or a disqualified player."""

    kind: str  # "adjust" | "disqualified"
    player: str
    name: str
    reason: str
    points: int = 0  # an adjustment's ± points


@dataclass(frozen=True)
class StandingsTable:
    tournament: str
    scoring: str
    durchgaenge: tuple[int, ...]  # Durchgang numbers, in order
    rows: tuple[StandingsRow, ...]
    notes: tuple[StandingsNote, ...] = ()  # adjustments (each its own line), then disqualifications
    language: str = DEFAULT  # of the notes' sentences

    @property
    def adjustments(self) -> tuple[StandingsNote, ...]:
        return tuple(note for note in self.notes if note.kind == "adjust")

    @property
    def disqualified(self) -> tuple[StandingsNote, ...]:
        return tuple(note for note in self.notes if note.kind == "disqualified")


def note_lines(table: StandingsTable, escape: Callable[[str], str] = str) -> list[tuple[str, list[str]]]:
    """The notes as sentences in the table's language: (heading, items) per kind of note that has any;
    ``escape`` is applied to the names and reasons (people's text) before they go into a sentence."""
    lang = table.language
    sections = []
    if table.adjustments:
        items = [
            render(
                "common.standings_adjustment",
                {"name": escape(note.name), "points": signed(note.points), "reason": escape(note.reason)},
                lang,
            )
            for note in table.adjustments
        ]
        sections.append((render("common.standings_adjustments", {}, lang), items))
    if table.disqualified:
        items = [
            render(
                "common.standings_disqualified_player",
                {"name": escape(note.name), "reason": escape(note.reason)},
                lang,
            )
            for note in table.disqualified
        ]
        sections.append((render("common.standings_disqualified", {}, lang), items))
    return sections


def column(name: str, lang: str, **facts: object) -> str:
    """A column's heading in the table's language (CSV, Markdown and BBCode are for people)."""
    return render(f"standings.column.{name}", facts, lang)


def _cells(row: StandingsRow) -> list[str]:
    """A row for people (Markdown, BBCode): "–" where a player did not play, "−3" for minus three."""
    return [
        str(row.rank),
        row.name,
        *("–" if p is None else number(p) for p in row.points),
        number(row.total),
        "–" if row.best is None else number(row.best),
        str(row.zombies),
    ]


def header(table: StandingsTable) -> list[str]:
    """The table's column headings in its language: rank, player, each round, total, best, Zombies."""
    lang = table.language
    rounds = [column("round", lang, number=n) for n in table.durchgaenge]
    return [column("rank", lang), column("player", lang), *rounds, *(column(c, lang) for c in _TAIL)]


_TAIL = ("total", "best", "zombies")


# A spreadsheet evaluates a cell starting with one of these (OWASP's list for CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
# Where a spreadsheet may start a cell inside a text: at its start and after a separator it may be told
# to use (a comma or semicolon; a tab is a blank by then), a formula character past blanks and double
# quotes begins a cell it evaluates. A single quote there already makes the cell text.
_CELL_FORMULA = re.compile(r'(^|[,;])([\s"]*)(?=[=+\-@])')


def _one_line(text: str) -> str:
    """Line breaks and other control characters as spaces (a name must not start a new row)."""
    return _CONTROL.sub(" ", text)


def csv_text(text: str) -> str:
    """A text cell no spreadsheet evaluates, whichever separator it splits the file at: one line, and a
    single quote before every formula character that starts the text or a piece of it after a comma or
    semicolon (also after blanks and double quotes, which some spreadsheets skip; tabs are blanks by
    then)."""
    flat = _one_line(text)
    if text.startswith(FORMULA_STARTS):  # a tab or carriage return first: a space now, quoted all the same
        flat = "'" + flat
    return _CELL_FORMULA.sub(lambda found: f"{found.group(1)}{found.group(2)}'", flat)


def to_csv(table: StandingsTable) -> str:
    # Every cell quoted: a name holding a separator stays one cell, whatever separator the reader uses.
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_ALL)
    lang = table.language
    tournament = csv_text(table.tournament)  # every row names its tournament: exports can be joined
    writer.writerow([column("tournament", lang), *header(table)])
    for row in table.rows:
        writer.writerow(
            [
                tournament,
                row.rank,
                csv_text(row.name),
                *("" if p is None else p for p in row.points),
                row.total,
                "" if row.best is None else row.best,
                row.zombies,
            ]
        )
    if not table.rows:  # still name the tournament: one row of it, nobody ranked yet
        writer.writerow([tournament, *([""] * len(header(table)))])
    if table.notes:  # a second block under an empty row: one row per adjustment or disqualification
        writer.writerow([])
        writer.writerow([column(name, lang) for name in ("note", "player", "points", "reason")])
        for note in table.notes:
            points = note.points if note.kind == "adjust" else ""
            kind = render(f"standings.note.{note.kind}", {}, lang)
            writer.writerow([kind, csv_text(note.name), points, csv_text(note.reason)])
    return out.getvalue()


def to_json(table: StandingsTable) -> str:
    data = {
        "tournament": table.tournament,
        "scoring": table.scoring,
        "rounds": list(table.durchgaenge),
        "rows": [
            {
                "rank": row.rank,
                "player": row.player,
                "name": row.name,
                "points": list(row.points),
                "total": row.total,
                "best": row.best,
                "zombies": row.zombies,
                "adjustment": row.adjustment,
            }
            for row in table.rows
        ],
        "adjustments": [
            {"player": note.player, "name": note.name, "points": note.points, "reason": note.reason}
            for note in table.adjustments
        ],
        "disqualified": [
            {"player": note.player, "name": note.name, "reason": note.reason} for note in table.disqualified
        ],
    }
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def _escape_markdown(text: str) -> str:
    return "".join("\\" + ch if ch in "\\`*_{}[]<>()#+-.!|~" else ch for ch in _one_line(text))


def to_markdown(table: StandingsTable) -> str:
    headings = header(table)
    lines = [f"**{_escape_markdown(table.tournament)}**", ""]
    lines.append("| " + " | ".join(headings) + " |")
    lines.append("|" + "|".join("---:" if i != 1 else "---" for i in range(len(headings))) + "|")
    for row in table.rows:
        cells = _cells(row)
        cells[1] = _escape_markdown(cells[1])
        lines.append("| " + " | ".join(cells) + " |")
    for heading, items in note_lines(table, _escape_markdown):
        lines += ["", heading, *(f"- {item}" for item in items)]
    return "\n".join(lines) + "\n"


def _escape_bbcode(text: str) -> str:
    # Square brackets would open tags; the forum shows full-width ones unchanged.
    return _one_line(text).replace("[", "［").replace("]", "］")


def to_bbcode(table: StandingsTable) -> str:
    lines = [f"[b]{_escape_bbcode(table.tournament)}[/b]", "[table]"]
    lines.append("[tr]" + "".join(f"[th]{cell}[/th]" for cell in header(table)) + "[/tr]")
    for row in table.rows:
        cells = _cells(row)
        cells[1] = _escape_bbcode(cells[1])
        lines.append("[tr]" + "".join(f"[td]{cell}[/td]" for cell in cells) + "[/tr]")
    lines.append("[/table]")
    for heading, items in note_lines(table, _escape_bbcode):
        lines += [f"[b]{heading}[/b]", "[list]", *(f"[*]{item}" for item in items), "[/list]"]
    return "\n".join(lines) + "\n"


FORMATS: dict[str, Callable[[StandingsTable], str]] = {
    "csv": to_csv,
    "json": to_json,
    "markdown": to_markdown,
    "bbcode": to_bbcode,
}
