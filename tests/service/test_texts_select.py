"""A select menu's placeholder comes from the game's own catalogue (``select.<group>`` in
engine/<game>/texts), in the channel's language: the shared Discord catalogue holds no game's words."""

from __future__ import annotations

import pytest

from bot.games import GAMES, scope_of
from bot.replies import Reply
from bot.service.croupier import Croupier, seed_from_text
from bot.store import Store
from bot.texts import LANGUAGES, catalogue, render
from engine.game import Close, Join, Start
from tests.service.helpers import MODERATOR, Table

SQLITE_ONLY = pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True)


def placeholders(reply: Reply) -> dict[str, str]:
    assert reply.board is not None
    return dict(reply.board.placeholders)


def expected(kind: str, group: str, lang: str) -> str:
    return render(f"select.{group}", {}, lang, scope=scope_of(GAMES[kind]))


@SQLITE_ONLY
@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_games_select_placeholders_come_from_their_catalogues(store: Store, lang: str) -> None:
    table = Table(Croupier(store=store, seed_source=seed_from_text("select-placeholders")))
    assert (await table.croupier.change_settings(table.msg(MODERATOR), {"language": lang})).ok
    await table.open("verflixte6")
    joined = await table.do("anna", Join("Anna"))
    assert placeholders(joined) == {"jokers": expected("verflixte6", "jokers", lang)}
    await table.do("ben", Join("Ben"))
    await table.say("anna", "Joker: Rattenlord")
    thrown = await table.say("anna", "weiter")
    assert placeholders(thrown) == {"joker": expected("verflixte6", "joker", lang)}
    await table.do(MODERATOR, Close())

    await table.open("killer")
    for player in ("anna", "ben"):
        await table.do(player, Join(player.capitalize()))
    started = await table.do(MODERATOR, Start())
    assert placeholders(started) == {"keep": expected("killer", "keep", lang)}


def test_no_shared_catalogue_holds_a_games_select_placeholder() -> None:
    for lang in LANGUAGES:
        shared = catalogue(lang)
        for group in ("jokers", "joker", "victim", "keep", "target"):
            assert f"discord.select.{group}" not in shared
            assert f"select.{group}" not in shared
