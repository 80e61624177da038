"""The working copy of one command's effects: the state so far, the events so far, the dice.

A step builds a new immutable state by replacement; the state it was handed is never touched, so a
refusal raised halfway leaves the caller's state exactly as it was. The valve rule that holds after
every change is kept here (V6-J12), and so are the calls into the autojokers' hooks. The step is handed
the registry's jokers rather than importing them: jokers build on the step, never the other way round.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from engine.dice import DiceSource
from engine.records import evolve
from engine.verflixte6 import events as ev
from engine.verflixte6.state import PLAYING, Durchgang, Participant, Pending, Spiel, find, with_participant


class Hooks(Protocol):
    """What a step needs of a joker (``JokerSpec`` has it): its name and its autojoker hooks."""

    @property
    def name(self) -> str: ...

    @property
    def after_throw(self) -> Callable[[Step, int], bool] | None: ...

    @property
    def on_finish(self) -> Callable[[Step], None] | None: ...


class Step:
    """Mutable only within one ``apply`` call; ``subject`` is the participant the step is about."""

    def __init__(self, state: Durchgang, subject: str, dice: DiceSource, jokers: Sequence[Hooks]) -> None:
        self.state = state
        self.subject = subject
        self.events: list[ev.V6Event] = []
        self._dice = dice
        self._jokers = jokers  # every joker of the game, in registry order
        self._row: tuple[Durchgang, str, Participant | None] | None = None  # see _subject_row

    # --- reading ---------------------------------------------------------------------------------

    def roll(self) -> int:
        return self._dice.roll()

    def get(self, pid: str) -> Participant:
        participant = self._subject_row() if pid == self.subject else find(self.state, pid)
        if participant is None:  # pragma: no cover - callers resolve ids first
            raise KeyError(pid)
        return participant

    def _subject_row(self) -> Participant | None:
        """The subject's row of the state now. A step reads it a dozen times between two changes, so
        the last answer is kept with the state and subject it was read from (a step replaces both)."""
        row = self._row
        if row is not None and row[0] is self.state and row[1] == self.subject:
            return row[2]
        participant = find(self.state, self.subject)
        self._row = (self.state, self.subject, participant)
        return participant

    @property
    def player(self) -> Participant:
        participant = self._subject_row()
        if participant is None:  # pragma: no cover - a step's subject is a participant
            raise KeyError(self.subject)
        return participant

    @property
    def spiel(self) -> Spiel:
        participant = self._subject_row()  # not through .player: the Spiel is what a step reads most
        if participant is None:  # pragma: no cover - a step's subject is a participant
            raise KeyError(self.subject)
        return participant.spiel or Spiel()

    @property
    def points(self) -> int:
        return self.player.points

    @property
    def running(self) -> bool:
        return self.player.role == PLAYING

    def chosen(self) -> list[Hooks]:
        """The subject's chosen jokers in registry order: the order their hooks run in."""
        return self._in_order(self.spiel.jokers)

    def _in_order(self, names: Sequence[str]) -> list[Hooks]:
        if not names:  # most Spiele: no need to look through every joker of the game
            return []
        return [spec for spec in self._jokers if spec.name in names]

    # --- writing ---------------------------------------------------------------------------------

    def put(self, participant: Participant) -> None:
        """Replace the row of ``participant.id``: a copy of a row of the state (``get``, ``player``)."""
        self.state = with_participant(self.state, participant)
        if participant.id == self.subject:
            self._row = (self.state, self.subject, participant)

    def update(self, pid: str, **changes: Any) -> None:
        self.put(evolve(self.get(pid), **changes))

    def update_spiel(self, **changes: Any) -> None:
        player = self.player
        self.put(evolve(player, spiel=evolve(player.spiel or Spiel(), **changes)))

    def set_pending(self, pending: Pending | None) -> None:
        self.update_spiel(pending=pending)

    def add(self, delta: int, pid: str | None = None) -> int:
        """Change a participant's pips; answers the new balance."""
        participant = self.get(self.subject if pid is None else pid)
        total = participant.points + delta
        self.put(evolve(participant, points=total))
        return total

    def end_spiel(self, role: str) -> None:
        """The subject's Spiel is over; nothing stays pending and Fumo ends with it."""
        self.update(self.subject, role=role, spiel=evolve(self.spiel, pending=None, fumo=False))

    def emit(self, event: ev.V6Event) -> None:
        self.events.append(event)
        self._follow_valve()

    def _follow_valve(self) -> None:
        """V6-J12: whenever the total falls below the valve level, the level follows it down."""
        player = self._subject_row()
        if player is None or player.role != PLAYING or player.spiel is None:
            return
        level = player.spiel.valve
        if level is not None and player.points < level:
            self.update_spiel(valve=player.points)
            self.events.append(ev.ValveLowered(player=self.subject, level=player.points))

    # --- autojoker hooks ----------------------------------------------------------------------------

    def after_throw(self, face: int) -> bool:
        """A normal throw was added: every chosen joker's hook runs; True if one settled the face."""
        settled = False
        for spec in self.chosen():
            if spec.after_throw is not None and spec.after_throw(self, face):
                settled = True
        return settled

    def finish(self) -> None:
        """A step after the Freiwurf is over: if the Spiel goes on, the chosen jokers' hooks run (V6-N3)."""
        spiel = self.spiel
        if self.running and spiel.pending is None:
            for spec in self._in_order(spiel.jokers):
                if spec.on_finish is not None:
                    spec.on_finish(self)
