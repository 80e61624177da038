"""/verify answers about the asking guild only (security promise 5): another guild's game is as unknown
as a game that does not exist, and the lookup goes through an index, never a scan of every game."""

from __future__ import annotations

import contextlib
import dataclasses
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy.dialects import sqlite

from bot.croupier import Croupier, seed_from_text
from bot.store import Store
from bot.store.repositories.games import closed_of_guild
from bot.texts import render
from engine.game import Close, Join
from tests.service.helpers import MODERATOR, Table


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

    asked = await croupier.verify_reply(ours.msg("anna"), their_game)
    assert not asked.ok
    assert asked.text == render("error.verify_unknown_game", {"id": their_game}, "de")

    mine = await croupier.verify_reply(ours.msg("anna"), our_game)
    assert mine.ok
    assert "✅" in mine.text

    everything = await croupier.verify_reply(ours.msg("anna"), None)
    assert everything.ok
    with store.transaction(read_only=True) as uow:
        assert [game.id for game in uow.games.closed_of("guild-1", "ours")] == [our_game]
        assert [game.id for game in uow.games.closed_of("guild-2", "theirs")] == [their_game]
        assert uow.games.closed_of("guild-1", "ours", their_game) == ()
        assert uow.games.closed_of("guild-1", "theirs") == ()


@pytest.mark.parametrize("by_id", [True, False])
async def test_the_guilds_games_are_found_through_indexes(tmp_path: Path, by_id: bool) -> None:
    """SQLite's plan for the lookup: tournaments and games each reached by an index, no full scan."""
    path = tmp_path / "plan.sqlite3"
    store = await Store.open(f"sqlite:///{path}")
    await store.close()
    statement = closed_of_guild("sqlite", "guild-1", "ours", 7 if by_id else None)
    compiled = statement.compile(dialect=sqlite.dialect(), compile_kwargs={"literal_binds": True})
    with contextlib.closing(sqlite3.connect(path)) as connection:
        plan = [row[-1] for row in connection.execute(f"EXPLAIN QUERY PLAN {compiled}")]
    scans = [step for step in plan if step.startswith("SCAN") and "INDEX" not in step]
    assert plan
    assert not scans, plan
