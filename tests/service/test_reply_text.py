"""A reply's text and logged form, built from remembered rows and read in one go, are what the reply
says field by field."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from typing import Any

from bot import replies
from bot.console.terminal import console_text
from bot.replies import Attachment, Card, Reply, Row
from bot.spelling import CONSOLE
from bot.texts import render

ANNA = Row("a1", "Anna", "playing", "spielt", 7, True, "🃏 Rattenlord")
BEN = Row("b2", "Ben ⟦x|y⟧", "jungfrau", "Jungfrau", -3, False)


def _text_field_by_field(reply: Reply) -> str:
    parts = list(reply.lines)
    if reply.table:
        parts.append(f"— {reply.title} —")
        for row in reply.table:
            details = f" · {row.details}" if row.details else ""
            facts = {"name": row.name, "role": row.role_label, "points": row.points, "details": details}
            parts.append(("▶ " if row.to_act else "  ") + render("common.table_row", facts, reply.language))
    return "\n".join(parts)


def test_the_text_is_the_rows_rendered_anew() -> None:
    for lang in ("de", "en", "fr"):
        for table in ((), (ANNA,), (ANNA, BEN), (BEN, dataclasses.replace(ANNA, points=8, to_act=False))):
            reply = Reply(ok=True, lines=("eins", "zwei"), title="Durchgang 1", table=table, language=lang)
            replies._row_text.cache_clear()
            fresh = reply.text
            assert fresh == _text_field_by_field(reply)
            assert reply.text == fresh  # now from remembered rows
    assert Reply(ok=True, lines=("a",), title="T", language="de").text == "a"


def test_the_console_text_is_the_spelled_replys_text() -> None:
    reply = Reply(
        ok=True,
        lines=("⟦name|a1|Anna⟧ sagt ⟦cmd|join⟧", "⟦code|x⟧"),
        title="Die verflixte 6! · ⟦text|T⟧",
        table=(ANNA, BEN),
        language="de",
    )
    assert console_text(reply) == reply.spelled(CONSOLE).text
    bare = dataclasses.replace(reply, table=())
    assert console_text(bare) == bare.spelled(CONSOLE).text


def test_the_logged_form_is_every_field_by_name() -> None:
    reply = Reply(
        ok=True,
        lines=("x",),
        title="t",
        table=(ANNA, BEN),
        cards=(Card("c", (("Anna", "e"),)),),
        language="fr",
        game_id=3,
        deadline=datetime(2026, 1, 2, tzinfo=UTC),
        attachment=Attachment("stem", "csv", "a,b"),
        error_code="e",
        private=True,
    )
    logged = reply.to_log()
    skipped = {"board", "duplicate", "standings", "live", "log_id"}
    expected: dict[str, Any] = {
        f.name: getattr(reply, f.name) for f in dataclasses.fields(Reply) if f.name not in skipped
    }
    expected["lines"] = ["x"]
    row_fields = [f.name for f in dataclasses.fields(Row)]
    expected["table"] = [{name: getattr(row, name) for name in row_fields} for row in (ANNA, BEN)]
    expected["cards"] = [{"title": "c", "entries": [["Anna", "e"]]}]
    expected["deadline"] = "2026-01-02T00:00:00+00:00"
    expected["attachment"] = {"stem": "stem", "format": "csv", "text": "a,b"}
    expected["form"] = 2
    assert logged == expected
    logged_last = ["lines", "title", "result", "table", "cards", "deadline", "attachment", "form"]
    assert list(logged) == [name for name in expected if name not in logged_last] + logged_last  # as dumped
    assert [list(row) for row in logged["table"]] == [row_fields, row_fields]
    assert Reply.from_log(logged) == dataclasses.replace(reply, duplicate=True)


def test_a_rows_logged_form_is_its_fields_alone() -> None:
    """Read from the row's own attributes when they are its fields alone, in order; else field by field."""
    row = Row("a1", "Anna", "playing", "spielt", 7, True)
    fresh = {f.name: getattr(row, f.name) for f in dataclasses.fields(Row)}
    assert replies._plain(row) == fresh
    assert list(replies._plain(row)) == list(fresh)
    assert replies._plain(row) is not replies._plain(row)  # each entry its own dict
    object.__setattr__(row, "_extra", 1)  # something beside the fields: not logged
    assert replies._plain(row) == fresh
    assert list(replies._plain(row)) == list(fresh)

    @dataclasses.dataclass(frozen=True, slots=True)
    class Slotted:
        a: int
        b: str

    assert replies._plain(Slotted(1, "x")) == {"a": 1, "b": "x"}
