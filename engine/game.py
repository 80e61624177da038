"""The face every game shows the croupier service, so one service runs them all.

A game is a set of pure functions over a plain, JSON-serialisable state: ``open`` builds the state
from the moderator's options, ``parse`` reads a chat line, ``apply`` performs one command with the
dice it is handed and returns the new state with the events to announce. ``apply`` must leave the
state it was given untouched when it raises (states are immutable).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Protocol, TypeVar

from engine.dice import DiceSource
from engine.errors import CroupierError, InvalidCommand

_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")


def _snake(name: str) -> str:
    return _CAMEL.sub("_", name).lower()


_KINDS: dict[type, str] = {}  # per event class: Event.kind
_FACT_NAMES: dict[type, tuple[str, ...]] = {}  # per event class: the fields Event.facts reads


@dataclasses.dataclass(frozen=True)
class Event:
    """A fact the croupier announces ("rolled 4", "robbed 2 from anna").

    Subclasses are frozen dataclasses; ``kind`` (the class name in snake case, prefixed by the game's
    ``namespace``) names the message-catalogue entry the reply is rendered from.
    """

    namespace: ClassVar[str] = ""

    @classmethod
    def kind(cls) -> str:
        """Cached per class: a move's events are named for its reply and again for its log row."""
        kind = _KINDS.get(cls)
        if kind is None:
            name = _snake(cls.__name__)
            kind = _KINDS[cls] = f"{cls.namespace}.{name}" if cls.namespace else name
        return kind

    def facts(self) -> dict[str, Any]:
        # Shallow on purpose: facts are flat values and tuples; a deep copy per event was a measurable
        # share of every command (bench/command_path.py --profile).
        return self._add_facts({})

    def to_json(self) -> dict[str, Any]:
        return self._add_facts({"kind": self.kind()})

    def _add_facts(self, into: dict[str, Any]) -> dict[str, Any]:
        """``into`` with the facts added: one dict per event (a comprehension, then a copy behind the
        kind, made two for every event of a move's log row)."""
        names = _FACT_NAMES.get(type(self))
        if names is None:  # a class's fields never change once it is made
            names = _FACT_NAMES[type(self)] = tuple(field.name for field in dataclasses.fields(self))
        for name in names:
            into[name] = getattr(self, name)
        return into


@dataclasses.dataclass(frozen=True)
class Command:
    """A typed player or moderator command; ``moderator_only`` commands need the moderator right.

    A ``query`` asks about the game without changing it (Killer's ``conseil``): anybody may ask, the
    answer goes to the asker alone, and nothing is written — the service applies it outside any
    transaction, since working out the answer may take a while.
    """

    moderator_only: ClassVar[bool] = False
    query: ClassVar[bool] = False


@dataclasses.dataclass(frozen=True)
class Seat:
    """One row of the running table shown under every reply.

    ``details`` are what else the row shows, as (key, value) facts: each renders through the game's
    catalogue entry ``seat.details.<key>`` over ``{key: value}`` (Die verflixte 6!'s jokers in hand and
    valve level, a Killer Terminator's level), in the order given.
    """

    player: str  # participant id
    name: str  # display name
    role: str  # game-specific role code ("jungfrau", "playing", "alive", "dying" …)
    points: int  # running total (verflixte 6) or hit points (Killer)
    to_act: bool = False
    details: tuple[tuple[str, Any], ...] = ()


@dataclasses.dataclass(frozen=True)
class Choice:
    """Something the player to act may do now, as the words they would type.

    Front ends offer choices as buttons and selects; pressing one sends its ``words`` through the same
    path as a typed line, so a button can never do what typing could not. What a button shows comes
    from the game's catalogue (``choice.<action>`` over ``facts``, in the reader's language): the engine
    names no label. Choices sharing a ``group`` form one select menu; in a ``multi`` group the chosen
    options' ``words`` are joined with ``separator`` after ``prefix`` (Killer's "garde 6 6 5", the joker
    choice "Joker: A, B"). ``tone`` hints how strongly a front end may stress it.
    """

    action: str  # catalogue key under "choice.": "continue", "stop", "joker", "rob", "keep_die" …
    words: str  # the forum words this choice sends
    facts: Mapping[str, Any] = dataclasses.field(default_factory=dict, hash=False)  # label placeholders
    group: str = ""
    multi: bool = False
    prefix: str = ""
    separator: str = " "
    limit: int = 0  # a multi group's most picks (0: as many as it has options)
    tone: str = ""  # "" | "go" | "halt" | "good": a front end's emphasis (Discord's button colours)

    def compose(self, picked: Sequence[str]) -> str:
        """The words a multi-select sends for the options picked (each a ``words`` of this group)."""
        return f"{self.prefix} {self.separator.join(picked)}".strip()


@dataclasses.dataclass(frozen=True)
class Highlight:
    """Something a reply shows beside its story, as data: the jokers a player brings, …

    ``key`` names the heading in the game's catalogue (its placeholders are ``facts``; participant ids
    become names); each item is a shown name and the catalogue key of its text.
    """

    key: str
    facts: Mapping[str, Any] = dataclasses.field(default_factory=dict, hash=False)
    items: tuple[tuple[str, str], ...] = ()


@dataclasses.dataclass(frozen=True)
class Line:
    """A sentence a game has said about itself: a key of its catalogue and the key's facts."""

    key: str
    facts: Mapping[str, Any] = dataclasses.field(default_factory=dict, hash=False)


@dataclasses.dataclass(frozen=True)
class Topic:
    """Something a game explains on request (Die verflixte 6!'s jokers, Pig's odds), declared so that
    every front end can list and show it without knowing the game: ``name`` is what a player types
    (``/info odds``) and never changes; ``title`` and ``summary`` are keys of the game's catalogue — a
    heading, and one line for menus and autocomplete. The entries come from :meth:`Game.info`.
    ``elsewhere`` is an optional key said, over ``{game}``, when a game without the topic is open
    ("Killer is played without jokers"); without it the croupier says so in its own words."""

    name: str
    title: str
    summary: str
    elsewhere: str = ""


@dataclasses.dataclass(frozen=True)
class Result:
    """One participant's result of one finished game, as the tournament standings count it."""

    points: int
    played: bool = True  # False: signed up but never played (counts as absent in placement scoring)
    busted: bool = False  # ended on the game's bust (a Zombie): the standings' last tie-break


@dataclasses.dataclass(frozen=True)
class OptionSpec:
    """An option a moderator may give when opening the game: for help, refusals and autocomplete."""

    name: str
    values: tuple[str, ...] = ()  # the valid values, or typical ones where any value of a kind goes
    multi: bool = False  # a comma list of values (Die verflixte 6!'s jokers, Killer's modes)


@dataclasses.dataclass(frozen=True)
class Candidates:
    """What a game offers while a player types a value it asked for (Discord's autocomplete): the
    ``values``, shown as they are, for a comma list of at most ``limit`` of them (0: no limit), each
    item completed in turn; ``none`` is the word that means an empty list, offered while nothing is
    listed and labelled by the catalogue key ``none_label``. Matching what was typed is the front
    end's business (folding, how many fit on a screen); the game only says what there is. ``prefix``
    is what a picked list is said after (Die verflixte 6!'s ``Joker:``): a front end's picker sends
    ``prefix`` and the list as one line, read as if typed.
    """

    values: tuple[str, ...] = ()
    limit: int = 0
    none: str = ""
    none_label: str = ""
    prefix: str = ""


State = TypeVar("State")


class Game(Protocol[State]):
    """What a game exposes (see ``engine/verflixte6/game.py`` and ``engine/killer/game.py``).

    A game describes itself so that nothing outside its package needs to know it: the service, the
    console's help, the replay's validation, Discord's choices, the standings and the exports all read
    these. Games are found through the ``croupier.games`` entry-point group (see docs/adding-a-game.md).
    """

    name: ClassVar[str]  # the stable kind stored with every game: "verflixte6", "killer" …
    aliases: ClassVar[tuple[str, ...]]  # other spellings a moderator may type after /open
    language: ClassVar[str]  # the default reply language: a registered one's code (bot/texts/languages.py)
    catalogue: ClassVar[str]  # the package whose texts/<lang>.json hold every sentence of the game
    options: ClassVar[tuple[OptionSpec, ...]]  # what /open accepts
    ranked: ClassVar[bool]  # whether finished games count in the tournament standings
    colour: ClassVar[int]  # an accent colour (0xRRGGBB) front ends may show the game in
    default: ClassVar[bool]  # the game a channel that never had one hears about (/rules); at most one
    topics: ClassVar[tuple[Topic, ...]]  # what else the game explains on request: see Topic and info

    def open(self, options: Mapping[str, Any]) -> State:
        """A new game with validated options; bad options raise InvalidCommand."""
        ...

    def parse(self, text: str) -> Command | None:
        """The command in a chat line; None for chit-chat; InvalidCommand for a malformed command."""
        ...

    def near_miss(self, text: str, state: State | None = None) -> str | None:
        """The game word a line that is not a command probably meant ("weiter" for "wieter", "garde
        tout" for "garde tou", "attaque" for "atack ben"), or None: for commands, for chit-chat, and
        for sentences that merely contain a word somewhere. Only the line's first word (or first two)
        counts, at most two edits off after folding case and accents, and the corrected line must read
        as a command (:func:`engine.commands.near_miss`) — with ``state``, one the player to act may
        send now (:func:`engine.commands.valid_now`): a word that would only be refused is no help.
        Without a state, any word of the game (the service's cheap look before it loads a game). A
        game may also name the word a command it could not carry out meant (Die verflixte 6!'s "raube
        nich" → "raube nicht"): the service asks only for lines the game did not read or refused as
        malformed, from the player to act. Front ends answer it with the shared catalogue's
        ``error.did_you_mean`` over ``{word}``."""
        ...

    def misread(self, state: State, actor: str, error: InvalidCommand) -> CroupierError:
        """The answer to ``actor``'s line that ``parse`` refused as malformed (``error``), now that the
        game is known. Who may act is decided first: someone who may not move now gets the refusal any
        move of theirs would get (not their turn, not in the game), never a verdict on the arguments of
        a line that is not theirs to send. The player who may act gets ``error``, narrowed to what is
        valid now where the parser could not know it (Die verflixte 6!'s unknown joker is matched
        against the jokers in hand)."""
        ...

    def apply(
        self, state: State, actor: str, command: Command, dice: DiceSource
    ) -> tuple[State, Sequence[Event]]:
        """Perform one command by participant ``actor``; refusals raise a CroupierError."""
        ...

    def prepare(self, state: State, command: Command) -> Callable[[], object] | None:
        """Slow work ``apply`` would do for ``command`` (Killer's exact-odds table behind ``auto`` and a
        turn timeout), as a function the service runs first, off the event loop and outside any
        transaction, so that ``apply`` finds it done; None when there is none, or it is done. The
        function only fills the game's own memo tables: it changes no state."""
        ...

    def dump(self, state: State) -> dict[str, Any]: ...

    def load(self, data: Mapping[str, Any]) -> State: ...

    def table(self, state: State) -> Sequence[Seat]:
        """The running table, in turn order."""
        ...

    def to_act(self, state: State) -> str | None:
        """The participant whose move the game waits for, if any."""
        ...

    def finished(self, state: State) -> bool: ...

    def choices(self, state: State) -> Sequence[Choice]:
        """What the participant to act may do now (empty when nobody is to act)."""
        ...

    def prompt(self, state: State) -> Sequence[Event]:
        """What the game waits on now, as the events a move's answer ends with: the participant to act
        and the words valid for them (empty when it waits on nobody). ``apply`` ends its events with
        these; the service asks for them where a game changes without a move of its own (``/undo``),
        so every answer that leaves a decision says whose it is and what to type."""
        ...

    def highlights(self, before: State, after: State, events: Sequence[Event]) -> Sequence[Highlight]:
        """What a reply to ``events`` shows beside its story (empty for most moves)."""
        ...

    def info(self, state: State | None, topic: str) -> Sequence[Line]:
        """The entries of one of its ``topics`` (by name: Die verflixte 6!'s ``"jokers"``): about the
        game ``state`` when one is open, else about a game opened without options."""
        ...

    def suggest(self, state: State, what: str) -> Candidates | None:
        """The values to offer while a player types ``what`` (Die verflixte 6!'s ``"jokers"``), or None
        when the game has nothing to offer for it."""
        ...

    def results(self, state: State) -> Mapping[str, Result]:
        """A finished game's results by participant id (empty for a game that is not ``ranked``)."""
        ...

    def summary(self, state: State) -> dict[str, Any]:
        """The state part of the ``croupier replay`` output (``players`` and, for Killer, the winner)."""
        ...


# Lifecycle commands shared by every game. Front ends build them from slash commands; each game's
# ``apply`` decides what they mean for it (and refuses those it has no use for).


@dataclasses.dataclass(frozen=True)
class Join(Command):
    """The actor signs up under a display name."""

    name: str


@dataclasses.dataclass(frozen=True)
class Leave(Command):
    """The actor withdraws before playing."""


@dataclasses.dataclass(frozen=True)
class Start(Command):
    """A moderator ends the sign-up phase where the game has one (Killer, shuffled order)."""

    moderator_only: ClassVar[bool] = True


@dataclasses.dataclass(frozen=True)
class Skip(Command):
    """A moderator moves a waiting participant to the end of the queue."""

    moderator_only: ClassVar[bool] = True
    target: str


@dataclasses.dataclass(frozen=True)
class Remove(Command):
    """A moderator takes a participant out of the game."""

    moderator_only: ClassVar[bool] = True
    target: str


@dataclasses.dataclass(frozen=True)
class Close(Command):
    """A moderator closes the game; pending decisions take their safe defaults."""

    moderator_only: ClassVar[bool] = True


@dataclasses.dataclass(frozen=True)
class Timeout(Command):
    """The player to act let the turn timeout pass (sent by the service, never typed)."""

    moderator_only: ClassVar[bool] = True
