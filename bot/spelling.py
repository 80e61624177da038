"""How a front end names the bot's commands: in sentences (``{cmd[join]}``) and in the help.

The console types ``/join``; Discord has localised slash commands (``/mitmachen``); the service renders
every sentence with the spelling of the front end that asked.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Protocol

from bot.games import GAMES
from bot.settings_words import usage
from bot.texts import CONSOLE_COMMANDS, placeholder


class Spelling(Protocol):
    def commands(self, lang: str) -> Mapping[str, str]:
        """Command key (``join``, ``open`` …) → how a user types it."""
        ...

    def listing(self, lang: str, topics: Collection[str] | None = None) -> Sequence[str]:
        """Every command as the help lists it. ``topics``: what the open game explains — the commands
        of a topic it has not are left out (Killer's help lists no /jokers); None lists them all."""
        ...

    def name(self, text: str) -> str:
        """Outside text (a display name, a tournament's name, a typed word) as a sentence shows it."""
        ...


def unexplained(topics: Collection[str] | None) -> set[str]:
    """The topics some game explains that a game explaining only ``topics`` does not (none for None)."""
    if topics is None:
        return set()
    return {topic for game in GAMES.values() for topic in game.topics if topic not in topics}


class ConsoleSpelling:
    """The console's commands, the same in every language."""

    def commands(self, lang: str) -> Mapping[str, str]:
        return CONSOLE_COMMANDS

    def name(self, text: str) -> str:
        return text

    def listing(self, lang: str, topics: Collection[str] | None = None) -> Sequence[str]:
        hidden = {CONSOLE_COMMANDS[topic] for topic in unexplained(topics) if topic in CONSOLE_COMMANDS}
        return tuple(entry for entry in self._listing(lang) if entry not in hidden)

    def _listing(self, lang: str) -> Sequence[str]:
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
