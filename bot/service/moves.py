"""How one request becomes a move, decided without the store: read, judge, perform.

The service loads the channel and hands the loaded game to :func:`judge`, which says what the request
asks for without rolling a die — a command to perform (:class:`Found`), a question (:class:`Query`),
a refusal (:class:`Refusal`) or chit-chat (:class:`Chat`). Only a found command needs a writing unit
of work; :func:`perform` then applies it with the game's dice. Everything here is plain computation,
so it holds no lock, awaits nothing, and a refusal is a value rather than an exception.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.games import GAMES
from engine import dice as dice_mod
from engine.errors import CroupierError, IllegalCommand, InvalidCommand
from engine.game import Choice, Command, Event, Game

LINE_MAX = 2000  # characters of a chat line the games read, as in a Discord message

# --- what was asked ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Typed:
    """A chat line: a command of the channel's game, or chit-chat — unless ``required``: a line sent
    as a command (Discord's ``/zug``), which is refused when it holds none.

    ``text`` is at most :data:`LINE_MAX` characters; ``length`` is the length of the line as sent when
    it was longer (0 otherwise): such a line that holds a command is refused, never performed cut."""

    text: str
    required: bool = False
    readings: Mapping[str, Reading] = field(default_factory=dict, hash=False)  # by game, if read already
    length: int = 0

    @classmethod
    def of(cls, line: str, *, required: bool = False, readings: Mapping[str, Reading] | None = None) -> Typed:
        """A line as the games get to read it: cut to :data:`LINE_MAX` characters."""
        length = len(line) if len(line) > LINE_MAX else 0
        return cls(line[:LINE_MAX], required, readings or {}, length)


@dataclass(frozen=True)
class Given:
    """A command a front end built (a slash command, the console's /join …)."""

    command: Command


@dataclass(frozen=True)
class Pressed:
    """A press on a board drawn for ``version`` of game ``game_id``: the indices of the picked choices."""

    game_id: int
    version: int
    picked: tuple[int, ...]


Request = Typed | Given | Pressed
Reading = Command | CroupierError | None  # what one game made of a line


def read_line(game: Game[Any], text: str) -> Reading:
    """What ``game`` makes of a line: its command, the reason it is malformed, or None for chit-chat."""
    try:
        return game.parse(text)
    except CroupierError as error:
        return error


def readings(text: str, first: str | None = None) -> dict[str, Reading]:
    """What each registered game reads in a chat line: a command, a refusal (malformed), or nothing.

    Parsing needs no store, so the service reads a line before it goes near one, and hands these
    readings on so the channel's game does not parse the line again. ``first``: the kind of game
    likely open in the channel (:class:`bot.service.open_kinds.OpenKinds`); when it reads the line, its
    reading is the only one (the unit of work parses for another game if the channel holds one).
    """
    known: dict[str, Reading] = {}
    if first is not None and first in GAMES:
        known[first] = read_line(GAMES[first], text)
        if known[first] is not None:
            return known
    return {kind: known[kind] if kind in known else read_line(game, text) for kind, game in GAMES.items()}


def might_be_command(text: str) -> bool:
    """Whether some registered game reads the line as a command (or as a malformed one), reading what
    the service reads of it: its first :data:`LINE_MAX` characters. The parsers' work grows with the
    line, and a front end asks this when the store is out, before it answers "try again" — a
    4,000-character line costs no more than a Discord message."""
    return any(reading is not None for reading in readings(Typed.of(text).text).values())


# --- what came of it ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Found:
    """A command to perform, before any die is rolled: it changes the game, so it is written."""

    command: Command
    words: str  # what the log shows as typed: the line, the pressed choice's words, or a /command


@dataclass(frozen=True)
class Applied:
    command: Command
    words: str
    state: Any  # the game after the move
    events: Sequence[Event]
    dice: tuple[int, ...]  # the faces this move used, in order


@dataclass(frozen=True)
class Refusal:
    error: CroupierError
    private: bool = False  # only the person who asked should see it (a press that is not theirs)
    about: Game[Any] | None = field(default=None, compare=False)  # whose catalogue explains it


@dataclass(frozen=True)
class Query:
    """A question about the game (``engine.game.Command.query``): answered outside the store."""

    command: Command


@dataclass(frozen=True)
class Chat:
    """The line holds no command: say nothing — or, to the player the game waits for, the game word
    the line probably meant (``near``: "weiter" for "wieter")."""

    near: str | None = None


Judged = Found | Refusal | Chat | Query
Outcome = Applied | Refusal


def judge(
    game: Game[Any],
    game_id: int,
    version: int,
    state: Any,
    actor: str,
    request: Request,
    *,
    moderator: bool,
) -> Judged:
    """What ``actor``'s request asks of the game, decided without dice and without changing it.

    A typed line the game could not read as a command is answered by who sent it first
    (``Game.misread``): from someone who may not move now, the refusal any move of theirs gets — not
    a verdict on a die value or a joker's name — and only the player to act hears "did you mean"."""
    found = _command(game, game_id, version, state, actor, request)
    if isinstance(request, Typed):
        if request.length and not isinstance(found, Chat):
            return Refusal(InvalidCommand("line_too_long", limit=LINE_MAX, length=request.length))
        if isinstance(found, Refusal) and isinstance(found.error, InvalidCommand):
            found = Refusal(game.misread(state, actor, found.error))
        if actor == game.to_act(state) and _unread(found):
            found = _near(game, state, request.text, found)
    if not isinstance(found, Found):
        return found
    if found.command.moderator_only and not moderator:
        return Refusal(IllegalCommand("not_moderator"))
    if found.command.query:
        return Query(found.command)
    return found


def perform(game: Game[Any], state: Any, actor: str, found: Found, dice: dice_mod.DiceSource) -> Outcome:
    """The found command applied with ``dice`` (``state`` stays untouched: states are immutable)."""
    recording = dice_mod.RecordingDice(dice)
    try:
        new_state, events = game.apply(state, actor, found.command, recording)
    except CroupierError as error:
        return Refusal(error)
    return Applied(found.command, found.words, new_state, tuple(events), tuple(recording.faces))


def reconsider(game: Game[Any], state: Any, actor: str, request: Request, refusal: Refusal) -> Refusal:
    """A typed line the game refused as malformed only once it applied it — ``raube nich``: nobody is
    called "nich" — may still be one letter off a game word („raube nicht“): say that instead."""
    if isinstance(request, Typed) and actor == game.to_act(state) and _unread(refusal):
        near = _near(game, state, request.text, refusal)
        if isinstance(near, Refusal):
            return near
    return refusal


def _command(
    game: Game[Any], game_id: int, version: int, state: Any, actor: str, request: Request
) -> Found | Refusal | Chat:
    """The command a request stands for, with the words the log keeps for it."""
    if isinstance(request, Given):
        return Found(request.command, describe(request.command))
    if isinstance(request, Pressed):
        if request.game_id != game_id or request.version != version:
            return Refusal(IllegalCommand("outdated_choice"), private=True)
        to_act = game.to_act(state)
        if actor != to_act:
            return Refusal(IllegalCommand("button_not_yours", player=to_act or "—"), private=True)
        text = words_for(game.choices(state), request.picked)
        if text is None:
            return Refusal(IllegalCommand("outdated_choice"), private=True)
        reading = read_line(game, text)
    else:
        text = request.text
        known = request.readings
        reading = known[game.name] if game.name in known else read_line(game, text)
    if isinstance(reading, CroupierError):
        return Refusal(reading)
    if reading is None:
        if isinstance(request, Pressed):  # a choice's words always parse; if not, the board is old
            return Refusal(IllegalCommand("outdated_choice"), private=True)
        return Refusal(InvalidCommand("not_a_command")) if request.required else Chat()
    return Found(reading, text)


def _unread(found: Found | Refusal | Chat) -> bool:
    """The line was not read as a command of the game: chit-chat, or a malformed command."""
    return isinstance(found, Chat) or (isinstance(found, Refusal) and isinstance(found.error, InvalidCommand))


def _near(game: Game[Any], state: Any, text: str, found: Found | Refusal | Chat) -> Found | Refusal | Chat:
    """A line the game did not read, close to one of its words that is valid now ("wieter", "garde
    tou"): a malformed command is refused with the word it probably meant; chit-chat is answered
    with it."""
    word = game.near_miss(text, state)
    if word is None:
        return found
    if isinstance(found, Refusal):
        return Refusal(InvalidCommand("did_you_mean", word=word))
    return Chat(near=word)


def answer(game: Game[Any], state: Any, actor: str, query: Query) -> Sequence[Event]:
    """The events that answer a query; the state stays as it is (a query changes nothing)."""
    _, events = game.apply(state, actor, query.command, dice_mod.ScriptedDice(()))
    return tuple(events)


def words_for(choices: Sequence[Choice], picked: Sequence[int]) -> str | None:
    """The forum words a press sends; None when the picked indices do not fit these choices."""
    if not picked or any(not 0 <= index < len(choices) for index in picked):
        return None
    chosen = [choices[index] for index in picked]
    first = chosen[0]
    if first.multi:
        if any(choice.group != first.group for choice in chosen) or len(set(picked)) != len(picked):
            return None
        return first.compose([choice.words for choice in chosen])
    return first.words if len(chosen) == 1 else None


def fields_of(command: Command) -> dict[str, Any]:
    """A command's fields as JSON values (commands are flat: strings, numbers, tuples of them)."""
    names = _FIELD_NAMES.get(type(command))
    if names is None:  # a class's fields never change once it is made; every logged move asks
        names = _FIELD_NAMES[type(command)] = tuple(spec.name for spec in dataclasses.fields(command))
    values = {name: getattr(command, name) for name in names}
    return {key: list(value) if isinstance(value, tuple) else value for key, value in values.items()}


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}  # per command class: the fields fields_of reads


def describe(command: Command) -> str:
    """A built command as the log shows it: ``/skip ben``."""
    values = " ".join(str(v) for v in fields_of(command).values() if v not in (None, "", []))
    return f"/{type(command).__name__.lower()}{' ' + values if values else ''}"
