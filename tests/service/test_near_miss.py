"""A command word with a typo gets an answer: "Meintest du „weiter“?" — but only for the player the
game waits for; chit-chat from others, and sentences that merely contain a word, stay silent. The
answer changes nothing and writes nothing."""

from __future__ import annotations

import pytest

from bot.games import GAMES
from bot.markup import plain
from bot.service.croupier import Croupier
from bot.service.rendering import Narrator
from bot.store import Store
from engine.game import Join, Start
from tests.dice import scripted
from tests.roundtrips import counted
from tests.service.helpers import MODERATOR, Table, snapshot_of

SQLITE_ONLY = pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True)


def did_you_mean(word: str, lang: str, game: str) -> str:
    return plain(Narrator().line("error.did_you_mean", {"word": word}, lang, game=GAMES[game]))


async def verflixte6(store: Store) -> Table:
    table = Table(Croupier(store=store, dice_factory=scripted([3, 4])))
    await table.open()
    await table.do("anna", Join("Anna"))
    await table.do("ben", Join("Ben"))
    return table


@pytest.mark.parametrize("typo", ["wieter", "weitr", "weıter", "Wieter!"])
async def test_a_typo_from_the_player_to_act_is_answered_and_changes_nothing(store: Store, typo: str) -> None:
    table = await verflixte6(store)
    before = await snapshot_of(store)
    with counted(store.engine) as trips:
        reply = await table.say("anna", typo)
    assert not reply.ok
    assert reply.lines == (did_you_mean("weiter", "de", "verflixte6"),)
    assert await snapshot_of(store) == before
    assert [t.ended for t in trips.transactions] in (["rollback"], [""])  # one read, nothing written


async def test_stpp_is_met_with_stopp_once_the_spiel_runs(store: Store) -> None:
    table = await verflixte6(store)
    assert (await table.say("anna", "weiter")).ok
    reply = await table.say("anna", "stpp")
    assert reply.lines == (did_you_mean("stopp", "de", "verflixte6"),)


@pytest.mark.parametrize(
    ("author", "text"),
    [
        ("ben", "wieter"),  # not ben's turn: chat between the others
        ("zed", "wieter"),  # a spectator
        ("anna", "Das Wetter ist schön heute"),  # no game word meant
        ("anna", "ich würde ja weitermachen"),  # a word inside a sentence
    ],
)
async def test_chat_stays_silent(store: Store, author: str, text: str) -> None:
    table = await verflixte6(store)
    reply = await table.say(author, text)
    assert reply.silent


@SQLITE_ONLY
async def test_a_killer_typo_is_answered_in_french(store: Store) -> None:
    table = Table(Croupier(store=store, dice_factory=scripted([6, 5, 4, 3, 2, 6, 6, 6, 6, 6, 1, 1, 1, 1, 1])))
    await table.open("killer")
    await table.do("anna", Join("Anna"))
    await table.do("ben", Join("Ben"))
    await table.do(MODERATOR, Start())
    to_act = (await table.say("anna", "conseil")).to_act or "anna"
    reply = await table.say(to_act, "garde tou")
    assert reply.lines == (did_you_mean("garde tout", "fr", "killer"),)
    other = "ben" if to_act == "anna" else "anna"
    assert (await table.say(other, "atack")).silent


@pytest.mark.parametrize("lang", ["de", "fr"])
async def test_raube_nich_is_met_with_raube_nicht_and_robs_nobody(store: Store, lang: str) -> None:
    """ "raube nich" reads as robbing someone called "nich"; nobody is, so it meant „raube nicht“
    (instead of "nobody here is called nich"). Nothing changes."""
    table = Table(Croupier(store=store, dice_factory=scripted([3, 1])))
    assert (await table.croupier.change_settings(table.msg(MODERATOR), {"language": lang})).ok
    await table.open()
    await table.do("anna", Join("Anna"))
    await table.do("ben", Join("Ben"))
    assert (await table.say("anna", "weiter")).ok  # the Freiwurf, 3
    robbing = await table.say("anna", "weiter")  # a 1: anna may rob ben
    assert robbing.ok
    before = await snapshot_of(store)
    reply = await table.say("anna", "raube nich")
    assert not reply.ok
    assert reply.lines == (did_you_mean("raube nicht", lang, "verflixte6"),)
    assert (await snapshot_of(store))[:4] == before[:4]  # the game as it was (the refusal is logged)
    assert (await table.say("anna", "raube nicht")).ok
