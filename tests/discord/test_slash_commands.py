"""Slash commands: synced at start with German, English and French names and descriptions that Discord
accepts, and the moderator right checked for whoever runs them."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest

from bot.discord.commands import DiscordSpelling
from bot.discord.slash.names import COMMANDS
from bot.discord.translator import valid_name
from bot.games import GAMES
from bot.settings_words import described
from bot.texts import LANGUAGES
from tests.discord.helpers import Table, embeds_of, note, refusal, says, slash_name, title
from tests.discord_emulator import UsageError
from tests.discord_emulator import permissions as perms

LOCALES = ("de", "en-US", "en-GB", "fr")


def name_in(lang: str, key: str) -> str:
    """A command, option or parameter name as the Discord catalogue of ``lang`` spells it."""
    return says(key, lang, None)


def listed_commands(help_text: str, lang: str) -> list[str]:
    """The commands a /hilfe answer lists after the catalogue's lead-in ("Befehle: …")."""
    lead_in = says("common.help", lang, None, commands="")
    assert help_text.startswith(lead_in), help_text
    return help_text.removeprefix(lead_in).split(", ")


def walk(command: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The command and every option, subcommand and group inside it."""
    yield command
    for option in command.get("options") or []:
        yield from walk(option)


@pytest.mark.parametrize(
    ("name", "valid"),
    [
        ("eröffnen", True),
        ("schließen", True),
        ("joker-info", True),
        ("spiel-id", True),
        ("règles", True),
        ("Eröffnen", False),
        ("joker info", False),
        ("x" * 33, False),
        ("", False),
        ("stopp!", False),
    ],
)
def test_command_names_follow_discords_rule(name: str, valid: bool) -> None:
    assert valid_name(name) is valid


async def test_commands_are_synced_with_german_and_english_localisations(table: Table) -> None:
    p = table.people
    async with table.running():
        synced = table.emu.synced_commands(p.guild)
    sync = await table.emu.wait_for_request(lambda r: r.method == "PUT")
    assert sync.route == "/applications/{app_id}/guilds/{guild_id}/commands"
    assert sync.status == 200
    sent = {command["name"]: command for command in sync.json}
    names = sorted(command["name"] for command in synced)
    assert names == [
        "aussteigen", "durchgang", "einstellungen", "export", "hilfe", "info", "joker",
        "korrektur", "mitmachen", "pruefen", "regeln", "tabelle", "turnier", "turniere", "zug",
    ]  # fmt: skip
    for command in synced:
        assert sent[command["name"]]["dm_permission"] is False, command["name"]  # guild channels only
        for part in walk(command):
            if part is command or part["type"] in (1, 2) or "name_localizations" in part:
                localized = part.get("name_localizations") or {}
                assert set(localized) >= set(LOCALES), part["name"]
                assert all(valid_name(name) for name in [part["name"], *localized.values()]), localized
                descriptions = part.get("description_localizations") or {}
                assert set(descriptions) >= set(LOCALES), part["name"]
                assert all(1 <= len(text) <= 100 for text in descriptions.values()), descriptions
    by_name = {command["name"]: command for command in synced}
    durchgang = by_name["durchgang"]
    oeffnen = next(o for o in durchgang["options"] if o["name"] == "oeffnen")
    assert oeffnen["name_localizations"]["de"] == name_in("de", "discord.cmd.durchgang.oeffnen.name")
    assert oeffnen["name_localizations"]["en-US"] == name_in("en", "discord.cmd.durchgang.oeffnen.name")
    schliessen = next(o for o in durchgang["options"] if o["name"] == "schliessen")
    assert schliessen["name_localizations"]["de"] == name_in("de", "discord.cmd.durchgang.schliessen.name")
    assert by_name["mitmachen"]["name_localizations"]["en-GB"] == name_in("en", "discord.cmd.mitmachen.name")
    assert by_name["pruefen"]["name_localizations"]["de"] == name_in("de", "discord.cmd.pruefen.name")
    turniere = by_name["turniere"]  # everyone's: no default permission, no options
    assert [turniere["name_localizations"][locale] for locale in LOCALES] == [
        name_in(lang, "discord.cmd.turniere.name") for lang in ("de", "en", "en", "fr")
    ]
    assert [turniere["description_localizations"][locale] for locale in LOCALES] == [
        name_in(lang, "discord.cmd.turniere.description") for lang in ("de", "en", "en", "fr")
    ]
    assert not turniere.get("options")
    assert turniere.get("default_member_permissions") is None
    spiel = next(o for o in oeffnen["options"] if o["name"] == "spiel")
    assert spiel["name_localizations"]["en-US"] == name_in("en", "discord.param.spiel.name")
    assert [c["value"] for c in spiel["choices"]] == list(GAMES)
    killer = next(c for c in spiel["choices"] if c["value"] == "killer")
    assert killer["name_localizations"]["de"] == says("game.title", "de", "killer")
    assert by_name["export"]["default_member_permissions"] == str(perms.MANAGE_GUILD)
    sprache = next(o for o in by_name["einstellungen"]["options"] if o["name"] == "sprache")
    assert [c["value"] for c in sprache["choices"]] == list(LANGUAGES)  # the registered languages
    french = next(c for c in sprache["choices"] if c["value"] == "fr")
    assert french["name"] == "Français"  # its own name, and in each locale as CLDR names it there
    assert [french["name_localizations"][locale] for locale in LOCALES] == [
        "Französisch",
        "French",
        "French",
        "Français",
    ]
    assert "default_member_permissions" not in durchgang or durchgang["default_member_permissions"] is None


async def test_a_player_may_not_open_a_durchgang_and_nothing_opens(table: Table) -> None:
    p = table.people
    async with table.running():
        _, refused = await table.slash(p.anna, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        assert refused.ephemeral
        assert refused.data is not None
        assert note(refused) == refusal("error.not_moderator", game=None)
        assert await table.game() is None
        # Manage Server (here: Administrator) makes a moderator without the role
        opened = await table.slash_message(p.ada, "durchgang", {"spiel": "killer"}, subcommand="oeffnen")
        assert opened.embeds[0]["title"] == title(1, "fr", "killer")  # a Killer game answers in French
        _, late = await table.slash(p.anna, "durchgang", subcommand="schliessen")
        assert late.ephemeral
        assert note(late) == refusal("error.not_moderator", "fr", "killer")
        record = await table.game()
        assert record is not None
        assert record.is_open


async def test_help_lists_every_command_as_a_clickable_mention(table: Table) -> None:
    p = table.people
    async with table.running():
        ids = {command["name"]: command["id"] for command in table.emu.synced_commands(p.guild)}
        _, shown = await table.slash(p.anna, "hilfe")
        assert shown.ephemeral
        assert shown.data is not None
        listed = listed_commands(embeds_of(shown)[0]["description"], "de")
        assert len(listed) == len(COMMANDS)
        for words in ("durchgang oeffnen", "mitmachen", "pruefen", "turniere", "korrektur punkte", "zug"):
            assert f"</{words}:{ids[words.split()[0]]}>" in listed, words
        settings = await table.slash_message(p.moni, "einstellungen", {"sprache": "en"})
        assert settings.embeds[0]["description"] == says(
            "common.settings_changed", "en", None, settings="language=en"
        )
        _, english = await table.slash(p.anna, "hilfe")  # Discord shows the mentions in English itself
        assert listed_commands(embeds_of(english)[0]["description"], "en") == listed


def test_before_the_ids_are_known_commands_are_named_in_the_channels_language() -> None:
    spelling = DiscordSpelling()
    for lang in ("de", "en", "fr"):
        listed = spelling.listing(lang)
        assert slash_name(lang, "durchgang", "oeffnen") in listed
        assert slash_name(lang, "korrektur", "rueckgaengig") in listed
        assert spelling.commands(lang)["join"] == slash_name(lang, "mitmachen")
        assert spelling.commands(lang)["adjust"] == slash_name(lang, "korrektur", "punkte")
        assert spelling.commands(lang)["tournaments"] == slash_name(lang, "turniere")
        assert slash_name(lang, "turniere") in listed


async def test_the_export_command_is_hidden_from_players(table: Table) -> None:
    p = table.people
    async with table.running():
        with pytest.raises(UsageError, match="hidden"):
            await table.slash(p.anna, "export", {"format": "csv"})


async def test_the_moderator_role_can_be_set_per_channel_by_id(table: Table) -> None:
    p = table.people
    referees = await table.emu.add_role(p.guild, "Turnierleitung")
    await table.emu.update_member(p.guild, p.carl, roles=[referees])
    async with table.running():
        _, refused = await table.slash(p.carl, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        assert refused.ephemeral
        assert note(refused) == refusal("error.not_moderator", game=None)
        changed = await table.slash_message(p.moni, "einstellungen", {"moderationsrolle": referees})
        changes = described({"moderator_role": referees})  # named by the key /settings reads
        assert changed.embeds[0]["description"] == says(
            "common.settings_changed", game=None, settings=changes
        )
        opened = await table.slash_message(p.carl, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        assert opened.embeds[0]["title"] == title(1)


async def test_a_guild_the_bot_is_not_in_is_logged_and_the_others_still_sync(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    table.options = dataclasses.replace(table.options, guild_ids=(424242, table.people.guild))
    async with table.running():
        assert table.emu.synced_commands(table.people.guild)
    assert any("cannot register the slash commands in guild 424242" in r.getMessage() for r in caplog.records)
