"""``uow.delivery`` and ``uow.forum`` (bot/store/repositories/delivery.py, forum.py) on both stores: pending
answers in log order and their acknowledgement in one statement, a reminder claimed exactly once and
cleared by the next save, overdue games with their guild, where to catch up and how far a channel was
read, one open game of a kind per home and the games of its threads, and a finished game's thread
closing recorded step by step until nothing is left of it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from bot.store import GameSave, NewLogEntry, Store
from bot.store.repositories.delivery import DELIVERED, PENDING, UNDELIVERABLE
from bot.store.repositories.forum import RESULT, THREAD
from bot.store.repositories.tables import reads_t
from engine.game import Seat
from tests.store.test_repositories import COMMITMENT, NOW, SEED, close, new_game


async def logged(store: Store, message_id: str, *, game_id: int | None, delivery: str | None) -> int:
    with store.transaction() as uow:
        entry = uow.log.append(
            message_id,
            channel="chan-1",
            actor="anna",
            text="weiter",
            now=NOW,
            game_id=game_id,
            delivery=delivery,
        )
        uow.commit()
    return entry.id


async def test_pending_answers_come_in_log_order_and_are_acknowledged_once(store: Store) -> None:
    game = await new_game(store, players=("anna",))
    first = await logged(store, "discord:1", game_id=game.id, delivery=PENDING)
    await logged(store, "console:1", game_id=game.id, delivery=None)  # a front end that answers in place
    second = await logged(store, "discord:2", game_id=game.id, delivery=PENDING)
    with store.transaction(read_only=True) as uow:
        assert [e.id for e in uow.delivery.pending(NOW)] == [first, second]
        assert uow.delivery.pending(NOW - timedelta(seconds=1)) == ()  # only what was logged by then
    with store.transaction() as uow:
        assert uow.delivery.mark([second, first], DELIVERED, NOW) == 2
        assert uow.delivery.mark([first], UNDELIVERABLE, NOW) == 0  # only pending ones change
        uow.commit()
    with store.transaction(read_only=True) as uow:
        assert uow.delivery.pending(NOW) == ()
        entry = uow.log.find("discord:1")
        assert entry is not None
        assert (entry.delivery, entry.delivered_at) == (DELIVERED, NOW)
    with pytest.raises(ValueError, match="delivery must be one of"), store.transaction() as uow:
        uow.delivery.mark([first], "sent", NOW)


async def test_acknowledgements_ride_on_the_next_commit_and_vanish_with_a_rollback(store: Store) -> None:
    game = await new_game(store, players=("anna",))
    entry = await logged(store, "discord:1", game_id=game.id, delivery=PENDING)
    with store.transaction() as uow:
        uow.before_commit(lambda: uow.delivery.mark([entry], DELIVERED, NOW))  # never committed
    with store.transaction(read_only=True) as uow:
        assert [e.id for e in uow.delivery.pending(NOW)] == [entry]
    with store.transaction() as uow:
        uow.before_commit(lambda: uow.delivery.mark([entry], DELIVERED, NOW))
        uow.commit()
        assert uow.commits == 1
    with store.transaction(read_only=True) as uow:
        assert uow.delivery.pending(NOW) == ()


async def test_a_reminder_is_claimed_once_and_the_next_save_clears_it(store: Store) -> None:
    game = await new_game(store, players=("anna", "ben"))
    deadline = NOW + timedelta(minutes=10)
    with store.transaction() as uow:
        saved = uow.games.save(game.id, game.version, game.snapshot, 0, "anna", deadline, game.participants)
        uow.commit()
    with store.transaction(read_only=True) as uow:
        (waiting,) = uow.forum.unreminded(NOW)
        assert (waiting.game_id, waiting.version, waiting.home, waiting.turn_deadline) == (
            game.id,
            saved.version,
            "chan-1",
            deadline,
        )
        assert uow.forum.unreminded(deadline) == ()  # past the deadline it is the timeout's turn
    with store.transaction() as uow:
        assert uow.forum.claim_reminder(game.id, saved.version, NOW)
        assert not uow.forum.claim_reminder(game.id, saved.version, NOW)  # a second process loses
        uow.commit()
    with store.transaction(read_only=True) as uow:
        assert uow.forum.unreminded(NOW) == ()
        reloaded = uow.games.get(game.id)
        assert reloaded is not None
        assert reloaded.reminded_at == NOW
    with store.transaction() as uow:
        current = uow.games.get(game.id)
        assert current is not None
        uow.games.save_and_log(
            GameSave(game.id, current.version, current.snapshot, 0, "ben", deadline, current.participants),
            _entry(game.id),
        )
        uow.commit()
    with store.transaction(read_only=True) as uow:
        again = uow.games.get(game.id)
        assert again is not None
        assert again.reminded_at is None  # a new deadline, a new reminder
        assert [w.game_id for w in uow.forum.unreminded(NOW)] == [game.id]
    with store.transaction() as uow:
        assert not uow.forum.claim_reminder(game.id, saved.version, NOW)  # an old version claims nothing


def _entry(game_id: int) -> NewLogEntry:
    return NewLogEntry("discord:9", "chan-1", "anna", "stopp", NOW, game_id=game_id, delivery=PENDING)


async def test_catch_up_points_name_each_open_game_and_its_last_chat_line(store: Store) -> None:
    game = await new_game(store, players=("anna",))
    other = await new_game(store, "chan-2", players=("ben",))
    await logged(store, "discord:100", game_id=game.id, delivery=None)
    await logged(store, "interaction:200", game_id=game.id, delivery=None)  # not a chat line
    with store.transaction(read_only=True) as uow:
        points = {point.channel: point for point in uow.forum.catch_up_points()}
    assert points["chan-1"].after == "100"
    assert points["chan-1"].game_id == game.id
    assert points["chan-2"].after is None  # nothing typed yet: read from the opening on
    assert points["chan-2"].opened_at == other.opened_at
    assert points["chan-1"].guild == "guild-1"


async def test_a_home_has_one_open_game_of_each_kind(store: Store) -> None:
    game = await new_game(store, "thread-1", players=("anna",))
    with store.transaction() as uow:
        tournament = uow.tournaments.get(game.tournament_id)
        assert tournament is not None
        assert uow.forum.open_of_kind("guild-1", tournament.channel, "verflixte6") == game.id
        assert uow.forum.open_of_kind("guild-1", tournament.channel, "killer") is None
        assert uow.forum.open_of_kind("guild-2", tournament.channel, "verflixte6") is None
        assert (
            uow.forum.open_of_kind("guild-1", "thread-1", "verflixte6", lock_tournament=tournament.id)
            == game.id
        )
        assert uow.forum.next_number(tournament.id, "verflixte6") == 2
        assert uow.forum.next_number(tournament.id, "killer") == 1


async def in_thread(store: Store, thread: str) -> int:
    """A game played in a thread of the text channel "home-1" (its live table is the thread's start)."""
    with store.transaction() as uow:
        tournament = uow.tournaments.current("home-1") or uow.tournaments.create(
            "guild-1", "home-1", "Spring cup", "sum", NOW
        )
        game = uow.games.create(
            tournament.id,
            thread,
            "verflixte6",
            {},
            SEED,
            COMMITMENT,
            {},
            None,
            NOW,
            live_message=f"home-1:{thread}",
        )
        uow.commit()
    return game.id


async def test_a_finished_thread_game_is_unclosed_until_both_steps_are_recorded(store: Store) -> None:
    first = await in_thread(store, "thread-1")
    second = await in_thread(store, "thread-2")
    in_place = await new_game(store, "chan-9", players=("anna",))  # no live table: nothing to close
    with store.transaction(read_only=True) as uow:
        assert uow.forum.unclosed(NOW + timedelta(days=1)) == ()  # open games have nothing to close
    for game_id in (second, first, in_place.id):
        with store.transaction(read_only=True) as uow:
            record = uow.games.get(game_id)
        assert record is not None
        await close(store, record, {})  # closed at NOW + 1 h
    ended = NOW + timedelta(hours=1)
    with store.transaction(read_only=True) as uow:
        assert uow.forum.unclosed(ended - timedelta(seconds=1)) == ()  # only games ended by then
        unclosed = uow.forum.unclosed(ended)
    assert [(u.game_id, u.channel, u.home, u.guild) for u in unclosed] == [
        (first, "thread-1", "home-1", "guild-1"),  # the same end: by id
        (second, "thread-2", "home-1", "guild-1"),
    ]
    assert all(u.closed_at == ended and not u.thread_closed and not u.result_posted for u in unclosed)
    with store.transaction() as uow:
        assert uow.forum.closing_done(first, THREAD, ended)
        assert not uow.forum.closing_done(first, THREAD, ended)  # recorded once
        assert uow.forum.closing_done(second, RESULT, ended)
        assert not uow.forum.closing_done(in_place.id + 1000, THREAD, ended)  # no such game
        uow.commit()
    with store.transaction(read_only=True) as uow:
        left = {u.game_id: (u.thread_closed, u.result_posted) for u in uow.forum.unclosed(ended)}
    assert left == {first: (True, False), second: (False, True)}
    with store.transaction() as uow:
        uow.forum.closing_done(first, RESULT, ended)
        uow.forum.closing_done(second, THREAD, ended)
        uow.commit()
    with store.transaction(read_only=True) as uow:
        assert uow.forum.unclosed(ended) == ()


async def test_an_open_game_records_no_closing_step(store: Store) -> None:
    game_id = await in_thread(store, "thread-1")
    with store.transaction() as uow:
        assert not uow.forum.closing_done(game_id, THREAD, NOW)  # it has not ended
        uow.commit()
    with pytest.raises(ValueError, match="a closing step is"), store.transaction() as uow:
        uow.forum.closing_done(game_id, "archived", NOW)


async def test_how_far_a_game_channel_was_read_is_kept_for_open_games_only(store: Store) -> None:
    game = await new_game(store, "chan-1", players=("anna",))
    await new_game(store, "chan-2", players=("ben",))
    await logged(store, "discord:100", game_id=game.id, delivery=None)
    with store.transaction() as uow:
        noted = {("guild-1", "chan-1"): "150", ("guild-1", "chan-3"): "170", ("guild-2", "chan-2"): "180"}
        assert uow.forum.note_reads(noted, NOW) == 1  # no game in chan-3; chan-2 is guild-1's
        uow.commit()
    with store.transaction() as uow:
        assert uow.forum.note_reads({("guild-1", "chan-1"): "160", ("guild-1", "chan-2"): "190"}, NOW) == 2
        uow.commit()
    with store.transaction(read_only=True) as uow:
        points = {point.channel: point for point in uow.forum.catch_up_points()}
    assert (points["chan-1"].after, points["chan-1"].read) == ("100", "160")
    assert points["chan-2"].read == "190"
    with store.transaction() as uow:
        assert uow.forum.note_reads({}, NOW) == 0
    with store.transaction(read_only=True) as uow:
        record = uow.games.open_in("chan-2")
    assert record is not None
    await close(store, record, {})  # its game ended: what was kept for chan-2 goes with the next note
    with store.transaction() as uow:
        assert uow.forum.note_reads({("guild-1", "chan-1"): "170"}, NOW) == 1
        uow.commit()
    with store.engine.connect() as connection:
        kept = connection.execute(select(reads_t.c.channel, reads_t.c.newest)).all()
    assert [tuple(row) for row in kept] == [("chan-1", "170")]


async def test_overdue_games_come_with_their_guild_the_most_overdue_first(store: Store) -> None:
    first = await new_game(store, "chan-1", players=("anna",))
    second = await new_game(store, "chan-2", players=("ben",))
    await new_game(store, "chan-3", players=("carl",))  # no deadline
    with store.transaction() as uow:
        for game, minutes in ((first, -1), (second, -5)):
            uow.games.save(
                game.id, game.version, {}, 0, game.to_act, NOW + timedelta(minutes=minutes), [], "open", None
            )
        uow.commit()
    with store.transaction(read_only=True) as uow:
        overdue = uow.forum.overdue(NOW)
    assert [(o.game_id, o.guild, o.channel, o.home, o.to_act) for o in overdue] == [
        (second.id, "guild-1", "chan-2", "chan-2", "ben"),
        (first.id, "guild-1", "chan-1", "chan-1", "anna"),
    ]
    with store.transaction(read_only=True) as uow:
        assert uow.forum.overdue(NOW - timedelta(minutes=10)) == ()


async def test_a_home_knows_the_open_games_of_its_threads_and_who_sits_in_them(store: Store) -> None:
    first = await in_thread(store, "thread-1")
    second = await in_thread(store, "thread-2")
    with store.transaction() as uow:
        record = uow.games.get(first)
        assert record is not None
        uow.games.save(
            first,
            record.version,
            {},
            0,
            "anna",
            None,
            [Seat("anna", "Anna", "jungfrau", 0), Seat("ben", "Ben", "jungfrau", 0)],
            "open",
            None,
        )
        uow.commit()
    with store.transaction(read_only=True) as uow:
        games = uow.forum.in_threads_of("guild-1", "home-1")
        assert uow.forum.in_threads_of("guild-2", "home-1") == ()
        assert uow.forum.in_threads_of("guild-1", "thread-1") == ()
    assert [(g.game_id, g.kind, g.channel, g.players) for g in games] == [
        (first, "verflixte6", "thread-1", ("anna", "ben")),
        (second, "verflixte6", "thread-2", ()),
    ]
