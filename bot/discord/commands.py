"""How replies name the bot's slash commands (the console says /join, Discord /mitmachen)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.discord import escape
from bot.discord.slash.names import shown_commands

SLASH_COMMANDS: Mapping[str, str] = {
    "close": "/durchgang schliessen",
    "help": "/hilfe",
    "join": "/mitmachen",
    "jokers": "/joker-info",
    "open": "/durchgang oeffnen",
    "rules": "/regeln",
    "settings": "/einstellungen",
    "start": "/durchgang starten",
    "tournament": "/turnier",
    "verify": "/pruefen",
}


class DiscordSpelling:
    """Slash commands by their base names in sentences; the help lists them as the language names them."""

    def commands(self, lang: str) -> Mapping[str, str]:
        return SLASH_COMMANDS

    def listing(self, lang: str) -> Sequence[str]:
        return shown_commands(lang)

    def name(self, text: str) -> str:
        """Outside text (a display name, a tournament's name, a typed word) inside a sentence: literal,
        never markdown, a link or a mention. Not for button labels, which Discord shows as typed."""
        return escape.name(text)
