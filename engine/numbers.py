"""Whole numbers as people type them: ASCII digits only, and never more than the field holds.

Every option, id and count a person types (console and chat commands, replay scripts, settings,
the options of an opening, the web's addresses) is read here. ``str.isdigit`` is true for "²" and
"٣", and ``int`` reads "٣" but refuses "²": a check by the one and a read by the other let a
superscript through to a crash. And an unbounded number fails later and worse — SQLite refuses an
integer beyond 64 bits, PostgreSQL's ``integer`` columns (every id here) one beyond 31 — so a typed
number is bounded before anything reads it.
"""

from __future__ import annotations

ID_MAX = 2**31 - 1  # a database id: PostgreSQL's ``integer``, the type of games.id and tournaments.id
COUNT_MAX = 10**9  # a count or an amount (dice, seconds, a cursor): far above any that makes sense
SNOWFLAKE_MAX = 2**63 - 1  # a Discord id


def whole_number(text: str, maximum: int) -> int | None:
    """``text`` as a whole number from 0 to ``maximum``: ASCII digits only (no sign, no blanks, no
    other script's digits), checked by length before ``int`` reads it; None for anything else."""
    if not 0 < len(text) <= len(str(maximum)) or not digits(text):
        return None
    value = int(text)
    return value if value <= maximum else None


def digits(text: str) -> bool:
    """Whether ``text`` is ASCII digits only (and not empty): what ``int`` reads the way it looks."""
    return text.isascii() and text.isdigit()
