"""What the registry knows about a joker: its names, how often it may be used, and its effect."""

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
    enabled_by_default: bool = True

    @property
    def announced(self) -> bool:
        return self.kind != AUTO
