"""Pig, the smallest dice game worth a croupier: proof that a game is one package plus one entry point.

Players take turns; on your turn the croupier rolls as often as you say ``roll`` and adds the die to
your turn's pips, ``hold`` banks them; a 1 loses the turn's pips. The first to bank the target (30 by
default) wins. Nothing outside this package names the game: it is registered under the
``croupier.games`` entry point by the tests (see docs/adding-a-game.md).
"""

from tests.games.pig.game import GAME, Pig

__all__ = ["GAME", "Pig"]
