"""The canonical state of a Killer game: immutable, plain data (its JSON form: :mod:`engine.killer.snapshot`).

A game is a sign-up list, a turn order and at most one :class:`Turn` in progress. A turn records
the step it is at; a step whose roll is due but not made yet (only possible when a scripted dice
source runs dry after the last replay line) is visible in the state, so nothing is ever half done.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Literal

from engine.killer.rules import Rules, Side

if TYPE_CHECKING:  # the variants play on states: they import this module, not the other way round
    from engine.killer.variant import Variant

Status = Literal["alive", "dying", "dead", "zombie"]
Step = Literal[
    "setup",  # a keep phase that sets the starting PDV (K5-S1, K6-S1)
    "direction",  # a zombie announces high or low (K5-Z1)
    "keep",  # a keep phase to obtain an attack (K5-O1) or an attack strength (K6-F1)
    "regenerate",  # the regeneration die is due
    "target",  # an attack was obtained: waiting for the target
    "attack",  # attack dice are due
    "again",  # older revision after a hit: attack again or pass (K6-A1)
    "revive",  # a dead player's zombie die is due (K5-Z1)
]


@dataclasses.dataclass(frozen=True)
class Player:
    """A participant: ``status`` and ``hp`` are what the table shows."""

    id: str
    name: str
    hp: int = 0
    status: Status = "alive"
    terminator: int = 0
    removed: bool = False  # taken out by a moderator: never plays again, not even as a zombie

    @property
    def in_game(self) -> bool:
        """Counts for the end of the game: alive or dying (zombies never count, K5-E1)."""
        return self.status in ("alive", "dying")

    @property
    def targetable(self) -> bool:
        return self.status != "dead"


@dataclasses.dataclass(frozen=True)
class Turn:
    """The step the player to act is at, with what that step needs."""

    player: str
    step: Step
    kept: tuple[int, ...] = ()  # dice set aside in this keep phase
    roll: tuple[int, ...] = ()  # the current roll; empty while a roll is due
    direction: Side | None = None  # a zombie's announced side
    deciding: bool = False  # the player began this turn dying: the turn decides (K5-D1)
    regenerated: bool = False  # this turn ended in a regeneration (what saves a dying player)
    value: int = 0  # attack value (K5) or strength (K6)
    target: str | None = None  # attack target; the attacker's own id when it turned on them
    hits: int = 0  # dice showing the value so far in this attack
    left: int = 0  # attack dice still to roll

    @property
    def due(self) -> bool:
        """A roll must be made before anyone can act."""
        if self.step in ("setup", "keep"):
            return not self.roll
        return self.step in ("regenerate", "revive") or (self.step == "attack" and self.left > 0)


@dataclasses.dataclass(frozen=True)
class KillerState:
    """A whole game; ``players`` in sign-up order, ``order`` the turn order once fixed."""

    variant: Variant  # which rule text: the 5-dice game or the older revision
    rules: Rules
    players: tuple[Player, ...] = ()
    started: bool = False
    order: tuple[str, ...] = ()
    turn: Turn | None = None
    cycle: int = 0  # 0 during setup, then 1, 2 … (K5-E1 ends games at the end of a cycle)
    over: bool = False
    winner: str | None = None

    def player(self, player_id: str) -> Player:
        for player in self.players:
            if player.id == player_id:
                return player
        raise KeyError(player_id)

    def has(self, player_id: str) -> bool:
        return any(player.id == player_id for player in self.players)

    def replace_player(self, player: Player) -> KillerState:
        players = tuple(player if p.id == player.id else p for p in self.players)
        return dataclasses.replace(self, players=players)

    @property
    def to_act(self) -> str | None:
        return None if self.over or self.turn is None else self.turn.player
