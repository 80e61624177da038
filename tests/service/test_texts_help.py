"""The /help listing names the /settings keys that /settings reads, from one place (bot/settings_words.py),
and the settings refusals list the keys a user types, not the stored field names. The help speaks the
channel's language, placeholders included (NAME, REASON, option=value …)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.discord.commands import DiscordSpelling
from bot.discord.slash.names import shown as slash_shown
from bot.games import GAMES, scope_of
from bot.service.croupier import Croupier
from bot.settings_words import KEYS, SETTINGS, described, parse_settings, usage
from bot.spelling import ConsoleSpelling
from bot.store import Store
from bot.store.repositories.tables import SETTING_FIELDS
from bot.texts import CONSOLE_COMMANDS, LANGUAGES, placeholder, render
from engine.errors import InvalidCommand
from engine.game import Close
from tests.service.helpers import MODERATOR, Table, seen

# A valid value per key, by the kind of value the help shows for it.
SAMPLES = {"ROLE": "Croupier", "SECONDS": "90"}
SQLITE_ONLY = pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True)


def sample(key: str) -> str:
    value = next(setting.value for setting in SETTINGS if setting.key == key)
    return SAMPLES.get(value) or value.split("|")[-1]  # "de|en|fr" → "fr", "on|off" → "off"


def settings_line(lang: str) -> str:
    [line] = [line for line in ConsoleSpelling().listing(lang) if line.startswith("/settings ")]
    return line


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_help_lists_every_setting_as_settings_reads_it(lang: str) -> None:
    assert settings_line(lang) == f"/settings {usage(lang)}"
    listed = dict(re.findall(r"(\w+)=(\S+)", settings_line(lang)))
    assert list(listed) == list(KEYS)
    assert listed["language"] == "|".join(LANGUAGES)
    assert listed["web"] == "on|off"  # /settings web=on|off, listed like the others
    fields = set()
    for key in listed:
        fields |= set(parse_settings({key: sample(key)}))  # every listed key is accepted …
    assert fields == set(SETTING_FIELDS) | {"web", "listed"}  # … and together they reach every setting


@pytest.mark.parametrize(
    ("options", "code"), [({}, "settings_missing"), ({"colour": "red"}, "unknown_setting")]
)
def test_settings_refusals_name_the_keys_a_user_types(options: dict[str, str], code: str) -> None:
    with pytest.raises(InvalidCommand) as caught:
        parse_settings(options)
    assert caught.value.code == code
    assert caught.value.facts["valid"] == list(KEYS)
    assert "web" in caught.value.facts["valid"]
    for key in caught.value.facts["valid"]:
        parse_settings({key: sample(key)})


def test_a_changed_setting_is_said_with_the_key_typed() -> None:
    fields = parse_settings({"timeout": "90", "moderator": "Croupier"})
    assert described(fields) == "timeout=90, moderator=Croupier"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_help_placeholders_speak_the_language(lang: str) -> None:
    listing = " ".join(ConsoleSpelling().listing(lang))
    for word in ("NAME", "REASON", "ID", "ROLE", "SECONDS"):
        assert placeholder(word, lang) in listing
    option = f"[{placeholder('OPTION', lang)}={placeholder('VALUE', lang)} …]"
    assert option in listing
    if lang != "en":  # the English words appear in no other language's help
        assert not re.search(r"\b(REASON|ROLE|SECONDS|value)\b", listing)


@SQLITE_ONLY
@pytest.mark.parametrize("lang", LANGUAGES)
async def test_help_lists_the_commands_and_the_open_games_words(store: Store, lang: str) -> None:
    """``/help`` in a channel with an open game: the commands, then that game's words."""
    table = Table(Croupier(store=store))
    assert (await table.croupier.change_settings(table.msg(MODERATOR), {"language": lang})).ok
    for kind in ("verflixte6", "killer"):
        assert (await table.open(kind)).ok
        reply = seen(await table.croupier.help_reply(table.msg("anna")))
        listing = ", ".join(ConsoleSpelling().listing(lang, GAMES[kind].topics))
        words = render("help.words", {}, lang, scope=scope_of(GAMES[kind]))
        assert reply.lines == (render("common.help", {"commands": listing}, lang), words)
        assert (await table.do(MODERATOR, Close())).ok


def names(game: Any) -> list[str]:
    """The names of the topics ``game`` explains, as the help's listing span carries them."""
    return [topic.name for topic in game.topics]


@SQLITE_ONLY
@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_help_lists_one_info_command_in_every_game_and_the_joker_choice_only_with_jokers(
    store: Store, lang: str
) -> None:
    """The topics a game explains are all behind one ``/info`` (the same in every game's help, as the
    command lists them itself); Killer has no jokers, so on Discord its help leaves out ``/joker
    wählen``, which a Durchgang's help and the help between games list."""
    table = Table(Croupier(store=store))
    assert (await table.croupier.change_settings(table.msg(MODERATOR), {"language": lang})).ok
    everything = ConsoleSpelling().listing(lang)

    async def commands() -> list[str]:
        reply = seen(await table.croupier.help_reply(table.msg("anna")))
        joined = ", ".join(everything)
        prefix, suffix = render("common.help", {"commands": joined}, lang).split(joined)
        return reply.lines[0].removeprefix(prefix).removesuffix(suffix).split(", ")

    info = f"{CONSOLE_COMMANDS['info']} [{placeholder('TOPIC', lang)}]"
    assert info in await commands()
    for kind in ("killer", "killer-classic", "verflixte6"):
        assert (await table.open(kind)).ok
        assert await commands() == list(everything), kind
        assert (await table.do(MODERATOR, Close())).ok
    discord = DiscordSpelling()
    assert slash_shown("info", lang) in discord.listing(lang, names(GAMES["killer"]))
    assert slash_shown("joker waehlen", lang) in discord.listing(lang, names(GAMES["verflixte6"]))
    assert slash_shown("joker waehlen", lang) not in discord.listing(lang, names(GAMES["killer"]))
    assert len(discord.listing(lang, names(GAMES["killer"]))) == len(discord.listing(lang)) - 1
