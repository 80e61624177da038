"""Moderator corrections through the console, on both stores: undo a move (never a re-roll), adjust
points, disqualify and reinstate, list the corrections, audit a game (bot/service/corrections.py)."""

from __future__ import annotations

import asyncio
import contextlib
import csv
import io
import json
from typing import Any

import pytest

from bot import cli
from bot.console.terminal import Console
from bot.games import GAMES, scope_of
from bot.service.corrections import when
from bot.service.croupier import Croupier, Incoming, seed_from_text
from bot.store import GameRecord, LogEntry, Store
from bot.texts import render
from engine.dice import derive_die
from tests.faults.harness import contents, refusals_only
from tests.service.helpers import open_game_view

CHANNEL = "console"


@pytest.fixture
def croupier(store: Store) -> Croupier:
    return Croupier(store=store, seed_source=seed_from_text("corrections-test"))


@pytest.fixture
def console(croupier: Croupier) -> Console:
    return Console(croupier, moderators=frozenset({"mod"}), admins=frozenset({"mod"}))


async def say(console: Console, line: str) -> tuple[bool, str]:
    answer = await console.handle(line)
    assert answer is not None, line
    return answer.ok, answer.text


async def play(console: Console, *lines: str) -> list[tuple[bool, str]]:
    return [await say(console, line) for line in lines]


def game_and_log(store: Store, game_id: int | None = None) -> tuple[GameRecord, tuple[LogEntry, ...]]:
    with store.transaction(read_only=True) as uow:
        record = uow.games.get(game_id) if game_id is not None else uow.games.open_in(CHANNEL)
        assert record is not None
        return record, uow.log.of_game(record.id)


def points_of(store: Store, player: str) -> int:
    with store.transaction(read_only=True) as uow:
        record = uow.games.open_in(CHANNEL)
        assert record is not None
        return next(p.points for p in record.participants if p.player == player)


def export_json(db_url: str) -> dict[str, Any]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["export", "--format", "json", "--db", db_url]) == 0
    return dict(json.loads(out.getvalue()))


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(argv)
    return code, out.getvalue(), err.getvalue()


# --- undo ------------------------------------------------------------------------------------------


async def test_undo_restores_the_game_and_the_next_roll_is_a_new_die(console: Console, store: Store) -> None:
    assert all(ok for ok, _ in await play(console, "mod: /open verflixte6", "anna: /join", "ben: /join"))
    assert (await say(console, "anna: weiter"))[0]  # the Freiwurf: never busts
    before = points_of(store, "anna")
    record, _ = game_and_log(store)
    assert (await say(console, "anna: weiter"))[0]
    voided_die = game_and_log(store)[1][-1].dice

    ok, text = await say(console, "mod: /undo Versehen")
    assert ok, text
    assert "Versehen" in text
    assert any(row.startswith("▶ anna (") and row.endswith(f": {before}") for row in text.splitlines())
    assert points_of(store, "anna") == before
    undone, entries = game_and_log(store)
    assert undone.dice_used == 2  # the voided move's die stays consumed
    assert undone.version == record.version + 2  # the move and the undo
    voided = [entry for entry in entries if entry.voided]
    assert [(entry.text, entry.dice) for entry in voided] == [("weiter", voided_die)]

    assert (await say(console, "anna: weiter"))[0]
    after, entries = game_and_log(store)
    new = entries[-1]
    assert (new.text, new.dice_from, len(new.dice)) == ("weiter", 2, 1)
    # The committed sequence: die 1 was the voided one, the new move rolled die 2.
    assert voided_die == [derive_die(after.seed, after.id, 1)]
    assert new.dice == [derive_die(after.seed, after.id, 2)]
    assert after.dice_used == 3

    await play(console, "anna: stopp", "ben: weiter", "ben: stopp")
    ok, _ = await say(console, "mod: /close")
    assert ok
    ok, verified = await say(console, "mod: /verify")
    assert ok
    closed, _ = game_and_log(store, after.id)
    title = render("game.round", {"number": 1}, "de", scope=scope_of(GAMES["verflixte6"]))
    facts = {
        "title": title,
        "id": closed.id,
        "count": closed.dice_used,
        "commitment": closed.commitment[:16] + "…",
    }
    assert verified == render("common.verify_ok", facts, "de")  # every die, the voided one too


async def test_several_undos_go_back_further_and_stop_at_the_opening(console: Console, store: Store) -> None:
    await play(console, "mod: /open verflixte6", "anna: /join", "ben: /join", "anna: weiter")
    assert (await say(console, "mod: /undo eins"))[0]  # the Freiwurf
    assert (await say(console, "mod: /undo zwei"))[0]  # ben's join
    assert (await say(console, "mod: /undo drei"))[0]  # anna's join
    view = await open_game_view(store, CHANNEL)
    assert view is not None
    assert view[0].participants == ()
    assert await say(console, "mod: /undo vier") == (False, render("error.undo_nothing", {}, "de"))
    # Joining again works, and the next roll is the second die of the game.
    await play(console, "anna: /join", "anna: weiter")
    record, entries = game_and_log(store)
    assert entries[-1].dice_from == 1
    assert record.dice_used == 2


async def test_an_undo_is_refused_without_an_open_game_a_reason_or_a_move(console: Console) -> None:
    assert await say(console, "mod: /undo Versehen") == (False, render("error.undo_no_open_game", {}, "de"))
    await play(console, "mod: /open verflixte6")
    assert await say(console, "mod: /undo") == (False, render("error.correction_reason_missing", {}, "de"))
    assert await say(console, "mod: /undo x") == (False, render("error.undo_nothing", {}, "de"))
    await play(console, "anna: /join", "anna: weiter", "anna: stopp", "mod: /close")
    title = render("game.round", {"number": 1}, "de", scope=scope_of(GAMES["verflixte6"]))
    closed = render("error.undo_game_closed", {"title": title}, "de")  # the closed game, named
    assert await say(console, "mod: /undo zu spät") == (False, closed)


async def test_undo_in_killer_takes_back_the_start(store: Store) -> None:
    croupier = Croupier(store=store, seed_source=seed_from_text("corrections-killer"))
    console = Console(croupier, moderators=frozenset({"mod"}))
    await play(console, "mod: /open killer", "anna: /join", "ben: /join")
    signed_up = await open_game_view(store, CHANNEL)
    assert signed_up is not None
    assert (await say(console, "mod: /start"))[0]
    started, _ = game_and_log(store)
    ok, text = await say(console, "mod: /undo falscher Start")
    assert ok, text
    back = await open_game_view(store, CHANNEL)
    assert back is not None
    assert back[0].snapshot == signed_up[0].snapshot
    assert back[0].dice_used == started.dice_used  # the start's dice (if it rolled any) stay used


# --- adjust, disqualify, reinstate, the list ----------------------------------------------------


async def _played_durchgang(console: Console) -> None:
    replies = await play(
        console,
        "mod: /tournament Wintercup",
        "mod: /open verflixte6",
        "anna: /join",
        "ben: /join",
        "anna: weiter",
        "anna: stopp",
        "ben: weiter",
        "ben: stopp",
        "mod: /close",
    )
    assert all(ok for ok, _ in replies), replies


async def test_adjust_lowers_the_total_in_standings_and_export(
    console: Console, croupier: Croupier, store: Store, db_url: str
) -> None:
    await _played_durchgang(console)
    table = await croupier.standings_table(CHANNEL)
    assert table is not None
    total = {row.player: row.total for row in table.rows}

    ok, text = await say(console, "mod: /adjust anna -3 Strafe")
    assert ok, text
    assert text == render(
        "common.adjusted",
        {"name": "anna", "points": "−3", "reason": "Strafe", "moderator": "mod", "tournament": "Wintercup"},
        "de",
    )
    ok, standings = await say(console, "mod: /standings")
    assert ok
    anna_row = next(line for line in standings.splitlines() if line.startswith("|") and "| anna |" in line)
    assert f"| {total['anna'] - 3} |" in anna_row
    assert "- anna −3 — Strafe" in standings.splitlines()  # its own line in the notes
    table = await croupier.standings_table(CHANNEL)
    assert table is not None
    assert {row.player: row.total for row in table.rows}["anna"] == total["anna"] - 3

    exported = await asyncio.to_thread(export_json, db_url)
    row = next(row for row in exported["rows"] if row["player"] == "anna")
    assert (row["total"], row["adjustment"]) == (total["anna"] - 3, -3)
    assert exported["adjustments"] == [{"player": "anna", "name": "anna", "points": -3, "reason": "Strafe"}]


async def test_corrections_lists_every_correction_with_its_reason(console: Console, store: Store) -> None:
    await play(console, "mod: /tournament Wintercup", "mod: /open verflixte6", "anna: /join", "ben: /join")
    await play(console, "anna: weiter", "mod: /undo Versehen", "anna: weiter", "anna: stopp")
    await play(console, "ben: weiter", "ben: stopp", "mod: /close", "mod: /adjust anna -3 Strafe")
    ok, listed = await say(console, "anna: /corrections")  # for everybody to read
    assert ok
    lines = listed.splitlines()
    assert lines[0] == render("common.corrections_title", {"name": "Wintercup"}, "de")
    with store.transaction(read_only=True) as uow:
        tournament = uow.tournaments.current(CHANNEL)
        assert tournament is not None
        undo, adjust = uow.corrections.of_tournament(tournament.id)
    assert len(lines) == 3
    # When (as stored), who, what, why — in that order, each correction on its line.
    assert lines[1].startswith(f"{when(undo.created_at)} · mod · ")
    assert "„weiter“" in lines[1]
    assert lines[1].endswith("· Versehen")
    assert lines[2] == f"{when(adjust.created_at)} · mod · anna −3 · Strafe"


async def test_a_redelivered_undo_after_later_moves_undoes_nothing_more(
    console: Console, store: Store
) -> None:
    """An undo delivered again after the game moved on is answered from the log: it must not take back
    the move made since."""
    await play(console, "mod: /open verflixte6", "anna: /join", "ben: /join", "anna: weiter")
    first = await say(console, "#u7 mod: /undo Versehen")
    assert first[0], first
    assert (await say(console, "anna: weiter"))[0]
    moved, _ = game_and_log(store)
    assert await say(console, "#u7 mod: /undo Versehen") == first
    again, _ = game_and_log(store)
    assert (again.version, again.dice_used, again.snapshot) == (
        moved.version,
        moved.dice_used,
        moved.snapshot,
    )


async def test_non_moderators_are_refused_and_nothing_changes(console: Console, store: Store) -> None:
    await _played_durchgang(console)
    await play(console, "mod: /open verflixte6", "anna: /join", "anna: weiter")
    for line in (
        "anna: /undo Versehen",
        "anna: /adjust anna +5 Bonus",
        "anna: /disqualify ben Unsportlich",
        "anna: /reinstate ben Irrtum",
    ):
        before = await contents(store)
        assert await say(console, line) == (False, render("error.not_moderator", {}, "de"))
        refusals_only(before, await contents(store))  # recorded as a refusal, nothing else changed


async def test_each_correction_applies_once_per_message_id(console: Console, store: Store) -> None:
    await _played_durchgang(console)
    await play(console, "mod: /open verflixte6", "anna: /join", "anna: weiter")
    for line in ("#u1 mod: /undo Versehen", "#a1 mod: /adjust anna -3 Strafe", "#d1 mod: /disqualify ben x"):
        first = await say(console, line)
        assert first[0], first
        state = await contents(store)
        assert await say(console, line) == first  # answered from the log …
        assert await contents(store) == state  # … and applied no second time
    with store.transaction(read_only=True) as uow:
        tournament = uow.tournaments.current(CHANNEL)
        assert tournament is not None
        kinds = [c.kind for c in uow.corrections.of_tournament(tournament.id)]
    assert kinds == ["undo", "adjust", "disqualify"]


async def test_a_disqualified_player_is_out_of_the_standings_and_cannot_join(
    console: Console, croupier: Croupier, db_url: str
) -> None:
    await _played_durchgang(console)
    ok, text = await say(console, "mod: /disqualify ben Unsportlich")
    assert ok, text
    table = await croupier.standings_table(CHANNEL)
    assert table is not None
    assert [row.player for row in table.rows] == ["anna"]
    assert [(note.name, note.reason) for note in table.disqualified] == [("ben", "Unsportlich")]
    ok, standings = await say(console, "mod: /standings")
    assert "- ben — Unsportlich" in standings.splitlines()
    exported = await asyncio.to_thread(export_json, db_url)
    assert exported["disqualified"] == [{"player": "ben", "name": "ben", "reason": "Unsportlich"}]
    assert [row["player"] for row in exported["rows"]] == ["anna"]

    await play(console, "mod: /open verflixte6")
    refused = render("error.disqualified_cannot_join", {"name": "ben", "reason": "Unsportlich"}, "de")
    assert await say(console, "ben: /join") == (False, refused)
    assert await say(console, "mod: /disqualify ben nochmal") == (
        False,
        render("error.already_disqualified", {"name": "ben", "reason": "Unsportlich"}, "de"),
    )
    assert (await say(console, "mod: /reinstate ben Irrtum"))[0]
    assert (await say(console, "ben: /join"))[0]
    assert await say(console, "mod: /reinstate ben nochmal") == (
        False,
        render("error.not_disqualified", {"name": "ben"}, "de"),
    )


async def test_every_export_format_shows_corrections_and_disqualifications(console: Console) -> None:
    await _played_durchgang(console)
    await play(console, "mod: /adjust anna -3 Strafe [sic]", "mod: /disqualify ben *Unsportlich*")
    exports = {
        fmt: (await say(console, f"mod: /export {fmt}"))[1] for fmt in ("csv", "json", "markdown", "bbcode")
    }
    rows = list(csv.reader(io.StringIO(exports["csv"])))
    assert ["Korrektur", "anna", "-3", "Strafe [sic]"] in rows
    assert ["disqualifiziert", "ben", "", "*Unsportlich*"] in rows
    assert json.loads(exports["json"])["disqualified"][0]["reason"] == "*Unsportlich*"
    assert "- anna −3 — Strafe \\[sic\\]" in exports["markdown"].splitlines()
    assert "- ben — \\*Unsportlich\\*" in exports["markdown"].splitlines()
    assert "[*]anna −3 — Strafe ［sic］" in exports["bbcode"].splitlines()
    assert "[*]ben — *Unsportlich*" in exports["bbcode"].splitlines()


# --- names ----------------------------------------------------------------------------------------


def _msg(author: str, name: str, number: int, *, moderator: bool = False) -> Incoming:
    return Incoming(
        message_id=f"names:{number}",
        guild="g",
        channel="names",
        author=author,
        author_name=name,
        is_moderator=moderator,
    )


async def test_names_are_resolved_from_the_tournaments_games_never_guessed(croupier: Croupier) -> None:
    from engine.game import Join

    mod = _msg("900", "Mod", 1, moderator=True)
    assert (await croupier.open_game(mod, "verflixte6", {})).ok
    for number, (author, name) in enumerate([("123", "Anna"), ("456", "anna"), ("789", "Ben")], start=2):
        assert (await croupier.execute(_msg(author, name, number), Join(name))).ok
    ids = iter(range(10, 100))

    async def adjust(name: str) -> Any:
        return await croupier.adjust(_msg("900", "Mod", next(ids), moderator=True), name, -1, "Test")

    ambiguous = await adjust("ANNA")
    assert ambiguous.error_code == "correction_ambiguous_player"
    assert "Anna (123)" in ambiguous.text
    assert "anna (456)" in ambiguous.text
    assert (await adjust("12")).error_code == "correction_unknown_player"  # no guessing from digits
    similar = await adjust("Bem")
    assert similar.error_code == "correction_unknown_player_similar"
    assert "Ben" in similar.text
    assert (await adjust("<@123>")).ok  # a mention is an id
    assert (await adjust("456")).ok
    assert (await adjust("@ben")).ok  # a display name, folded


# --- audit ----------------------------------------------------------------------------------------


async def test_audit_prints_the_log_with_voided_moves_marked(
    console: Console, store: Store, db_url: str
) -> None:
    await play(console, "mod: /open verflixte6", "anna: /join", "anna: weiter", "#u mod: /undo Versehen")
    record, entries = game_and_log(store)
    code, out, err = await asyncio.to_thread(run_cli, ["audit", "--game", str(record.id), "--db", db_url])
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].startswith(f"Game {record.id} (verflixte6")
    assert len([line for line in lines if line[:1].isdigit()]) == len(entries) == 4
    weiter = next(index for index, line in enumerate(lines) if "anna: weiter" in line)
    assert f"[{entries[2].message_id}]" in lines[weiter]
    assert f"{entries[2].dice[0]}" in lines[weiter].rsplit(":", 1)[1]
    assert "voided by mod" in lines[weiter + 1]
    assert lines[weiter + 1].endswith("Versehen")
    assert "[console:u]" in lines[-1]

    code, out, err = await asyncio.to_thread(run_cli, ["audit", "--game", "999", "--db", db_url])
    assert (code, out) == (1, "")
    assert err.splitlines() == ["croupier: " + render("common.audit_unknown_game", {"id": 999}, "en")]
