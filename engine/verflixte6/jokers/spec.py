"""What the registry knows about a joker: its names, how often it may be used, and its effect.

An announced joker acts through ``play`` (and ``answer`` for the decision it asks). An autojoker acts
through hooks the Spiel calls by itself, so the throw and the step never name a joker: the hooks of the
subject's chosen jokers run in registry order (the rule text's), whatever order they were chosen in.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.game import Command
    from engine.verflixte6.state import Pending
    from engine.verflixte6.step import Step

ONCE = "once"  # announced, one use per Spiel
MULTI = "multi"  # announced, several uses (Kälteschutz)
AUTO = "auto"  # never announced: active from the Freiwurf on if chosen


@dataclasses.dataclass(frozen=True)
class JokerSpec:
    name: str  # canonical name, as the croupier shows it
    aliases: tuple[str, ...]  # other spellings players use; matched after folding
    kind: str  # ONCE | MULTI | AUTO
    play: Callable[[Step], None] | None = None  # the announced step (None for autojokers)
    answer: Callable[[Step, Pending, Command], None] | None = None  # resolves the decision it asked
    # After a normal, undoubled throw of 1–5 has been added: True when the joker settled the face, so a
    # 1 robs nothing (V6-N4, V6-N5). Every chosen joker's hook runs; the robbery follows if none settled.
    after_throw: Callable[[Step, int], bool] | None = None
    # When a step after the Freiwurf ends with the Spiel running and nothing pending (V6-N3).
    on_finish: Callable[[Step], None] | None = None
    enabled_by_default: bool = True

    @property
    def announced(self) -> bool:
        return self.kind != AUTO
