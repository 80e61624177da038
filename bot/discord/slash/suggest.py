"""Autocomplete: the choices Discord shows while an option is typed, asked of the service
(``croupier.suggest``) — the front end reads no game to offer them.

Discord wants the choices within three seconds and an autocomplete cannot be deferred, so a slow or
unreachable store answers with no choices (the user can still type the option out).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands

from bot.discord.context import from_interaction
from bot.discord.front import front_of
from bot.store import StoreUnavailable

log = logging.getLogger(__name__)

WAIT_S = 2.0  # of the three seconds Discord allows, what the service may take


async def choices(
    interaction: discord.Interaction[Any], what: str, typed: str, *, kind: str = ""
) -> list[app_commands.Choice[str]]:
    croupier = front_of(interaction).croupier
    asking = croupier.suggest(from_interaction(interaction), what, typed, kind=kind)
    try:
        found = await asyncio.wait_for(asking, WAIT_S)
    except (TimeoutError, StoreUnavailable) as error:
        log.info("no %s to suggest in channel %s: %r", what, interaction.channel_id, error)
        return []
    return [app_commands.Choice(name=suggestion.name, value=suggestion.value) for suggestion in found]


async def jokers(interaction: discord.Interaction[Any], typed: str) -> list[app_commands.Choice[str]]:
    return await choices(interaction, "jokers", typed)


async def topics(interaction: discord.Interaction[Any], typed: str) -> list[app_commands.Choice[str]]:
    """What the channel's game explains (with no game open, every game), named in its language."""
    return await choices(interaction, "topics", typed)


async def players(interaction: discord.Interaction[Any], typed: str) -> list[app_commands.Choice[str]]:
    return await choices(interaction, "players", typed)


async def game_options(interaction: discord.Interaction[Any], typed: str) -> list[app_commands.Choice[str]]:
    """The options of the game chosen in the same command (none before a game is chosen)."""
    kind = getattr(interaction.namespace, "spiel", None)
    value = kind.value if isinstance(kind, app_commands.Choice) else str(kind or "")
    return await choices(interaction, "options", typed, kind=value)
