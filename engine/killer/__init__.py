"""Killer: the 5-dice game with its variants and modes (``KILLER``) and the older 6-dice revision
(``KILLER_CLASSIC``), both pure :class:`engine.game.Game` implementations over one turn machine and
two variant objects (:class:`Variant`, :class:`Classic`); exact odds in :mod:`engine.killer.odds`."""

from engine.killer.classic import Classic
from engine.killer.commands import Advice, Attack, Auto, Direction, Keep, KeepAll, Pass
from engine.killer.game import KILLER, KILLER_CLASSIC, Killer, KillerClassic
from engine.killer.rules import Rules
from engine.killer.state import KillerState, Player, Turn
from engine.killer.variant import Variant

__all__ = [
    "KILLER",
    "KILLER_CLASSIC",
    "Advice",
    "Attack",
    "Auto",
    "Classic",
    "Direction",
    "Keep",
    "KeepAll",
    "Killer",
    "KillerClassic",
    "KillerState",
    "Pass",
    "Player",
    "Rules",
    "Turn",
    "Variant",
]
