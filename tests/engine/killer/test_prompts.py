"""Every move that leaves a decision ends with what the player to act must type (engine.killer.prompts):
the keep after each roll, a zombie's side, the target of an attack and who may be targeted, attack or
pass in the older revision — and, for a player nobody else can be attacked by, the only word left and
what ends the game. Each prompt's words are words the game accepts at that moment."""

from __future__ import annotations

import pytest

from bot.texts import LANGUAGES, render
from engine.errors import IllegalCommand
from engine.game import Close, Event, Start
from engine.killer import KILLER, KILLER_CLASSIC
from engine.killer import events as ev

from .helpers import Table, kinds, position

SIX_SIXES = [6, 6, 6, 6, 6]


def last(events: list[Event]) -> Event:
    return events[-1]


def said(event: Event, lang: str, game: object = KILLER) -> str:
    scope = (KILLER.catalogue, KILLER_CLASSIC.name if game is KILLER_CLASSIC else KILLER.name)
    return render(event.kind(), event.facts(), lang, str.capitalize, scope=scope)


def test_every_roll_of_a_keep_phase_asks_for_a_keep_of_that_roll() -> None:
    table = Table([6, 5, 2, 1, 1, 6, 6, 3, 4, *SIX_SIXES])
    started = table.do("mod", Start())
    assert kinds(started)[-2:] == ["killer.rolled", "killer.keep_asked"]
    assert last(started) == ev.KeepAsked("anna", "6 5")
    kept = table.do("anna", "garde 6")
    assert last(kept) == ev.KeepAsked("anna", "6 6")  # the new roll: 6, 6, 3, 4
    assert table.game.parse("garde 6 6") is not None


def test_the_keep_example_is_the_roll_s_first_dice_not_its_highest() -> None:
    """The example shows the words, not a choice: the two highest dice read as the croupier's advice
    even to a player aiming low, which ``conseil`` would then contradict."""
    table = Table([3, 2, 1, 3, 6, 1, 5, 4, *SIX_SIXES])
    started = table.do("mod", Start())
    assert last(started) == ev.KeepAsked("anna", "3 2")  # the roll 3, 2, 1, 3, 6, as rolled
    kept = table.do("anna", "garde 1")
    assert last(kept) == ev.KeepAsked("anna", "1 5")  # 1, 5, 4, … as rolled
    for lang in LANGUAGES:
        text = said(last(started), lang)
        assert "garde 3 2" in text
        assert "garde 6 3" not in text


def test_a_roll_of_two_dice_asks_for_one_of_them() -> None:
    table = Table([6, 1, 1, 1, 1, 5, 1, 1, 1, 4, 1, 1, 3, 2, *SIX_SIXES])
    table.do("mod", Start())
    for value in ("6", "5", "4"):
        events = table.do("anna", f"garde {value}")
    assert last(events) == ev.KeepAsked("anna", "3")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_keep_prompt_names_the_words(lang: str) -> None:
    text = said(ev.KeepAsked("anna", "6 5"), lang)
    for words in ("garde 6 5", "garde tout", "auto", "conseil"):
        assert words in text


def test_a_zombie_is_asked_for_its_side() -> None:
    table = position(
        {"anna": ("alive", 30), "ben": ("zombie", 1)}, "anna", [3, 3, 3, 3, 3], options={"modes": "zombie"}
    )
    events = table.do("anna", "garde tout")  # 15: a miss; the zombie's turn begins
    assert last(events) == ev.DirectionAsked("ben", 11, 24)
    for lang in LANGUAGES:
        text = said(last(events), lang)
        assert all(words in text for words in ("haut", "bas", "24", "11"))


def test_an_attack_asks_for_a_target_among_those_it_may_hit() -> None:
    # carl is dead and dora an immune Terminator: only ben may be targeted
    table = position(
        {"anna": ("alive", 30), "ben": ("alive", 30), "carl": ("dead", -2), "dora": ("alive", 30)},
        "anna",
        [5, 6, 6, 4, 4],
        options={"modes": ["terminator"]},
        terminator={"dora": 1},
    )
    events = table.do("anna", "garde tout")
    assert kinds(events)[-2:] == ["killer.attack_obtained", "killer.target_asked"]
    assert last(events) == ev.TargetAsked("anna", 1, ("ben",))
    for lang in LANGUAGES:
        text = said(last(events), lang)
        assert all(words in text for words in ("attaque", "Ben"))
        assert not any(name in text for name in ("Carl", "Dora"))


def test_only_immune_opponents_leave_only_the_attack_on_oneself() -> None:
    table = position(
        {"anna": ("alive", 30), "ben": ("alive", 10)},
        "ben",
        [5, 6, 6, 4, 4],
        options={"modes": ["terminator"]},
        terminator={"anna": 1},
    )
    events = table.do("ben", "garde tout")
    assert last(events) == ev.ImmuneTargetsOnly("ben", 1)
    assert [choice.words for choice in table.game.choices(table.state)] == ["attaque"]


def test_the_last_one_standing_is_told_that_attaque_hits_them_and_what_ends_the_game() -> None:
    # ben died earlier in the round; anna, alone, obtains an attack of 1 before the round ends
    table = position({"ben": ("dead", -3), "anna": ("alive", 20)}, "anna", [5, 6, 6, 4, 4, 2, 2, 2, 2, 2])
    events = table.do("anna", "garde tout")
    assert last(events) == ev.LastStanding("anna", 1)
    assert [choice.words for choice in table.game.choices(table.state)] == ["attaque"]
    for lang in LANGUAGES:
        assert "attaque" in said(last(events), lang)
    auto = table.refuse("anna", "auto", IllegalCommand, "killer_expect_bare_attack")  # not "attaque NOM"
    for lang in LANGUAGES:
        text = render(f"error.{auto.code}", dict(auto.facts), lang, scope=(KILLER.catalogue, KILLER.name))
        assert "attaque" in text
        assert "NOM" not in text
        assert "NAME" not in text
    ended = table.do("anna", "attaque")  # one roll without a 1: no damage, the round ends, anna wins
    assert kinds(ended)[0] == "killer.attack_turned"
    assert ended[-1] == ev.Won("anna", 20)


def test_a_dying_last_one_standing_is_told_the_attack_kills_them_and_nobody_wins() -> None:
    table = position({"ben": ("dead", -3), "anna": ("dying", -2)}, "anna", [5, 6, 6, 4, 4, 2, 2, 2, 2, 2])
    events = table.do("anna", "garde tout")
    assert kinds(events)[-3:] == [
        "killer.attack_obtained",
        "killer.suicide_attack",
        "killer.last_standing_dying",
    ]
    ended = table.do("anna", "attaque")
    assert kinds(ended)[-2:] == ["killer.died", "killer.no_winner"]


def test_the_older_revision_asks_attack_or_pass_after_a_positive_strength_and_after_a_hit() -> None:
    table = Table(
        [6] * 6 + [6, 1, 2, 3, 4, 5], setup=(30, 30, 30), players=("anna", "ben", "carl"), game=KILLER_CLASSIC
    )
    events = table.do("anna", "garde tout")  # 36: strength 6
    assert last(events) == ev.TargetOrPassAsked("anna", 6, ("ben", "carl"))
    hit = table.do("anna", "attaque ben")  # one 6: a hit
    assert last(hit) == ev.AgainAsked("anna", 6, ("ben", "carl"))
    for event in (last(events), last(hit)):
        for lang in LANGUAGES:
            text = said(event, lang, KILLER_CLASSIC)
            assert all(words in text for words in ("attaque", "passe", "Ben", "Carl"))


def test_no_prompt_while_a_roll_is_due_or_after_the_end() -> None:
    table = Table([6, 5, 2, 1, 1])
    table.do("mod", Start())
    assert kinds(table.do("anna", "garde 6 5"))[-1] == "killer.kept"  # the dice ran out: nothing asked
    over = Table([6, 5, 2, 1, 1])
    over.do("mod", Start())
    assert kinds(over.do("mod", Close()))[-1] == "killer.no_winner"
