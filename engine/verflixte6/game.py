"""``Verflixte6``: the game as the croupier service sees it (the :class:`engine.game.Game` protocol)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from engine.commands import valid_now
from engine.dice import DiceSource
from engine.errors import CroupierError, InvalidCommand
from engine.game import Candidates, Choice, Command, Event, Highlight, Line, OptionSpec, Seat, Topic
from engine.game import Result as GameResult
from engine.verflixte6 import choices, prompts, rules, words
from engine.verflixte6 import state as snapshot
from engine.verflixte6.events import V6Event
from engine.verflixte6.highlights import enabled_jokers, joker_highlights, joker_overview
from engine.verflixte6.jokers import kaelteschutz, registry
from engine.verflixte6.misread import misread
from engine.verflixte6.options import parse_options
from engine.verflixte6.state import (
    DID_NOT_PLAY,
    JUNGFRAU,
    MAX_JOKERS,
    ORDERS,
    PLAYING,
    PRINZESSIN,
    ZOMBIE,
    Durchgang,
    Participant,
)
from engine.verflixte6.turns import acting, to_act


class Verflixte6:
    """One Durchgang of "Die verflixte 6!" per state."""

    name: ClassVar[str] = "verflixte6"
    aliases: ClassVar[tuple[str, ...]] = ("verflixte", "v6", "dieverflixte6", "verflixte 6")
    language: ClassVar[str] = "de"
    catalogue: ClassVar[str] = "engine.verflixte6"
    _last_to_act: tuple[Durchgang, str | None] | None = None  # see to_act
    options: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("jokers", registry.NAMES, multi=True),
        OptionSpec("order", ORDERS),
        OptionSpec("parallel", ("yes", "no")),
    )
    ranked: ClassVar[bool] = True
    colour: ClassVar[int] = 0xB0282E
    default: ClassVar[bool] = True  # the croupier's first game: its rules before any game was played
    topics: ClassVar[tuple[Topic, ...]] = (
        Topic("jokers", "info.jokers.title", "info.jokers.summary", elsewhere="info.jokers.elsewhere"),
    )

    def open(self, options: Mapping[str, Any]) -> Durchgang:
        return Durchgang(options=parse_options(options))

    def parse(self, text: str) -> Command | None:
        return words.parse(text)

    def near_miss(self, text: str, state: Durchgang | None = None) -> str | None:
        accepts = None if state is None else valid_now(lambda: choices.choices(state), words.parse)
        return words.near_miss(text, accepts)

    def misread(self, state: Durchgang, actor: str, error: InvalidCommand) -> CroupierError:
        """Not this player's move: its refusal; an unknown joker: matched against those in play."""
        return misread(state, actor, error)

    def apply(
        self, state: Durchgang, actor: str, command: Command, dice: DiceSource
    ) -> tuple[Durchgang, Sequence[V6Event]]:
        return rules.apply(state, actor, command, dice)

    def prepare(self, state: Durchgang, command: Command) -> Callable[[], object] | None:
        return None  # every step is quick

    def dump(self, state: Durchgang) -> dict[str, Any]:
        return snapshot.dump(state)

    def load(self, data: Mapping[str, Any]) -> Durchgang:
        return snapshot.load(data)

    def table(self, state: Durchgang) -> Sequence[Seat]:
        """The participants in turn order; a Spiel not over yet shows the jokers still in hand, and a
        running one its valve level and Fumo (``seat.details.<key>`` in the catalogue)."""
        may_act = acting(state)
        # Seat's fields in order (player, name, role, points, to_act, details): a frozen dataclass's
        # __init__ matches keywords one by one, and a table is built for every move's reply.
        return [
            Seat(p.id, p.name, p.role, p.points, p.id in may_act, _details(p)) for p in state.participants
        ]

    def to_act(self, state: Durchgang) -> str | None:
        # A move's reply, deadline and save each ask about the same state object: the last answer is
        # kept with a reference to its (immutable) state, so `is` cannot match a reused id.
        last = self._last_to_act
        if last is not None and last[0] is state:
            return last[1]
        player = to_act(state)
        self._last_to_act = (state, player)  # one assignment: a reader sees an old pair or a new one
        return player

    def finished(self, state: Durchgang) -> bool:
        return state.closed

    def choices(self, state: Durchgang) -> Sequence[Choice]:
        """Buttons for the participant to act: each sends forum words the game accepts right now."""
        return choices.choices(state)

    def prompt(self, state: Durchgang) -> Sequence[Event]:
        """The Jungfrau called up, the words valid in a running Spiel, or its open question."""
        return prompts.prompt(state)

    def highlights(self, before: Durchgang, after: Durchgang, events: Sequence[Event]) -> Sequence[Highlight]:
        """The jokers a player chose, or brings into the Spiel at the Freiwurf: one card per player."""
        return joker_highlights(after, events)

    def info(self, state: Durchgang | None, topic: str) -> Sequence[Line]:
        """``jokers``: what each joker the Durchgang plays with does."""
        return joker_overview(state) if topic == "jokers" else ()

    def suggest(self, state: Durchgang, what: str) -> Candidates | None:
        """``jokers`` (``/joker waehlen``): those the Durchgang plays with, at most three to a list, or
        none at all ("Joker: keine"), so autocomplete offers only lines the game accepts (V6-S2)."""
        if what != "jokers":
            return None
        return Candidates(
            tuple(enabled_jokers(state)), MAX_JOKERS, words.NO_JOKERS, "choice.no_jokers", words.JOKERS_PREFIX
        )

    def summary(self, state: Durchgang) -> dict[str, Any]:
        return {"players": {p.id: {"role": p.role, "points": p.points} for p in state.participants}}

    def results(self, state: Durchgang) -> dict[str, GameResult]:
        """A closed Durchgang's results for the tournament standings."""
        return {
            p.id: GameResult(points=p.points, played=p.role != DID_NOT_PLAY, busted=p.role == ZOMBIE)
            for p in state.participants
            if p.role in (PRINZESSIN, ZOMBIE, DID_NOT_PLAY)
        }


GAME = Verflixte6()


def _details(participant: Participant) -> tuple[tuple[str, Any], ...]:
    """The jokers in hand; the Kälteschutz with its uses left (its n-th use decides what a die costs,
    V6-J1); the valve's level and Fumo while they last."""
    spiel = participant.spiel
    if spiel is None or participant.role not in (JUNGFRAU, PLAYING):
        return ()
    details: list[tuple[str, Any]] = []
    used = spiel.used
    others = tuple([name for name in spiel.jokers if name not in used and name != kaelteschutz.NAME])
    if others:
        details.append(("jokers", others))
    if kaelteschutz.NAME in spiel.jokers and kaelteschutz.NAME not in used:
        details.append(("cold", (kaelteschutz.MAX_USES - spiel.cold_uses, kaelteschutz.MAX_USES)))
    if participant.role == PLAYING:
        if spiel.valve is not None:
            details.append(("valve", spiel.valve))
        if spiel.fumo:
            details.append(("fumo", True))
    return tuple(details)
