"""Optimal keep-phase play as ready-made tables, so that ``conseil`` and ``auto`` answer at once.

A :class:`~engine.killer.odds.Solver` for ten dice takes a second or more to build, and more to work
out the odds of a position. Everything it answers is fixed by the number of dice and the goal, so
``scripts/build_killer_odds_tables.py`` works it all out once and the package ships the result; the
bot reads the file and hands its bytes here (the engine does no I/O: :func:`decode` takes bytes).

A table holds, for one number of dice and one goal, exactly what a solver would use:

* the rank of every position a keep can lead to (:attr:`Solver.ranks`): a keep is chosen by
  :func:`~engine.killer.odds.best_option`, the same function a solver uses, so the two choose alike;
* the final-score distribution under optimal play from every position with dice still to roll, as
  the solver's integers over 6**T(left), each in a fixed number of bytes.

It also records the objective of every final score it was built for
(:func:`~engine.killer.odds.objective`); a table whose objective differs from what the rules say now
(the rules changed, the file did not) is not used, and the solver works the answer out instead.

The file: :data:`MAGIC`, then zlib-compressed (its checksum guards the bytes) a 4-byte length, a JSON
header (format, and per table its dice, goal, objective and where its bytes are) and the tables.
"""

from __future__ import annotations

import json
import struct
import zlib
from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import cache
from typing import Any

from engine.killer.odds import (
    GOALS,
    Goal,
    Progress,
    Ranks,
    Solver,
    best_option,
    keep_for,
    objective,
    positions,
    triangle,
)

MAGIC = b"croupier killer odds tables\n"
FORMAT = 1
PLAY_GOALS: tuple[Goal, ...] = ("attack", "low", "high", "sum")  # what a game's keep phase is played for
RANK_BYTES = 2  # little-endian unsigned: a table has a few hundred ranks


@cache
def _width(left: int) -> int:
    """Bytes per probability with ``left`` dice to roll: each is an integer below 6**T(left)."""
    scale: int = 6 ** triangle(left)
    return (scale.bit_length() + 7) // 8


def _objectives(dice: int, goal: Goal) -> list[list[int]]:
    fields = objective(goal, dice)
    return [list(fields(score)) for score in range(6 * dice + 1)]


@cache
def _layout(dice: int) -> tuple[int, dict[tuple[int, int], int]]:
    """Where each position's distribution starts after the ranks, and the table's length in bytes."""
    offset = dice * (6 * dice + 1) * RANK_BYTES
    starts: dict[tuple[int, int], int] = {}
    for kept_sum, left in positions(dice):
        starts[kept_sum, left] = offset
        offset += (5 * left + 1) * _width(left)
    return offset, starts


def _encoded(solver: Solver, progress: Progress | None) -> bytes:
    dice = solver.dice
    solver.distributions(progress)
    parts = [rank.to_bytes(RANK_BYTES, "little") for row in solver.ranks for rank in row]
    for kept_sum, left in positions(dice):
        width = _width(left)
        support = solver.distribution(kept_sum, left)[kept_sum + left : kept_sum + 6 * left + 1]
        parts += [x.to_bytes(width, "big") for x in support]
    return b"".join(parts)


def encode(solvers: Iterable[Solver], progress: Progress | None = None) -> bytes:
    """The file holding every solver's table (each solver's distributions are worked out here)."""
    sections: list[dict[str, Any]] = []
    bodies: list[bytes] = []
    offset = 0
    for solver in solvers:
        body = _encoded(solver, progress)
        assert len(body) == _layout(solver.dice)[0]
        sections.append(
            {
                "dice": solver.dice,
                "goal": solver.goal,
                "offset": offset,
                "length": len(body),
                "objective": _objectives(solver.dice, solver.goal),
            }
        )
        bodies.append(body)
        offset += len(body)
    header = json.dumps({"format": FORMAT, "tables": sections}, separators=(",", ":")).encode()
    payload = len(header).to_bytes(4, "big") + header + b"".join(bodies)
    return MAGIC + zlib.compress(payload, 9)


class Table:
    """One number of dice and one goal, answered from the shipped bytes (a :class:`Strategy`)."""

    def __init__(self, dice: int, goal: Goal, data: memoryview) -> None:
        self.dice = dice
        self.goal = goal
        size = 6 * dice + 1
        ranks = struct.unpack(f"<{dice * size}H", data[: dice * size * RANK_BYTES])
        self._ranks: Ranks = [ranks[j * size : (j + 1) * size] for j in range(dice)]
        self._data = data
        self._starts = _layout(dice)[1]

    @property
    def ranks(self) -> Ranks:
        return self._ranks

    def best_keep(self, kept_sum: int, roll: Sequence[int]) -> tuple[int, ...]:
        ordered = tuple(sorted(roll))
        return keep_for(ordered, best_option(self._ranks, self.dice, kept_sum, ordered))

    def distribution(self, kept_sum: int, left: int) -> list[int]:
        """The same integers as :meth:`Solver.distribution` (decoded on each call: nothing is kept)."""
        result = [0] * (6 * self.dice + 1)
        if left == 0 and self.dice <= kept_sum <= 6 * self.dice:
            result[kept_sum] = 1
            return result
        start = self._starts.get((kept_sum, left))
        if start is None:
            raise ValueError(f"no position with {self.dice - left} dice kept summing to {kept_sum}")
        width = _width(left)
        for i in range(5 * left + 1):
            at = start + i * width
            result[kept_sum + left + i] = int.from_bytes(self._data[at : at + width], "big")
        return result

    def scores(self, kept_sum: int, left: int) -> tuple[Fraction, ...]:
        scale = 6 ** triangle(left)
        return tuple(Fraction(x, scale) for x in self.distribution(kept_sum, left))


class Tables:
    """The shipped file, decoded: a table per (dice, goal), opened on first use. Calling it is the
    source :meth:`Solvers.provide` takes."""

    def __init__(self, sections: dict[tuple[int, Goal], dict[str, Any]], body: memoryview) -> None:
        self._sections = sections
        self._body = body
        self._open: dict[tuple[int, Goal], Table] = {}

    def __call__(self, dice: int, goal: Goal) -> Table | None:
        """The table for ``dice`` and ``goal``; None when the file has none, or one built for other rules."""
        found = self._open.get((dice, goal))
        if found is None:
            section = self._sections.get((dice, goal))
            if section is None or section["objective"] != _objectives(dice, goal):
                return None
            data = self._body[section["offset"] : section["offset"] + section["length"]]
            found = self._open.setdefault((dice, goal), Table(dice, goal, data))
        return found

    @property
    def held(self) -> list[tuple[int, Goal]]:
        """Every (dice, goal) the file has a table for."""
        return sorted(self._sections, key=lambda key: (key[0], GOALS.index(key[1])))

    def stale(self) -> list[tuple[int, Goal]]:
        """The tables built for an objective other than the rules' now (they are never used)."""
        return [key for key in self.held if self._sections[key]["objective"] != _objectives(*key)]

    def holds(self, dice: int, goal: Goal) -> bool:
        """Whether the file has a table for ``dice`` and ``goal`` (usable or not)."""
        return (dice, goal) in self._sections


def unpacked(data: bytes) -> bytes:
    """A file's header and tables, uncompressed (two files hold the same tables when these are equal,
    whichever zlib compressed them)."""
    if not data.startswith(MAGIC):
        raise ValueError("not a file of Killer odds tables")
    try:
        return zlib.decompress(data[len(MAGIC) :])
    except zlib.error as error:
        raise ValueError(f"damaged odds tables: {error}") from None


def decode(data: bytes) -> Tables:
    """The tables in a file's bytes; ValueError when they are not such a file, or damaged."""
    payload = unpacked(data)
    size = int.from_bytes(payload[:4], "big")
    try:
        header = json.loads(payload[4 : 4 + size])
    except ValueError:
        raise ValueError("damaged odds tables: unreadable header") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ValueError(f"odds tables in another format ({header.get('format')!r}, expected {FORMAT})")
    body = memoryview(payload)[4 + size :]
    sections: dict[tuple[int, Goal], dict[str, Any]] = {}
    for section in header["tables"]:
        dice, goal = section["dice"], section["goal"]
        end = section["offset"] + section["length"]
        if goal not in GOALS or section["length"] != _layout(dice)[0] or end > len(body):
            raise ValueError(f"damaged odds tables: the table for {dice} dice, goal {goal!r}")
        sections[dice, goal] = section
    return Tables(sections, body)
