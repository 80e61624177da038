"""Channel housekeeping for moderators: ``/einstellungen`` (language, moderator role, turn timeout,
threads, the web page and whether the site's start page lists it) and ``/turnier`` (a new tournament)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.discord.front import front_of
from bot.discord.slash.names import choices, command, described, language_choices, renamed
from bot.service.requests import ChangeSettings, Moderate, NewTournament

SWITCH = ("on", "off")  # the values /settings reads for a switch (bot/settings_words.py)


@app_commands.command(**command("einstellungen"))
@app_commands.rename(**renamed("sprache", "moderatorrolle", "zugzeit", "threads", "web", "liste"))
@app_commands.describe(**described("sprache", "moderatorrolle", "zugzeit", "threads", "web", "liste"))
@app_commands.choices(
    sprache=language_choices(),
    threads=choices("switch", SWITCH),
    web=choices("switch", SWITCH),
    liste=choices("switch", SWITCH),
)
@app_commands.guild_only()
async def einstellungen(
    interaction: discord.Interaction[Any],
    sprache: app_commands.Choice[str] | None = None,
    moderatorrolle: discord.Role | None = None,
    zugzeit: str | None = None,
    threads: app_commands.Choice[str] | None = None,
    web: app_commands.Choice[str] | None = None,
    liste: app_commands.Choice[str] | None = None,
) -> None:
    """The role is stored by id, so renaming it on the server keeps it working. ``web: an`` answers
    with the address of the channel's tournament page; ``liste: an`` lists it on the site's start
    page (unlisted, only whoever has the address finds it)."""
    options: dict[str, str] = {}
    if sprache is not None:
        options["language"] = sprache.value
    if moderatorrolle is not None:
        options["moderator_role"] = str(moderatorrolle.id)
    if zugzeit is not None:
        options["timeout"] = zugzeit
    if threads is not None:
        options["threads"] = threads.value
    if web is not None:
        options["web"] = web.value
    if liste is not None:
        options["listed"] = liste.value
    front = front_of(interaction)
    await front.command(interaction, lambda msg: Moderate(msg, ChangeSettings(options)))


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
    await front.command(interaction, lambda msg: Moderate(msg, NewTournament(name, scoring)))


def commands() -> list[app_commands.Command[Any, Any, Any]]:
    return [einstellungen, turnier]
