"""The tournament table for everyone (``/tabelle``, as text or picture), the channel's tournaments
(``/turniere``), the admins' file export (``/export``) and the dice verification (``/prüfen``)."""

from __future__ import annotations

import asyncio
import io
import re
from dataclasses import replace
from typing import Any

import discord
from discord import app_commands

from bot.discord import escape
from bot.discord.embeds import continued, note_embeds, standings_embeds, standings_title
from bot.discord.front import Front, Outgoing, front_of
from bot.discord.mentions import nobody
from bot.discord.slash.names import command, described, renamed
from bot.discord.standings_image import MAX_ROWS, standings_png
from bot.exports import FORMATS
from bot.replies import Reply
from bot.service.requests import Export, Standings, Tournaments, Verify

EXTENSIONS = {"csv": "csv", "json": "json", "markdown": "md", "bbcode": "txt"}
IMAGE_NAME = "tabelle.png"


def file_stem(name: str) -> str:
    stem = re.sub(r"[^\w-]+", "-", name, flags=re.UNICODE).strip("-").lower()
    return stem[:60] or "tabelle"


@app_commands.command(**command("tabelle"))
@app_commands.rename(**renamed("bild"))
@app_commands.describe(**described("bild"))
@app_commands.guild_only()
async def tabelle(interaction: discord.Interaction[Any], bild: bool = False) -> None:
    front = front_of(interaction)
    await front.command(interaction, Standings, draw=_picture if bild else _table)


async def _table(front: Front, interaction: discord.Interaction[Any], reply: Reply) -> bool:
    """The table in code blocks and its notes — each adjustment and disqualification with its reason
    — continued in followups where one message does not hold them all."""
    if reply.standings is None:
        return False
    await front.send(interaction, Outgoing.of(standings_embeds(reply.standings, reply.language), nobody()))
    return True


async def _picture(front: Front, interaction: discord.Interaction[Any], reply: Reply) -> bool:
    table, lang = reply.standings, reply.language
    if table is None:
        return False
    picture = await asyncio.to_thread(standings_png, table, lang)
    title = standings_title(table, lang)
    embed = discord.Embed(title=title)
    embed.set_image(url=f"attachment://{IMAGE_NAME}")
    file = discord.File(io.BytesIO(picture), filename=IMAGE_NAME)
    embeds = [embed]
    if len(table.rows) > MAX_ROWS:  # the picture draws the first rows: the others follow as text
        rest = replace(table, rows=table.rows[MAX_ROWS:])
        embeds += standings_embeds(rest, lang, title=continued(title, lang), notes=False)
    embeds += note_embeds(table, continued(title, lang), into=embeds[-1])
    await front.send(interaction, Outgoing.of(embeds, nobody(), files=[file]))
    return True


@app_commands.command(**command("turniere"))
@app_commands.guild_only()
async def turniere(interaction: discord.Interaction[Any]) -> None:
    """For everybody, privately like /regeln: the ids an export or the web page take are a lookup,
    not news for the channel. In a game's thread it lists the parent's tournaments, which the
    service reads as the message's home."""
    front = front_of(interaction)
    await front.command(interaction, Tournaments, ephemeral=True)


@app_commands.command(**command("export"))
@app_commands.rename(**renamed("format"))
@app_commands.describe(**described("format"))
@app_commands.choices(format=[app_commands.Choice(name=name, value=name) for name in FORMATS])
@app_commands.default_permissions(manage_guild=True)
@app_commands.guild_only()
async def export(interaction: discord.Interaction[Any], format: app_commands.Choice[str]) -> None:
    """Admins only; the service checks the right again, whatever the server's command settings say."""
    front = front_of(interaction)
    await front.command(interaction, lambda msg: Export(msg, format.value), draw=_file, ephemeral=True)


async def _file(front: Front, interaction: discord.Interaction[Any], reply: Reply) -> bool:
    attachment = reply.attachment
    if attachment is None:
        return False
    name = f"{file_stem(attachment.stem)}.{EXTENSIONS.get(attachment.format, 'txt')}"
    file = discord.File(io.BytesIO((attachment.text + "\n").encode("utf-8")), filename=name)
    out = Outgoing([], nobody(), content=escape.plain(reply.title), files=[file])
    await front.send(interaction, out, ephemeral=True)
    return True


@app_commands.command(**command("pruefen"))
@app_commands.rename(**renamed("spiel_id"))
@app_commands.describe(**described("spiel_id"))
@app_commands.guild_only()
async def pruefen(interaction: discord.Interaction[Any], spiel_id: int | None = None) -> None:
    front = front_of(interaction)
    await front.command(interaction, lambda msg: Verify(msg, spiel_id))


def commands() -> list[app_commands.Command[Any, Any, Any]]:
    return [tabelle, turniere, export, pruefen]
