"""Slash commands are registered only when they changed (a hash of the payload kept in the store) and
only by the process that runs shard 0; every start knows the commands' ids, so replies name commands
as clickable mentions (``</mitmachen:ID>``), and as plain names where the ids cannot be used."""

from __future__ import annotations

import dataclasses
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.discord.command_sync import state_key
from tests.discord.helpers import Table, slash_name, story
from tests.discord_emulator import RecordedRequest, UsageError, running_client

COMMANDS_ROUTE = "/applications/{app_id}/guilds/{guild_id}/commands"


def registrations(table: Table) -> list[RecordedRequest]:
    """The bulk overwrites of the guild's commands the bot sent so far."""
    return [r for r in table.emu.requests if r.method == "PUT" and r.route == COMMANDS_ROUTE]


def fetches(table: Table) -> list[RecordedRequest]:
    return [r for r in table.emu.requests if r.method == "GET" and r.route == COMMANDS_ROUTE]


def emulated_ids(table: Table) -> dict[str, int]:
    return {c["name"]: int(c["id"]) for c in table.emu.synced_commands(table.people.guild)}


def kept_hash(table: Table) -> str | None:
    key = state_key(table.emu.app_id, discord.Object(table.people.guild))
    with table.store.transaction(read_only=True) as uow:
        return uow.bot_state.get(key)


@app_commands.command(name="extra", description="A command the bot did not have before")
async def extra(interaction: discord.Interaction[Any]) -> None:  # never run: only its payload counts
    raise AssertionError("not to be run")


async def test_two_starts_register_the_commands_once(table: Table) -> None:
    async with table.running() as first:
        assert len(registrations(table)) == 1
        assert dict(first.command_ids.usable()) == emulated_ids(table)
    digest = kept_hash(table)
    assert digest is not None
    assert len(digest) == 64
    async with table.running() as second:
        assert len(registrations(table)) == 1  # unchanged: not registered again …
        assert len(fetches(table)) == 1  # … but fetched, for the ids
        assert dict(second.command_ids.usable()) == emulated_ids(table)
    assert kept_hash(table) == digest


async def test_a_changed_command_is_registered_again(table: Table) -> None:
    async with table.running():
        pass
    changed = table.bot()
    changed.tree.add_command(extra)
    async with running_client(changed, table.emu.token):
        assert len(registrations(table)) == 2
        assert "extra" in emulated_ids(table)
    async with table.running():  # the new set once more is not a change; dropping "extra" is
        assert len(registrations(table)) == 3
        assert "extra" not in emulated_ids(table)
    async with table.running():
        assert len(registrations(table)) == 3


async def test_a_changed_translation_is_a_change(table: Table) -> None:
    async with table.running():
        pass
    renamed = table.bot()
    command = renamed.tree.get_command("mitmachen")
    assert isinstance(command, app_commands.Command)
    command.description = "Sign up (reworded)"
    async with running_client(renamed, table.emu.token):
        assert len(registrations(table)) == 2


async def test_commands_removed_on_discords_side_are_registered_again(table: Table) -> None:
    async with table.running():
        pass
    table.emu.commands[table.people.guild] = []  # e.g. deleted in the Developer Portal
    async with table.running() as bot:
        assert len(registrations(table)) == 2
        assert dict(bot.command_ids.usable()) == emulated_ids(table)
        assert emulated_ids(table)


async def test_a_process_without_shard_0_never_registers(table: Table) -> None:
    table.options = dataclasses.replace(table.options, shard_count=2, shard_ids=(1,))
    async with table.running() as early:  # before anyone registered: nothing to learn yet
        assert registrations(table) == []
        assert dict(early.command_ids.usable()) == {}
    table.options = dataclasses.replace(table.options, shard_ids=(0,))
    async with table.running():
        assert len(registrations(table)) == 1
    table.options = dataclasses.replace(table.options, shard_ids=(1,))
    table.emu.commands[table.people.guild] = table.emu.commands[table.people.guild][:3]  # even so
    async with table.running() as late:
        assert len(registrations(table)) == 1
        assert dict(late.command_ids.usable()) == emulated_ids(table)


async def test_replies_name_commands_as_mentions_of_the_synced_ids(table: Table) -> None:
    p = table.people
    async with table.running():
        ids = emulated_ids(table)
        _, refused = await table.slash(p.anna, "mitmachen")  # no game open: "open one with …"
        assert refused.data is not None
        content = refused.data["content"]
        assert f"</durchgang oeffnen:{ids['durchgang']}>" in content  # clickable, not escaped
        assert content == table.refusal("error.no_open_game", game=None)
        opened = await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        assert f"</mitmachen:{ids['mitmachen']}>" in "\n".join(story(opened))
        assert table.says("game.opened", number=1, tournament="Turnier") in story(opened)


async def test_with_several_guilds_commands_are_named_plainly(table: Table) -> None:
    p = table.people
    second = await table.emu.add_guild("Zweite Spelunke")
    table.options = dataclasses.replace(table.options, guild_ids=(p.guild, second))
    async with table.running() as bot:
        assert table.emu.synced_commands(second)  # registered in both …
        assert dict(bot.command_ids.usable()) == {}  # … with different ids: none can be used
        opened = await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        text = "\n".join(story(opened))
        assert "</" not in text
        assert slash_name("de", "mitmachen") in text


async def test_every_command_is_for_servers_only_said_as_discord_asks_now(table: Table) -> None:
    """Globally registered commands say where they can be used with ``contexts`` (servers only),
    not only with the deprecated ``dm_permission``: in a direct message Discord offers none of them."""
    table.options = dataclasses.replace(table.options, guild_ids=())
    async with table.running():
        synced = table.emu.synced_commands(None)
        assert {c["name"] for c in synced} >= {"durchgang", "korrektur", "joker", "mitmachen"}
        assert all(c["contexts"] == [0] for c in synced), [(c["name"], c["contexts"]) for c in synced]
        dm = table.emu.dm_channel_sync(table.people.anna)
        for name in ("durchgang", "korrektur", "mitmachen"):
            with pytest.raises(UsageError, match="direct messages"):
                await table.emu.slash_command(None, dm, table.people.anna, name)
