"""The slash commands, one small module per feature; ``install`` puts them all on a command tree."""

from __future__ import annotations

from discord import app_commands

from bot.discord.slash import admin, corrections, info, rounds, tables, words


def install(tree: app_commands.CommandTree) -> None:
    for module in (rounds, words, tables, corrections, info, admin):
        for command in module.commands():
            tree.add_command(command)
