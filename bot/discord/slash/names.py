"""Command, option and choice names: an ascii German base name that every keyboard can type, with
the proper spelling (``eröffnen``, ``schließen``) and the English and French names as localisations
read from the ``discord.*`` catalogue entries (see :mod:`bot.discord.translator`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from discord import app_commands
from discord.app_commands import locale_str

from bot import texts
from bot.games import GAMES, scope_of

# Discord's name of each option parameter (the Python parameter name is the key).
PARAMETERS = {
    "spiel": "spiel",
    "optionen": "optionen",
    "spieler": "spieler",
    "jokers": "joker",
    "bild": "bild",
    "format": "format",
    "spiel_id": "spiel-id",
    "sprache": "sprache",
    "moderatorrolle": "moderationsrolle",
    "zugzeit": "zugzeit",
    "name": "name",
    "wertung": "wertung",
    "grund": "grund",
    "punkte": "punkte",
    "worte": "worte",
    "web": "web",
    "liste": "liste",
    "threads": "threads",
    "thema": "thema",
}

# Every slash command a user can type, by its base words — for /hilfe, the docs and command mentions.
COMMANDS: Sequence[str] = (
    "durchgang oeffnen",
    "durchgang starten",
    "durchgang ueberspringen",
    "durchgang entfernen",
    "durchgang schliessen",
    "mitmachen",
    "aussteigen",
    "zug",
    "joker waehlen",
    "tabelle",
    "export",
    "regeln",
    "info",
    "pruefen",
    "einstellungen",
    "turnier",
    "turniere",
    "korrektur rueckgaengig",
    "korrektur punkte",
    "korrektur disqualifizieren",
    "korrektur zulassen",
    "korrektur liste",
    "hilfe",
)


def _english(key: str) -> str:
    return texts.catalogue("en")[key]


def command(path: str) -> dict[str, Any]:
    """``name`` and ``description`` of a command or group at ``path`` (``durchgang.oeffnen``)."""
    base = path.rsplit(".", 1)[-1]
    key = f"discord.cmd.{path}"
    return {
        "name": locale_str(base, key=f"{key}.name"),
        "description": locale_str(_english(f"{key}.description"), key=f"{key}.description"),
    }


def group(path: str) -> dict[str, Any]:
    """What a command group at ``path`` is made with: its names, and usable in servers only — said
    the way Discord asks now (``contexts``: guild) as well as the deprecated way (``dm_permission``),
    which discord.py sends for ``guild_only``."""
    return {
        **command(path),
        "guild_only": True,
        "allowed_contexts": app_commands.AppCommandContext(guild=True),
    }


def renamed(*parameters: str) -> dict[str, locale_str]:
    return {p: locale_str(PARAMETERS[p], key=f"discord.param.{p}.name") for p in parameters}


def described(*parameters: str) -> dict[str, locale_str]:
    return {
        p: locale_str(_english(f"discord.param.{p}.description"), key=f"discord.param.{p}.description")
        for p in parameters
    }


def choices(kind: str, values: Sequence[str]) -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(
            name=locale_str(_english(f"discord.choice.{kind}.{value}"), key=f"discord.choice.{kind}.{value}"),
            value=value,
        )
        for value in values
    ]


def language_choices() -> list[app_commands.Choice[str]]:
    """The registered languages, each under its own name, translated for each locale from CLDR."""
    return [
        app_commands.Choice(name=locale_str(language.name, language=code), value=code)
        for code, language in texts.LANGUAGES.items()
    ]


def game_choices() -> list[app_commands.Choice[str]]:
    """The registered games, each named by its own catalogue's title in the user's language."""
    return [
        app_commands.Choice(
            name=locale_str(
                texts.render("game.title", {}, "en", scope=scope_of(game)),
                key="game.title",
                scope=scope_of(game),
            ),
            value=kind,
        )
        for kind, game in GAMES.items()
    ]


def shown(words: str, lang: str) -> str:
    """A command as a user with this language types it (``/durchgang eröffnen``, ``/round open``)."""
    parts = words.split()
    names = [
        texts.catalogue(lang).get(f"discord.cmd.{'.'.join(parts[: i + 1])}.name", word)
        for i, word in enumerate(parts)
    ]
    return "/" + " ".join(names)
