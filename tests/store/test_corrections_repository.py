"""``uow.corrections`` (bot/store/repositories/corrections.py) and voided log entries, on both stores."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.store import Conflict, DuplicateMessage, NewCorrection, Store
from bot.store.repositories.corrections import adjustments, barred
from engine.game import Seat

NOW = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)


def _correction(tournament_id: int, kind: str, message_id: str, **fields: object) -> NewCorrection:
    return NewCorrection(
        tournament_id=tournament_id,
        kind=kind,
        reason=str(fields.pop("reason", "weil")),
        moderator="mod",
        moderator_name="Mod",
        message_id=message_id,
        now=NOW + timedelta(minutes=len(message_id)),
        **fields,  # type: ignore[arg-type]
    )


async def test_corrections_are_listed_per_tournament_with_the_voided_move(store: Store) -> None:
    with store.transaction() as uow:
        cup = uow.tournaments.create("g", "chan", "Cup", "sum", NOW)
        other = uow.tournaments.create("g", "other", "Other", "sum", NOW)
        game = uow.games.create(
            cup.id,
            "chan",
            "verflixte6",
            {},
            b"s",
            "c",
            {},
            "anna",
            NOW,
            participants=[Seat("a1", "Anna", "x", 0)],
        )
        move = uow.log.append(
            "m1", channel="chan", actor="a1", text="weiter", now=NOW, game_id=game.id, dice=[4]
        )
        undo = uow.corrections.add(
            _correction(
                cup.id, "undo", "u1", player="a1", player_name="Anna", game_id=game.id, voided_entry=move.id
            )
        )
        uow.corrections.void(move.id, undo.id)
        uow.corrections.add(_correction(cup.id, "adjust", "a1", player="a1", player_name="Anna", points=-3))
        uow.corrections.add(_correction(other.id, "adjust", "a2", player="zed", player_name="Zed", points=5))
        uow.commit()
    with store.transaction(read_only=True) as uow:
        listed = uow.corrections.of_tournament(cup.id)
        assert [(c.kind, c.player, c.points) for c in listed] == [("undo", "a1", 0), ("adjust", "a1", -3)]
        assert listed[0].game_number == 1
        assert listed[0].voided_text == "weiter"
        assert listed[0].created_at.tzinfo is not None
        assert [c.kind for c in uow.corrections.of_game(game.id)] == ["undo"]
        (entry,) = uow.log.of_game(game.id)
        assert entry.voided_by == undo.id
        assert entry.dice == [4]  # a voided move keeps its dice
        assert uow.corrections.players_in(cup.id) == {"a1": "Anna"}
        assert adjustments(listed) == {"a1": -3}


async def test_an_entry_is_voided_once_and_a_message_id_corrects_once(store: Store) -> None:
    with store.transaction() as uow:
        cup = uow.tournaments.create("g", "chan", "Cup", "sum", NOW)
        entry = uow.log.append("m1", channel="chan", actor="a1", text="weiter", now=NOW)
        first = uow.corrections.add(_correction(cup.id, "undo", "u1", voided_entry=entry.id))
        uow.corrections.void(entry.id, first.id)
        second = uow.corrections.add(_correction(cup.id, "undo", "u2", voided_entry=entry.id))
        with pytest.raises(Conflict):
            uow.corrections.void(entry.id, second.id)
    with store.transaction() as uow:
        cup = uow.tournaments.create("g", "chan", "Cup", "sum", NOW)
        uow.corrections.add(_correction(cup.id, "adjust", "same", player="a1", points=1))
        with pytest.raises(DuplicateMessage):
            uow.corrections.add(_correction(cup.id, "adjust", "same", player="a1", points=1))


async def test_the_last_disqualification_or_reinstatement_decides(store: Store) -> None:
    with store.transaction() as uow:
        cup = uow.tournaments.create("g", "chan", "Cup", "sum", NOW)
        for mid, kind, player in [
            ("1", "disqualify", "anna"),
            ("2", "disqualify", "ben"),
            ("3", "reinstate", "anna"),
            ("4", "adjust", "cleo"),
        ]:
            uow.corrections.add(_correction(cup.id, kind, mid, player=player, reason=f"r{mid}"))
        uow.commit()
    with store.transaction(read_only=True) as uow:
        standing = uow.corrections.disqualified(cup.id)
        assert {player: c.reason for player, c in standing.items()} == {"ben": "r2"}
        assert barred(uow.corrections.of_tournament(cup.id)) == standing
