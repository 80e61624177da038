"""What a player can look up privately: the rules, the jokers, and the commands (``/regeln``,
``/joker-info``, ``/hilfe``)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.discord.front import front_of
from bot.discord.slash.names import command
from bot.service.requests import Help, Info, Rules


@app_commands.command(**command("regeln"))
@app_commands.guild_only()
async def regeln(interaction: discord.Interaction[Any]) -> None:
    front = front_of(interaction)
    await front.command(interaction, Rules, ephemeral=True)


@app_commands.command(**command("joker-info"))
@app_commands.guild_only()
async def joker_info(interaction: discord.Interaction[Any]) -> None:
    front = front_of(interaction)
    await front.command(interaction, lambda msg: Info(msg, "jokers"), ephemeral=True)


@app_commands.command(**command("hilfe"))
@app_commands.guild_only()
async def hilfe(interaction: discord.Interaction[Any]) -> None:
    front = front_of(interaction)
    await front.command(interaction, Help, ephemeral=True)


def commands() -> list[app_commands.Command[Any, Any, Any]]:
    return [regeln, joker_info, hilfe]
