"""Running a round: the moderators' ``/durchgang …`` group, and ``/mitmachen``, ``/aussteigen``,
``/joker wählen`` for the players. Each command is one service call; the rules stay in the engine."""

from __future__ import annotations

from typing import Any, cast

import discord
from discord import app_commands

from bot.discord.front import front_of
from bot.discord.slash import suggest
from bot.discord.slash.names import command, described, game_choices, group, renamed
from bot.option_words import parse_options
from engine.game import Close, Join, Leave, Remove, Skip, Start

Seated = app_commands.Range[str, 1, 100]  # a seated player: id (as suggested) or name


class Durchgang(app_commands.Group):
    """Moderators open, start, skip, remove and close; the service checks the right."""

    def __init__(self) -> None:
        super().__init__(**group("durchgang"))

    @app_commands.command(**command("durchgang.oeffnen"))
    @app_commands.rename(**renamed("spiel", "optionen"))
    @app_commands.describe(**described("spiel", "optionen"))
    @app_commands.choices(spiel=game_choices())
    async def oeffnen(
        self, interaction: discord.Interaction[Any], spiel: app_commands.Choice[str], optionen: str = ""
    ) -> None:
        """In a forum (run in any of its posts) and a text channel with threads, the game gets a thread
        of its own; with the channel's threads off it opens in place (see ``Front.open_game``)."""
        await front_of(interaction).open_game(interaction, spiel.value, parse_options(optionen))

    @app_commands.command(**command("durchgang.starten"))
    async def starten(self, interaction: discord.Interaction[Any]) -> None:
        front = front_of(interaction)
        await front.command(interaction, lambda msg: front.croupier.execute(msg, Start()))

    @app_commands.command(**command("durchgang.ueberspringen"))
    @app_commands.rename(**renamed("spieler"))
    @app_commands.describe(**described("spieler"))
    @app_commands.autocomplete(spieler=suggest.players)
    async def ueberspringen(self, interaction: discord.Interaction[Any], spieler: Seated) -> None:
        """``spieler``: a seat's id as the autocomplete offers it, or a typed name the game resolves."""
        front = front_of(interaction)
        await front.command(interaction, lambda msg: front.croupier.execute(msg, Skip(spieler)))

    @app_commands.command(**command("durchgang.entfernen"))
    @app_commands.rename(**renamed("spieler"))
    @app_commands.describe(**described("spieler"))
    @app_commands.autocomplete(spieler=suggest.players)
    async def entfernen(self, interaction: discord.Interaction[Any], spieler: Seated) -> None:
        front = front_of(interaction)
        await front.command(interaction, lambda msg: front.croupier.execute(msg, Remove(spieler)))

    @app_commands.command(**command("durchgang.schliessen"))
    async def schliessen(self, interaction: discord.Interaction[Any]) -> None:
        """The final table and the seed in the game's thread, then the thread archived and locked and a
        result line in a text channel home (the front end's closing of a finished game's thread)."""
        front = front_of(interaction)
        await front.command(interaction, lambda msg: front.croupier.execute(msg, Close()))


# Choices while the options of /durchgang öffnen are typed: the chosen game's options and values.
Durchgang.oeffnen.autocomplete("optionen")(suggest.game_options)


class Joker(app_commands.Group):
    def __init__(self) -> None:
        super().__init__(**group("joker"))

    @app_commands.command(**command("joker.waehlen"))
    @app_commands.rename(**renamed("jokers"))
    @app_commands.describe(**described("jokers"))
    @app_commands.autocomplete(jokers=suggest.jokers)
    async def waehlen(self, interaction: discord.Interaction[Any], jokers: str) -> None:
        """The picked jokers said as the game says a list of them (``Joker: A, B, C``: its
        ``Candidates.prefix``), so the engine reads it as if typed."""
        front = front_of(interaction)
        await front.command(interaction, lambda msg: front.croupier.pick(msg, "jokers", jokers))


@app_commands.command(**command("mitmachen"))
@app_commands.guild_only()
async def mitmachen(interaction: discord.Interaction[Any]) -> None:
    front = front_of(interaction)
    await front.command(interaction, lambda msg: front.croupier.execute(msg, Join(msg.author_name)))


@app_commands.command(**command("aussteigen"))
@app_commands.guild_only()
async def aussteigen(interaction: discord.Interaction[Any]) -> None:
    front = front_of(interaction)
    await front.command(interaction, lambda msg: front.croupier.execute(msg, Leave()))


def commands() -> list[app_commands.Command[Any, Any, Any] | app_commands.Group]:
    durchgang = Durchgang()
    # The games as registered when the tree is built, not when this module was first imported: a game
    # installed since (a plugin) is a choice of /durchgang öffnen once the commands are synced.
    durchgang.oeffnen._params["spiel"].choices = cast(list[app_commands.Choice[Any]], game_choices())
    return [durchgang, Joker(), mitmachen, aussteigen]
