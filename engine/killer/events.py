"""What the croupier announces in a Killer game: facts only, every face rolled included.

Participant ids sit in fields the message catalogues turn into names (``player``, ``target``,
``attacker``, ``victim``, ``winner``, ``by``; lists in ``players``/``victims``).
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from engine.game import Event


@dataclasses.dataclass(frozen=True)
class KillerEvent(Event):
    namespace: ClassVar[str] = "killer"


# Sign-up and lifecycle


@dataclasses.dataclass(frozen=True)
class Joined(KillerEvent):
    player: str
    name: str


@dataclasses.dataclass(frozen=True)
class Left(KillerEvent):
    player: str


@dataclasses.dataclass(frozen=True)
class MovedToEnd(KillerEvent):
    """A moderator moved someone to the end of the sign-up list."""

    player: str


@dataclasses.dataclass(frozen=True)
class Started(KillerEvent):
    players: tuple[str, ...]
    dice: int
    low: int
    high: int
    modes: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class ClassicStarted(KillerEvent):
    players: tuple[str, ...]
    dice: int


@dataclasses.dataclass(frozen=True)
class Removed(KillerEvent):
    player: str
    hp: int


@dataclasses.dataclass(frozen=True)
class Closed(KillerEvent):
    """A moderator ended the game as it stands."""


@dataclasses.dataclass(frozen=True)
class TimedOut(KillerEvent):
    """The player let the turn time pass; ``step`` says what the croupier did for them."""

    player: str
    step: str


# Keep phases


@dataclasses.dataclass(frozen=True)
class TurnStarted(KillerEvent):
    player: str
    cycle: int
    hp: int
    status: str


@dataclasses.dataclass(frozen=True)
class Rolled(KillerEvent):
    """A roll of a keep phase; ``kept`` are the dice already set aside before it."""

    player: str
    faces: tuple[int, ...]
    kept: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class Kept(KillerEvent):
    player: str
    values: tuple[int, ...]
    kept: tuple[int, ...]
    total: int
    left: int  # dice still to roll


@dataclasses.dataclass(frozen=True)
class LastDieKept(KillerEvent):
    """The single die left was rolled and kept without asking (K5-R1)."""

    player: str
    face: int
    kept: tuple[int, ...]
    total: int


@dataclasses.dataclass(frozen=True)
class HitPointsSet(KillerEvent):
    player: str
    hp: int


@dataclasses.dataclass(frozen=True)
class TurnOrder(KillerEvent):
    """The older revision's order: by starting PDV, highest first (K6-S1)."""

    players: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class Mythic(KillerEvent):
    """A mythic first roll (K5-M1): ``delta`` is +1 or −1."""

    player: str
    faces: tuple[int, ...]
    delta: int
    hp: int


# Outcome of a keep phase


@dataclasses.dataclass(frozen=True)
class AttackObtained(KillerEvent):
    player: str
    score: int
    value: int
    side: str  # "low" or "high"
    suicide: bool


@dataclasses.dataclass(frozen=True)
class SuicideAttack(KillerEvent):
    """A dying player obtained an attack: carried out, then the player is dead (K5-D1)."""

    player: str
    value: int


@dataclasses.dataclass(frozen=True)
class RegenerationEarned(KillerEvent):
    player: str
    score: int


@dataclasses.dataclass(frozen=True)
class Regenerated(KillerEvent):
    player: str
    face: int
    hp: int


@dataclasses.dataclass(frozen=True)
class Missed(KillerEvent):
    player: str
    score: int
    loss: int
    hp: int


@dataclasses.dataclass(frozen=True)
class WrongSide(KillerEvent):
    """A zombie went past the target it did not announce: a miss of 1 PDV (K5-Z1 reading)."""

    player: str
    score: int
    direction: str
    hp: int


@dataclasses.dataclass(frozen=True)
class StrengthSet(KillerEvent):
    """The older revision's attack strength: sum − 30 (K6-F1)."""

    player: str
    score: int
    strength: int


@dataclasses.dataclass(frozen=True)
class StrengthLost(KillerEvent):
    """A negative strength costs its size in PDV (K6-F1)."""

    player: str
    loss: int
    hp: int


@dataclasses.dataclass(frozen=True)
class StrengthZero(KillerEvent):
    player: str


# Attacks


@dataclasses.dataclass(frozen=True)
class AttackTurned(KillerEvent):
    """No target was named: the attack turns on the attacker (K5-A1)."""

    player: str
    value: int


@dataclasses.dataclass(frozen=True)
class AttackDeclared(KillerEvent):
    attacker: str
    target: str
    value: int


@dataclasses.dataclass(frozen=True)
class AttackRolled(KillerEvent):
    """One roll of an attack: ``matched`` dice show the value, ``hits`` so far in total."""

    attacker: str
    target: str
    value: int
    faces: tuple[int, ...]
    matched: int
    hits: int
    again: bool  # every die is set aside: all of them are rolled again (K5-A1)


@dataclasses.dataclass(frozen=True)
class RollAllAgain(KillerEvent):
    """Every die of the attack shows the value: all of them are rolled again (K5-A1)."""

    attacker: str
    value: int
    hits: int


@dataclasses.dataclass(frozen=True)
class Damaged(KillerEvent):
    attacker: str
    victim: str
    value: int
    hits: int
    damage: int
    hp: int


@dataclasses.dataclass(frozen=True)
class Unharmed(KillerEvent):
    """No die of the attack showed its value: the target loses nothing (K5-A1, 0 × value)."""

    attacker: str
    victim: str
    value: int
    hp: int


@dataclasses.dataclass(frozen=True)
class Immune(KillerEvent):
    """A Terminator is immune to this value: the attack does no damage (K5-T1)."""

    attacker: str
    victim: str
    value: int
    level: int


@dataclasses.dataclass(frozen=True)
class Sweep(KillerEvent):
    """All six dice show the strength: every opponent still in the game is hit (K6-A1)."""

    attacker: str
    value: int
    damage: int
    victims: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class NoHit(KillerEvent):
    attacker: str
    target: str
    value: int


@dataclasses.dataclass(frozen=True)
class AttackForfeited(KillerEvent):
    """The turn time ran out with an attack pending: it is lost, never turned on the player."""

    player: str
    value: int


@dataclasses.dataclass(frozen=True)
class Passed(KillerEvent):
    player: str


# What the player to act is asked: the words to type now (after every move that leaves a decision)


@dataclasses.dataclass(frozen=True)
class RollOnTable(KillerEvent):
    """The roll waiting for a keep, said again where no move just rolled it (after an undo)."""

    player: str
    roll: tuple[int, ...]
    kept: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class KeepAsked(KillerEvent):
    """The roll on the table waits for a keep; ``example`` is a keep of this roll ("6 5")."""

    player: str
    example: str


@dataclasses.dataclass(frozen=True)
class DirectionAsked(KillerEvent):
    """A zombie announces its side before the keep phase (K5-Z1)."""

    player: str
    low: int
    high: int


@dataclasses.dataclass(frozen=True)
class TargetAsked(KillerEvent):
    """An attack waits for a target (K5-A1): the opponents it may hit; ``attaque`` alone turns it on
    the attacker."""

    player: str
    value: int
    targets: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class ImmuneTargetsOnly(KillerEvent):
    """Every opponent still in the game is immune to this value (K5-T1): only ``attaque`` is left,
    and it turns on the attacker."""

    player: str
    value: int


@dataclasses.dataclass(frozen=True)
class LastStanding(KillerEvent):
    """Nobody else can be attacked: ``attaque`` turns on the player, and the game ends at the end of
    the round if they are still at 0 PDV or more (K5-A1, K5-E1)."""

    player: str
    value: int


@dataclasses.dataclass(frozen=True)
class LastStandingDying(KillerEvent):
    """A dying player alone with a suicide attack: ``attaque`` turns it on them, they die, and the
    game ends without a winner at the end of the round (K5-D1, K5-E1)."""

    player: str
    value: int


@dataclasses.dataclass(frozen=True)
class TargetOrPassAsked(KillerEvent):
    """The older revision after a positive strength: attack someone or pass (K6-F1, K6-A1)."""

    player: str
    value: int
    targets: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class AgainAsked(KillerEvent):
    """The older revision after a hit: attack again or pass (K6-A1)."""

    player: str
    value: int
    targets: tuple[str, ...]


# Life and death


@dataclasses.dataclass(frozen=True)
class Dying(KillerEvent):
    """Below 0, within a regeneration of 0: the next turn decides (K5-D1)."""

    player: str
    hp: int


@dataclasses.dataclass(frozen=True)
class DyingMythicRescue(KillerEvent):
    """Below 0 by one more than a regeneration can win back: only a mythic +1 on the next turn's first
    roll, then a regeneration of 6, can still save the player; else the suicide attack (K5-D1, K5-M1)."""

    player: str
    hp: int
    low: int
    high: int


@dataclasses.dataclass(frozen=True)
class DyingBeyondRescue(KillerEvent):
    """Below 0 by more than any regeneration can win back (at most ``most`` PDV): the next turn can only
    bring a suicide attack — a score below ``low`` or above ``high`` (K5-D1). Said when a player falls
    that low, and when a dying player is pushed there."""

    player: str
    hp: int
    most: int
    low: int
    high: int


@dataclasses.dataclass(frozen=True)
class Saved(KillerEvent):
    player: str
    hp: int


@dataclasses.dataclass(frozen=True)
class Died(KillerEvent):
    player: str
    hp: int


@dataclasses.dataclass(frozen=True)
class Eliminated(KillerEvent):
    """The older revision: below 0 PDV is out at once (K6-E1)."""

    player: str
    hp: int


@dataclasses.dataclass(frozen=True)
class TerminatorLevel(KillerEvent):
    player: str
    level: int


@dataclasses.dataclass(frozen=True)
class ZombieRolled(KillerEvent):
    player: str
    face: int
    risen: bool


@dataclasses.dataclass(frozen=True)
class RoseAsZombie(KillerEvent):
    player: str
    hp: int


@dataclasses.dataclass(frozen=True)
class StillDead(KillerEvent):
    """The zombie die showed less than 5: the player stays dead until their next turn (K5-Z1)."""

    player: str


@dataclasses.dataclass(frozen=True)
class AimedHigh(KillerEvent):
    """A zombie announced a score above ``bound`` (K5-Z1)."""

    player: str
    bound: int


@dataclasses.dataclass(frozen=True)
class AimedLow(KillerEvent):
    """A zombie announced a score below ``bound`` (K5-Z1)."""

    player: str
    bound: int


@dataclasses.dataclass(frozen=True)
class TurnedToDust(KillerEvent):
    player: str
    hp: int


# End


@dataclasses.dataclass(frozen=True)
class Won(KillerEvent):
    winner: str
    hp: int


@dataclasses.dataclass(frozen=True)
class NoWinner(KillerEvent):
    pass


# Advice (``conseil``): exact fractions as "p/q" strings, percentages as floats for the templates


@dataclasses.dataclass(frozen=True)
class AdviceAttack(KillerEvent):
    """Best keep for ``player``'s roll while seeking an attack, with the odds it leaves."""

    player: str
    by: str
    roll: tuple[int, ...]
    kept: tuple[int, ...]
    keep: tuple[int, ...]
    goal: str  # "attack", or a zombie's "low"/"high"
    p_attack: str
    attack_pct: float
    p_regeneration: str
    regeneration_pct: float
    p_loss: str
    loss_pct: float
    expected_loss: float
    attack_by_value: tuple[str, ...]  # P(attack of value 1 … 6)


@dataclasses.dataclass(frozen=True)
class AdviceSum(KillerEvent):
    """Best keep for a roll whose kept sum is all that counts (setup, older revision's strength)."""

    player: str
    by: str
    roll: tuple[int, ...]
    kept: tuple[int, ...]
    keep: tuple[int, ...]
    expected_sum: str
    expected_sum_value: float


@dataclasses.dataclass(frozen=True)
class PhaseOdds(KillerEvent):
    """No roll to advise on: the odds of a whole keep phase under best play."""

    by: str
    dice: int
    p_attack: str
    attack_pct: float
    p_regeneration: str
    regeneration_pct: float
    p_loss: str
    loss_pct: float
    expected_loss: float
