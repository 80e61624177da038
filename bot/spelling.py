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
    """The topics some game explains that a game explaining only ``topics`` does not (none for None)."""
    if topics is None:
        return set()
    return {topic for game in GAMES.values() for topic in game.topics if topic not in topics}


class ConsoleSpelling(markup.Speller):
    """Plain text; the console's commands, the same in every language."""

    def commands(self, lang: str) -> Mapping[str, str]:
        return CONSOLE_COMMANDS

    def command(self, key: str, lang: str) -> str:
        return CONSOLE_COMMANDS.get(key, f"/{key}")

    def help_listing(self, lang: str, topics: Collection[str] | None) -> str:
        return ", ".join(self.listing(lang, topics))

    def listing(self, lang: str, topics: Collection[str] | None = None) -> Sequence[str]:
        """Every command as the help lists it. ``topics``: what the open game explains — the commands
        of a topic it has not are left out (Killer's help lists no /jokers); None lists them all."""
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


CONSOLE = ConsoleSpelling()
