"""The store's JSON documents (bot/store/json_text.py): orjson's speed, the standard library's reach."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from bot.store import json_text


@pytest.mark.parametrize(
    "value",
    [
        {"name": "Jules Törtchen", "points": -7, "dice": [1, 6, 6], "spiel": None, "fumo": False},
        ["🎲 6! Die verflixte 6 – ben fällt auf 0", {"nested": {"deep": [1.5, 2]}}],
        {"big": 2**70},  # past 64 bits: the standard library writes it
        {1: "a", 2: "b"},  # keys that are not strings: the standard library makes them strings
        {"name": "\ud83c lone"},  # a lone surrogate (a broken emoji in a name): escaped as before
    ],
)
def test_what_the_standard_library_could_store_reads_back_the_same(value: object) -> None:
    text = json_text.dumps(value)
    assert json_text.loads(text) == json.loads(json.dumps(value))


def test_text_is_compact_utf8() -> None:
    assert json_text.dumps({"a": [1, 2], "name": "ß"}) == '{"a":[1,2],"name":"ß"}'


def test_what_the_standard_library_refuses_is_still_refused() -> None:
    with pytest.raises(TypeError):
        json_text.dumps({"at": datetime(2026, 1, 1, tzinfo=UTC)})


def test_text_the_standard_library_wrote_reads_back() -> None:
    assert json_text.loads(json.dumps({"x": "é", "y": [1]})) == {"x": "é", "y": [1]}
    nan = json_text.loads('{"p": NaN}')["p"]  # not JSON, but what json.dumps wrote for a NaN
    assert nan != nan


def test_subclasses_of_plain_types_are_written_as_their_base_type() -> None:
    class Sentence(str):  # as bot.markup's sentences are: a logged reply's lines
        pass

    value = {"lines": [Sentence("🎲 6 für anna")], "title": Sentence("Durchgang 3")}
    text = json_text.dumps(value)
    assert text == '{"lines":["🎲 6 für anna"],"title":"Durchgang 3"}'  # compact: orjson's, not json's
    assert json_text.loads(text) == json.loads(json.dumps(value))
