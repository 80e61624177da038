"""Die verflixte 6! — the pure rules of one Durchgang: jokers, robbery, valve, lifecycle, standings.

``GAME`` is what the croupier service drives; the commands are the typed forms of the forum words.
"""

from engine.verflixte6.commands import (
    ChooseJokers,
    Close,
    Continue,
    Decline,
    Fight,
    Join,
    Keep,
    Leave,
    PlayJoker,
    Remove,
    Repeat,
    Retreat,
    Rob,
    Skip,
    Start,
    Stop,
    Timeout,
)
from engine.verflixte6.game import GAME, Verflixte6
from engine.verflixte6.state import Durchgang

__all__ = [
    "GAME",
    "ChooseJokers",
    "Close",
    "Continue",
    "Decline",
    "Durchgang",
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
    "Verflixte6",
]
