"""What the croupier announces, as facts: every face rolled, every change of pips, who, and what is asked.

Each event renders through the catalogue key ``v6.<snake_case_name>``. Events that move pips say so
through :meth:`V6Event.changes`, so every change of any balance is explained by an event (the property
tests hold the engine to that, and robbery to moving pips without creating any).
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from engine.game import Event


@dataclasses.dataclass(frozen=True)
class V6Event(Event):
    namespace: ClassVar[str] = "v6"

    def changes(self) -> dict[str, int]:
        """Pips this event moved, per participant id."""
        return {}


@dataclasses.dataclass(frozen=True)
class Scored(V6Event):
    """An event that changes the named participant's pips by ``delta`` to ``total``."""

    player: str
    delta: int
    total: int

    def changes(self) -> dict[str, int]:
        return {self.player: self.delta}


# --- Durchgang lifecycle ----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Joined(V6Event):
    player: str
    name: str
    points: int  # a returning Jungfrau brings back the balance she left with
    position: int  # 1-based place in the turn order

    def changes(self) -> dict[str, int]:
        return {self.player: self.points}


@dataclasses.dataclass(frozen=True)
class Left(V6Event):
    player: str
    points: int

    def changes(self) -> dict[str, int]:
        return {self.player: -self.points}


@dataclasses.dataclass(frozen=True)
class Removed(V6Event):
    player: str
    points: int

    def changes(self) -> dict[str, int]:
        return {self.player: -self.points}


@dataclasses.dataclass(frozen=True)
class Started(V6Event):
    order: str
    players: tuple[str, ...]  # the Jungfrauen in the order they will play
    faces: tuple[int, ...]  # dice used to shuffle (empty in sign-up order)


@dataclasses.dataclass(frozen=True)
class Skipped(V6Event):
    """Moved to the end of the queue (a moderator's skip, or a waiting Jungfrau's timeout)."""

    player: str


@dataclasses.dataclass(frozen=True)
class NextUp(V6Event):
    next_player: str


@dataclasses.dataclass(frozen=True)
class TimedOut(V6Event):
    player: str


@dataclasses.dataclass(frozen=True)
class DecisionDefaulted(V6Event):
    player: str
    decision: str
    answer: str  # the word the croupier answered for the player


@dataclasses.dataclass(frozen=True)
class Zombified(Scored):
    """At the close: a Prinzessin at 0 or below is set to 0 and becomes a Zombie."""


@dataclasses.dataclass(frozen=True)
class DidNotPlay(Scored):
    """At the close: a Jungfrau who never threw the Freiwurf is recorded with 0."""


@dataclasses.dataclass(frozen=True)
class Closed(V6Event):
    players: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class ClosedEmpty(V6Event):
    """The close of a Durchgang nobody played a Spiel in (nobody signed up, or nobody threw)."""


@dataclasses.dataclass(frozen=True)
class AllPlayed(V6Event):
    """The last Spiel ended and nobody waits to play: a moderator's close ends the Durchgang."""


# --- the Spiel ----------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class JokersChosen(V6Event):
    player: str
    jokers: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class JokersCleared(V6Event):
    player: str


@dataclasses.dataclass(frozen=True)
class Freiwurf(Scored):
    face: int


@dataclasses.dataclass(frozen=True)
class Thrown(Scored):
    face: int


@dataclasses.dataclass(frozen=True)
class FumoThrown(Scored):
    face: int


@dataclasses.dataclass(frozen=True)
class Busted(Scored):
    face: int


@dataclasses.dataclass(frozen=True)
class ValveCaught(Scored):
    """A 6 with the valve armed: back to the level, and the Spiel ends as Prinzessin."""

    face: int
    level: int


@dataclasses.dataclass(frozen=True)
class TentakelPaid(Scored):
    face: int


@dataclasses.dataclass(frozen=True)
class ToertchenPaid(Scored):
    pass


@dataclasses.dataclass(frozen=True)
class Stopped(V6Event):
    player: str
    total: int


@dataclasses.dataclass(frozen=True)
class MoveAsked(V6Event):
    """After the Freiwurf and every step that leaves the Spiel running: the words valid now
    (``weiter``, ``weiter mit Joker X`` for each joker still in hand, ``stopp``)."""

    player: str
    valid: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class VictimAsked(V6Event):
    """The Spiel waits on a robbery's victim (a robbing 1, a Beefmaker, a Sekante): said again when the
    game is shown without the move that asked (after an undo)."""

    player: str
    amount: int
    victims: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class DecisionAsked(V6Event):
    """The Spiel waits on a joker's question (Anaconda, Rattenlord, Monokel): its answers, said again
    when the game is shown without the move that asked (after an undo)."""

    player: str
    valid: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class RobberyOffered(V6Event):
    player: str
    source: str  # "eins", "Beefmaker", "Senigmas Sekante"
    amount: int
    count: int  # the robbing-1 counter (0 for joker robberies)
    victims: tuple[str, ...]
    valid: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class RobberySkipped(V6Event):
    """Nobody can be robbed: the robbery lapses without a question."""

    player: str
    source: str
    amount: int
    count: int


@dataclasses.dataclass(frozen=True)
class Robbed(V6Event):
    robber: str
    victim: str
    amount: int
    robber_total: int
    victim_total: int
    source: str

    def changes(self) -> dict[str, int]:
        return {self.victim: -self.amount, self.robber: self.amount}


@dataclasses.dataclass(frozen=True)
class RobberyDeclined(V6Event):
    player: str
    source: str


@dataclasses.dataclass(frozen=True)
class BeefmakerHit(V6Event):
    """The Beefmaker's victim loses pips; the player's own +12 does not grow by them."""

    player: str
    victim: str
    amount: int
    victim_total: int

    def changes(self) -> dict[str, int]:
        return {self.victim: -self.amount}


@dataclasses.dataclass(frozen=True)
class KeulerBonus(Scored):
    victim: str


@dataclasses.dataclass(frozen=True)
class JokerAnnounced(V6Event):
    player: str
    joker: str


@dataclasses.dataclass(frozen=True)
class FumoEnded(V6Event):
    player: str


@dataclasses.dataclass(frozen=True)
class ValveLowered(V6Event):
    player: str
    level: int


# --- jokers -------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class KaelteschutzThrown(Scored):
    face: int
    use: int


@dataclasses.dataclass(frozen=True)
class KaelteschutzSaved(V6Event):
    """Kälte caught a 6: the joker is spent."""

    player: str


@dataclasses.dataclass(frozen=True)
class KaelteschutzExpired(V6Event):
    player: str
    uses: int


@dataclasses.dataclass(frozen=True)
class SpelunkenboldWon(Scored):
    face: int


@dataclasses.dataclass(frozen=True)
class SpelunkenboldLost(Scored):
    face: int


@dataclasses.dataclass(frozen=True)
class AnacondaAttack(V6Event):
    player: str
    attack: int
    valid: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class AnacondaWon(Scored):
    face: int
    attack: int


@dataclasses.dataclass(frozen=True)
class AnacondaLost(Scored):
    face: int
    attack: int


@dataclasses.dataclass(frozen=True)
class AnacondaDeclined(Scored):
    attack: int


@dataclasses.dataclass(frozen=True)
class HirtenschutzThrown(Scored):
    face: int


@dataclasses.dataclass(frozen=True)
class RattenlordWon(Scored):
    faces: tuple[int, ...]
    rat: int


@dataclasses.dataclass(frozen=True)
class RattenlordChallenge(V6Event):
    """The first die did not beat the rat: retreat or throw again."""

    player: str
    face: int
    rat: int
    valid: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class RattenlordLost(Scored):
    faces: tuple[int, ...]
    rat: int


@dataclasses.dataclass(frozen=True)
class RattenlordRetreated(Scored):
    face: int


@dataclasses.dataclass(frozen=True)
class AllInWon(Scored):
    face: int


@dataclasses.dataclass(frozen=True)
class AllInLost(Scored):
    face: int


@dataclasses.dataclass(frozen=True)
class PonyWon(Scored):
    faces: tuple[int, ...]
    pips: int


@dataclasses.dataclass(frozen=True)
class PonyLost(Scored):
    faces: tuple[int, ...]
    pips: int


@dataclasses.dataclass(frozen=True)
class MonokelShown(V6Event):
    player: str
    faces: tuple[int, ...]
    pips: int
    valid: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class MonokelKept(Scored):
    faces: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class MonokelRepeated(Scored):
    faces: tuple[int, ...]
    first_faces: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class BeefmakerWon(Scored):
    faces: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class BeefmakerMissed(Scored):
    faces: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class ValveArmed(V6Event):
    player: str
    level: int


@dataclasses.dataclass(frozen=True)
class ValveThrown(Scored):
    face: int
    level: int
