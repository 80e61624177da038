"""How one request becomes a move, decided without the store: authorize, parse, apply.

The service loads the channel, hands the loaded game to :func:`decide` and persists what it answers.
Everything here is plain computation (the engine and the dice source it is given), so it holds no
lock, awaits nothing, and a refusal is a value (:class:`Refusal`) rather than an exception.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import dice as dice_mod
from engine.errors import CroupierError, IllegalCommand, InvalidCommand
from engine.game import Choice, Command, Event, Game

# --- what was asked ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Typed:
    """A chat line: a command of the channel's game, or chit-chat — unless ``required``: a line sent
    as a command (Discord's ``/zug``), which is refused when it holds none."""

    text: str
    required: bool = False
    readings: Mapping[str, Reading] = field(default_factory=dict, hash=False)  # by game, if read already


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


# --- what came of it ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Applied:
    command: Command
    words: str  # what the log shows as typed: the line, the pressed choice's words, or a /command
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
    """The line holds no command: say nothing."""


Outcome = Applied | Refusal | Chat | Query


def decide(
    game: Game[Any],
    game_id: int,
    version: int,
    state: Any,
    actor: str,
    request: Request,
    *,
    moderator: bool,
    dice: dice_mod.DiceSource,
) -> Outcome:
    """What ``actor``'s request does to the game (which stays untouched: states are immutable)."""
    found = _command(game, game_id, version, state, actor, request)
    if not isinstance(found, tuple):
        return found
    command, words = found
    if command.moderator_only and not moderator:
        return Refusal(IllegalCommand("not_moderator"))
    if command.query:
        return Query(command)
    recording = dice_mod.RecordingDice(dice)
    try:
        new_state, events = game.apply(state, actor, command, recording)
    except CroupierError as error:
        return Refusal(error)
    return Applied(command, words, new_state, tuple(events), tuple(recording.faces))


def _command(
    game: Game[Any], game_id: int, version: int, state: Any, actor: str, request: Request
) -> tuple[Command, str] | Refusal | Chat:
    """The command a request stands for, with the words the log keeps for it."""
    if isinstance(request, Given):
        return request.command, describe(request.command)
    if isinstance(request, Pressed):
        if request.game_id != game_id or request.version != version:
            return Refusal(IllegalCommand("outdated_choice"), private=True)
        to_act = game.to_act(state)
        if actor != to_act:
            return Refusal(IllegalCommand("button_not_yours", player=to_act or "—"), private=True)
        text = words_for(game.choices(state), request.picked)
        if text is None:
            return Refusal(IllegalCommand("outdated_choice"), private=True)
    else:
        text = request.text
    known = request.readings if isinstance(request, Typed) else {}
    try:
        command = _reading(known[game.name]) if game.name in known else game.parse(text)
    except CroupierError as error:
        return Refusal(error)
    if command is None:
        if isinstance(request, Pressed):  # a choice's words always parse; if not, the board is old
            return Refusal(IllegalCommand("outdated_choice"), private=True)
        return Refusal(InvalidCommand("not_a_command")) if request.required else Chat()
    return command, text


def _reading(reading: Reading) -> Command | None:
    """A reading made before the store was touched, as parsing the line again would give it."""
    if isinstance(reading, CroupierError):
        raise reading
    return reading


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
    values = {spec.name: getattr(command, spec.name) for spec in dataclasses.fields(command)}
    return {key: list(value) if isinstance(value, tuple) else value for key, value in values.items()}


def describe(command: Command) -> str:
    """A built command as the log shows it: ``/skip ben``."""
    values = " ".join(str(v) for v in fields_of(command).values() if v not in (None, "", []))
    return f"/{type(command).__name__.lower()}{' ' + values if values else ''}"
