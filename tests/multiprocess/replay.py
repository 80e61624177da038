"""The single-process reference run: a stored game re-played from its command log with its own dice.

Whatever several processes did to a game, the result must be what one croupier would have made of the
same commands in the same order: the same dice at the same positions, the same final state.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.games import GAMES
from bot.store import GameRecord, LogEntry, Store
from engine import game as lifecycle
from engine.dice import RecordingDice, VerifiableDice
from engine.game import Command

# Commands the slash commands build directly (the log keeps their type and fields, not forum words).
_TYPED: dict[str, type[Command]] = {
    cls.__name__: cls
    for cls in (
        lifecycle.Join,
        lifecycle.Leave,
        lifecycle.Start,
        lifecycle.Skip,
        lifecycle.Remove,
        lifecycle.Close,
        lifecycle.Timeout,
    )
}


@dataclass(frozen=True)
class Replayed:
    snapshot: dict[str, Any]
    dice: tuple[int, ...]  # every die the reference run rolled, in order
    finished: bool


def command_of(record: GameRecord, entry: LogEntry) -> Command:
    """The command a log entry applied: rebuilt from its logged type, or re-read from its words."""
    logged = entry.command or {}
    kind = logged.get("type")
    if kind in _TYPED:
        fields = {k: v for k, v in logged.items() if k != "type"}
        return _TYPED[kind](**fields)
    command = GAMES[record.kind].parse(entry.text)
    assert command is not None, f"log entry {entry.message_id}: {entry.text!r} is no command"
    fields = {k: list(v) if isinstance(v, tuple) else v for k, v in dataclasses.asdict(command).items()}
    assert {"type": type(command).__name__, **fields} == logged, (entry.text, logged)
    return command


def replay(record: GameRecord, entries: Sequence[LogEntry]) -> Replayed:
    """Open the game with its options and apply every logged command with dice from its seed."""
    game = GAMES[record.kind]
    state = game.open(record.options)
    dice = RecordingDice(VerifiableDice(record.seed, record.id, 0))
    for entry in entries:
        if entry.game_id != record.id or (entry.command or {}).get("type") == "Open":
            continue
        before = len(dice.faces)
        assert entry.dice_from == before, f"{entry.message_id}: logged dice start at {entry.dice_from}"
        state, _ = game.apply(state, entry.actor, command_of(record, entry), dice)
        assert dice.faces[before:] == entry.dice, f"{entry.message_id}: other dice than logged"
    return Replayed(game.dump(state), tuple(dice.faces), game.finished(state))


async def games_in(store: Store, channel: int) -> list[tuple[GameRecord, tuple[LogEntry, ...]]]:
    """Every game ever opened in a channel, with its log, oldest first."""
    with store.transaction(read_only=True) as uow:
        found = []
        for record in uow.games.list_closed():
            if record.channel == str(channel):
                found.append(record)
        current = uow.games.open_in(str(channel))
        if current is not None:
            found.append(current)
        return [(record, uow.log.of_game(record.id)) for record in found]
