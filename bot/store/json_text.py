"""JSON as the store writes and reads its documents (snapshots, options, events, logged replies).

orjson turns a snapshot or a reply into text several times faster than the standard library, which
is a visible share of a command. Whatever it refuses — a lone surrogate in a name, keys that are not
strings, an integer past 64 bits — goes to the standard library, and datetimes and dataclasses are
refused as before, so the documents the store is given are stored as they were; only the text is
more compact (no spaces, UTF-8 instead of ``\\u`` escapes). Differences at the edges: orjson writes
NaN and infinities as ``null`` (the standard library's ``NaN`` is not JSON, and PostgreSQL refuses
it), and it writes enums and UUIDs, which the standard library refuses.

Subclasses of ``str``, ``int``, ``dict`` and ``list`` are written by orjson as their base type, as the
standard library writes them: a logged reply's sentences are ``str`` subclasses (``bot.markup``), and
sending each reply to the standard library for that cost a tenth of a move's save.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

_PASS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


def dumps(value: Any) -> str:
    try:
        return orjson.dumps(value, option=_PASS).decode()
    except TypeError:
        return json.dumps(value)


def dumps_utf8(value: Any) -> bytes:
    """:func:`dumps` as UTF-8 bytes, as orjson writes them (no ``str`` made of them in between)."""
    try:
        return orjson.dumps(value, option=_PASS)
    except TypeError:
        return json.dumps(value).encode()


def loads(text: str | bytes) -> Any:
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:  # what the standard library wrote (NaN) before this module
        return json.loads(text)
