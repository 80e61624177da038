"""Properties over random command sequences from random actors with random dice (d20's habit).

* nothing but a CroupierError is ever raised, and a refusal leaves the state exactly as it was;
* every change of any balance is explained by the events, and a robbery moves pips without making any;
* with one Spiel at a time, at most one participant can act, and it is the one ``to_act`` names;
* the same commands with the same dice give the same states and events; every state round-trips JSON;
* after the close every Prinzessin stands above 0 and nobody is left in a running role.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.dice import ScriptedDice
from engine.errors import CroupierError, IllegalCommand, NotYourTurn
from engine.game import Close, Command, Join, Leave, Remove, Skip, Start, Timeout
from engine.verflixte6 import GAME
from engine.verflixte6.commands import (
    ChooseJokers,
    Continue,
    Decline,
    Fight,
    Keep,
    PlayJoker,
    Repeat,
    Retreat,
    Rob,
    Stop,
)
from engine.verflixte6.events import Robbed, V6Event
from engine.verflixte6.jokers import registry
from engine.verflixte6.robbery import eligible
from engine.verflixte6.state import DID_NOT_PLAY, PRINZESSIN, ZOMBIE, Durchgang, find
from engine.verflixte6.turns import acting, can_act

from .helpers import attempt

PEOPLE = ("anna", "ben", "cleo", "dora")
ACTORS = (*PEOPLE, "mod")
TURN = "@turn"  # stands for whoever the game waits for, so random scripts get deep into Spiele
JOKER_WORDS = (*registry.NAMES, "Anaconda", "all in", "Ventil", "Zauberstab")
TARGETS = (*PEOPLE, "@Anna", "Zorro")


def weighted(*choices: tuple[int, st.SearchStrategy[Any]]) -> st.SearchStrategy[Any]:
    """Pick a strategy in proportion to its weight (``one_of`` would treat them alike)."""
    pool = [strategy for weight, strategy in choices for _ in range(weight)]
    return st.sampled_from(pool).flatmap(lambda strategy: strategy)


jokers = st.sampled_from(JOKER_WORDS)
targets = st.sampled_from(TARGETS)
game_commands: st.SearchStrategy[Command] = weighted(
    (3, st.just(Continue())),
    (1, st.just(Stop())),
    (2, jokers.map(PlayJoker)),
    (1, st.lists(jokers, max_size=4).map(lambda names: ChooseJokers(tuple(names)))),
    (1, st.one_of(st.none(), targets).map(Rob)),
    (1, st.sampled_from([Fight(), Decline(), Retreat(), Keep(), Repeat()])),
)
lifecycle_commands: st.SearchStrategy[Command] = st.one_of(
    st.sampled_from(PEOPLE).map(lambda pid: Join(pid.capitalize())),
    st.just(Leave()),
    st.just(Start()),
    targets.map(Skip),
    targets.map(Remove),
    st.just(Timeout()),
)


@dataclasses.dataclass(frozen=True)
class Smart:
    """A move read against the state when it is made: a plausible command rather than a random one."""

    kind: str  # "answer" | "joker" | "choose" | "continue"
    n: int

    def command(self, state: Durchgang, actor: str) -> Command:
        participant = find(state, actor)
        spiel = participant.spiel if participant else None
        waiting = participant is not None and participant.role == "jungfrau"
        if waiting and (self.kind == "choose" or (spiel is None and self.n % 4 != 0)):
            enabled = state.options.jokers
            picked = {enabled[(self.n * 7 + 5 * j) % len(enabled)] for j in range(1 + self.n % 3)}
            return ChooseJokers(tuple(sorted(picked)))
        if self.kind == "joker" and spiel and spiel.jokers and not waiting:
            return PlayJoker(spiel.jokers[self.n % len(spiel.jokers)])
        if self.kind == "answer" and spiel and spiel.pending:
            answers: dict[str, list[Command]] = {
                "victim": [Rob(None), *(Rob(v) for v in eligible(state, actor))],
                "fight": [Fight(), Decline()],
                "retreat": [Continue(), Retreat()],
                "keep": [Keep(), Repeat()],
            }
            options = answers[spiel.pending.decision]
            return options[self.n % len(options)]
        return Continue()


smart_moves = st.builds(
    Smart,
    st.sampled_from(["answer", "answer", "joker", "joker", "joker", "choose", "continue"]),
    st.integers(0, 99),
)
moves = st.lists(
    st.tuples(
        st.sampled_from((TURN, TURN, TURN, TURN, TURN, TURN, *ACTORS)),
        weighted((12, smart_moves), (3, game_commands), (1, lifecycle_commands)),
    ),
    min_size=20,  # Hypothesis keeps lists short on average otherwise, and Spiele need many steps
    max_size=70,
)
Move = tuple[str, Command | Smart]
options = st.fixed_dictionaries(
    {
        "order": st.sampled_from(["signup", "shuffled"]),
        "parallel": st.booleans(),
        "jokers": st.sampled_from([None, "+Sekante", "Rattenlord, Monokel, Beefmaker, Sekante, Ventil"]),
        "start": st.booleans(),
    }
)
# one draw for all the dice (cheaper than a list of integers); each byte gives a fair-enough face
faces = st.binary(min_size=60, max_size=250).map(lambda raw: [b % 6 + 1 for b in raw])

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def opened(opts: dict[str, Any]) -> Durchgang:
    state = GAME.open({k: v for k, v in opts.items() if v is not None and k != "start"})
    for pid in PEOPLE[:3]:
        state, _ = GAME.apply(state, pid, Join(pid.capitalize()), ScriptedDice([]))
    if opts.get("start"):
        state, _ = GAME.apply(state, "mod", Start(), ScriptedDice([2, 5, 3, 1, 4, 6]))
    return state


def who(state: Durchgang, actor: str) -> str:
    return (GAME.to_act(state) or "mod") if actor == TURN else actor


def resolve(state: Durchgang, move: Move) -> tuple[str, Command]:
    actor = who(state, move[0])
    command = move[1]
    return actor, command.command(state, actor) if isinstance(command, Smart) else command


def run(
    opts: dict[str, Any], script: Sequence[Move], dice_faces: Sequence[int]
) -> list[tuple[Durchgang, list[V6Event] | str]]:
    """Play the script; each entry is the state after the move and its events (or the refusal code)."""
    state = opened(opts)
    dice = ScriptedDice(dice_faces)
    log: list[tuple[Durchgang, list[V6Event] | str]] = []
    for move in (*script, ("mod", Close())):
        try:
            state, events = GAME.apply(state, *resolve(state, move), dice)
        except CroupierError as error:
            log.append((state, error.code))
        else:
            log.append((state, list(events)))
    return log


def balances(state: Durchgang) -> dict[str, int]:
    return {p.id: p.points for p in state.participants}


def explained(events: Sequence[V6Event]) -> dict[str, int]:
    moved: dict[str, int] = {}
    for event in events:
        for pid, delta in event.changes().items():
            moved[pid] = moved.get(pid, 0) + delta
    return moved


def actors_who_can_act(state: Durchgang) -> set[str]:
    able = set()
    for participant in state.participants:
        try:
            GAME.apply(state, participant.id, Continue(), ScriptedDice([3, 3, 3]))
        except NotYourTurn:
            continue
        except IllegalCommand as error:
            if error.code in ("spiel_over", "not_started", "closed"):
                continue
        able.add(participant.id)
    return able


@SETTINGS
@given(opts=options, script=moves, dice_faces=faces)
def test_V6_properties_refusals_change_nothing_and_pips_are_explained(
    opts: dict[str, Any], script: list[Move], dice_faces: list[int]
) -> None:
    state = opened(opts)
    dice = ScriptedDice(dice_faces)
    for move in (*script, ("mod", Close())):
        before, snapshot = state, GAME.dump(state)
        try:
            state, events = GAME.apply(state, *resolve(state, move), dice)
        except CroupierError:
            assert GAME.dump(before) == snapshot
            continue
        # every pip that moved is accounted for by an event
        old, new, moved = balances(before), balances(state), explained(events)
        for pid in set(old) | set(new):
            assert new.get(pid, 0) - old.get(pid, 0) == moved.get(pid, 0), (pid, events)
        # robbery moves pips, it never makes them
        for event in events:
            if isinstance(event, Robbed):
                assert sum(event.changes().values()) == 0
        # the canonical snapshot round-trips
        assert GAME.load(json.loads(json.dumps(GAME.dump(state)))) == state
        # the valve never sits above the running total
        for participant in state.participants:
            spiel = participant.spiel
            if participant.role == "playing" and spiel is not None and spiel.valve is not None:
                assert spiel.valve <= participant.points
    assert GAME.finished(state)
    for participant in state.participants:
        assert participant.role in (PRINZESSIN, ZOMBIE, DID_NOT_PLAY)
        assert participant.points > 0 if participant.role == PRINZESSIN else participant.points == 0


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(opts=options.filter(lambda o: not o["parallel"]), script=moves, dice_faces=faces)
def test_V6_properties_one_participant_acts_at_a_time(
    opts: dict[str, Any], script: list[Move], dice_faces: list[int]
) -> None:
    for state, _ in run(opts, script, dice_faces)[:-1]:
        able = actors_who_can_act(state)
        assert len(able) <= 1
        assert able == ({GAME.to_act(state)} - {None}) or not able
        flagged = {seat.player for seat in GAME.table(state) if seat.to_act}
        assert flagged == able


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(opts=options, script=moves, dice_faces=faces)
def test_V6_properties_acting_is_can_act_seat_by_seat(
    opts: dict[str, Any], script: list[Move], dice_faces: list[int]
) -> None:
    """The table's one-pass ``acting`` marks exactly the seats ``can_act`` allows, in every mode."""
    for state, _ in run(opts, script, dice_faces):
        assert acting(state) == {p.id for p in state.participants if can_act(state, p.id)}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(opts=options, script=moves, dice_faces=faces)
def test_V6_properties_replay_is_deterministic(
    opts: dict[str, Any], script: list[Move], dice_faces: list[int]
) -> None:
    first = run(opts, script, dice_faces)
    second = run(opts, script, dice_faces)
    assert first == second


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(opts=options, script=moves, dice_faces=faces)
def test_V6_properties_every_choice_is_accepted(
    opts: dict[str, Any], script: list[Move], dice_faces: list[int]
) -> None:
    for state, _ in run(opts, script, dice_faces)[:-1]:
        actor = GAME.to_act(state)
        offered = list(GAME.choices(state))
        assert bool(offered) == (actor is not None)
        singles = [c.words for c in offered if not c.multi]
        groups = [c for c in offered if c.multi]
        if groups:
            singles.append(groups[0].compose([c.words for c in groups[: groups[0].limit]]))
        for text in singles:
            assert attempt(state, text), text  # a wrong choice raises; a right one always says something
