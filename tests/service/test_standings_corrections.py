"""Standings with moderators' corrections (bot/service/standings.py, engine/standings.py, bot/exports.py):
adjustments count in the totals and are notes of their own, disqualified players leave the ranking."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime

from bot.exports import FORMATS, StandingsRow, StandingsTable, to_csv, to_json
from bot.service.standings import standings_of
from bot.store import Correction, GameRecord, ParticipantRecord, Tournament
from engine.game import Result
from engine.standings import PLACEMENT, standings
from engine.verflixte6 import GAME
from engine.verflixte6.state import Durchgang, Participant

NOW = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)


def _results(points: dict[str, int]) -> dict[str, Result]:
    return {player: Result(value) for player, value in points.items()}


def test_adjustments_count_in_the_total_before_ranking() -> None:
    rows = standings([_results({"anna": 10, "ben": 8})], adjustments={"anna": -3, "cleo": 2})
    assert [(r.rank, r.player, r.total, r.adjustment) for r in rows] == [
        (1, "ben", 8, 0),
        (2, "anna", 7, -3),
        (3, "cleo", 2, 2),  # adjusted before any result: ranked all the same
    ]
    assert rows[2].points == (None,)
    placed = standings([_results({"anna": 10, "ben": 8})], PLACEMENT, adjustments={"ben": 3})
    assert [(r.player, r.total) for r in placed] == [("ben", 11), ("anna", 10)]


def _game(number: int, points: dict[str, int]) -> GameRecord:
    state = Durchgang(
        options=GAME.open({}).options,
        participants=tuple(
            Participant(id=p, name=p.title(), points=n, role="prinzessin") for p, n in points.items()
        ),
        closed=True,
    )
    return GameRecord(
        id=number,
        tournament_id=1,
        channel="c",
        kind="verflixte6",
        number=number,
        options={},
        status="closed",
        seed=b"s",
        commitment="c",
        dice_used=0,
        snapshot=GAME.dump(state),
        version=1,
        to_act=None,
        turn_deadline=None,
        opened_at=NOW,
        closed_at=NOW,
        participants=tuple(
            ParticipantRecord(number, p, p.title(), i, "prinzessin", n)
            for i, (p, n) in enumerate(points.items())
        ),
    )


def _correction(number: int, kind: str, player: str, reason: str, points: int = 0) -> Correction:
    return Correction(
        id=number,
        tournament_id=1,
        kind=kind,
        player=player,
        player_name=player.title(),
        points=points,
        reason=reason,
        moderator="mod",
        moderator_name="Mod",
        game_id=None,
        voided_entry=None,
        created_at=NOW,
        message_id=f"m{number}",
    )


def test_disqualified_players_leave_the_ranking_and_placement_points_move_up() -> None:
    cup = Tournament(1, "g", "c", "Cup", "placement", NOW)
    games = [_game(1, {"anna": 10, "ben": 12, "cleo": 4})]
    corrections = [
        _correction(1, "adjust", "anna", "Strafe", -3),
        _correction(2, "adjust", "anna", "Bonus", 1),
        _correction(3, "disqualify", "ben", "Unsportlich"),
        _correction(4, "adjust", "ben", "egal", 5),
    ]
    table = standings_of(cup, games, corrections)
    assert [(row.player, row.total, row.adjustment) for row in table.rows] == [
        ("anna", 8, -2),
        ("cleo", 8, 0),
    ]
    assert [(n.kind, n.name, n.points, n.reason) for n in table.notes] == [
        ("adjust", "Anna", -3, "Strafe"),
        ("adjust", "Anna", 1, "Bonus"),
        ("disqualified", "Ben", 0, "Unsportlich"),
    ]
    reinstated = standings_of(cup, games, [*corrections, _correction(5, "reinstate", "ben", "Irrtum")])
    assert [row.player for row in reinstated.rows] == ["ben", "anna", "cleo"]
    assert reinstated.disqualified == ()


def test_a_table_without_corrections_exports_as_before() -> None:
    table = StandingsTable("Cup", "sum", (1,), (StandingsRow(1, "anna", "Anna", (5,), 5, 5, 0),))
    assert to_csv(table) == (
        '"Turnier","Rang","Spieler","D1","Summe","Bestes","Zombies"\n"Cup","1","Anna","5","5","5","0"\n'
    )
    data = json.loads(to_json(table))
    assert (data["adjustments"], data["disqualified"], data["rows"][0]["adjustment"]) == ([], [], 0)
    for fmt, render in FORMATS.items():
        text = render(table)
        assert "Korrektur" not in text, fmt


def test_notes_in_csv_are_a_block_of_their_own() -> None:
    cup = Tournament(1, "g", "c", "Cup", "sum", NOW)
    corrections = [
        _correction(1, "adjust", "anna", "Strafe, grob", -3),
        _correction(2, "disqualify", "ben", "x"),
    ]
    table = standings_of(cup, [_game(1, {"anna": 10, "ben": 12})], corrections)
    rows = list(csv.reader(io.StringIO(to_csv(table))))
    assert rows[-4:] == [
        [],
        ["Anmerkung", "Spieler", "Punkte", "Grund"],
        ["Korrektur", "Anna", "-3", "Strafe, grob"],
        ["disqualifiziert", "Ben", "", "x"],
    ]
