"""A line the game could not read is answered by who sent it first, then by what is valid now.

* A seated player who is not to act gets the turn refusal for a malformed line ("garde tou",
  "weiter mit Joker Ponny") exactly as for a well-formed one — never a verdict on its die value or
  joker; a spectator gets what any move of theirs gets; chit-chat stays silent.
* A near miss offers only words valid now: no "attaque" in a keep phase; a misspelt joker is matched
  against the jokers still in hand, and when none is close the player hears which they hold.

Expectations are rendered from the catalogues; every refusal leaves the game as it was.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.games import GAMES, scope_of
from bot.service.croupier import Croupier
from bot.store import Store
from bot.texts import LANGUAGES, render
from engine.game import Join, Start
from tests.dice import Dice, scripted
from tests.service.helpers import MODERATOR, Table, snapshot_of

SQLITE_ONLY = pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True)  # texts are not stored
NAMES = {"anna": "Anna", "ben": "Ben", "zed": "Zed"}


def says(key: str, lang: str, game: str | None = None, **facts: Any) -> str:
    """What the croupier says for ``key`` on the console, players by name."""
    scope = scope_of(GAMES[game]) if game is not None else None
    return render(key, facts, lang, lambda pid: NAMES.get(pid, pid), scope=scope)


async def seated(store: Store, kind: str, lang: str, dice: Any) -> Table:
    """A channel speaking ``lang`` with a game of ``kind`` that anna and ben joined (in that order)."""
    table = Table(Croupier(store=store, dice_factory=dice))
    assert (await table.croupier.change_settings(table.msg(MODERATOR), {"language": lang})).ok
    assert (await table.open(kind)).ok
    for player in ("anna", "ben"):
        assert (await table.do(player, Join(NAMES[player]))).ok
    return table


async def refused_unchanged(table: Table, store: Store, author: str, line: str) -> tuple[str, ...]:
    """The lines of the refusal ``author``'s ``line`` gets; the game stays as it was."""
    before = await snapshot_of(store)
    reply = await table.say(author, line)
    assert not reply.ok, (line, reply.text)
    assert (await snapshot_of(store))[:4] == before[:4]  # the refusal is logged, nothing else
    return reply.lines


@SQLITE_ONLY
@pytest.mark.parametrize("lang", LANGUAGES)
async def test_K5_R1_a_malformed_keep_out_of_turn_gets_the_turn_refusal(store: Store, lang: str) -> None:
    """K5-R1 (one player acts at a time): ben's "garde tou" and "garde 7" while anna keeps are
    refused as his "garde 6" is — with whom the game waits for — and a spectator's likewise."""
    table = await seated(store, "killer", lang, scripted([6, 5, 2, 1, 1] * 4))
    started = await table.do(MODERATOR, Start())
    assert started.to_act == "anna"
    turn = (says("error.not_your_turn", lang, "killer", player="anna", actor="ben"),)
    for line in ("garde 6", "garde tou", "garde 7", "garde les 6", "garde"):
        assert await refused_unchanged(table, store, "ben", line) == turn
    spectator = (says("error.not_your_turn", lang, "killer", player="anna", actor="zed"),)
    assert await refused_unchanged(table, store, "zed", "garde tou") == spectator
    assert (await table.say("zed", "atack anna")).silent  # chit-chat from a non-player
    assert (await table.say("ben", "atack anna")).silent
    mine = (says("error.killer_bad_keep", lang, "killer", word="tou"),)  # anna's own line is judged
    assert await refused_unchanged(table, store, "anna", "garde 6 tou") == mine


@SQLITE_ONLY
@pytest.mark.parametrize("lang", LANGUAGES)
async def test_V6_S1_a_misspelt_joker_out_of_turn_gets_the_turn_refusal(store: Store, lang: str) -> None:
    """V6-S1 (the queue's order): ben's "weiter mit Joker Ponny" and "Joker: Ponny" while anna plays
    are refused as his "weiter" is; somebody not signed up hears just that."""
    table = await seated(store, "verflixte6", lang, scripted([4]))
    turn = (says("error.not_your_turn", lang, "verflixte6", player="anna"),)
    for line in ("weiter", "weiter mit Joker Ponny", "Joker: Ponny", "raube", "weiter mit Joker"):
        assert await refused_unchanged(table, store, "ben", line) == turn
    outsider = (says("error.join_first", lang, "verflixte6", player="anna"),)
    assert await refused_unchanged(table, store, "zed", "weiter mit Joker Ponny") == outsider
    assert (await table.say("ben", "wieter")).silent


@SQLITE_ONLY
@pytest.mark.parametrize("lang", LANGUAGES)
async def test_K5_K1_a_near_miss_offers_no_attack_while_keeping(store: Store, lang: str) -> None:
    """K5-K1: a keep phase takes keeps only, so "atack ben" there gets no "attaque?" (the keep words
    are the prompt's); "garde tou" still gets „garde tout“ and "conseill" „conseil“ (a question is
    always welcome)."""
    table = await seated(store, "killer", lang, scripted([6, 5, 2, 1, 1] * 4))
    assert (await table.do(MODERATOR, Start())).to_act == "anna"
    assert (await table.say("anna", "atack ben")).silent
    for typo, meant in (("garde tou", "garde tout"), ("conseill", "conseil")):
        reply = await table.say("anna", typo)
        assert reply.lines == (says("error.did_you_mean", lang, word=meant),)


@SQLITE_ONLY
@pytest.mark.parametrize("lang", LANGUAGES)
async def test_V6_S3_a_misspelt_joker_is_matched_against_the_jokers_in_hand(store: Store, lang: str) -> None:
    """V6-S3 (only chosen jokers are played, one use each): "Ponny" is met with Push your Pony only
    while anna holds it; without it — or for a name nearest a joker she does not hold — she hears
    which she can still play; with none left, that she has none."""
    dice = Dice()
    table = await seated(store, "verflixte6", lang, dice.factory)
    assert (await table.say("anna", "Joker: Rattenlord, Pony")).ok
    dice.will_roll(4)
    assert (await table.say("anna", "weiter")).ok  # the Freiwurf
    meant = (says("error.unknown_joker", lang, "verflixte6", name="Ponny", suggestions=["Push your Pony"]),)
    assert await refused_unchanged(table, store, "anna", "weiter mit Joker Ponny") == meant
    held = ["Rattenlord", "Push your Pony"]
    plainly = (says("error.unknown_joker_held", lang, "verflixte6", name="Monokle", jokers=held),)
    assert await refused_unchanged(table, store, "anna", "weiter mit Joker Monokle") == plainly

    dice.will_roll(5, 5, 5)  # Push your Pony: 15, kept
    assert (await table.say("anna", "weiter mit Joker Push your Pony")).ok
    left = (says("error.unknown_joker_held", lang, "verflixte6", name="Ponny", jokers=["Rattenlord"]),)
    assert await refused_unchanged(table, store, "anna", "weiter mit Joker Ponny") == left
    dice.will_roll(5)  # the Rattenlord: a 5 beats the rat at once
    assert (await table.say("anna", "weiter mit Joker Rattenlord")).ok
    none = (says("error.unknown_joker_none_held", lang, "verflixte6", name="Ponny"),)
    assert await refused_unchanged(table, store, "anna", "weiter mit Joker Ponny") == none
