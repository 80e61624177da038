"""Channel housekeeping for moderators: ``/einstellungen`` (language, moderator role, turn timeout)
and ``/turnier`` (a new tournament)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.discord.front import front_of
from bot.discord.slash.names import choices, command, described, renamed
from bot.texts import LANGUAGES


@app_commands.command(**command("einstellungen"))
@app_commands.rename(**renamed("sprache", "moderatorrolle", "zugzeit"))
@app_commands.describe(**described("sprache", "moderatorrolle", "zugzeit"))
@app_commands.choices(sprache=choices("language", LANGUAGES))
@app_commands.guild_only()
async def einstellungen(
    interaction: discord.Interaction[Any],
    sprache: app_commands.Choice[str] | None = None,
    moderatorrolle: discord.Role | None = None,
    zugzeit: str | None = None,
) -> None:
    """The role is stored by id, so renaming it on the server keeps it working."""
    options: dict[str, str] = {}
    if sprache is not None:
        options["language"] = sprache.value
    if moderatorrolle is not None:
        options["moderator_role"] = str(moderatorrolle.id)
    if zugzeit is not None:
        options["timeout"] = zugzeit
    front = front_of(interaction)
    await front.command(interaction, lambda msg: front.croupier.change_settings(msg, options))


@app_commands.command(**command("turnier"))
@app_commands.rename(**renamed("name", "wertung"))
@app_commands.describe(**described("name", "wertung"))
@app_commands.choices(wertung=choices("scoring", ("sum", "placement")))
@app_commands.guild_only()
async def turnier(
    interaction: discord.Interaction[Any], name: str, wertung: app_commands.Choice[str] | None = None
) -> None:
    scoring = wertung.value if wertung is not None else "sum"
    front = front_of(interaction)
    await front.command(interaction, lambda msg: front.croupier.new_tournament(msg, name, scoring))


def commands() -> list[app_commands.Command[Any, Any, Any]]:
    return [einstellungen, turnier]
