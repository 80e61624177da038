"""Repositories and the unit of work (bot/store/repositories/, bot/store/uow.py), on both stores.

Each DESIGN.md "Persistence" promise has a test here: one transaction per command (all or
nothing), redelivered message ids change nothing, a stale version writes nothing, at most one open
game per channel, channel settings resolve channel → guild → defaults, and instants keep their zone.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from sqlalchemy import event

from bot.store import (
    ChannelDefaults,
    ChannelSettings,
    DuplicateMessage,
    GameAlreadyOpen,
    GameRecord,
    GameSave,
    NewLogEntry,
    StaleVersion,
    Store,
    UnknownGame,
    UnknownTournament,
)
from engine.game import Seat

NOW = datetime(2026, 3, 1, 20, 0, 0, 123456, tzinfo=UTC)
SEED = bytes(range(32))
COMMITMENT = "ab" * 32


async def new_game(store: Store, channel: str = "chan-1", *, players: tuple[str, ...] = ()) -> GameRecord:
    with store.transaction() as uow:
        tournament = uow.tournaments.current(channel)
        if tournament is None:
            tournament = uow.tournaments.create("guild-1", channel, "Spring cup", "sum", NOW)
        game = uow.games.create(
            tournament.id,
            channel,
            "verflixte6",
            {"target": 100},
            SEED,
            COMMITMENT,
            {"phase": "playing", "players": list(players)},
            players[0] if players else None,
            NOW,
            participants=[Seat(p, p.title(), "jungfrau", 0) for p in players],
        )
        uow.commit()
    return game


async def close(store: Store, game: GameRecord, points: dict[str, int]) -> GameRecord:
    with store.transaction() as uow:
        closed = uow.games.save(
            game.id,
            game.version,
            {"phase": "over"},
            game.dice_used + 3,
            None,
            None,
            [Seat(p, p.title(), "stopped", n) for p, n in points.items()],
            "closed",
            NOW + timedelta(hours=1),
        )
        uow.commit()
    return closed


# --- unit of work --------------------------------------------------------------------------------


async def test_nothing_is_kept_without_commit(store: Store) -> None:
    with store.transaction() as uow:
        uow.tournaments.create("g", "chan", "Cup", "sum", NOW)
        assert uow.tournaments.current("chan") is not None  # visible inside its own transaction
    with store.transaction() as uow:
        assert uow.tournaments.current("chan") is None


async def test_an_error_inside_the_block_rolls_everything_back(store: Store) -> None:
    async def failing_command() -> None:
        with store.transaction() as uow:
            uow.tournaments.create("g", "chan", "Cup", "sum", NOW)
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        await failing_command()
    with store.transaction() as uow:
        assert uow.tournaments.list("chan") == ()


async def test_a_unit_of_work_can_go_on_after_a_commit(store: Store) -> None:
    with store.transaction() as uow:
        uow.tournaments.create("g", "chan", "Kept", "sum", NOW)
        uow.commit()
        uow.tournaments.create("g", "chan", "Dropped", "sum", NOW)
    with store.transaction(read_only=True) as uow:
        assert [t.name for t in uow.tournaments.list("chan")] == ["Kept"]


async def test_a_closed_unit_of_work_refuses_to_commit(store: Store) -> None:
    with store.transaction() as uow:
        pass
    with pytest.raises(RuntimeError, match="not open"):
        uow.commit()


# --- tournaments --------------------------------------------------------------------------------


async def test_tournaments_current_is_the_newest_in_the_channel(store: Store) -> None:
    with store.transaction() as uow:
        assert uow.tournaments.current("chan") is None
        first = uow.tournaments.create("g", "chan", "Spring", "sum", NOW)
        second = uow.tournaments.create("g", "chan", "Summer", "placement", NOW + timedelta(days=90))
        other = uow.tournaments.create("g", "elsewhere", "Other", "sum", NOW)
        uow.commit()
    with store.transaction() as uow:
        assert uow.tournaments.current("chan") == second
        assert uow.tournaments.list("chan") == (first, second)
        assert uow.tournaments.get(other.id) == other
        assert uow.tournaments.get(9999) is None
    assert second.scoring == "placement"
    assert second.guild == "g"


async def test_a_tournament_scoring_must_be_known(store: Store) -> None:
    with store.transaction() as uow, pytest.raises(ValueError, match="scoring"):
        uow.tournaments.create("g", "chan", "Cup", "most-sixes", NOW)


# --- games --------------------------------------------------------------------------------------


async def test_a_new_game_is_open_at_version_1_with_its_seat_order(store: Store) -> None:
    game = await new_game(store, players=("carla", "anna", "bert"))
    assert game.status == "open"
    assert game.is_open
    assert game.number == 1
    assert game.version == 1
    assert game.dice_used == 0
    assert game.to_act == "carla"
    assert [(p.player, p.name, p.position) for p in game.participants] == [
        ("carla", "Carla", 0),
        ("anna", "Anna", 1),
        ("bert", "Bert", 2),
    ]
    with store.transaction() as uow:
        loaded = uow.games.open_in("chan-1")
        assert loaded == game
        assert uow.games.get(game.id) == game
    assert loaded.seed == SEED
    assert loaded.commitment == COMMITMENT
    assert loaded.options == {"target": 100}
    assert loaded.snapshot == {"phase": "playing", "players": ["carla", "anna", "bert"]}


async def test_the_seed_never_shows_in_a_records_repr(store: Store) -> None:
    game = await new_game(store)
    assert SEED.hex() not in repr(game)
    assert repr(SEED) not in repr(game)


async def test_games_are_numbered_within_their_tournament(store: Store) -> None:
    first = await new_game(store, "chan-1")
    await close(store, first, {})
    second = await new_game(store, "chan-1")
    elsewhere = await new_game(store, "chan-2")
    assert (first.number, second.number, elsewhere.number) == (1, 2, 1)
    assert first.tournament_id == second.tournament_id != elsewhere.tournament_id


async def test_a_game_needs_an_existing_tournament_and_a_named_kind(store: Store) -> None:
    """Any kind a game registers may be stored (the service checks it against the registry)."""
    with store.transaction() as uow:
        with pytest.raises(UnknownTournament):
            uow.games.create(404, "chan", "killer", {}, SEED, COMMITMENT, {}, None, NOW)
        tournament = uow.tournaments.create("g", "chan", "Cup", "sum", NOW)
        for nameless in ("", "x" * 33):
            with pytest.raises(ValueError, match="kind"):
                uow.games.create(tournament.id, "chan", nameless, {}, SEED, COMMITMENT, {}, None, NOW)
        yahtzee = uow.games.create(tournament.id, "chan", "yahtzee", {}, SEED, COMMITMENT, {}, None, NOW)
        assert yahtzee.kind == "yahtzee"


async def test_at_most_one_open_game_per_channel(store: Store) -> None:
    game = await new_game(store, "chan-1")
    with pytest.raises(GameAlreadyOpen) as caught:
        await new_game(store, "chan-1")
    assert caught.value.channel == "chan-1"
    with store.transaction() as uow:
        assert uow.games.open_in("chan-1") == game  # the refused game left no trace
    await new_game(store, "chan-2")  # another channel is free
    await close(store, game, {})
    again = await new_game(store, "chan-1")  # and closing frees the channel
    assert again.number == 2


async def test_save_bumps_the_version_and_replaces_the_participants(store: Store) -> None:
    game = await new_game(store, players=("anna", "bert", "carla"))
    deadline = NOW + timedelta(days=1)
    with store.transaction() as uow:
        saved = uow.games.save(
            game.id,
            1,
            {"phase": "playing", "turn": 2},
            5,
            "bert",
            deadline,
            [Seat("bert", "Bert", "playing", 12), Seat("anna", "Anna B.", "stopped", 30)],
        )
        uow.commit()
    assert saved.version == 2
    assert saved.to_act == "bert"
    assert saved.turn_deadline == deadline
    with store.transaction() as uow:
        loaded = uow.games.get(game.id)
    assert loaded == saved
    assert loaded is not None
    assert loaded.snapshot == {"phase": "playing", "turn": 2}
    assert loaded.dice_used == 5
    assert [(p.player, p.name, p.role, p.points, p.position) for p in loaded.participants] == [
        ("bert", "Bert", "playing", 12, 0),
        ("anna", "Anna B.", "stopped", 30, 1),
    ]


async def test_saves_after_a_load_store_exactly_the_new_table(store: Store) -> None:
    """The command path: load, save, save again; each answer equals what a fresh load reads."""
    game = await new_game(store, players=("anna", "bert", "carla"))
    evening = timezone(timedelta(hours=2))
    steps = [
        # one player's points change (the usual throw)
        [
            Seat("anna", "Anna", "jungfrau", 0),
            Seat("bert", "Bert", "playing", 9),
            Seat("carla", "Carla", "jungfrau", 0),
        ],
        # same players, new order and roles
        [
            Seat("carla", "Carla", "playing", 0),
            Seat("anna", "Anna", "stopped", 0),
            Seat("bert", "Bert", "stopped", 9),
        ],
        # one leaves, one joins
        [Seat("carla", "Carla", "playing", 4), Seat("dora", "Dora", "jungfrau", 0)],
        # nothing changes
        [Seat("carla", "Carla", "playing", 4), Seat("dora", "Dora", "jungfrau", 0)],
    ]
    with store.transaction() as uow:
        current = uow.games.open_in("chan-1")
        assert current is not None
        answers = []
        for number, seats in enumerate(steps, start=1):
            deadline = datetime(2026, 3, 2, 20, number, tzinfo=evening)
            current = uow.games.save(
                current.id, current.version, {"step": number}, number, seats[0].player, deadline, seats
            )
            answers.append(current)
        uow.commit()
    with store.transaction() as uow:
        stored = uow.games.get(game.id)
    assert stored == answers[-1]
    assert stored is not None
    assert stored.version == 1 + len(steps)
    assert [(p.player, p.role, p.points, p.position) for p in stored.participants] == [
        ("carla", "playing", 4, 0),
        ("dora", "jungfrau", 0, 1),
    ]
    assert stored.turn_deadline == datetime(2026, 3, 2, 18, 4, tzinfo=UTC)


async def test_each_answer_of_save_matches_the_stored_game(store: Store) -> None:
    game = await new_game(store, players=("anna", "bert"))
    for points in (3, 8):
        with store.transaction() as uow:
            loaded = uow.games.get(game.id)
            assert loaded is not None
            seats = [Seat("anna", "Anna", "playing", points), Seat("bert", "Bert", "jungfrau", 0)]
            saved = uow.games.save(loaded.id, loaded.version, {"points": points}, points, "anna", None, seats)
            uow.commit()
        with store.transaction() as uow:
            assert uow.games.get(game.id) == saved


async def test_a_stale_save_raises_and_writes_nothing(store: Store) -> None:
    game = await new_game(store, players=("anna",))
    with store.transaction() as uow:
        uow.games.save(game.id, 1, {"turn": 2}, 2, "anna", None, [Seat("anna", "Anna", "playing", 4)])
        uow.commit()

    async def command_from_a_stale_load() -> None:
        with store.transaction() as uow:
            uow.log.append("m-1", channel="chan-1", actor="anna", text="weiter", now=NOW, game_id=game.id)
            uow.games.save(game.id, 1, {"turn": 99}, 9, None, None, [])
            uow.commit()

    with pytest.raises(StaleVersion) as caught:
        await command_from_a_stale_load()
    assert (caught.value.expected, caught.value.actual) == (1, 2)
    with store.transaction() as uow:
        loaded = uow.games.get(game.id)
        assert uow.log.find("m-1") is None  # the whole command was undone
    assert loaded is not None
    assert (loaded.version, loaded.snapshot, loaded.dice_used) == (2, {"turn": 2}, 2)
    assert [(p.player, p.points) for p in loaded.participants] == [("anna", 4)]


async def test_saving_a_missing_game_says_so(store: Store) -> None:
    with store.transaction() as uow, pytest.raises(UnknownGame):
        uow.games.save(404, 1, {}, 0, None, None, [])


async def test_save_checks_its_arguments_before_writing(store: Store) -> None:
    game = await new_game(store)
    with store.transaction() as uow:
        with pytest.raises(ValueError, match="closed_at"):
            uow.games.save(game.id, 1, {}, 0, None, None, [], "closed")
        with pytest.raises(ValueError, match="closed_at"):
            uow.games.save(game.id, 1, {}, 0, None, None, [], "open", NOW)
        with pytest.raises(ValueError, match="status"):
            uow.games.save(game.id, 1, {}, 0, None, None, [], "paused")
        with pytest.raises(ValueError, match="twice"):
            uow.games.save(game.id, 1, {}, 0, None, None, [Seat("a", "A", "x", 0)] * 2)
        with pytest.raises(ValueError, match="timezone"):
            uow.games.save(game.id, 1, {}, 0, None, datetime(2026, 1, 1), [])
        assert (uow.games.get(game.id)) == game


async def test_closed_games_of_a_tournament_in_order_with_participants(store: Store) -> None:
    first = await close(store, await new_game(store, players=("anna", "bert")), {"anna": 30, "bert": 12})
    second = await close(store, await new_game(store, players=("bert",)), {"bert": 50})
    await new_game(store, players=("anna",))  # still open: not part of the standings
    with store.transaction() as uow:
        closed = uow.games.closed_in(first.tournament_id)
    assert [g.number for g in closed] == [1, 2]
    assert closed == (first, second)
    assert [(p.player, p.points) for p in closed[0].participants] == [("anna", 30), ("bert", 12)]
    assert all(g.status == "closed" and g.closed_at == NOW + timedelta(hours=1) for g in closed)


async def test_due_lists_open_games_whose_deadline_passed(store: Store) -> None:
    overdue = await new_game(store, "chan-1", players=("anna",))
    later = await new_game(store, "chan-2", players=("bert",))
    await new_game(store, "chan-3", players=("carla",))  # no deadline at all
    most_overdue = await new_game(store, "chan-4", players=("dora",))
    saved: dict[int, GameRecord] = {}
    with store.transaction() as uow:
        for game, deadline in (
            (overdue, NOW - timedelta(minutes=1)),
            (later, NOW + timedelta(minutes=1)),
            (most_overdue, NOW - timedelta(days=2)),
        ):
            saved[game.id] = uow.games.save(game.id, 1, {}, 0, game.to_act, deadline, game.participants)
        uow.commit()
    with store.transaction() as uow:
        assert [g.id for g in uow.games.due(NOW)] == [most_overdue.id, overdue.id]
        # an instant in another zone is the same instant
        assert [g.id for g in uow.games.due(NOW.astimezone(timezone(timedelta(hours=-5))))] == [
            most_overdue.id,
            overdue.id,
        ]
        assert len(uow.games.due(NOW + timedelta(minutes=2))) == 3
    await close(store, saved[overdue.id], {})
    with store.transaction() as uow:
        assert [g.id for g in uow.games.due(NOW)] == [most_overdue.id]


async def test_list_closed_gives_the_games_whose_seed_may_be_revealed(store: Store) -> None:
    one = await close(store, await new_game(store, "chan-1"), {})
    two = await close(store, await new_game(store, "chan-2"), {})
    still_open = await new_game(store, "chan-3")
    with store.transaction() as uow:
        assert uow.games.list_closed() == (one, two)
        assert uow.games.list_closed(two.id) == (two,)
        assert uow.games.list_closed(still_open.id) == ()
    assert one.seed == SEED


# --- command log --------------------------------------------------------------------------------


async def test_log_append_then_find(store: Store) -> None:
    game = await new_game(store, players=("anna",))
    events = [{"kind": "v6.thrown", "player": "anna", "face": 4}, {"kind": "v6.total", "total": 4}]
    reply = {"content": "Anna würfelt eine 4 — Zwischenstand 4", "embeds": []}
    with store.transaction() as uow:
        assert uow.log.find("1234567890") is None
        entry = uow.log.append(
            "1234567890",
            channel="chan-1",
            actor="anna",
            text="weiter mit Joker Rattenlord",
            now=NOW,
            game_id=game.id,
            command={"type": "Continue", "joker": "rattenlord"},
            events=events,
            dice=[4],
            dice_from=0,
            reply=reply,
        )
        uow.commit()
    with store.transaction() as uow:
        found = uow.log.find("1234567890")
    assert found == entry
    assert found is not None
    assert found.events == events
    assert found.dice == [4]
    assert found.reply == reply
    assert found.text == "weiter mit Joker Rattenlord"
    assert found.created_at == NOW


async def test_log_entries_of_a_game_in_order(store: Store) -> None:
    game = await new_game(store, players=("anna",))
    with store.transaction() as uow:
        for n in range(3):
            uow.log.append(
                f"m-{n}",
                channel="chan-1",
                actor="anna",
                text="weiter",
                now=NOW,
                game_id=game.id,
                dice=[n + 1],
                dice_from=n,
            )
        uow.log.append("chat", channel="chan-1", actor="bert", text="hallo", now=NOW)
        uow.commit()
    with store.transaction() as uow:
        entries = uow.log.of_game(game.id)
    assert [(e.message_id, e.dice, e.dice_from) for e in entries] == [
        ("m-0", [1], 0),
        ("m-1", [2], 1),
        ("m-2", [3], 2),
    ]


async def test_a_redelivered_message_is_refused_and_its_whole_unit_of_work_undone(store: Store) -> None:
    game = await new_game(store, players=("anna",))
    with store.transaction() as uow:
        uow.log.append("msg-42", channel="chan-1", actor="anna", text="weiter", now=NOW, game_id=game.id)
        uow.games.save(game.id, 1, {"turn": 2}, 1, "anna", None, game.participants)
        uow.commit()

    async def redelivered_command() -> None:
        with store.transaction() as uow:
            uow.games.save(game.id, 2, {"turn": 3}, 2, "anna", None, [])
            uow.tournaments.create("g", "chan-9", "Should vanish", "sum", NOW)
            uow.log.append("msg-42", channel="chan-1", actor="anna", text="weiter", now=NOW, game_id=game.id)
            uow.commit()

    with pytest.raises(DuplicateMessage) as caught:
        await redelivered_command()
    assert caught.value.message_id == "msg-42"

    with store.transaction() as uow:
        loaded = uow.games.get(game.id)
        assert uow.tournaments.current("chan-9") is None
        assert len(uow.log.of_game(game.id)) == 1
    assert loaded is not None
    assert (loaded.version, loaded.snapshot) == (2, {"turn": 2})
    assert [p.player for p in loaded.participants] == ["anna"]


# --- a move's whole write: save_and_log ------------------------------------------------------------


def move(
    game: GameRecord, seats: list[Seat], message_id: str, **changes: Any
) -> tuple[GameSave, NewLogEntry]:
    save = GameSave(
        game.id,
        expected_version=game.version,
        snapshot={"after": message_id},
        dice_used=game.dice_used + 1,
        to_act=seats[0].player if seats else None,
        turn_deadline=None,
        participants=seats,
        **changes,
    )
    entry = NewLogEntry(
        message_id,
        channel=game.channel,
        actor="anna",
        text="weiter",
        now=NOW,
        game_id=game.id,
        command={"type": "Continue"},
        events=[{"kind": "v6.thrown", "face": 3}],
        dice=[3],
        dice_from=game.dice_used,
        reply={"text": f"answer to {message_id}"},
    )
    return save, entry


async def test_save_and_log_writes_game_seats_and_entry_as_a_fresh_load_reads_them(store: Store) -> None:
    """The command path's write, through every kind of seat change: the answers equal what is stored
    (on PostgreSQL this is one statement, so each case is checked against a fresh read)."""
    await new_game(store, players=("anna", "bert", "carla"))
    steps = [
        [
            Seat("anna", "Anna", "playing", 3),
            Seat("bert", "Bert", "jungfrau", 0),
            Seat("carla", "Carla", "x", 0),
        ],
        [
            Seat("anna", "Anna", "playing", 3),
            Seat("bert", "Bert", "jungfrau", 0),
            Seat("carla", "Carla", "x", 0),
        ],
        [
            Seat("carla", "Carla", "playing", 0),
            Seat("anna", "Anna", "stopped", 3),
            Seat("bert", "Bert", "x", 0),
        ],
        [Seat("carla", "Carla", "playing", 5), Seat("dora", "Dora", "jungfrau", 0)],  # two leave, one joins
        [],  # everybody leaves
        [Seat("emil", "Emil", "jungfrau", 0)],
    ]
    for number, seats in enumerate(steps, start=1):
        with store.transaction() as uow:
            game = (uow.channels.state("guild-1", "chan-1")).game
            assert game is not None
            saved, logged = uow.games.save_and_log(*move(game, seats, f"m-{number}"))
            uow.commit()
        with store.transaction() as uow:
            assert uow.games.get(game.id) == saved
            assert uow.log.find(f"m-{number}") == logged
        assert saved.version == game.version + 1
        assert [(p.player, p.position, p.role, p.points) for p in saved.participants] == [
            (seat.player, position, seat.role, seat.points) for position, seat in enumerate(seats)
        ]
        assert (logged.game_id, logged.dice, logged.reply) == (
            game.id,
            [3],
            {"text": f"answer to m-{number}"},
        )


async def test_save_and_log_can_close_the_game(store: Store) -> None:
    await new_game(store, players=("anna",))
    with store.transaction() as uow:
        game = uow.games.open_in("chan-1")
        assert game is not None
        seats = [Seat("anna", "Anna", "stopped", 21)]
        saved, _ = uow.games.save_and_log(*move(game, seats, "last", status="closed", closed_at=NOW))
        uow.commit()
    with store.transaction() as uow:
        assert uow.games.open_in("chan-1") is None
        assert uow.games.get(game.id) == saved
    assert (saved.status, saved.closed_at) == ("closed", NOW)


async def test_save_and_log_from_a_stale_load_writes_nothing(db_url: str) -> None:
    """On PostgreSQL another process saves between this unit of work's load and its write (the folded
    statement's own version check); on SQLite a unit of work holds the write lock from its start, so
    the stale load comes from an earlier one."""
    async with await Store.open(db_url) as store, await Store.open(db_url) as other_process:
        game = await new_game(store, players=("anna",))

        async def other_saves_version_2() -> None:
            with other_process.transaction() as other:
                other.games.save(game.id, 1, {"turn": 2}, 2, "anna", None, [Seat("anna", "Anna", "p", 4)])
                other.commit()

        late = [Seat("anna", "Anna", "p", 99)]
        if store.dialect == "postgresql":
            with store.transaction() as uow:
                stale = uow.games.get(game.id)
                assert stale is not None
                await other_saves_version_2()
                with pytest.raises(StaleVersion) as caught:
                    uow.games.save_and_log(*move(stale, late, "late"))
        else:
            await other_saves_version_2()
            with store.transaction() as uow, pytest.raises(StaleVersion) as caught:
                uow.games.save_and_log(*move(game, late, "late"))
        assert (caught.value.expected, caught.value.actual) == (1, 2)
        with store.transaction() as uow:
            loaded = uow.games.get(game.id)
            assert uow.log.find("late") is None
        assert loaded is not None
        assert (loaded.version, [(p.player, p.points) for p in loaded.participants]) == (2, [("anna", 4)])


async def test_save_and_log_of_a_redelivered_message_writes_nothing(store: Store) -> None:
    game = await new_game(store, players=("anna",))
    with store.transaction() as uow:
        uow.log.append("seen", channel="chan-1", actor="anna", text="weiter", now=NOW, game_id=game.id)
        uow.commit()
    with store.transaction() as uow:
        loaded = uow.games.get(game.id)
        assert loaded is not None
        with pytest.raises(DuplicateMessage):
            uow.games.save_and_log(*move(loaded, [Seat("anna", "Anna", "p", 50)], "seen"))
    with store.transaction() as uow:
        assert uow.games.get(game.id) == game
        assert len(uow.log.of_game(game.id)) == 1


async def test_save_and_log_of_a_game_not_loaded_first_still_writes_both(store: Store) -> None:
    game = await new_game(store, players=("anna",))
    with store.transaction() as uow:
        saved, logged = uow.games.save_and_log(*move(game, [Seat("anna", "Anna", "p", 1)], "cold"))
        uow.commit()
    with store.transaction() as uow:
        assert uow.games.get(game.id) == saved
        assert uow.log.find("cold") == logged


# --- channel settings ---------------------------------------------------------------------------


async def test_channel_settings_resolve_channel_then_guild_then_defaults(db_url: str) -> None:
    defaults = ChannelDefaults(language=None, moderator_role="Croupier", turn_timeout_seconds=86_400)
    async with await Store.open(db_url, defaults=defaults) as store:
        with store.transaction() as uow:
            plain = uow.settings.get("guild", "chan")
            assert (plain.language, plain.moderator_role, plain.turn_timeout_seconds) == (
                None,
                "Croupier",
                86_400,
            )

            uow.settings.set("guild", "", language="de", turn_timeout_seconds=3600)
            uow.settings.set("guild", "chan", language="fr")
            uow.commit()

        with store.transaction() as uow:
            chan = uow.settings.get("guild", "chan")
            sibling = uow.settings.get("guild", "other-chan")
            guild_wide = uow.settings.get("guild", "")
            stranger = uow.settings.get("other-guild", "chan")
        assert (chan.language, chan.moderator_role, chan.turn_timeout_seconds) == ("fr", "Croupier", 3600)
        assert (sibling.language, sibling.turn_timeout_seconds) == ("de", 3600)
        assert (guild_wide.language, guild_wide.turn_timeout_seconds) == ("de", 3600)
        assert (stranger.language, stranger.turn_timeout_seconds) == (None, 86_400)
        assert (chan.guild, chan.channel) == ("guild", "chan")


async def test_setting_a_field_again_updates_it_and_none_inherits(store: Store) -> None:
    with store.transaction() as uow:
        uow.settings.set("guild", "", moderator_role="Mods")
        uow.settings.set("guild", "chan", moderator_role="Table", turn_timeout_seconds=60)
        updated = uow.settings.set("guild", "chan", turn_timeout_seconds=120)
        assert (updated.moderator_role, updated.turn_timeout_seconds) == ("Table", 120)  # other fields kept
        cleared = uow.settings.set("guild", "chan", moderator_role=None)
        assert cleared.moderator_role == "Mods"  # back to the guild's
        uow.commit()
    with store.transaction() as uow:
        assert (uow.settings.get("guild", "chan")).turn_timeout_seconds == 120


async def test_channel_state_reads_settings_and_open_game_together(db_url: str) -> None:
    """The command path's one read: the same settings as ``settings.get`` and the same game as
    ``games.open_in``, with or without an open game, and without other channels' games."""
    defaults = ChannelDefaults(language=None, moderator_role="Croupier", turn_timeout_seconds=600)
    async with await Store.open(db_url, defaults=defaults) as store:
        with store.transaction() as uow:
            empty = uow.channels.state("guild-1", "chan-1")
        assert empty.game is None
        assert empty.settings == await _settings(store, "guild-1", "chan-1")
        assert (empty.settings.moderator_role, empty.settings.turn_timeout_seconds) == ("Croupier", 600)

        game = await new_game(store, "chan-1", players=("anna", "bert"))
        await new_game(store, "chan-2", players=("carl",))
        with store.transaction() as uow:
            uow.settings.set("guild-1", "", language="fr", turn_timeout_seconds=90)
            uow.settings.set("guild-1", "chan-1", moderator_role="Table")
            uow.commit()
        with store.transaction() as uow:
            state = uow.channels.state("guild-1", "chan-1")
            other_guild = uow.channels.state("guild-2", "chan-1")
            open_in = uow.games.open_in("chan-1")
        assert state.game == open_in
        assert state.game is not None
        assert (state.game.id, [p.player for p in state.game.participants]) == (game.id, ["anna", "bert"])
        assert state.settings == await _settings(store, "guild-1", "chan-1")
        settings = state.settings
        assert (settings.language, settings.moderator_role, settings.turn_timeout_seconds) == (
            "fr",
            "Table",
            90,
        )
        assert other_guild.game == open_in  # games belong to channels; settings to guild and channel
        assert (other_guild.settings.language, other_guild.settings.turn_timeout_seconds) == (None, 600)

        await close(store, game, {"anna": 10, "bert": 0})
        with store.transaction() as uow:
            assert (uow.channels.state("guild-1", "chan-1")).game is None


async def _settings(store: Store, guild: str, channel: str) -> ChannelSettings:
    with store.transaction(read_only=True) as uow:
        return uow.settings.get(guild, channel)


async def test_unknown_or_bad_settings_are_refused(store: Store) -> None:
    with store.transaction() as uow:
        with pytest.raises(TypeError, match="colour"):
            uow.settings.set("guild", "chan", colour="red")
        with pytest.raises(ValueError, match="turn_timeout_seconds"):
            uow.settings.set("guild", "chan", turn_timeout_seconds=0)


# --- instants ------------------------------------------------------------------------------------


async def test_instants_come_back_timezone_aware_in_utc(store: Store) -> None:
    berlin_evening = datetime(2026, 7, 1, 21, 30, 15, 250000, tzinfo=timezone(timedelta(hours=2)))
    with store.transaction() as uow:
        tournament = uow.tournaments.create("g", "chan", "Cup", "sum", berlin_evening)
        game = uow.games.create(
            tournament.id,
            "chan",
            "killer",
            {},
            SEED,
            COMMITMENT,
            {},
            None,
            berlin_evening,
            turn_deadline=berlin_evening + timedelta(days=1),
        )
        entry = uow.log.append("m", channel="chan", actor="a", text="t", now=berlin_evening)
        uow.commit()
    with store.transaction() as uow:
        loaded_tournament = uow.tournaments.get(tournament.id)
        loaded_game = uow.games.get(game.id)
        loaded_entry = uow.log.find("m")
    assert loaded_tournament is not None
    assert loaded_game is not None
    assert loaded_entry is not None
    for instant in (
        loaded_tournament.created_at,
        loaded_game.opened_at,
        loaded_game.turn_deadline,
        loaded_entry.created_at,
        entry.created_at,
    ):
        assert instant is not None
        assert instant.tzinfo is not None
        assert instant.utcoffset() == timedelta(0)
    assert loaded_tournament.created_at == berlin_evening
    assert loaded_game.opened_at == datetime(2026, 7, 1, 19, 30, 15, 250000, tzinfo=UTC)
    assert loaded_game.turn_deadline == berlin_evening + timedelta(days=1)


async def test_naive_instants_are_refused(store: Store) -> None:
    with store.transaction() as uow:
        with pytest.raises(ValueError, match="timezone"):
            uow.tournaments.create("g", "chan", "Cup", "sum", datetime(2026, 1, 1, 12, 0))
        with pytest.raises(ValueError, match="timezone"):
            uow.games.due(datetime(2026, 1, 1, 12, 0))


# --- the lean hot path ------------------------------------------------------------------------------


async def test_a_message_logged_once_is_not_logged_again_and_the_transaction_goes_on(store: Store) -> None:
    """How a refusal is logged: one INSERT … ON CONFLICT DO NOTHING; a redelivered message writes
    nothing and gives None — without aborting the transaction, on PostgreSQL too."""
    entry = NewLogEntry("refused-1", "chan-1", "anna", "wurf", NOW, reply={"ok": False})
    with store.transaction() as uow:
        first = uow.log.append_once(entry)
        assert first is not None
        assert uow.log.append_once(entry) is None
        uow.settings.set("guild-1", "chan-1", language="en")  # the transaction is still usable
        uow.commit()
    with store.transaction() as uow:
        assert uow.log.append_once(entry, commit=True) is None
    with store.transaction(read_only=True) as uow:
        assert uow.log.find("refused-1") == first


async def test_a_move_writes_only_the_seats_it_changes_and_keeps_the_others_records(store: Store) -> None:
    """A seat a move left as it was is not written again, and its record is the stored one; the game
    read back is the same either way (on PostgreSQL the seats travel in the move's one statement)."""
    game = await new_game(store, players=("anna", "bert", "carla"))
    written: list[str] = []

    def seen(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if statement.lstrip().upper().startswith(("UPDATE PARTICIPANTS", "INSERT INTO PARTICIPANTS")):
            written.append(statement)

    event.listen(store.engine, "before_cursor_execute", seen)
    try:
        seats = [
            Seat("anna", "Anna", "playing", 3),
            Seat("bert", "Bert", "jungfrau", 0),
            Seat("carla", "Carla", "jungfrau", 0),
        ]
        for number, unchanged in enumerate([["bert", "carla"], ["anna", "bert", "carla"]], start=1):
            with store.transaction() as uow:
                loaded = uow.games.get(game.id)
                assert loaded is not None
                saved, _ = uow.games.save_and_log(*move(loaded, seats, f"m-{number}"))
                uow.commit()
            kept = [a for a, b in zip(saved.participants, loaded.participants, strict=True) if a is b]
            assert [p.player for p in kept] == unchanged
            with store.transaction() as uow:
                assert uow.games.get(game.id) == saved
    finally:
        event.remove(store.engine, "before_cursor_execute", seen)
    assert len(written) == (0 if store.dialect == "postgresql" else 1)


async def test_a_move_sets_only_the_game_columns_it_changes(store: Store) -> None:
    """A save that leaves status, deadline and closing alone does not assign them (so their index
    entries are not rewritten); the game read back is the same either way."""
    await new_game(store, players=("anna", "bert"))
    updates: list[str] = []

    def seen(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if statement.lstrip().upper().startswith(("UPDATE GAMES", "WITH SAVED")):
            updates.append(" ".join(statement.split()))

    event.listen(store.engine, "before_cursor_execute", seen)
    try:
        seats = [Seat("anna", "Anna", "playing", 3), Seat("bert", "Bert", "jungfrau", 0)]
        with store.transaction() as uow:
            game = uow.games.open_in("chan-1")
            assert game is not None
            saved, _ = uow.games.save_and_log(*move(game, seats, "m-1"))
            uow.commit()
        with store.transaction() as uow:
            assert uow.games.get(game.id) == saved
            closed, _ = uow.games.save_and_log(*move(saved, seats, "m-2", status="closed", closed_at=NOW))
            uow.commit()
        with store.transaction() as uow:
            assert uow.games.get(game.id) == closed
    finally:
        event.remove(store.engine, "before_cursor_execute", seen)
    plain, closing = (update.split(" WHERE ")[0] for update in updates)
    assert "dice_used" in plain
    for untouched in ("status", "closed_at", "turn_deadline", "reminded_at", "to_act"):
        assert untouched not in plain, plain
    assert "status" in closing
    assert "closed_at" in closing
