"""A small table driver for rule tests: scripted dice per command, and refusals checked for no change."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from engine.dice import ScriptedDice
from engine.errors import CroupierError
from engine.game import Command, Join
from engine.verflixte6 import GAME
from engine.verflixte6 import events as ev
from engine.verflixte6.events import V6Event
from engine.verflixte6.state import Durchgang, Participant, Spiel, find, with_participant

# What the game asks after a move rather than what happened in it.
PROMPTS = (ev.MoveAsked, ev.AllPlayed)


class Table:
    """One Durchgang under test. Players are ids; their display name is the id capitalised."""

    def __init__(self, *players: str, **options: Any) -> None:
        self.state: Durchgang = GAME.open(options)
        self.events: list[V6Event] = []
        self.asked: list[V6Event] = []
        self.told: list[V6Event] = []
        for pid in players:
            self.do(pid, Join(pid.capitalize()))

    # --- acting ------------------------------------------------------------------------------------

    def do(self, actor: str, command: Command, *faces: int) -> list[V6Event]:
        """Apply a command with exactly these dice; leftover dice fail the test.

        Answers (and keeps in ``events``) the story of the move; what the game then asks — the words
        valid now, the moderator's close (:data:`PROMPTS`, pinned by test_prompts.py) — is kept in
        ``asked``, and everything in ``told``."""
        dice = ScriptedDice(faces)
        self.state, events = GAME.apply(self.state, actor, command, dice)
        assert dice.left == 0, f"{dice.left} scripted dice unused"
        self.told = list(events)
        self.asked = [event for event in events if isinstance(event, PROMPTS)]
        self.events = [event for event in events if not isinstance(event, PROMPTS)]
        return self.events

    def say(self, actor: str, text: str, *faces: int) -> list[V6Event]:
        command = GAME.parse(text)
        assert command is not None, f"not a command: {text!r}"
        return self.do(actor, command, *faces)

    def begin(self, actor: str, freiwurf: int, jokers: Sequence[str] = ()) -> None:
        """Choose jokers (if any) and throw the Freiwurf."""
        if jokers:
            self.say(actor, "Joker: " + ", ".join(jokers))
        self.say(actor, "weiter", freiwurf)

    def refuse(
        self, actor: str, command: Command | str, error: type[CroupierError], code: str, *faces: int
    ) -> CroupierError:
        """The command is refused with this class and code, and the state is left exactly as it was."""
        if isinstance(command, str):
            parsed = GAME.parse(command)
            assert parsed is not None
            command = parsed
        before, snapshot = self.state, GAME.dump(self.state)
        with pytest.raises(error) as caught:
            GAME.apply(self.state, actor, command, ScriptedDice(faces))
        assert caught.value.code == code, caught.value
        assert self.state == before
        assert GAME.dump(self.state) == snapshot
        return caught.value

    # --- arranging (tests only) --------------------------------------------------------------------

    def set_points(self, pid: str, points: int) -> None:
        participant = self.p(pid)
        self.state = with_participant(self.state, dataclasses.replace(participant, points=points))

    # --- reading -------------------------------------------------------------------------------------

    def p(self, pid: str) -> Participant:
        participant = find(self.state, pid)
        assert participant is not None
        return participant

    def points(self, pid: str) -> int:
        return self.p(pid).points

    def role(self, pid: str) -> str:
        return self.p(pid).role

    def spiel(self, pid: str) -> Spiel:
        spiel = self.p(pid).spiel
        assert spiel is not None
        return spiel

    def kinds(self) -> list[str]:
        return [e.kind() for e in self.events]

    def last(self, cls: type[V6Event]) -> Any:
        found = [e for e in self.events if isinstance(e, cls)]
        assert found, f"no {cls.__name__} in {self.kinds()}"
        return found[-1]


def kinds(events: Iterable[V6Event]) -> list[str]:
    return [e.kind() for e in events]


SPARE_DICE = (4,) * 6  # more than any one command rolls; a 4 neither robs nor busts


def attempt(state: Durchgang, text: str) -> Sequence[V6Event]:
    """The events of the participant to act typing ``text`` now (a refusal raises); ``state`` stays."""
    command = GAME.parse(text)
    actor = GAME.to_act(state)
    assert command is not None, text
    assert actor is not None
    _, events = GAME.apply(state, actor, command, ScriptedDice(SPARE_DICE))
    return events
