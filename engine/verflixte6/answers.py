"""The decisions a step can wait on, the answers each accepts, and the safe default of each (V6-S6, §6).

The valid answers are the forum words, so a refusal can tell the player exactly what to type.
"""

from __future__ import annotations

from engine.game import Command
from engine.verflixte6.commands import Continue, Decline, Fight, Keep, Repeat, Retreat, Rob

VICTIM = "victim"  # robbery, Beefmaker or Sekante victim
FIGHT = "fight"  # Oces Anaconda
RETREAT = "retreat"  # Rattenlord after a failed first die
KEEP = "keep"  # Leelas Monokel

VALID: dict[str, tuple[str, ...]] = {
    VICTIM: ("raube NAME", "raube nicht"),
    FIGHT: ("kämpfen", "kneifen"),
    RETREAT: ("weiter", "zurücktreten"),
    KEEP: ("behalten", "wiederholen"),
}

ACCEPTS: dict[str, tuple[type[Command], ...]] = {
    VICTIM: (Rob,),
    FIGHT: (Fight, Decline),
    RETREAT: (Continue, Retreat),
    KEEP: (Keep, Repeat),
}

# The answer given for a player who timed out or whose Durchgang is closed, with its word.
DEFAULTS: dict[str, tuple[Command, str]] = {
    VICTIM: (Rob(None), "raube nicht"),
    FIGHT: (Decline(), "kneifen"),
    RETREAT: (Retreat(), "zurücktreten"),
    KEEP: (Keep(), "behalten"),
}

ANSWERS: tuple[type[Command], ...] = (Rob, Fight, Decline, Retreat, Keep, Repeat)
