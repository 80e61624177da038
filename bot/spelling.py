"""How the console spells what the croupier says: plain text, its commands as typed (``/join``).

The service says everything in the neutral form of :mod:`bot.markup`; each front end has a speller
(Discord's is :class:`bot.discord.commands.DiscordSpelling`, with localised slash commands). This one
serves the console, the replay and the command line.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from bot import markup
from bot.games import GAMES
from bot.settings_words import usage
from bot.texts import CONSOLE_COMMANDS, placeholder


def unexplained(topics: Collection[str] | None) -> set[str]:
    """The names of the topics some game explains that a game explaining only the topics named
    ``topics`` does not (none for None)."""
    if topics is None:
        return set()
    return {topic.name for game in GAMES.values() for topic in game.topics if topic.name not in topics}


class ConsoleSpelling(markup.Speller):
    """Plain text; the console's commands, the same in every language."""

    def commands(self, lang: str) -> Mapping[str, str]:
        return CONSOLE_COMMANDS

    def command(self, key: str, lang: str) -> str:
        return CONSOLE_COMMANDS.get(key, f"/{key}")

    def help_listing(self, lang: str, topics: Collection[str] | None) -> str:
        return ", ".join(self.listing(lang, topics))

    def listing(self, lang: str, topics: Collection[str] | None = None) -> Sequence[str]:
        """Every command as the help lists it. The console has no command of its own for a topic:
        ``/info`` lists and shows them all, so ``topics`` leaves nothing out."""
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


CONSOLE = ConsoleSpelling()
