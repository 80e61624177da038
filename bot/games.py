"""The games the croupier can run, by the name moderators and scripts use."""

from __future__ import annotations

from typing import Any

from bot.store import ChannelState
from engine.errors import InvalidCommand
from engine.game import Game
from engine.killer import KILLER, KILLER_CLASSIC
from engine.verflixte6 import GAME as VERFLIXTE6

GAMES: dict[str, Game[Any]] = {game.name: game for game in (VERFLIXTE6, KILLER, KILLER_CLASSIC)}

# Lenient spellings a moderator may type after /open.
_ALIASES = {
    "verflixte6": "verflixte6",
    "verflixte": "verflixte6",
    "v6": "verflixte6",
    "dieverflixte6": "verflixte6",
    "killer": "killer",
    "killer5": "killer",
    "killerclassic": "killer-classic",
    "killer-classic": "killer-classic",
    "killer6": "killer-classic",
    "classic": "killer-classic",
}


def game_named(name: str) -> Game[Any]:
    """The game a moderator asked for; InvalidCommand (with the known names) otherwise."""
    key = "".join(ch for ch in name.casefold() if ch.isalnum() or ch == "-")
    canonical = _ALIASES.get(key) or _ALIASES.get(key.replace("-", ""))
    if canonical is None:
        raise InvalidCommand("unknown_game", name=name, games=sorted(GAMES))
    return GAMES[canonical]


def language_of(channel: ChannelState) -> str:
    """The language the croupier speaks in a channel: its setting, else its open game's, else German."""
    if channel.settings.language:
        return channel.settings.language
    return GAMES[channel.game.kind].language if channel.game is not None else "de"
