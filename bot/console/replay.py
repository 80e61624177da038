"""``croupier replay``: a JSON script of players, scripted dice and typed lines → the final state.

The script runs through the same croupier service and store as chat does (a throw-away SQLite file),
with the script's dice in place of the verifiable ones, so a replay shows exactly what the bot would
have answered. Exit codes: 0 done, 2 malformed script (one line naming the field or line at fault),
3 the dice ran out while a line was being handled.

A script is input like any chat: at most 16 MiB of UTF-8, each line at most 2,000 characters (Discord's
limit, as on the console), each name at most 100; JSON nested too deeply, or a number too long for
Python to read, is refused, not a crash.
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from bot.console.terminal import LINE_MAX
from bot.games import GAMES
from bot.replies import Reply
from bot.service.croupier import Croupier, Incoming
from bot.service.rendering import Narrator
from bot.spelling import CONSOLE
from bot.store import GameRecord, Store
from bot.texts import render
from engine.dice import ScriptedDice
from engine.errors import CroupierError
from engine.game import Close, Join, Start

MODERATOR = "croupier-replay"
GAME_ID = 1  # the replay's store is new: its one game is the first
SCRIPT_MAX_BYTES = 16 * 1024 * 1024
NAME_MAX = 100


class ScriptLine(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    sender: str = Field(alias="from", min_length=1, max_length=NAME_MAX)
    text: str

    @field_validator("text")
    @classmethod
    def _fits_discord(cls, text: str) -> str:
        if len(text) > LINE_MAX:
            raise ValueError(f"{len(text)} characters; a line holds at most {LINE_MAX} (Discord's limit)")
        return text


class Script(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: str
    players: list[str] = Field(min_length=1)
    options: dict[str, Any] = Field(default_factory=dict)
    dice: list[int] = Field(default_factory=list)
    lines: list[ScriptLine] = Field(default_factory=list)
    close: bool = True

    @field_validator("game")
    @classmethod
    def _known_game(cls, game: str) -> str:
        if game not in GAMES:
            raise ValueError(f"unknown game {game!r}; known: {', '.join(GAMES)}")
        return game

    @field_validator("players")
    @classmethod
    def _distinct_names(cls, players: list[str]) -> list[str]:
        if any(not name.strip() for name in players):
            raise ValueError("player names must not be empty")
        if any(len(name) > NAME_MAX for name in players):
            raise ValueError(f"a player name holds at most {NAME_MAX} characters")
        if len(set(players)) != len(players):
            raise ValueError("player names must be distinct")
        return players

    @field_validator("dice")
    @classmethod
    def _faces(cls, dice: list[int]) -> list[int]:
        for index, face in enumerate(dice):
            if not 1 <= face <= 6:
                raise ValueError(f"dice[{index}] is {face}; a die shows 1 to 6")
        return dice


class ScriptError(Exception):
    """The script is malformed (exit 2) or ran out of dice (exit 3)."""

    def __init__(self, message: str, exit_code: int) -> None:
        super().__init__(message)
        self.exit_code = exit_code


def read_script(source: str | IO[Any]) -> str:
    """The text of a script file (by name) or stream (stdin), refused when larger than
    :data:`SCRIPT_MAX_BYTES` or not UTF-8; raises :class:`ScriptError` (exit 2) naming the problem."""
    try:
        if isinstance(source, str):
            with open(source, "rb") as file:
                data = file.read(SCRIPT_MAX_BYTES + 1)
        else:
            data = source.read(SCRIPT_MAX_BYTES + 1)
        if len(data) > SCRIPT_MAX_BYTES:
            raise ScriptError(f"the script is larger than {SCRIPT_MAX_BYTES} bytes", 2)
        return data.decode("utf-8") if isinstance(data, bytes) else str(data)
    except UnicodeDecodeError as error:
        raise ScriptError(f"not UTF-8 text (byte {error.start})", 2) from None
    except OSError as error:
        raise ScriptError(error.strerror or type(error).__name__, 2) from None


def load_script(raw: str) -> Script:
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as error:
        raise ScriptError(f"not JSON: line {error.lineno} column {error.colno}: {error.msg}", 2) from None
    except RecursionError:
        raise ScriptError("not a script: JSON nested too deeply", 2) from None
    except ValueError:  # Python reads no integer of more than sys.get_int_max_str_digits() digits
        limit = sys.get_int_max_str_digits()
        raise ScriptError(f"not a script: a number of more than {limit:,} digits", 2) from None
    try:
        script = Script.model_validate(data)
    except RecursionError:
        raise ScriptError("not a script: nested too deeply", 2) from None
    except ValidationError as error:
        first = error.errors()[0]
        raise ScriptError(f"{_where(first['loc'])}: {_plain(first['type'], str(first['msg']))}", 2) from None
    _check_options(script)
    return script


def _check_options(script: Script) -> None:
    """The game refuses the script's options: say why in English, like every message of the croupier
    command line (the game's own language is for its replies), every bad option on the one line."""
    game = GAMES[script.game]
    try:
        game.open(script.options)
    except CroupierError as error:
        said = Narrator().refusal(error, "en", game=game).spelled(CONSOLE)
        raise ScriptError(f"options: {' '.join(said.lines)}", 2) from None


async def run(script: Script) -> dict[str, Any]:
    """Play the script and return the contract's output object."""
    with tempfile.TemporaryDirectory(prefix="croupier-replay-") as folder:
        store = await Store.open(f"sqlite:///{Path(folder) / 'replay.sqlite3'}")
        try:
            return await _play(script, store)
        finally:
            await store.close()


async def _play(script: Script, store: Store) -> dict[str, Any]:
    def scripted(record: GameRecord) -> ScriptedDice:
        dice = ScriptedDice(script.dice)
        dice.position = record.dice_used
        return dice

    croupier = Croupier(store=store, dice_factory=scripted)
    counter = iter(range(1, 1_000_000))

    def message(author: str, text: str = "", moderator: bool = False) -> Incoming:
        return Incoming(
            message_id=f"replay:{next(counter)}",
            guild="replay",
            channel="replay",
            author=author,
            author_name=author,
            text=text,
            is_moderator=moderator,
        )

    setup = [await croupier.open_game(message(MODERATOR, moderator=True), script.game, script.options)]
    for player in script.players:
        setup.append(await croupier.execute(message(player), Join(player)))
    setup.append(await croupier.execute(message(MODERATOR, moderator=True), Start()))
    for step, reply in enumerate(setup):
        if not reply.ok and reply.error_code != "already_started":
            raise ScriptError(_setup_failure(step, script, reply), 3 if _out_of_dice(reply) else 2)

    game = GAMES[script.game]
    replies: list[dict[str, Any]] = []
    for number, line in enumerate(script.lines, start=1):
        reply = (await croupier.handle_text(message(line.sender, line.text))).spelled(CONSOLE)
        if _out_of_dice(reply):
            raise ScriptError(f"lines[{number - 1}] ({line.sender!r}: {line.text!r}): the dice ran out", 3)
        if reply.silent:
            text = render("error.not_a_command", {}, game.language)
            replies.append({"ok": False, "text": text})
        else:
            replies.append({"ok": reply.ok, "text": reply.text})

    if script.close:
        closing = await croupier.execute(message(MODERATOR, moderator=True), Close())
        if _out_of_dice(closing):
            raise ScriptError("close: the dice ran out", 3)
    final = await croupier.final_state("replay", "replay", GAME_ID)
    if final is None:  # pragma: no cover - the game was opened above
        raise ScriptError("the game could not be opened", 2)
    summary, used = final
    return {**summary, "replies": replies, "dice_left": max(len(script.dice) - used, 0)}


# pydantic's wording for the usual mistakes, in the words of a script's author
_PLAIN = {
    "missing": "missing",
    "extra_forbidden": "not a field of a script",
    "int_type": "should be a whole number",
    "int_parsing": "should be a whole number",
    "int_from_float": "should be a whole number",
    "string_type": "should be text",
    "list_type": "should be a list",
    "dict_type": "should be an object",
    "model_type": "should be an object",
    "bool_type": "should be true or false",
    "bool_parsing": "should be true or false",
    "too_short": "should not be empty",
    "string_too_short": "should not be empty",
    "string_too_long": f"holds at most {NAME_MAX} characters",
}


def _where(loc: Sequence[object]) -> str:
    """``dice[0]``, ``lines[2].from``: where in the script the problem is."""
    where = ""
    for part in loc:
        where += f"[{part}]" if isinstance(part, int) else f"{'.' if where else ''}{_shown(part)}"
    return where or "script"


def _plain(kind: str, message: str) -> str:
    """The problem in plain words: a validator's own sentence, else a plain phrase for the kind."""
    if kind == "value_error":
        return " ".join(message.removeprefix("Value error, ").split())
    return _PLAIN.get(kind, " ".join(message.split()))


def _shown(part: object) -> str:
    """A location part as one printable word (a key may hold a line break)."""
    text = str(part)
    return text if text.isprintable() and text.strip() == text and text else repr(text)


def _out_of_dice(reply: Reply) -> bool:
    return not reply.ok and reply.error_code == "dice_exhausted"


def _setup_failure(step: int, script: Script, reply: Reply) -> str:
    reply = reply.spelled(CONSOLE)
    if step == 0:
        return f"options: {reply.text}"
    if step <= len(script.players):
        return f"players[{step - 1}]: {reply.text}"
    return f"start: {reply.text}"


def dumps(result: Mapping[str, Any] | Sequence[Any]) -> str:
    return json.dumps(result, ensure_ascii=False, indent=1)
