"""A select menu's placeholder comes from the game's catalogue (``select.<group>``) before the shared
catalogues (``discord.select.<group>``, then ``discord.select.other``), in the reply's language."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from bot import texts
from bot.rendering import Narrator, Table
from bot.spelling import ConsoleSpelling
from engine.dice import ScriptedDice
from engine.game import Join
from engine.verflixte6 import GAME as VERFLIXTE6

SCOPE = (VERFLIXTE6.catalogue, VERFLIXTE6.name)


def joker_board_placeholder(lang: str) -> str:
    state = VERFLIXTE6.open({})
    state, _ = VERFLIXTE6.apply(state, "anna", Join("Anna"), ScriptedDice(()))
    board = Narrator(ConsoleSpelling()).board(Table(VERFLIXTE6, 1, 1, 2, state), lang, str)
    assert board is not None
    return board.placeholder("jokers")


@pytest.mark.parametrize("lang", texts.LANGUAGES)
def test_the_placeholder_is_the_game_s_own_where_it_has_one(lang: str) -> None:
    own = texts.game_catalogue(SCOPE, lang).get("select.jokers")
    shared = texts.catalogue(lang)["discord.select.jokers"]
    assert joker_board_placeholder(lang) == (own if own is not None else shared)


def test_the_game_s_catalogue_wins_over_the_shared_one(monkeypatch: pytest.MonkeyPatch) -> None:
    real = texts.game_catalogue

    def with_own(scope: texts.Scope, lang: str) -> Mapping[str, str]:
        found = real(scope, lang)
        return {**found, "select.jokers": "Jokers of the game"} if scope == SCOPE else found

    monkeypatch.setattr(texts, "game_catalogue", with_own)
    texts.catalogue.cache_clear()
    try:
        assert joker_board_placeholder("en") == "Jokers of the game"
    finally:
        texts.catalogue.cache_clear()
