"""The Killer tests' one set of helpers: a scripted table (players, setup, then typed lines with known
dice), positions already under way, reproducible random dice and a random legal move."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from engine.dice import ScriptedDice
from engine.errors import CroupierError
from engine.game import Command, Event, Join, Start
from engine.killer import KILLER, Attack, Auto, Direction, Keep, KeepAll, KillerState, Pass, Player, flow
from engine.killer.game import _KillerGame


def faces_for(total: int, dice: int) -> list[int]:
    """Dice of one roll that sum to ``total`` (highest first), e.g. a setup kept whole."""
    assert dice <= total <= 6 * dice
    faces = []
    for left in range(dice, 0, -1):
        face = min(6, total - (left - 1))
        faces.append(face)
        total -= face
    return faces


class Table:
    """One game driven line by line; ``setup`` gives each player's starting PDV (kept whole)."""

    def __init__(
        self,
        dice: Iterable[int] = (),
        *,
        players: Sequence[str] = ("anna", "ben"),
        setup: Sequence[int] | None = None,
        options: dict[str, Any] | None = None,
        game: _KillerGame = KILLER,
    ) -> None:
        self.game = game
        self.state: KillerState = game.open(options or {})
        count = self.state.rules.dice
        setup_faces = [f for hp in setup or () for f in faces_for(hp, count)]
        self.dice = ScriptedDice([*setup_faces, *dice])
        self.events: list[Event] = []
        for player in players:
            self.do(player, Join(player))
        if setup is not None:
            self.do("mod", Start())
            for player in players[: len(setup)]:
                self.do(player, "garde tout")

    def do(self, actor: str, command: Command | str) -> list[Event]:
        if isinstance(command, str):
            parsed = self.game.parse(command)
            assert parsed is not None, command
            command = parsed
        self.state, events = self.game.apply(self.state, actor, command, self.dice)
        self.events += events
        return list(events)

    def refuse(
        self, actor: str, command: Command | str, error: type[CroupierError], code: str
    ) -> CroupierError:
        """The command is refused with ``error``/``code``; the state and the dice are untouched."""
        if isinstance(command, str):
            parsed = self.game.parse(command)
            assert parsed is not None, command
            command = parsed
        before, snapshot, position = self.game.dump(self.state), self.state, self.dice.position
        with pytest.raises(error) as info:
            self.game.apply(self.state, actor, command, self.dice)
        assert info.value.code == code
        assert self.state is snapshot
        assert self.game.dump(self.state) == before
        assert self.dice.position == position
        return info.value

    def hp(self, player: str) -> int:
        return self.state.player(player).hp

    def status(self, player: str) -> str:
        return self.state.player(player).status

    @property
    def to_act(self) -> str | None:
        return self.game.to_act(self.state)

    @property
    def step(self) -> str | None:
        return None if self.state.turn is None else self.state.turn.step

    @property
    def roll(self) -> tuple[int, ...]:
        assert self.state.turn is not None
        return self.state.turn.roll


def kinds(events: Iterable[Event]) -> list[str]:
    return [event.kind() for event in events]


def of(events: Iterable[Event], kind: type[Event]) -> list[Any]:
    return [event for event in events if isinstance(event, kind)]


def position(
    players: dict[str, tuple[str, int]],
    to_act: str,
    dice: Iterable[int] = (),
    *,
    options: dict[str, Any] | None = None,
    game: _KillerGame = KILLER,
    terminator: dict[str, int] | None = None,
) -> Table:
    """A game already under way (like a chess position): statuses and PDV given, ``to_act``'s turn
    just begun, its first roll made from ``dice``."""
    table = Table(players=(), options=options, game=game)
    roster = tuple(
        Player(pid, pid.capitalize(), hp, status, (terminator or {}).get(pid, 0))  # type: ignore[arg-type]
        for pid, (status, hp) in players.items()
    )
    state = dataclasses.replace(table.state, players=roster, started=True, order=tuple(players), cycle=1)
    state, events = flow.start_turn(state, list(players).index(to_act))
    table.dice = ScriptedDice(dice)
    table.state, more = flow.settle(state, table.dice, strict=False)
    table.events = [*events, *more]
    return table


class SeededDice:
    """Reproducible dice for property tests (a local generator, never the global one)."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def roll(self) -> int:
        return self._random.randint(1, 6)


def sensible(game: _KillerGame, state: KillerState, rng: random.Random) -> Command:
    """A legal move for the player to act, chosen at random."""
    turn = state.turn
    assert turn is not None
    if turn.step in ("setup", "keep"):
        choice = rng.random()
        if choice < 0.3:
            return Auto()
        if choice < 0.4:
            return KeepAll()
        size = rng.randint(1, len(turn.roll))
        return Keep(tuple(rng.sample(turn.roll, size)))
    if turn.step == "direction":
        return Direction(rng.choice(["high", "low"]))
    if turn.step == "again" and rng.random() < 0.5:
        return Pass()
    targets = [
        p.id
        for p in state.players
        if p.id != turn.player and p.targetable and not state.variant.immune(p, turn.value)
    ]
    if not targets or (state.variant.self_attack and rng.random() < 0.1):
        return Attack(None) if state.variant.self_attack else Pass()
    return Attack(rng.choice(targets))
