"""Registering the slash commands only when they changed, and by one process only.

Discord rate-limits command registration and every bulk overwrite makes clients reload the commands,
so a restart (or each of several shard processes) should not register them again. The payload the
tree would send — names, descriptions, options and every localisation — is hashed per scope (the
global commands, or one guild's) and the hash kept in the store's ``bot_state``; a start registers a
scope only when its hash differs from the kept one, and only in the process that runs shard 0 (or
all shards). Every other start fetches the registered commands instead: their ids are what replies
need to name commands as clickable mentions.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import AppCommand

from bot.service.croupier import Croupier
from bot.store import StoreUnavailable

log = logging.getLogger(__name__)


def state_key(application_id: int, guild: discord.abc.Snowflake | None) -> str:
    """Where a scope's hash is kept: one key per application and scope."""
    scope = "global" if guild is None else f"guild:{guild.id}"
    return f"slash-commands:{application_id}:{scope}"


async def payload(
    tree: app_commands.CommandTree[Any], guild: discord.abc.Snowflake | None
) -> list[dict[str, Any]]:
    """What :meth:`CommandTree.sync` would send for the scope, translations included."""
    commands = tree._get_all_commands(guild=guild)
    translator = tree.translator
    if translator is None:
        return [command.to_dict(tree) for command in commands]
    return [await command.get_translated_payload(tree, translator) for command in commands]


def digest(body: Sequence[dict[str, Any]]) -> str:
    """sha256 of the payload as sorted JSON; the order the commands were added in does not count."""
    ordered = sorted(body, key=lambda command: (int(command.get("type", 1)), str(command["name"])))
    text = json.dumps(ordered, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Registered:
    """The commands of one scope as Discord holds them, and whether this start registered them."""

    commands: list[AppCommand]
    synced: bool


async def register(
    tree: app_commands.CommandTree[Any],
    croupier: Croupier,
    application_id: int,
    guild: discord.abc.Snowflake | None,
    *,
    may_sync: bool,
) -> Registered:
    """Register the scope's commands if they changed (``may_sync``: this process runs shard 0), else
    fetch them. A scope whose registered commands no longer match ours (deleted in the Developer
    Portal, say) is registered again whatever the kept hash says."""
    body = await payload(tree, guild)
    wanted = digest(body)
    key = state_key(application_id, guild)
    if may_sync and await _kept(croupier, key) != wanted:
        return Registered(await _sync(tree, croupier, guild, key, wanted), synced=True)
    fetched = await tree.fetch_commands(guild=guild)
    if may_sync and _names(fetched) != {(int(c.get("type", 1)), str(c["name"])) for c in body}:
        log.info("the registered slash commands differ from the bot's; registering them again")
        return Registered(await _sync(tree, croupier, guild, key, wanted), synced=True)
    return Registered(fetched, synced=False)


async def _sync(
    tree: app_commands.CommandTree[Any],
    croupier: Croupier,
    guild: discord.abc.Snowflake | None,
    key: str,
    wanted: str,
) -> list[AppCommand]:
    synced = await tree.sync(guild=guild)
    try:
        await croupier.remember(key, wanted)
    except StoreUnavailable as error:  # the commands are registered; the next start registers again
        log.warning(
            "could not keep the slash commands' hash (%s): the next start registers them again", error
        )
    return synced


async def _kept(croupier: Croupier, key: str) -> str | None:
    try:
        return await croupier.recall(key)
    except StoreUnavailable as error:  # registering once too often is harmless; not at all is not
        log.warning("could not read the slash commands' hash (%s): registering them", error)
        return None


def _names(commands: Sequence[AppCommand]) -> set[tuple[int, str]]:
    return {(command.type.value, command.name) for command in commands}
