"""``uow.corrections``: moderators' corrections of a tournament, and the log entries an undo voids.

Corrections are only ever added; a disqualification is lifted by a later reinstatement, an adjustment
by a later opposite one. Every query here is served by an index: ``(tournament_id, id)`` for a
tournament's corrections, ``game_id`` for a game's, the command log's primary key for voiding.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import Row, Select, bindparam, exc, insert, literal, select, update

from bot.store.errors import Conflict, DuplicateMessage, UnknownGame, UnknownTournament
from bot.store.models import CORRECTION_KINDS
from bot.store.records import Correction, NewCorrection
from bot.store.repositories.prepared import Prepared
from bot.store.repositories.tables import (
    corrections_t,
    games_t,
    log_t,
    participants_t,
)
from bot.store.repositories.transaction import Transaction, check_instant, violated

# Whether someone is barred from joining: decided by the tournament's last (dis)qualifying correction.
STANDING_KINDS = ("disqualify", "reinstate")

_VOID = (
    update(log_t)
    .where(log_t.c.id == bindparam("b_entry"), log_t.c.voided_by.is_(None))
    .values(voided_by=bindparam("b_correction"))
)


def _listed() -> Select[Any]:
    """Corrections with the number of the game they name and the words of the move they voided."""
    joined = corrections_t.outerjoin(games_t, games_t.c.id == corrections_t.c.game_id).outerjoin(
        log_t, log_t.c.id == corrections_t.c.voided_entry
    )
    return select(
        corrections_t, games_t.c.number.label("game_number"), log_t.c.text.label("voided_text")
    ).select_from(joined)


_STANDING = Prepared(
    _listed()
    .where(
        corrections_t.c.tournament_id == bindparam("b_tournament"),
        corrections_t.c.kind.in_([literal(kind) for kind in STANDING_KINDS]),
    )
    .order_by(corrections_t.c.id),
    name="CorrectionRow",
)


class Corrections:
    """``uow.corrections``: record corrections, list a tournament's or a game's, void log entries."""

    def __init__(self, tx: Transaction) -> None:
        self._tx = tx

    def add(self, new: NewCorrection) -> Correction:
        """Record one correction. Its message id is unique like the command log's, so a message that
        another process handled a moment ago raises :class:`DuplicateMessage`."""
        if new.kind not in CORRECTION_KINDS:
            raise ValueError(f"kind must be one of {', '.join(CORRECTION_KINDS)}, not {new.kind!r}")
        check_instant("now", new.now)
        values = {
            "tournament_id": new.tournament_id,
            "kind": new.kind,
            "player": new.player,
            "player_name": new.player_name,
            "points": int(new.points),
            "reason": new.reason,
            "moderator": new.moderator,
            "moderator_name": new.moderator_name,
            "game_id": new.game_id,
            "voided_entry": new.voided_entry,
            "created_at": new.now,
            "message_id": new.message_id,
        }
        try:
            row = self._tx.execute(insert(corrections_t).values(values).returning(*corrections_t.c)).one()
        except exc.IntegrityError as error:
            if violated(error, "uq_corrections_message_id", "corrections.message_id"):
                raise DuplicateMessage(new.message_id) from error
            if "foreign" in str(error.orig).lower():
                if new.game_id is not None:
                    raise UnknownGame(new.game_id) from error
                raise UnknownTournament(new.tournament_id) from error
            raise
        return _correction(row)

    def void(self, entry_id: int, correction_id: int) -> None:
        """Mark a command-log entry as voided by the correction; an entry is voided at most once."""
        result = self._tx.execute(_VOID, {"b_entry": entry_id, "b_correction": correction_id})
        if result.rowcount != 1:
            raise Conflict(f"command-log entry {entry_id} is unknown or already voided")

    def of_tournament(self, tournament_id: int, kinds: Iterable[str] | None = None) -> tuple[Correction, ...]:
        """The tournament's corrections (all, or those of ``kinds``), oldest first."""
        statement = _listed().where(corrections_t.c.tournament_id == tournament_id)
        if kinds is not None:
            statement = statement.where(corrections_t.c.kind.in_(tuple(kinds)))
        rows = self._tx.execute(statement.order_by(corrections_t.c.id))
        return tuple(_correction(row) for row in rows)

    def of_game(self, game_id: int) -> tuple[Correction, ...]:
        """The corrections that name a game (its undos), oldest first."""
        rows = self._tx.execute(
            _listed().where(corrections_t.c.game_id == game_id).order_by(corrections_t.c.id)
        )
        return tuple(_correction(row) for row in rows)

    def disqualified(self, tournament_id: int) -> dict[str, Correction]:
        """Who is disqualified from the tournament now, with the disqualification that says why (every
        /join asks, so its statement is prepared)."""
        rows = self._tx.run(_STANDING, {"b_tournament": tournament_id}).rows
        return barred(tuple(_correction(row._asdict()) for row in rows))

    def players_in(self, tournament_id: int) -> dict[str, str]:
        """Every participant seated in one of the tournament's games (open or closed): id → display
        name, the newest game's name winning."""
        statement = (
            select(participants_t.c.player, participants_t.c.name)
            .select_from(participants_t.join(games_t, games_t.c.id == participants_t.c.game_id))
            .where(games_t.c.tournament_id == tournament_id)
            .order_by(games_t.c.id, participants_t.c.position)
        )
        return {row.player: row.name for row in self._tx.execute(statement)}


def barred(corrections: Iterable[Correction]) -> dict[str, Correction]:
    """Who stands disqualified after these corrections (in order): each player's last disqualification
    not followed by a reinstatement."""
    standing: dict[str, Correction] = {}
    for correction in corrections:
        if correction.player is None:
            continue
        if correction.kind == "disqualify":
            standing[correction.player] = correction
        elif correction.kind == "reinstate":
            standing.pop(correction.player, None)
    return standing


def adjustments(corrections: Iterable[Correction]) -> Mapping[str, int]:
    """Each player's points adjustments added up."""
    total: dict[str, int] = {}
    for correction in corrections:
        if correction.kind == "adjust" and correction.player is not None:
            total[correction.player] = total.get(correction.player, 0) + correction.points
    return total


def _correction(row: Row[Any] | Mapping[str, Any]) -> Correction:
    values = row if isinstance(row, Mapping) else row._mapping
    return Correction(
        id=values["id"],
        tournament_id=values["tournament_id"],
        kind=values["kind"],
        player=values["player"],
        player_name=values["player_name"],
        points=values["points"],
        reason=values["reason"],
        moderator=values["moderator"],
        moderator_name=values["moderator_name"],
        game_id=values["game_id"],
        voided_entry=values["voided_entry"],
        created_at=values["created_at"],
        message_id=values["message_id"],
        game_number=values.get("game_number"),
        voided_text=values.get("voided_text"),
    )
