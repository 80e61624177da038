"""/verify answers about the asking guild only (security promise 5): another guild's game is as unknown
as a game that does not exist, and the lookup reads the guild's rows only: from its tournaments to their
games, never through the closed games of every guild (the plans are checked on a database full of them)."""

from __future__ import annotations

import contextlib
import dataclasses
import sqlite3
from datetime import UTC, datetime

import pytest
from sqlalchemy import insert, text

from bot.service.croupier import Croupier, seed_from_text
from bot.store import Store
from bot.store.models import SCORINGS
from bot.store.repositories.games import closed_of_guild
from bot.store.repositories.tables import games_t, tournaments_t
from bot.texts import render
from engine.game import Close, Join
from tests.service.helpers import MODERATOR, Table, seen


async def _closed_game(table: Table) -> int:
    """A short Durchgang played and closed in ``table``'s channel; its game id."""
    opened = await table.open()
    await table.do("anna", Join("Anna"))
    await table.say("anna", "weiter")
    await table.do(MODERATOR, Close())
    assert opened.game_id is not None
    return opened.game_id


def _in_guild(table: Table, guild: str) -> Table:
    """``table`` whose messages come from ``guild``."""

    class Elsewhere(Table):
        def msg(self, *args: object, **kwargs: object):  # type: ignore[no-untyped-def]
            return dataclasses.replace(super().msg(*args, **kwargs), guild=guild)  # type: ignore[arg-type]

    return Elsewhere(table.croupier, channel=table.channel, sender=table.sender)


async def test_another_guilds_game_is_unknown_to_verify(store: Store) -> None:
    croupier = Croupier(store=store, seed_source=seed_from_text("verify-scope"))
    ours = Table(croupier, channel="ours")
    theirs = _in_guild(Table(croupier, channel="theirs"), "guild-2")
    our_game = await _closed_game(ours)
    their_game = await _closed_game(theirs)

    asked = seen(await croupier.verify_reply(ours.msg("anna"), their_game))
    assert not asked.ok
    assert asked.text == render("error.verify_unknown_game", {"id": their_game}, "de")

    mine = seen(await croupier.verify_reply(ours.msg("anna"), our_game))
    assert mine.ok
    assert "✅" in mine.text

    everything = seen(await croupier.verify_reply(ours.msg("anna"), None))
    assert everything.ok
    with store.transaction(read_only=True) as uow:
        assert [game.id for game in uow.games.closed_of("guild-1", "ours")] == [our_game]
        assert [game.id for game in uow.games.closed_of("guild-2", "theirs")] == [their_game]
        assert uow.games.closed_of("guild-1", "ours", their_game) == ()
        assert uow.games.closed_of("guild-1", "theirs") == ()


OTHER_TOURNAMENTS = 4_000
GAMES_EACH = 5  # 20,000 closed games of other guilds
OURS = 3


def _seed(store: Store) -> None:
    """Guild 1's channel "ours" with one tournament of three closed games, and 4,000 tournaments of
    other guilds with five closed games each (rows written directly: only the query is under test)."""
    now = datetime.now(UTC)
    tournaments = [
        {"id": number, "guild": f"guild-{number}", "channel": "ours" if number == 1 else f"c{number}"}
        for number in range(1, OTHER_TOURNAMENTS + 2)
    ]
    games = [
        {
            "id": 1 + index,
            "tournament_id": tournament["id"],
            "channel": tournament["channel"],
            "number": number,
        }
        for index, (tournament, number) in enumerate(
            (tournament, number)
            for tournament in tournaments
            for number in range(1, (OURS if tournament["id"] == 1 else GAMES_EACH) + 1)
        )
    ]
    game = {"kind": "verflixte6", "options": {}, "status": "closed", "seed": b"s", "commitment": "c"}
    game |= {"dice_used": 0, "snapshot": {}, "version": 1, "opened_at": now, "closed_at": now}
    with store.engine.begin() as connection:
        connection.execute(
            insert(tournaments_t),
            [t | {"name": "T", "scoring": SCORINGS[0], "created_at": now} for t in tournaments],
        )
        connection.execute(insert(games_t), [row | game for row in games])


def _plan_sqlite(store: Store, sql: str) -> tuple[list[str], int, int]:
    """SQLite's plan for ``sql``, the rows it returns and the virtual-machine steps it takes to."""
    raw = store.engine.raw_connection()
    try:
        connection = raw.driver_connection
        assert isinstance(connection, sqlite3.Connection)
        plan = [row[-1] for row in connection.execute(f"EXPLAIN QUERY PLAN {sql}")]
        steps = 0

        def step() -> int:
            nonlocal steps
            steps += 1
            return 0

        connection.set_progress_handler(step, 1)
        found = len(connection.execute(sql).fetchall())
        connection.set_progress_handler(None, 1)
        return plan, found, steps
    finally:
        raw.close()


def _plan_postgresql(store: Store, sql: str) -> list[tuple[str, str, str]]:
    """PostgreSQL's plan for ``sql`` (statistics fresh): (node type, table, index) of every node."""
    with store.engine.connect() as connection:
        connection.execute(text("ANALYZE tournaments"))
        connection.execute(text("ANALYZE games"))
        plan = connection.execute(text(f"EXPLAIN (FORMAT JSON) {sql}")).scalar_one()
    nodes, todo = [], [plan[0]["Plan"]]
    while todo:
        node = todo.pop()
        nodes.append((node["Node Type"], node.get("Relation Name", ""), node.get("Index Name", "")))
        todo += node.get("Plans", [])
    return nodes


@pytest.mark.parametrize("by_id", [True, False], ids=["by-id", "the-channels"])
async def test_verify_reads_only_the_guilds_rows_of_a_full_database(store: Store, by_id: bool) -> None:
    """With 20,000 closed games of other guilds, the lookup starts from the guild's tournaments (or the
    game's key) and reaches games through their keys: it never reads the closed games of everyone."""
    _seed(store)
    with store.transaction(read_only=True) as uow:
        assert [g.id for g in uow.games.closed_of("guild-1", "ours", 2 if by_id else None)] == (
            [2] if by_id else [1, 2, 3]
        )
        assert uow.games.closed_of("guild-1", "ours", OURS + 1) == ()  # another guild's game
    statement = closed_of_guild(store.engine.dialect.name, "guild-1", "ours", 2 if by_id else None)
    sql = str(statement.compile(dialect=store.engine.dialect, compile_kwargs={"literal_binds": True}))
    if store.engine.dialect.name == "sqlite":
        plan, found, steps = _plan_sqlite(store, sql)
        assert found == (1 if by_id else OURS)
        assert not [step for step in plan if step.startswith("SCAN")], plan
        assert not [step for step in plan if "ix_games_status" in step], plan  # not every closed game
        start = "SEARCH games USING INTEGER PRIMARY KEY" if by_id else "SEARCH tournaments USING INDEX"
        assert plan[0].startswith(start), plan
        # a few hundred steps for our rows; reading the others' 20,000 games would take >100 times more
        assert steps < OTHER_TOURNAMENTS * GAMES_EACH / 10, steps
        with contextlib.closing(store.engine.raw_connection()) as raw:
            raw.driver_connection.execute("ANALYZE")  # type: ignore[union-attr]
        assert _plan_sqlite(store, sql)[0] == plan  # statistics do not change the plan
    else:
        nodes = _plan_postgresql(store, sql)
        on_tables = [node for node in nodes if node[1] in ("games", "tournaments")]
        assert on_tables, nodes
        assert not [node for node in on_tables if node[0] == "Seq Scan"], nodes
        indexes = {index for _, table, index in on_tables if table == "games"}
        assert indexes <= {"pk_games", "uq_games_tournament_id_kind_number"}, nodes
