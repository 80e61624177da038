"""The player's announcements as typed commands; the forum words map onto these (see ``words.py``).

The lifecycle commands (Join, Leave, Start, Skip, Remove, Close, Timeout) are shared by every game and
live in :mod:`engine.game`; they are re-exported here so one import gives the whole vocabulary.
"""

from __future__ import annotations

import dataclasses

from engine.game import Close, Command, Join, Leave, Remove, Skip, Start, Timeout

__all__ = [
    "ChooseJokers",
    "Close",
    "Continue",
    "Decline",
    "Fight",
    "Join",
    "Keep",
    "Leave",
    "PlayJoker",
    "Remove",
    "Repeat",
    "Retreat",
    "Rob",
    "Skip",
    "Start",
    "Stop",
    "Timeout",
]


@dataclasses.dataclass(frozen=True)
class ChooseJokers(Command):
    """``Joker: A, B, C`` before the Freiwurf; empty means none. Names are matched leniently."""

    jokers: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class Continue(Command):
    """``weiter``: the Freiwurf, a normal throw, or the Rattenlord's second die."""


@dataclasses.dataclass(frozen=True)
class PlayJoker(Command):
    """``weiter mit Joker X``."""

    joker: str


@dataclasses.dataclass(frozen=True)
class Stop(Command):
    """``stopp``: keep the running total and become Prinzessin."""


@dataclasses.dataclass(frozen=True)
class Rob(Command):
    """``raube NAME`` names the victim of a robbery or a Beefmaker; ``target=None`` is ``raube nicht``."""

    target: str | None


@dataclasses.dataclass(frozen=True)
class Fight(Command):
    """``kämpfen`` against the Anaconda."""


@dataclasses.dataclass(frozen=True)
class Decline(Command):
    """``kneifen``: refuse the Anaconda's fight."""


@dataclasses.dataclass(frozen=True)
class Retreat(Command):
    """``zurücktreten`` from the Rattenlord after a failed first die."""


@dataclasses.dataclass(frozen=True)
class Keep(Command):
    """``behalten``: keep the Monokel's pair."""


@dataclasses.dataclass(frozen=True)
class Repeat(Command):
    """``wiederholen``: roll the Monokel's pair again (and keep whatever comes)."""
