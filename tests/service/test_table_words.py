"""What the forum's croupier would have said, played in the console channel in the channel's language
with scripted dice: the advice below −6 (K5-D1), the options as the rules page writes them, refusals
that give the rule's reason or say how to join, a word typed where no game is open, the turn after
``/undo``, the Kälteschutz's uses left (V6-J1), French as the rules name things, a neutral keep
example, and the word that works when nobody is left to attack. Expectations are rendered from the
catalogues, never copied from the bot's output."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from bot.console.terminal import Answer, Console
from bot.games import GAMES, scope_of
from bot.service.croupier import Croupier, Incoming
from bot.store import Store
from bot.texts import LANGUAGES, render
from tests.dice import scripted
from tests.service.helpers import seen

SQLITE_ONLY = pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True)  # texts are not stored
pytestmark = SQLITE_ONLY


def says(key: str, lang: str, game: str | None = None, **facts: Any) -> str:
    """What the console says for ``key`` (console command spelling, players by their typed names)."""
    return render(key, facts, lang, scope=scope_of(GAMES[game]) if game is not None else None)


def console(store: Store, dice: Iterable[int] = ()) -> Console:
    return Console(Croupier(store=store, dice_factory=scripted(dice)), moderators=frozenset({"mod"}))


async def play(table: Console, *lines: str) -> list[Answer]:
    answers = []
    for line in lines:
        answer = await table.handle(line)
        assert answer is not None, line
        answers.append(answer)
    return answers


def language(lang: str, game_language: str) -> tuple[str, ...]:
    """The moderator's line that sets the channel's language, unless the game speaks it already."""
    return () if lang == game_language else (f"mod: /settings language={lang}",)


# --- 1. Killer: below −6 only the suicide attack is left (K5-D1) ----------------------------------------

# Setup: anna keeps 30, ben 5. anna's 2 2 1 1 1 = 7 is an attack of 4: three 4s, then none — 12 for ben.
BELOW_SIX = [6, 6, 6, 6, 6, 1, 1, 1, 1, 1, 2, 2, 1, 1, 1, 4, 4, 4, 1, 2, 1, 2]
KILLER_START = ("mod: /open killer", "anna: /join", "ben: /join", "mod: /start")


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_K5_D1_below_minus_six_the_croupier_offers_the_suicide_attack_not_a_regeneration(
    store: Store, lang: str
) -> None:
    table = console(store, BELOW_SIX)
    lines = (*language(lang, "fr"), *KILLER_START, "anna: garde tout", "ben: garde tout", "anna: garde tout")
    await play(table, *lines)
    (attack,) = await play(table, "anna: attaque ben")
    assert attack.ok
    beyond = says("killer.dying_beyond_rescue", lang, "killer", player="ben", hp=-7, most=6, low=11, high=24)
    assert beyond in attack.text.splitlines()
    assert says("killer.dying", lang, "killer", player="ben", hp=-7) not in attack.text
    assert "attaque NOM" in beyond or "attaque NAME" in beyond  # the words of the suicide attack


# --- 2. Options as the rules page writes them ----------------------------------------------------------


async def test_the_documented_joker_option_opens_a_durchgang_and_a_suggestion_resembles_the_typo(
    store: Store,
) -> None:
    table = console(store, [3])
    (near,) = await play(table, "mod: /open verflixte6 jokers=ALL")
    assert not near.ok
    assert near.text == says("error.unknown_joker", "de", "verflixte6", name="ALL", suggestions=["ALL IN"])
    opened, _, refused = await play(
        table,
        "mod: /open verflixte6 jokers=Rattenlord,ALL IN order=signup",
        "anna: /join",
        "anna: Joker: Pony",
    )
    assert opened.ok, opened.text
    enabled = ["Rattenlord", "ALL IN"]
    assert refused.text == says(
        "error.joker_disabled", "de", "verflixte6", joker="Push your Pony", enabled=enabled
    )
    (chosen,) = await play(table, "anna: Joker: Rattenlord, ALL IN")
    assert chosen.ok


# --- 3. Refusals with the rule's reason, how to join, a word where no game is open ---------------------


async def test_robbing_a_zombie_is_refused_with_the_rule_s_reason(store: Store) -> None:
    table = console(store, [3, 6, 2, 1])  # anna: Freiwurf 3, then a 6 (Zombie); ben: Freiwurf 2, then a 1
    await play(table, "mod: /open verflixte6", "anna: /join", "ben: /join", "cleo: /join")
    await play(table, "anna: weiter", "anna: weiter", "ben: weiter", "ben: weiter")
    (refused,) = await play(table, "ben: raube anna")
    assert not refused.ok
    assert refused.text == says("error.rob_zombie", "de", "verflixte6", target="anna", victims=["cleo"])
    assert "Leichenfleddern ist verboten" in refused.text


async def test_a_spectator_is_told_how_to_join(store: Store) -> None:
    table = console(store)
    await play(table, "mod: /open verflixte6", "anna: /join")
    (refused,) = await play(table, "zed: weiter")
    assert refused.text == says("error.join_first", "de", "verflixte6")
    assert "/join" in refused.text
    (joined,) = await play(table, "zed: /join")  # and the command it names does it
    assert joined.ok


async def test_a_game_word_where_no_game_is_open_is_answered_once_per_player(store: Store) -> None:
    table = console(store)
    told, again, other = await play(table, "anna: weiter", "anna: weiter", "ben: weiter")
    assert told.text == says("error.nothing_open", "de", "verflixte6")
    assert again.silent  # not a second time within a few minutes
    assert other.text == told.text
    (killer,) = await play(table, "cleo: garde tout")  # Killer's words, in Killer's words
    assert killer.text == says("error.nothing_open", "de", "killer")
    (chatter,) = await play(table, "dora: weiter so!")  # chit-chat stays unanswered
    assert chatter.silent


# --- 4. The turn after /undo ----------------------------------------------------------------------------


async def test_the_undo_answer_ends_with_the_player_to_act_and_the_words_valid_now(store: Store) -> None:
    table = console(store, [3, 1])  # anna: Freiwurf 3, then a 1 that lets her rob ben
    await play(table, "mod: /open verflixte6", "anna: /join", "ben: /join", "anna: weiter", "anna: weiter")
    (robbed,) = await play(table, "anna: raube ben")
    assert robbed.ok
    (undone,) = await play(table, "mod: /undo Versehen")
    story = undone.text.split("\n— ")[0].splitlines()  # the lines before the running table
    assert story[-1] == says("v6.victim_asked", "de", "verflixte6", player="anna", amount=1, victims=["ben"])
    (undone,) = await play(table, "mod: /undo Versehen")  # the second throw taken back too
    story = undone.text.split("\n— ")[0].splitlines()
    valid = ["weiter", "stopp"]
    assert story[-1] == says("v6.move_asked", "de", "verflixte6", player="anna", valid=valid)


async def test_the_undo_answer_in_killer_asks_for_the_keep_again(store: Store) -> None:
    table = console(store, [6, 6, 6, 6, 6, 1, 1, 1, 1, 1, 3, 2, 1, 5, 4])
    await play(table, *KILLER_START, "anna: garde tout", "ben: garde tout")
    (kept,) = await play(table, "anna: garde 1")
    assert kept.ok
    (undone,) = await play(table, "mod: /undo erreur de frappe")
    story = undone.text.split("\n— ")[0].splitlines()
    roll = says("killer.roll_on_table", "fr", "killer", player="anna", roll=(3, 2, 1, 5, 4), kept=())
    assert story[-2:] == [roll, says("killer.keep_asked", "fr", "killer", player="anna", example="3 2")]


# --- 5. The Kälteschutz's uses left (V6-J1) ------------------------------------------------------------


async def test_V6_J1_the_table_shows_the_kaelteschutz_uses_left(store: Store) -> None:
    table = console(store, [3, 4, 2])
    await play(table, "mod: /open verflixte6", "anna: /join", "anna: Joker: Kälteschutz", "anna: weiter")
    first, second = await play(table, "anna: weiter mit Joker Kälteschutz", "anna: weiter mit Kälte")
    assert says("seat.details.cold", "de", "verflixte6", cold=(4, 5)) in first.text
    assert says("seat.details.cold", "de", "verflixte6", cold=(3, 5)) in second.text
    assert "❄️ Kälteschutz 3/5" in second.text


# --- 6. French -------------------------------------------------------------------------------------------


async def test_french_says_no_die_shows_seven_and_names_the_modes_as_the_rules_do(store: Store) -> None:
    table = console(store, [6, 6, 6, 6, 6])
    (opened,) = await play(table, "mod: /open killer modes=terminator,zombie,mythic")
    assert opened.ok
    _, _, started = await play(table, "anna: /join", "ben: /join", "mod: /start")
    assert "Modes : Terminator, Zombie et jets mythiques." in started.text
    (seven,) = await play(table, "anna: garde 7")
    assert seven.text == says("error.killer_bad_die", "fr", "killer", value=7)
    assert seven.text.startswith("Aucun dé ne montre 7")


async def test_french_says_a_failed_zombie_return_stays_dead_and_dice_mis_de_cote(store: Store) -> None:
    # Setup anna 30, ben 5, cleo 30; anna's attack of 4 takes ben to −7; ben's deciding turn and cleo's
    # turn miss (15); a new round: anna misses, and ben's zombie die shows 4.
    dice = [6] * 5 + [1] * 5 + [6] * 5 + [2, 2, 1, 1, 1, 4, 4, 4, 1, 2, 1, 2] + [3] * 15 + [4]
    table = console(store, dice)
    await play(table, "mod: /open killer modes=zombie", "anna: /join", "ben: /join", "cleo: /join")
    await play(table, "mod: /start", "anna: garde tout", "ben: garde tout", "cleo: garde tout")
    await play(table, "anna: garde tout")
    (attack,) = await play(table, "anna: attaque ben")
    assert "3 mis de côté" in attack.text
    await play(table, "ben: garde tout", "cleo: garde tout")
    (missed,) = await play(table, "anna: garde tout")
    lines = missed.text.splitlines()
    rolled = says("killer.zombie_rolled", "fr", "killer", player="ben", face=4)
    assert lines[lines.index(rolled) + 1] == says("killer.still_dead", "fr", "killer", player="ben")


async def test_the_older_rules_attack_roll_sets_nothing_aside(store: Store) -> None:
    dice = [5] * 6 + [5] * 6 + [6] * 6 + [6, 1, 2, 3, 4, 5]
    table = console(store, dice)
    await play(table, "mod: /open killer-classic", "anna: /join", "ben: /join", "mod: /start")
    await play(table, "anna: garde tout", "ben: garde tout", "anna: garde tout")
    (attack,) = await play(table, "anna: attaque ben")
    assert "de côté" not in attack.text
    faces = [6, 1, 2, 3, 4, 5]
    assert (
        says("killer.attack_rolled", "fr", "killer-classic", attacker="anna", value=6, faces=faces)
        in attack.text
    )


async def test_killer_games_of_both_rule_sets_are_numbered_apart(store: Store) -> None:
    table = console(store)
    first, _ = await play(table, "mod: /open killer", "mod: /close")
    (second,) = await play(table, "mod: /open killer-classic")
    assert says("game.opened", "fr", "killer", number=1, tournament="Tournoi").split(" ;")[0] in first.text
    assert "Killer (6 dés) · partie 2" in (await play(table, "anna: /join"))[0].text
    assert second.ok


# --- 7. A neutral keep example --------------------------------------------------------------------------


async def test_the_keep_prompt_s_example_is_not_advice(store: Store) -> None:
    table = console(store, [3, 2, 1, 3, 6])
    _, _, _, started = await play(table, *KILLER_START)
    prompt = says("killer.keep_asked", "fr", "killer", player="anna", example="3 2")
    assert prompt in started.text.splitlines()
    assert "« garde 6 3 »" not in started.text  # not the two highest, which would read as advice
    assert "« conseil »" in prompt


# --- 8. The last one alive: the word that works -----------------------------------------------------------

# ben signs up first. ben 5, anna 30; ben misses (15: −4); anna's attack of 4 takes ben to −11; ben's
# deciding turn misses: dead. anna, alone, obtains an attack of 4 before the round ends.
LAST_ALIVE = [1, 1, 1, 1, 1, 6, 6, 6, 6, 6, 3, 3, 3, 3, 3, 2, 2, 1, 1, 1, 4, 4, 4, 1, 2, 1, 2]
LAST_ALIVE += [3, 3, 3, 3, 3, 2, 2, 1, 1, 1]


async def test_K5_E1_alone_with_an_attack_auto_names_the_bare_attaque(store: Store) -> None:
    table = console(store, LAST_ALIVE)
    await play(table, "mod: /open killer", "ben: /join", "anna: /join", "mod: /start")
    await play(table, "ben: garde tout", "anna: garde tout", "ben: garde tout", "anna: garde tout")
    await play(table, "anna: attaque ben", "ben: garde tout")
    (alone,) = await play(table, "anna: garde tout")
    assert says("killer.last_standing", "fr", "killer", player="anna", value=4) in alone.text
    (auto,) = await play(table, "anna: auto")
    assert not auto.ok
    assert auto.text == says("error.killer_expect_bare_attack", "fr", "killer", player="anna", value=4)
    assert "« attaque »" in auto.text
    assert "attaque NOM" not in auto.text


async def test_a_home_whose_durchgang_plays_in_a_thread_is_not_told_none_is_open(store: Store) -> None:
    """The Durchgang lives in a thread of the channel: "weiter" typed in the channel itself must not
    hear that no Durchgang is open (where it is, is the thread's pointer's business)."""
    croupier = Croupier(store=store)
    in_thread = Incoming(
        message_id="t:1",
        guild="g",
        channel="thread-1",
        parent="home",
        author="mod",
        author_name="mod",
        is_moderator=True,
        place="thread",
    )
    assert (await croupier.open_game(in_thread, "verflixte6", {})).ok
    typed = Incoming(
        message_id="h:1", guild="g", channel="home", author="anna", author_name="anna", text="weiter"
    )
    assert (await croupier.handle_text(typed)).silent
    killer = Incoming(
        message_id="h:2", guild="g", channel="home", author="ben", author_name="ben", text="garde tout"
    )
    told = seen(await croupier.handle_text(killer))  # no Killer game anywhere: that one is said
    assert told.text == says("error.nothing_open", "de", "killer")
