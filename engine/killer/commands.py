"""The players' commands in both Killer games (the lifecycle ones live in :mod:`engine.game`)."""

from __future__ import annotations

import dataclasses
from typing import ClassVar, Literal

from engine.game import Command


@dataclasses.dataclass(frozen=True)
class Keep(Command):
    """Set aside these values from the current roll (``garde 6 6 5``)."""

    values: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class KeepAll(Command):
    """Set aside the whole roll (``garde tout``)."""


@dataclasses.dataclass(frozen=True)
class Auto(Command):
    """Let the croupier keep: highest expected sum in setup, best odds while seeking an attack."""


@dataclasses.dataclass(frozen=True)
class Attack(Command):
    """Attack someone; without a target the attack turns on the attacker (K5-A1)."""

    target: str | None = None


@dataclasses.dataclass(frozen=True)
class Pass(Command):
    """End the turn after a hit instead of attacking again (older revision, K6-A1)."""


@dataclasses.dataclass(frozen=True)
class Direction(Command):
    """A zombie's announcement before its keep phase: above the high or below the low target."""

    side: Literal["low", "high"]


@dataclasses.dataclass(frozen=True)
class Advice(Command):
    """Ask for the exact odds of the current keep state; anyone, any time, changes nothing."""

    query: ClassVar[bool] = True
