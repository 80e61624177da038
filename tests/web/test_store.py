"""Migration 0005_web and ``uow.web``, on both stores."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import exc, text

from bot.store import Store, create_engine, current_revision, downgrade, head_revision, upgrade

NOW = datetime(2026, 12, 2, 20, 0, tzinfo=UTC)


async def test_0005_adds_a_web_token_every_channel_starts_without(blank_db_url: str) -> None:
    upgrade(blank_db_url, "0002")
    engine = create_engine(blank_db_url)  # the row as 0002 holds it (today's repository reads later columns)
    try:
        with engine.begin() as connection:
            connection.execute(
                text("INSERT INTO channel_settings (guild, channel, language) VALUES ('g', 'chan', 'fr')")
            )
    finally:
        engine.dispose()
    upgrade(blank_db_url)
    assert current_revision(blank_db_url) == head_revision()
    async with await Store.open(blank_db_url) as store:
        with store.transaction() as uow:
            assert uow.web.token("g", "chan") is None
            assert uow.settings.get("g", "chan").language == "fr"
            uow.web.publish("g", "chan", "secret-1")
            uow.commit()
    downgrade(blank_db_url, "0002")  # and back: the column goes, the settings stay
    upgrade(blank_db_url)
    async with await Store.open(blank_db_url) as store:
        with store.transaction(read_only=True) as uow:
            assert uow.web.token("g", "chan") is None
            assert uow.settings.get("g", "chan").language == "fr"


async def test_publish_hide_and_find_by_token(store: Store) -> None:
    with store.transaction() as uow:
        uow.settings.set("g", "", language="de")  # a guild-wide row: never on the web by inheritance
        uow.web.publish("g", "a", "token-a")
        uow.web.publish("g", "b", "token-b")
        uow.commit()
    with store.transaction() as uow:
        assert uow.web.token("g", "a") == "token-a"
        assert uow.web.token("g", "c") is None
        found = uow.web.channel_of("token-b")
        assert found is not None
        assert (found.guild, found.channel) == ("g", "b")
        assert [v.channel for v in uow.web.visible()] == ["a", "b"]
        uow.web.hide("g", "a")
        uow.web.publish("g", "b", "token-b2")
        uow.commit()
    with store.transaction(read_only=True) as uow:
        assert uow.web.channel_of("token-a") is None
        assert uow.web.channel_of("token-b") is None
        assert [v.token for v in uow.web.visible()] == ["token-b2"]
        assert uow.settings.get("g", "b").language == "de"  # the guild's settings still reach it
    with pytest.raises(ValueError, match="one channel"), store.transaction() as uow:
        uow.web.publish("g", "", "guild-wide")
    with pytest.raises(exc.IntegrityError), store.transaction() as uow:
        uow.web.publish("g", "c", "token-b2")  # a token names one channel


async def test_the_pages_reads(store: Store) -> None:
    with store.transaction() as uow:
        tournament = uow.tournaments.create("g", "chan", "Cup", "sum", NOW)
        first = uow.games.create(tournament.id, "chan", "verflixte6", {}, b"s1", "c1", {}, None, NOW)
        uow.log.append("m1", channel="chan", actor="anna", text="weiter", now=NOW, game_id=first.id, dice=[3])
        uow.log.append("m2", channel="chan", actor="ben", text="weiter", now=NOW, game_id=first.id, dice=[])
        uow.log.append("m3", channel="chan", actor="ben", text="x", now=NOW, game_id=first.id, dice=[6, 1])
        uow.games.save(first.id, 1, {}, 3, None, None, [], "closed", NOW)
        second = uow.games.create(tournament.id, "chan", "verflixte6", {}, b"s2", "c2", {}, None, NOW)
        uow.commit()
    with store.transaction(read_only=True) as uow:
        games = uow.web.games_in(tournament.id)
        assert [(g.number, g.status) for g in games] == [(1, "closed"), (2, "open")]
        assert games[1].id == second.id
        rolled = uow.web.dice_in([first.id, second.id])
        assert [(r.actor, r.dice) for r in rolled] == [("anna", (3,)), ("ben", (6, 1))]
        assert uow.web.dice_in([]) == ()
        entries = uow.log.of_game(first.id)
        assert [e.message_id for e in uow.web.log_after(first.id, entries[0].id)] == ["m2", "m3"]
        assert uow.web.log_after(first.id, entries[-1].id) == ()
