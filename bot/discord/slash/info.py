"""What a player can look up privately: the rules, what the game explains on request, and the
commands (``/regeln``, ``/info [thema]``, ``/hilfe``). ``/info``'s topics are the channel's game's own,
offered by the service as the user types (``croupier.suggest(…, "topics")``): nothing here names a
game or a topic."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.discord.front import front_of
from bot.discord.slash import suggest
from bot.discord.slash.names import command, described, renamed

Topic = app_commands.Range[str, 1, 100]  # a topic's name (as suggested) or title


@app_commands.command(**command("regeln"))
@app_commands.guild_only()
async def regeln(interaction: discord.Interaction[Any]) -> None:
    front = front_of(interaction)
    await front.command(interaction, front.croupier.rules_reply, ephemeral=True)


@app_commands.command(**command("info"))
@app_commands.rename(**renamed("thema"))
@app_commands.describe(**described("thema"))
@app_commands.autocomplete(thema=suggest.topics)
@app_commands.guild_only()
async def info(interaction: discord.Interaction[Any], thema: Topic = "") -> None:
    """``thema``: a topic's name as the autocomplete offers it, or typed (its title works too); left
    out, the game's topics are listed."""
    front = front_of(interaction)
    await front.command(interaction, lambda msg: front.croupier.info_reply(msg, thema), ephemeral=True)


@app_commands.command(**command("hilfe"))
@app_commands.guild_only()
async def hilfe(interaction: discord.Interaction[Any]) -> None:
    front = front_of(interaction)
    await front.command(interaction, front.croupier.help_reply, ephemeral=True)


def commands() -> list[app_commands.Command[Any, Any, Any]]:
    return [regeln, info, hilfe]
