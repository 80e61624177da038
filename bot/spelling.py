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
from engine.game import Topic


class Spelling(Protocol):
    def commands(self, lang: str) -> Mapping[str, str]:
        """Command key (``join``, ``open`` …) → how a user types it."""
        ...

    def listing(self, lang: str, topics: Collection[Topic] | None = None) -> Sequence[str]:
        """Every command as the help lists it. ``topics``: what the open game explains — a front end's
        commands that belong to a topic it has not are left out (Discord's ``/joker wählen`` in a
        Killer game); None lists them all."""
        ...

    def name(self, text: str) -> str:
        """Outside text (a display name, a tournament's name, a typed word) as a sentence shows it."""
        ...


def unexplained(topics: Collection[Topic] | None) -> set[str]:
    """The names of the topics some game explains that a game explaining only ``topics`` does not
    (none for None)."""
    if topics is None:
        return set()
    known = {topic.name for topic in topics}
    return {topic.name for game in GAMES.values() for topic in game.topics if topic.name not in known}


class ConsoleSpelling:
    """The console's commands, the same in every language."""

    def commands(self, lang: str) -> Mapping[str, str]:
        return CONSOLE_COMMANDS

    def name(self, text: str) -> str:
        return text

    def listing(self, lang: str, topics: Collection[Topic] | None = None) -> Sequence[str]:
        """The console has no command of its own for a topic: ``/info`` lists and shows them all."""
        name, reason, game_id, topic = (placeholder(word, lang) for word in ("NAME", "REASON", "ID", "TOPIC"))
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
            f"/info [{topic}]",
            f"/undo {reason}",
            f"/adjust {name} ±N {reason}",
            f"/disqualify {name} {reason}",
            f"/reinstate {name} {reason}",
            "/corrections",
        )
