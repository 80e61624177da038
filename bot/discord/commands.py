"""How replies name the bot's slash commands (the console says /join, Discord /mitmachen)."""

from __future__ import annotations

from collections.abc import Mapping

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
