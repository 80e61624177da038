"""The French forum words (engine/killer/words.py)."""

from __future__ import annotations

import pytest

from engine.errors import InvalidCommand
from engine.game import Command
from engine.killer import KILLER, Advice, Attack, Auto, Direction, Keep, KeepAll, Pass


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("garde 6 6 5", Keep((6, 6, 5))),
        ("Garde 6,6,5 !", Keep((6, 6, 5))),
        ("garde 665", Keep((6, 6, 5))),
        ("  GARDE   le 6 et le 5 ", Keep((6, 5))),
        ("je garde 1", Keep((1,))),
        ("garde tout", KeepAll()),
        ("Garde tous les dés", KeepAll()),
        ("auto", Auto()),
        ("garde auto", Auto()),
        ("attaque anna", Attack("anna")),
        ("attaque @Anna", Attack("@Anna")),
        ("Attaque <@1234>", Attack("<@1234>")),
        ("J'attaque Anna Maria !", Attack("Anna Maria")),
        ("attaque", Attack(None)),
        ("attaque !", Attack(None)),
        ("passe", Pass()),
        ("Je passe.", Pass()),
        ("haut", Direction("high")),
        ("bas", Direction("low")),
        ("Moins !", Direction("low")),
        ("conseil ?", Advice()),
    ],
)
def test_K5_K1_forum_words_are_read_leniently(text: str, command: Command) -> None:
    assert KILLER.parse(text) == command


@pytest.mark.parametrize(
    "text",
    ["", "bonjour tout le monde", "passe moi le sel", "il est bas de plafond", "attaques-tu ?", "gardez ça"],
)
def test_K5_K1_chit_chat_is_not_a_command(text: str) -> None:
    assert KILLER.parse(text) is None


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("garde", "killer_keep_none"),
        ("garde le", "killer_keep_none"),
        ("garde les 6", "killer_keep_each"),
        ("garde 7", "killer_bad_die"),
        ("garde 60", "killer_bad_die"),
        ("garde six", "killer_bad_keep"),
    ],
)
def test_K5_K1_malformed_keeps_are_invalid(text: str, code: str) -> None:
    with pytest.raises(InvalidCommand) as info:
        KILLER.parse(text)
    assert info.value.code == code
