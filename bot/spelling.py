"""How a front end names the bot's commands: in sentences (``{cmd[join]}``) and in the help.

The console types ``/join``; Discord has localised slash commands (``/mitmachen``); the service renders
every sentence with the spelling of the front end that asked.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from bot.games import GAMES
from bot.settings_words import usage
from bot.texts import CONSOLE_COMMANDS, placeholder


class Spelling(Protocol):
    def commands(self, lang: str) -> Mapping[str, str]:
        """Command key (``join``, ``open`` …) → how a user types it."""
        ...

    def listing(self, lang: str) -> Sequence[str]:
        """Every command as the help lists it."""
        ...

    def name(self, text: str) -> str:
        """Outside text (a display name, a tournament's name, a typed word) as a sentence shows it."""
        ...


class ConsoleSpelling:
    """The console's commands, the same in every language."""

    def commands(self, lang: str) -> Mapping[str, str]:
        return CONSOLE_COMMANDS

    def name(self, text: str) -> str:
        return text

    def listing(self, lang: str) -> Sequence[str]:
        name, reason, game_id = (placeholder(word, lang) for word in ("NAME", "REASON", "ID"))
        option = f"{placeholder('OPTION', lang)}={placeholder('VALUE', lang)}"
        return (
            f"/tournament {name}",
            "/tournaments",
            f"/open {'|'.join(GAMES)} [{option} …]",
            "/join",
            "/leave",
            "/start",
            f"/skip {name}",
            f"/remove {name}",
            "/close",
            "/standings",
            "/export csv|json|markdown|bbcode",
            f"/verify [{game_id}]",
            f"/settings {usage(lang)}",
            "/help",
            "/rules",
            "/jokers",
            f"/undo {reason}",
            f"/adjust {name} ±N {reason}",
            f"/disqualify {name} {reason}",
            f"/reinstate {name} {reason}",
            "/corrections",
        )
