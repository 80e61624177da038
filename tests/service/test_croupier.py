"""The croupier service on real databases (SQLite always, PostgreSQL when reachable)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import update

from bot.markup import plain
from bot.replies import Reply
from bot.service.croupier import Croupier, seed_from_text
from bot.service.rendering import Narrator
from bot.spelling import CONSOLE, ConsoleSpelling
from bot.store import Store
from bot.store.repositories.tables import log_t
from bot.texts import render
from engine.dice import derive_die
from engine.game import Close, Join, Leave, Skip, Start
from engine.verflixte6 import GAME as VERFLIXTE6
from tests.dice import scripted
from tests.service.helpers import MODERATOR, Table, seen, snapshot_of


def said(key: str, **facts: object) -> str:
    """A sentence as the console's croupier says it in German (Die verflixte 6!'s catalogue); facts
    naming players are given as display names."""
    return plain(Narrator().line(key, facts, "de", game=VERFLIXTE6))


def seat(reply: Reply, player: str) -> tuple[str, int]:
    """A player's role and points in the reply's running table."""
    (row,) = [row for row in reply.table if row.player == player]
    return row.role, row.points


async def test_full_durchgang_is_played_closed_and_scored(store: Store) -> None:
    table = Table(Croupier(store=store, dice_factory=scripted([3, 2, 6, 4, 5])))
    opened = await table.open()
    assert opened.ok
    assert opened.commitment is None
    for player in ("anna", "ben"):
        assert (await table.do(player, Join(player.capitalize()))).ok
    assert (await table.say("anna", "weiter")).ok  # Freiwurf 3
    assert (await table.say("anna", "weiter")).ok  # 2 → 5
    stopped = await table.say("anna", "stopp")
    assert stopped.ok
    assert seat(stopped, "anna") == ("prinzessin", 5)
    assert stopped.to_act == "ben"
    assert (await table.say("ben", "weiter")).ok  # Freiwurf 6 (no bust)
    assert (await table.say("ben", "weiter")).ok  # 4 → 10
    third = await table.say("ben", "weiter")  # 5 → 15
    assert seat(third, "ben") == ("playing", 15)
    closed = await table.do(MODERATOR, Close())
    assert closed.ok
    assert closed.seed is None
    standings = await table.croupier.standings_table(table.channel)
    assert standings is not None
    assert [(row.name, row.total, row.rank) for row in standings.rows] == [("Ben", 15, 1), ("Anna", 5, 2)]


async def test_chit_chat_is_silent_and_writes_nothing(store: Store) -> None:
    table = Table(Croupier(store=store, dice_factory=scripted([1])))
    await table.open()
    await table.do("anna", Join("Anna"))
    before = await snapshot_of(store)
    reply = await table.say("anna", "na, wer traut sich heute?")
    assert reply.silent
    assert await snapshot_of(store) == before


@pytest.mark.parametrize(
    ("author", "text", "code", "facts"),
    [
        ("ben", "weiter", "not_your_turn", {"player": "Anna"}),
        ("anna", "stopp", "stop_before_freiwurf", {}),
        (
            "anna",
            "weiter mit Joker Rattenlrd",
            "unknown_joker",
            {"name": "Rattenlrd", "suggestions": ["Rattenlord"]},
        ),
        ("anna", "raube ben", "no_decision_pending", {"valid": ["Joker: A, B, C", "weiter"]}),
    ],
)
async def test_refused_command_gets_a_reason_and_changes_nothing(
    store: Store, author: str, text: str, code: str, facts: dict[str, object]
) -> None:
    table = Table(Croupier(store=store, dice_factory=scripted([3, 3, 3])))
    await table.open()
    await table.do("anna", Join("Anna"))
    await table.do("ben", Join("Ben"))
    before = await snapshot_of(store)
    reply = await table.say(author, text)
    assert not reply.ok
    assert reply.error_code == code, reply.text
    assert reply.lines == (said(f"error.{code}", **facts),)
    assert await snapshot_of(store) == before


async def test_redelivered_message_is_applied_once_and_answered_alike(store: Store) -> None:
    table = Table(Croupier(store=store, dice_factory=scripted([4, 2, 5])))
    await table.open()
    await table.do("anna", Join("Anna"))
    first = await table.say("anna", "weiter", mid="discord:111")
    after_first = await snapshot_of(store)
    again = await table.say("anna", "weiter", mid="discord:111")
    assert again.duplicate
    assert again.text == first.text
    assert await snapshot_of(store) == after_first
    with store.transaction() as uow:
        record = uow.games.open_in(table.channel)
    assert record is not None
    assert record.dice_used == 1


async def test_only_moderators_open_skip_and_close(store: Store) -> None:
    table = Table(Croupier(store=store))
    refused = await table.croupier.open_game(table.msg("anna"), "verflixte6", {})
    assert not refused.ok
    assert refused.error_code == "not_moderator"
    await table.open()
    await table.do("anna", Join("Anna"))
    await table.do("ben", Join("Ben"))
    before = await snapshot_of(store)
    for command in (Skip("anna"), Close(), Start()):
        reply = await table.do("ben", command)
        assert not reply.ok
        assert reply.error_code == "not_moderator"
    assert await snapshot_of(store) == before
    assert (await table.do(MODERATOR, Skip("anna"))).ok


async def test_only_admins_export(store: Store) -> None:
    table = Table(Croupier(store=store))
    refused = await table.croupier.export(table.msg("anna"), "csv")
    assert not refused.ok
    assert refused.error_code == "not_admin"
    allowed = await table.croupier.export(table.msg("anna", admin=True), "csv")
    assert allowed.ok


async def test_second_open_in_a_channel_is_refused(store: Store) -> None:
    table = Table(Croupier(store=store))
    assert (await table.open()).ok
    again = await table.open()
    assert not again.ok
    assert again.error_code == "game_already_open"
    unknown = await table.open("kniffel")
    assert not unknown.ok
    assert unknown.error_code == "unknown_game"


async def test_new_tournament_starts_a_fresh_table(store: Store) -> None:
    table = Table(Croupier(store=store, dice_factory=scripted([5, 5])))
    await table.open()
    await table.do("anna", Join("Anna"))
    await table.say("anna", "weiter")
    await table.say("anna", "stopp")
    await table.do(MODERATOR, Close())
    reply = seen(await table.croupier.new_tournament(table.msg(MODERATOR), "Herbstcup", "placement"))
    assert reply.ok
    assert reply.lines == (said("common.tournament_started", name="Herbstcup", scoring="placement"),)
    standings = await table.croupier.standings_table(table.channel)
    assert standings is not None
    assert standings.tournament == "Herbstcup"
    assert standings.rows == ()


async def test_verify_rederives_the_dice_and_catches_tampering(store: Store) -> None:
    croupier = Croupier(store=store, seed_source=seed_from_text("verify-test"))
    table = Table(croupier)
    await table.open()
    await table.do("anna", Join("Anna"))
    for _ in range(4):  # a bust ends the Spiel early; later "weiter"s are refused and roll nothing
        await table.say("anna", "weiter")
    await table.do(MODERATOR, Close())
    with store.transaction() as uow:
        opened = (uow.log.of_game(1))[0]
    assert len(opened.reply["commitment"]) == 64
    reports = await croupier.verify()
    assert [r.ok for r in reports] == [True]
    with store.transaction() as uow:
        (game,) = uow.games.list_closed()
        entries = uow.log.of_game(game.id)
    faces = [face for entry in entries for face in entry.dice]
    assert faces == [derive_die(game.seed, game.id, i) for i in range(game.dice_used)]
    assert game.dice_used == len(faces) > 0


async def test_verify_numbers_a_tampered_die_as_the_readme_s_recipe_and_names_its_move(store: Store) -> None:
    """Die i of game g is HMAC(seed, "g:i"), counting from 0 (README, "Checking the dice"): the report
    of a tampered die uses that very number, and says which move rolled it."""
    croupier = Croupier(store=store, seed_source=seed_from_text("verify-numbering"))
    table = Table(croupier)
    await table.open()
    await table.do("anna", Join("Anna"))
    await table.say("anna", "weiter")  # the Freiwurf: die 0
    await table.say("anna", "stopp")
    await table.do("ben", Join("Ben"))
    await table.say("ben", "weiter")  # ben's Freiwurf: die 1
    await table.do(MODERATOR, Close())
    with store.transaction() as uow:
        (game,) = uow.games.list_closed()
        entries = [entry for entry in uow.log.of_game(game.id) if entry.dice]
    assert [(entry.dice_from, entry.text) for entry in entries][:2] == [(0, "weiter"), (1, "weiter")]
    tampered = derive_die(game.seed, game.id, 1) % 6 + 1  # any other face
    with store.engine.begin() as connection:
        connection.execute(update(log_t).where(log_t.c.id == entries[1].id).values(dice=[tampered]))
    (report,) = await croupier.verify()
    assert report.key == "verify_mismatch"
    assert report.facts["index"] == 1  # not 2: the README's "g:1"
    assert (report.facts["move"], report.facts["name"]) == ("weiter", "Ben")
    line = plain(croupier.report_line(report, "en"))
    assert "die 1 (the move “weiter” by Ben)" in line
    assert f"the log has {tampered}, the seed gives {derive_die(game.seed, game.id, 1)}" in line


async def test_settings_change_the_reply_language(store: Store) -> None:
    table = Table(Croupier(store=store, dice_factory=scripted([2])))
    refused = await table.croupier.change_settings(table.msg("anna"), {"language": "en"})
    assert not refused.ok
    assert refused.error_code == "not_moderator"
    bad = await table.croupier.change_settings(table.msg(MODERATOR), {"language": "xx"})
    assert not bad.ok
    assert bad.error_code == "unknown_language"
    assert (await table.croupier.change_settings(table.msg(MODERATOR), {"language": "en"})).ok
    await table.open()
    reply = await table.do("anna", Join("Anna"))
    assert reply.ok
    refused_en = await table.say("ben", "weiter")
    assert not refused_en.ok
    assert refused_en.language == "en"
    scope = (VERFLIXTE6.catalogue, VERFLIXTE6.name)
    expected = render("error.join_first", {}, "en", scope=scope)
    assert refused_en.error_code == "join_first"
    assert refused_en.lines == (expected,)
    assert expected != render("error.join_first", {}, "de", scope=scope)


async def test_reply_is_stored_as_json_in_the_log(store: Store) -> None:
    table = Table(Croupier(store=store, dice_factory=scripted([4])))
    await table.open()
    await table.do("anna", Join("Anna"))
    await table.say("anna", "weiter", mid="m-json")
    with store.transaction() as uow:
        entry = uow.log.find("m-json")
    assert entry is not None
    json.dumps(entry.reply)  # plain JSON, so redelivery works on both stores
    assert entry.dice == [4]
    assert entry.dice_from == 0
    assert entry.events
    assert entry.events[0]["kind"].startswith("v6.")


async def test_a_choice_drawn_for_an_older_version_is_refused(store: Store) -> None:
    table = Table(Croupier(store=store, dice_factory=scripted([3, 4])))
    await table.open()
    joined = await table.do("anna", Join("Anna"))  # the board the join reply carries
    board = joined.board
    assert board is not None
    assert board.player == "anna"
    freiwurf = next(b for b in board.buttons if b.action == "freiwurf" or b.label == "Freiwurf")
    pressed = await table.croupier.press(table.msg("anna"), board.game_id, board.version, (freiwurf.index,))
    assert pressed.ok
    assert seat(pressed, "anna") == ("playing", 3)
    before = await snapshot_of(store)
    again = await table.croupier.press(table.msg("anna"), board.game_id, board.version, (freiwurf.index,))
    assert not again.ok
    assert again.error_code == "outdated_choice"
    assert again.private
    assert await snapshot_of(store) == before


async def test_someone_who_left_is_named_by_display_name(store: Store) -> None:
    table = Table(Croupier(store=store))
    await table.open()
    await table.do("anna", Join("Anna Lena"))
    await table.do("ben", Join("Ben"))
    left = await table.do("ben", Leave())
    assert left.ok
    assert left.lines[0] == said("v6.left", player="Ben")  # the name, not the id "ben"


async def test_replies_name_the_front_ends_own_commands(store: Store) -> None:
    """One service answers every front end alike; each spells the commands its own way."""
    table = Table(Croupier(store=store))
    refused = await table.croupier.execute(table.msg("anna"), Join("Anna"))
    assert refused.error_code == "no_open_game"
    console = refused.spelled(CONSOLE)
    assert console.lines == (render("error.no_open_game", {}, "de", commands={"open": "/open"}),)
    spelled = _Spelled({"open": "/durchgang oeffnen"})
    assert refused.spelled(spelled).lines == (
        render("error.no_open_game", {}, "de", commands={"open": "/durchgang oeffnen"}),
    )


class _Spelled(ConsoleSpelling):
    def __init__(self, commands: dict[str, str]) -> None:
        self._commands = commands

    def command(self, key: str, lang: str) -> str:
        return self._commands.get(key, f"/{key}")


async def test_turn_timeout_applies_once_when_the_deadline_passed(store: Store) -> None:
    now = [datetime(2026, 11, 30, 12, 0, tzinfo=UTC)]
    croupier = Croupier(store=store, dice_factory=scripted([4, 5]), clock=lambda: now[0])
    table = Table(croupier)
    await table.croupier.change_settings(table.msg(MODERATOR), {"timeout": "1h"})
    await table.open()
    await table.do("anna", Join("Anna"))
    await table.do("ben", Join("Ben"))
    await table.say("anna", "weiter")
    assert await croupier.apply_due_timeouts() == []  # not due yet
    now[0] += timedelta(hours=2)
    (channel, reply), *rest = await croupier.apply_due_timeouts()
    assert channel == table.channel
    assert rest == []
    assert reply.ok
    assert reply.to_act == "ben"
    assert any(row.player == "anna" and row.role == "prinzessin" and row.points == 4 for row in reply.table)
    assert await croupier.apply_due_timeouts() == []  # ben's clock started with the timeout just now
