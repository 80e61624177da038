"""The service's side of a home whose games are played in threads of their own (bot/service/forum.py): a
sign-up made in the home joins the game of its thread, and is answered naming it; a seated player's game
word in the home gets a pointer to the thread, once; a command sent outright there gets the pointer too,
and nothing is played from the home. And turn timeouts and reminders only where the front end asks for
them (the guilds it serves and has caught up with)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from bot.service.croupier import Croupier, Incoming
from bot.service.forum import PLAYED_IN_THREAD
from bot.store import Store
from engine.game import Join
from tests.dice import scripted
from tests.service.helpers import GUILD, MODERATOR, Table

HOME = "home-1"
THREAD = "thread-1"


def in_home(table: Table, author: str, text: str = "") -> Incoming:
    return replace(table.msg(author, text), channel=HOME, place="text")


async def opened_in_thread(croupier: Croupier) -> Table:
    """A Durchgang opened in a thread of the text channel HOME (its live table is the thread's start)."""
    table = Table(croupier, channel=THREAD)
    there = replace(table.msg(MODERATOR), parent=HOME, place="thread")
    opened = await croupier.open_game(there, "verflixte6", {}, live_message=f"{HOME}:{THREAD}")
    assert opened.ok, opened.text
    return table


def seated(store: Store) -> list[str]:
    with store.transaction(read_only=True) as uow:
        record = uow.games.open_in(THREAD)
    assert record is not None
    return [seat.player for seat in record.participants]


async def test_a_sign_up_in_the_home_joins_the_game_of_its_thread(store: Store) -> None:
    croupier = Croupier(store=store, dice_factory=scripted([4]))
    table = await opened_in_thread(croupier)
    msg = in_home(table, "anna")
    joined = await croupier.execute(msg, Join("Anna"))
    assert joined.ok, joined.text
    assert joined.elsewhere == THREAD
    assert joined.live is not None
    assert seated(store) == ["anna"]
    again = await croupier.execute(msg, Join("Anna"))  # the same message once more: answered as before
    assert again.duplicate
    assert again.elsewhere == THREAD
    assert seated(store) == ["anna"]
    with store.transaction(read_only=True) as uow:
        entry = uow.log.find(msg.message_id)
    assert entry is not None
    assert entry.channel == THREAD  # the sign-up is the thread game's


async def test_a_seated_players_word_in_the_home_is_pointed_at_the_thread_once(store: Store) -> None:
    croupier = Croupier(store=store, dice_factory=scripted([4]))
    table = await opened_in_thread(croupier)
    await croupier.execute(replace(table.msg("anna"), parent=HOME, place="thread"), Join("Anna"))
    pointed = await croupier.handle_text(in_home(table, "anna", "weiter"))
    assert not pointed.ok
    assert (pointed.error_code, pointed.elsewhere) == (PLAYED_IN_THREAD, THREAD)
    assert (await croupier.handle_text(in_home(table, "anna", "weiter"))).silent  # once per player and game
    assert (await croupier.handle_text(in_home(table, "ben", "weiter"))).silent  # not seated: chatter
    outright = await croupier.handle_command_text(in_home(table, "anna", "weiter"))  # /zug weiter
    assert (outright.error_code, outright.elsewhere) == (PLAYED_IN_THREAD, THREAD)
    with store.transaction(read_only=True) as uow:
        record = uow.games.open_in(THREAD)
    assert record is not None
    assert record.dice_used == 0  # nothing was played from the home


async def test_timeouts_and_reminders_only_in_the_guilds_asked_for(store: Store) -> None:
    now = [datetime(2026, 11, 30, 12, 0, tzinfo=UTC)]
    croupier = Croupier(store=store, dice_factory=scripted([4]), clock=lambda: now[0])
    table = Table(croupier)
    await croupier.change_settings(table.msg(MODERATOR), {"timeout": "1h"})
    await table.open()
    await table.do("anna", Join("Anna"))
    await table.do("ben", Join("Ben"))
    now[0] += timedelta(minutes=50)  # the reminder is due
    assert await croupier.due_reminders({"another-guild"}) == []
    assert [r.channel for r in await croupier.due_reminders({GUILD})] == [table.channel]
    now[0] += timedelta(minutes=20)  # and now the timeout
    assert await croupier.apply_due_timeouts(guilds={"another-guild"}) == []
    assert await croupier.apply_due_timeouts(guilds=set()) == []
    [(channel, reply)] = await croupier.apply_due_timeouts(guilds={GUILD})
    assert channel == table.channel
    assert reply.to_act == "ben"
