"""``/zug WORTE``: the words of a move sent as a slash command, for servers where the bot cannot read
typed messages (no Message Content intent) and for anyone who prefers it. The words go through the
very parser a typed line does (a ``Line`` request with ``required``), so ``/zug weiter`` and typing
``weiter`` are the same move; words that hold no move get a private refusal instead of silence."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.discord.front import front_of
from bot.discord.slash.names import command, described, renamed
from bot.service.requests import Incoming, Line

WORDS_MAX = 2000  # what a typed Discord message holds at most


@app_commands.command(**command("zug"))
@app_commands.rename(**renamed("worte"))
@app_commands.describe(**described("worte"))
@app_commands.guild_only()
async def zug(interaction: discord.Interaction[Any], worte: app_commands.Range[str, 1, WORDS_MAX]) -> None:
    front = front_of(interaction)
    await front.command(interaction, _words, text=worte)


def commands() -> list[app_commands.Command[Any, Any, Any]]:
    return [zug]


def _words(msg: Incoming) -> Line:
    """Words sent as a command: read as a typed line would be, refused when they hold no command."""
    return Line(msg, required=True)
