"""Boards speak the channel's language: with ``/einstellungen sprache`` set, the buttons' labels and the
selects' placeholders and options under every reply of Die verflixte 6! (German by default) and of
Killer (French by default) are the game catalogue's in that language, move after move. Rule ids:
V6-S2 (the joker choice), V6-S3 (Freiwurf), V6-S7 (stopp), V6-N5 (the robbing 1), K5-S1 (setup),
K5-K1 (keeping), K5-A1 (attack)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.games import GAMES
from engine.verflixte6.jokers.registry import DEFAULT_ENABLED
from tests.discord.helpers import Table, custom_id_for, option_values, says, select_of
from tests.discord_emulator import BotMessage

BUTTON, SELECT = 2, 3  # Discord's component types

Label = tuple[str, Mapping[str, Any]]  # a catalogue key and its facts


def label(key: str, **facts: Any) -> Label:
    return key, facts


@dataclass(frozen=True)
class Drawn:
    """What a board shows: its buttons' labels, and each select's placeholder and option labels."""

    buttons: list[str]
    selects: list[tuple[str, list[str]]] = field(default_factory=list)


@dataclass(frozen=True)
class Expected:
    """A board as catalogue keys: rendered in a language, it is what Discord must show."""

    kind: str
    buttons: Sequence[Label]
    selects: Sequence[tuple[str, Sequence[Label]]] = ()

    def rendered(self, lang: str) -> Drawn:
        def say(shown: Label) -> str:
            key, facts = shown
            return says(key, lang, self.kind, **facts)

        selects = [
            (says(placeholder, lang, self.kind), [say(o) for o in options])
            for placeholder, options in self.selects
        ]
        return Drawn([say(b) for b in self.buttons], selects)


def board_of(message: BotMessage) -> Drawn:
    components = [component for row in message.components for component in row.get("components", [])]
    return Drawn(
        [c["label"] for c in components if c.get("type") == BUTTON],
        [
            (c["placeholder"], [o["label"] for o in c["options"]])
            for c in components
            if c.get("type") == SELECT
        ],
    )


def shows(message: BotMessage, expected: Expected, lang: str) -> None:
    """The board of ``message`` is ``expected`` in ``lang``, and would not be in the game's own language
    (so a board left in the default language fails here)."""
    assert board_of(message) == expected.rendered(lang)
    own = GAMES[expected.kind].language
    if own != lang:
        assert expected.rendered(own) != expected.rendered(lang)


async def in_language(table: Table, lang: str) -> None:
    """The moderator sets the channel's language (``/einstellungen sprache``)."""
    changed = await table.slash_message(table.people.moni, "einstellungen", {"sprache": lang})
    assert changed.embeds[0]["description"] == says(
        "common.settings_changed", lang, None, settings=f"language={lang}"
    )


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_V6_N5_verflixte6_boards_come_in_the_channels_language(table: Table, lang: str) -> None:
    p = table.people
    # anna: Freiwurf 3, weiter 2, stopp → 5 | ben: Freiwurf 4, weiter 1: the robbing 1
    table.dice.will_roll(3, 2, 4, 1)
    choosing = Expected(
        "verflixte6",
        [label("choice.freiwurf")],
        [("select.jokers", [label("choice.choose_jokers", joker=name) for name in DEFAULT_ENABLED])],
    )
    async with table.running():
        await in_language(table, lang)
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        await table.slash_message(p.anna, "mitmachen")
        joined = await table.slash_message(p.ben, "mitmachen")
        shows(joined, choosing, lang)

        jokers = select_of(joined, says("select.jokers", lang))
        chose = await table.pressed(joined, jokers["custom_id"], p.anna, option_values(jokers, "Rattenlord"))
        shows(
            chose,
            Expected("verflixte6", [label("choice.no_jokers"), *choosing.buttons], choosing.selects),
            lang,
        )

        throwing = Expected(
            "verflixte6",
            [label("choice.continue"), label("choice.stop")],
            [("select.joker", [label("choice.joker", joker="Rattenlord")])],
        )
        freiwurf = await table.pressed(chose, custom_id_for(chose, says("choice.freiwurf", lang)), p.anna)
        shows(freiwurf, throwing, lang)
        thrown = await table.pressed(freiwurf, custom_id_for(freiwurf, says("choice.continue", lang)), p.anna)
        shows(thrown, throwing, lang)
        stopped = await table.pressed(thrown, custom_id_for(thrown, says("choice.stop", lang)), p.anna)
        shows(stopped, choosing, lang)  # ben's turn: his joker choice

        freiwurf = await table.pressed(stopped, custom_id_for(stopped, says("choice.freiwurf", lang)), p.ben)
        shows(freiwurf, Expected("verflixte6", throwing.buttons), lang)
        one = await table.pressed(freiwurf, custom_id_for(freiwurf, says("choice.continue", lang)), p.ben)
        shows(
            one,
            Expected(
                "verflixte6",
                [label("choice.rob_none")],
                [("select.victim", [label("choice.rob", player="Anna")])],
            ),
            lang,
        )


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_K5_A1_killer_boards_come_in_the_channels_language(table: Table, lang: str) -> None:
    p = table.people
    # setup: anna 6 6 6 6 6 (30 PDV), ben 3 1 1 1 1 (7 PDV); anna's 2 2 1 1 1 = 7: an attack of 4 on
    # ben (4 4 4 1 2, then 1 2) leaves him dying; he rolls 5 6 4 4 4 (as in test_play_killer.py)
    table.dice.will_roll(6, 6, 6, 6, 6, 3, 1, 1, 1, 1, 2, 2, 1, 1, 1, 4, 4, 4, 1, 2, 1, 2, 5, 6, 4, 4, 4)
    keep_buttons = [label("choice.keep_all"), label("choice.auto"), label("choice.advice")]

    def keeping(*faces: int) -> Expected:
        return Expected(
            "killer", keep_buttons, [("select.keep", [label("choice.keep_die", face=f) for f in faces])]
        )

    async with table.running():
        await in_language(table, lang)
        await table.slash_message(p.moni, "durchgang", {"spiel": "killer"}, subcommand="oeffnen")
        await table.slash_message(p.anna, "mitmachen")
        await table.slash_message(p.ben, "mitmachen")
        started = await table.slash_message(p.moni, "durchgang", subcommand="starten")
        shows(started, keeping(6, 6, 6, 6, 6), lang)

        kept = await table.pressed(
            started, custom_id_for(started, says("choice.keep_all", lang, "killer")), p.anna
        )
        shows(kept, keeping(3, 1, 1, 1, 1), lang)
        keep = select_of(kept, says("select.keep", lang, "killer"))
        rolled = await table.pressed(kept, keep["custom_id"], p.ben, [o["value"] for o in keep["options"]])
        shows(rolled, keeping(2, 2, 1, 1, 1), lang)

        attacking = await table.pressed(
            rolled, custom_id_for(rolled, says("choice.keep_all", lang, "killer")), p.anna
        )
        targets = [("select.target", [label("choice.attack", target="Ben")])]
        shows(attacking, Expected("killer", [label("choice.attack_self")], targets), lang)
        target = select_of(attacking, says("select.target", lang, "killer"))
        attacked = await table.pressed(attacking, target["custom_id"], p.anna, option_values(target, "Ben"))
        shows(attacked, keeping(6, 5, 4, 4, 4), lang)  # ben, dying, rolls for his life
