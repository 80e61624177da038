"""Scripted dice for tests that play through the croupier service.

The service asks its dice factory for a fresh source at every move, handing it the game's record; a
script must therefore resume at ``record.dice_used`` (as ``croupier replay`` does), or a reloaded game,
a restarted bot or a second process would roll the script's first faces again. This module is the one
place that knows how: engine unit tests that call the engine directly use
:class:`engine.dice.ScriptedDice` themselves.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from bot.service.croupier import DiceFactory
from bot.store import GameRecord
from engine.dice import DiceSource, ScriptedDice


def resumed(faces: Sequence[int], record: GameRecord) -> DiceSource:
    """The script's dice for the game of ``record``: its next die is the first one it has not used."""
    dice = ScriptedDice(faces)
    dice.position = record.dice_used
    return dice


def scripted(faces: Iterable[int]) -> DiceFactory:
    """A croupier's ``dice_factory`` that rolls ``faces`` in order across the moves of a game."""
    script = tuple(faces)
    return lambda record: resumed(script, record)


@dataclass
class Dice:
    """A script that grows as a test goes on: append the faces before the throws that need them."""

    faces: list[int] = field(default_factory=list)

    def factory(self, record: GameRecord) -> DiceSource:
        """The croupier's ``dice_factory``: reads the faces known at the time of the move."""
        return resumed(self.faces, record)

    def will_roll(self, *faces: int) -> None:
        self.faces.extend(faces)
