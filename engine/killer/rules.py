"""The parameters of a Killer game (number of dice, optional modes) and how a 5-dice keep phase is
judged.

Parameters are plain values; what the two rule texts do differently lives in the variants
(:mod:`engine.killer.variant`, :mod:`engine.killer.classic`). :func:`judge` is shared by the engine and
by the exact odds, so the two can never disagree.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Literal

from engine.commands import fold
from engine.errors import InvalidCommand, OptionChecks

MIN_DICE = 3  # fewer is "impossible" in the text: the targets would overlap (K5-S1 variants)
MAX_DICE = 10  # the project's bound: keeps the exact odds cheap and the chat readable
DEFAULT_DICE = 5
MODES = ("terminator", "zombie", "mythic")
REGENERATION_MOST = 6  # a regeneration is one die (K5-O1)

Side = Literal["low", "high"]


@dataclasses.dataclass(frozen=True)
class Rules:
    """One game's parameters: the number of dice and which optional modes are on."""

    dice: int = DEFAULT_DICE
    terminator: bool = False
    zombie: bool = False
    mythic: bool = False

    @property
    def low(self) -> int:
        """Scores below this give an attack; exactly this gives a regeneration (K5-O1)."""
        return self.dice + 6

    @property
    def high(self) -> int:
        """Scores above this give an attack; exactly this gives a regeneration (K5-O1)."""
        return 6 * self.dice - 6

    @property
    def modes(self) -> tuple[str, ...]:
        return tuple(mode for mode in MODES if getattr(self, mode))

    @property
    def rescue(self) -> int:
        """The most PDV a dying player's deciding turn can win back (K5-D1): one regeneration die, and
        a mythic +1 on its first roll when that mode is on (K5-M1). Below minus this, only the suicide
        attack is left."""
        return REGENERATION_MOST + (1 if self.mythic else 0)


Rescue = Literal["regeneration", "mythic", "none"]


def rescue(rules: Rules, hp: int) -> Rescue:
    """What can still save a player at ``hp`` below 0 on their deciding turn (K5-D1, K5-M1): a
    regeneration, only a mythic +1 followed by the best regeneration, or nothing."""
    if hp >= -REGENERATION_MOST:
        return "regeneration"
    return "mythic" if hp >= -rules.rescue else "none"


@dataclasses.dataclass(frozen=True)
class Verdict:
    """The result of a keep phase while trying to obtain an attack (K5-O1, zombies K5-Z1)."""

    kind: Literal["attack", "regeneration", "loss"]
    value: int = 0  # attack value, or PDV lost
    side: Side | None = None  # which target the score went past (attacks and wrong-way zombies)


def judge(rules: Rules, score: int, direction: Side | None = None) -> Verdict:
    """Attack, regeneration or loss for ``score``; a zombie's ``direction`` voids the other side.

    Reading (docs/rules-killer.md K5-Z1): a zombie past the wrong target misses and loses 1 PDV.
    """
    if score < rules.low:
        side: Side = "low"
        value = rules.low - score
    elif score > rules.high:
        side = "high"
        value = score - rules.high
    elif score in (rules.low, rules.high):
        return Verdict("regeneration")
    else:
        return Verdict("loss", min(score - rules.low, rules.high - score))
    if direction is not None and direction != side:
        return Verdict("loss", 1, side)
    return Verdict("attack", value, side)


def dice_option(value: Any) -> int:
    if isinstance(value, bool):
        raise InvalidCommand("killer_bad_dice", value=str(value), minimum=MIN_DICE, maximum=MAX_DICE)
    if isinstance(value, int):
        dice = value
    elif isinstance(value, str) and value.strip().isdigit():
        dice = int(value.strip())
    else:
        raise InvalidCommand("killer_bad_dice", value=str(value), minimum=MIN_DICE, maximum=MAX_DICE)
    if dice < MIN_DICE:
        raise InvalidCommand("killer_too_few_dice", dice=dice, minimum=MIN_DICE, maximum=MAX_DICE)
    if dice > MAX_DICE:
        raise InvalidCommand("killer_too_many_dice", dice=dice, minimum=MIN_DICE, maximum=MAX_DICE)
    return dice


def modes_option(value: Any) -> set[str]:
    if isinstance(value, str):
        words = [w for w in value.replace(",", " ").split() if w]
    elif isinstance(value, list | tuple):
        words = [str(w) for w in value]
    else:
        raise InvalidCommand("killer_unknown_mode", mode=str(value), valid=list(MODES))
    aliases = {"terminator": "terminator", "zombie": "zombie", "zombies": "zombie", "mythic": "mythic"}
    aliases |= {"mythique": "mythic", "mythiques": "mythic", "jets mythiques": "mythic"}
    chosen: set[str] = set()
    for word in words:
        mode = aliases.get(fold(word))
        if mode is None:
            raise InvalidCommand("killer_unknown_mode", mode=word, valid=list(MODES))
        chosen.add(mode)
    return chosen


def check_option_names(options: Mapping[str, Any], checks: OptionChecks) -> None:
    """Anything but ``dice`` and ``modes`` is refused with a clear code."""
    for key in options:
        if key not in ("dice", "modes"):
            checks.refuse(InvalidCommand("killer_unknown_option", option=str(key), known=["dice", "modes"]))


def rules_from_options(options: Mapping[str, Any]) -> Rules:
    """The 5-dice game's options, validated (each variant's ``rules`` is the way in); every bad one
    is refused at once."""
    checks = OptionChecks()
    check_option_names(options, checks)
    dice = checks.value(lambda: dice_option(options.get("dice", DEFAULT_DICE)), DEFAULT_DICE)
    modes = checks.value(lambda: modes_option(options.get("modes", [])), set[str]())
    checks.done()
    return Rules(dice=dice, **dict.fromkeys(modes, True))
