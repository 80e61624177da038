"""``croupier verify``: re-derive every die of closed games from their revealed seeds.

This is the same recipe the README gives players (engine.dice.derive_die); it checks that the seed
matches the commitment published at the opening and that every die in the log is the derived one, in
order and without gaps. A die that differs is numbered as the recipe numbers it (die i is the message
"g:i", from 0) and named with the move that rolled it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.store import LogEntry, UnitOfWork
from engine.dice import commitment, derive_die


@dataclass(frozen=True)
class Report:
    game_id: int
    number: int
    kind: str  # the game's kind, whose catalogue names it ("Durchgang 3", "Killer · partie 2")
    ok: bool
    key: str  # catalogue key under "common."
    facts: dict[str, Any] = field(default_factory=dict)


def verify_in(
    uow: UnitOfWork, game_id: int | None = None, *, guild: str | None = None, home: str = ""
) -> list[Report]:
    """Closed games checked against their logs: with ``guild``, only that guild's (one by id, or the
    tournaments of channel ``home``); without (the command line, an operator's tool), any of them."""
    games = (
        uow.games.list_closed(game_id=game_id) if guild is None else uow.games.closed_of(guild, home, game_id)
    )
    logs = {game.id: uow.log.of_game(game.id) for game in games}
    reports = []
    for game in games:
        facts: dict[str, Any] = {
            "id": game.id,
            "number": game.number,
            "commitment": game.commitment[:16] + "…",
        }
        if commitment(game.seed) != game.commitment:
            reports.append(Report(game.id, game.number, game.kind, False, "verify_bad_commitment", facts))
            continue
        logged: list[int] = []
        moves: list[LogEntry] = []  # the move each logged die belongs to
        for entry in logs[game.id]:
            if entry.dice and entry.dice_from != len(logged):
                break
            logged.extend(entry.dice)
            moves.extend([entry] * len(entry.dice))
        mismatch = next(
            (i for i, face in enumerate(logged) if derive_die(game.seed, game.id, i) != face), None
        )
        if mismatch is None and len(logged) != game.dice_used:
            mismatch = len(logged)
        if mismatch is not None:
            # Numbered as the README's recipe numbers the dice (from 0): "g:i" is the die's message.
            facts |= {"index": mismatch, "derived": derive_die(game.seed, game.id, mismatch)}
            if mismatch < len(logged):
                move = moves[mismatch]
                names = {seat.player: seat.name for seat in game.participants}
                facts |= {
                    "logged": logged[mismatch],
                    "move": move.text,
                    "name": names.get(move.actor, move.actor),
                }
                reports.append(Report(game.id, game.number, game.kind, False, "verify_mismatch", facts))
            else:
                reports.append(Report(game.id, game.number, game.kind, False, "verify_missing", facts))
        else:
            key = "verify_ok" if logged else "verify_no_dice"  # nothing rolled: only the commitment checked
            reports.append(Report(game.id, game.number, game.kind, True, key, facts | {"count": len(logged)}))
    return reports
