"""How replies name the bot's slash commands (the console says /join, Discord /mitmachen).

Once the commands' ids are known (:mod:`bot.discord.command_ids`) a sentence names a command as a
clickable mention, ``</mitmachen:ID>``, which Discord shows in each reader's language; before that, or
where the ids cannot be told apart (several guilds), as the channel's language spells it
(``/durchgang eröffnen``, ``/round open``).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from types import MappingProxyType

from bot import markup
from bot.discord import escape
from bot.discord.command_ids import CommandIds
from bot.discord.slash.names import COMMANDS, shown
from bot.spelling import unexplained

# The service's command keys (``{cmd[join]}`` in the catalogues) and the base words of their commands.
SLASH_COMMANDS: Mapping[str, str] = {
    "adjust": "korrektur punkte",
    "close": "durchgang schliessen",
    "corrections": "korrektur liste",
    "disqualify": "korrektur disqualifizieren",
    "export": "export",
    "help": "hilfe",
    "info": "info",
    "join": "mitmachen",
    "leave": "aussteigen",
    "move": "zug",
    "open": "durchgang oeffnen",
    "reinstate": "korrektur zulassen",
    "remove": "durchgang entfernen",
    "rules": "regeln",
    "settings": "einstellungen",
    "skip": "durchgang ueberspringen",
    "standings": "tabelle",
    "start": "durchgang starten",
    "tournament": "turnier",
    "tournaments": "turniere",
    "undo": "korrektur rueckgaengig",
    "verify": "pruefen",
}


# The commands that belong to a game's topic: left out of the help while a game without it is open.
TOPIC_COMMANDS: Mapping[str, tuple[str, ...]] = {"jokers": ("joker waehlen",)}


class DiscordSpelling(markup.Speller):
    """How Discord spells what the croupier says (:mod:`bot.markup`): names and typed text escaped for
    Markdown and mentions, slash commands as mentions where their ids are known, else by name in the
    channel's language, code and strong text as Markdown. The catalogues' own text goes as written
    (the front end keeps it from pinging anyone, :func:`bot.discord.mentions.quiet`)."""

    def __init__(self, ids: CommandIds | None = None) -> None:
        self._ids = ids or CommandIds()
        self._cache: dict[tuple[str, int], Mapping[str, str]] = {}

    def named(self, words: str, lang: str) -> str:
        """One command (by its base words) as a sentence names it."""
        return self._ids.mention(words) or shown(words, lang)

    def commands(self, lang: str) -> Mapping[str, str]:
        key = (lang, self._ids.version)
        found = self._cache.get(key)
        if found is None:
            found = MappingProxyType({k: self.named(words, lang) for k, words in SLASH_COMMANDS.items()})
            self._cache = {key: found, **{k: v for k, v in self._cache.items() if k[1] == key[1]}}
        return found

    def listing(self, lang: str, topics: Collection[str] | None = None) -> Sequence[str]:
        hidden = {words for topic in unexplained(topics) for words in TOPIC_COMMANDS.get(topic, ())}
        return [self.named(words, lang) for words in COMMANDS if words not in hidden]

    def help_listing(self, lang: str, topics: Collection[str] | None) -> str:
        return ", ".join(self.listing(lang, topics))

    def command(self, key: str, lang: str) -> str:
        return self.commands(lang).get(key) or f"/{key}"

    def outside(self, text: str) -> str:
        """Outside text (a display name, a tournament's name, a typed word) inside a sentence: literal,
        never markdown, a link or a mention. Not for button labels, which Discord shows as typed."""
        return escape.name(text)

    def code(self, text: str) -> str:
        return f"`{escape.one_line(text).replace('`', 'ˋ')}`"

    def strong(self, text: str) -> str:
        return f"**{escape.plain(text)}**"
