"""The channel setting ``threads`` (whether a game opened in a text channel gets a Discord thread of its
own): stored per channel or per guild, inherited channel → guild → on, and set with
``/settings threads=on|off`` on the console as on Discord (SQLite and PostgreSQL)."""

from __future__ import annotations

import pytest

from bot.console.terminal import Console
from bot.service.croupier import Croupier
from bot.settings_words import parse_settings
from bot.store import ChannelDefaults, Store
from bot.texts import render
from engine.errors import InvalidCommand


async def test_threads_are_on_unless_a_channel_or_its_guild_turns_them_off(store: Store) -> None:
    with store.transaction() as uow:
        assert uow.settings.get("g", "c").threads is True  # NULL everywhere: on
        uow.settings.set("g", "", threads=False)  # the whole guild
        assert uow.settings.get("g", "c").threads is False
        uow.settings.set("g", "c", threads=True)  # this channel says otherwise
        assert uow.settings.get("g", "c").threads is True
        assert uow.settings.get("g", "other").threads is False
        uow.settings.set("g", "c", threads=None)  # inherit again
        assert uow.settings.get("g", "c").threads is False
        assert uow.channels.state("g", "c").settings.threads is False  # the command path's read too
        uow.commit()


async def test_a_thread_setting_must_be_a_switch(store: Store) -> None:
    with store.transaction() as uow, pytest.raises(ValueError, match="on or off"):
        uow.settings.set("g", "c", threads="yes")


def test_the_bot_wide_default_is_on() -> None:
    assert ChannelDefaults().threads is True


@pytest.mark.parametrize(("word", "on"), [("on", True), ("aus", False), ("off", False), ("oui", True)])
def test_the_words_of_the_switch(word: str, on: bool) -> None:
    assert parse_settings({"threads": word}) == {"threads": on}


def test_a_wrong_word_names_the_setting() -> None:
    with pytest.raises(InvalidCommand) as refused:
        parse_settings({"threads": "maybe"})
    assert refused.value.code == "setting_switch"
    assert refused.value.facts == {"setting": "threads", "value": "maybe", "valid": ["on", "off"]}


async def test_the_console_turns_threads_off_and_on(store: Store) -> None:
    console = Console(Croupier(store=store), moderators=frozenset({"mod"}))
    off = await console.handle("mod: /settings threads=off")
    assert off is not None
    assert off.ok
    assert off.text == render("common.settings_changed", {"settings": "threads=off"}, "de")
    with store.transaction(read_only=True) as uow:
        assert uow.settings.get("console", "console").threads is False
    refused = await console.handle("mod: /settings threads=vielleicht")
    assert refused is not None
    assert not refused.ok
    facts = {"setting": "threads", "value": "vielleicht", "valid": ["on", "off"]}
    assert render("error.setting_switch", facts, "de") in refused.text
    with store.transaction(read_only=True) as uow:
        assert uow.settings.get("console", "console").threads is False  # a refusal changes nothing
    player = await console.handle("anna: /settings threads=on")
    assert player is not None
    assert not player.ok
    with store.transaction(read_only=True) as uow:
        assert uow.settings.get("console", "console").threads is False
