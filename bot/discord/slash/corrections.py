"""Moderators' corrections with their audit trail (``/korrektur …``): undo the last move, adjust a
player's points, disqualify and reinstate — and the list of every correction, for everybody.

Each is one service call (bot/service/corrections.py): the service checks the right, applies it once per
interaction and logs it. A correction is answered publicly in the game's channel, so everyone sees
it; a refusal (not a moderator, no reason, an unknown player) only to the moderator who asked.

The player is a Discord *user* option: a player who has left the server since (exactly the one a
penalty is often for) still arrives as a user, where a member option would fail before the service is
asked. The service finds the player by id among the tournament's players.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.discord.front import front_of
from bot.discord.slash.names import command, described, group, renamed
from bot.service.corrections import MAX_ADJUSTMENT, MAX_REASON

Reason = app_commands.Range[str, 1, MAX_REASON]
Points = app_commands.Range[int, -MAX_ADJUSTMENT, MAX_ADJUSTMENT]


def player_of(member: discord.Member | discord.User) -> str:
    """The participant id the service looks the player up by: the Discord user id, never a name."""
    return str(member.id)


class Korrektur(app_commands.Group):
    def __init__(self) -> None:
        super().__init__(**group("korrektur"))

    @app_commands.command(**command("korrektur.rueckgaengig"))
    @app_commands.rename(**renamed("grund"))
    @app_commands.describe(**described("grund"))
    async def rueckgaengig(self, interaction: discord.Interaction[Any], grund: Reason) -> None:
        front = front_of(interaction)
        await front.command(interaction, lambda msg: front.croupier.undo(msg, grund))

    @app_commands.command(**command("korrektur.punkte"))
    @app_commands.rename(**renamed("spieler", "punkte", "grund"))
    @app_commands.describe(**described("spieler", "punkte", "grund"))
    async def punkte(
        self, interaction: discord.Interaction[Any], spieler: discord.User, punkte: Points, grund: Reason
    ) -> None:
        front = front_of(interaction)
        player = player_of(spieler)
        await front.command(interaction, lambda msg: front.croupier.adjust(msg, player, punkte, grund))

    @app_commands.command(**command("korrektur.disqualifizieren"))
    @app_commands.rename(**renamed("spieler", "grund"))
    @app_commands.describe(**described("spieler", "grund"))
    async def disqualifizieren(
        self, interaction: discord.Interaction[Any], spieler: discord.User, grund: Reason
    ) -> None:
        front = front_of(interaction)
        player = player_of(spieler)
        await front.command(interaction, lambda msg: front.croupier.disqualify(msg, player, grund))

    @app_commands.command(**command("korrektur.zulassen"))
    @app_commands.rename(**renamed("spieler", "grund"))
    @app_commands.describe(**described("spieler", "grund"))
    async def zulassen(
        self, interaction: discord.Interaction[Any], spieler: discord.User, grund: Reason
    ) -> None:
        front = front_of(interaction)
        player = player_of(spieler)
        await front.command(interaction, lambda msg: front.croupier.reinstate(msg, player, grund))

    @app_commands.command(**command("korrektur.liste"))
    async def liste(self, interaction: discord.Interaction[Any]) -> None:
        """For everybody, privately like /regeln: a lookup, not news for the channel."""
        front = front_of(interaction)
        await front.command(interaction, front.croupier.corrections_reply, ephemeral=True)


def commands() -> list[app_commands.Group]:
    return [Korrektur()]
