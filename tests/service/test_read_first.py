"""A chat line takes the store's write lock only when the channel's game reads it as a command.

The service guesses from the game it last saw open in the channel; a guess gone stale (another process
opened or closed a game) costs one more unit of work, never a wrong answer. And the games read at most
a Discord message's length of a line: a longer command is refused, a longer chit-chat line ignored.
"""

from __future__ import annotations

from bot.games import GAMES
from bot.markup import plain
from bot.service.croupier import Croupier
from bot.service.moves import LINE_MAX
from bot.service.rendering import Narrator
from bot.store import Store
from engine.game import Close, Join
from tests.dice import scripted
from tests.roundtrips import counted
from tests.service.helpers import MODERATOR, Table, snapshot_of


def said(key: str, **facts: object) -> str:
    """A sentence as the console front end's croupier says it in German, Die verflixte 6!'s words."""
    return plain(Narrator().line(key, facts, "de", game=GAMES["verflixte6"]))


async def anna_to_throw(table: Table) -> Table:
    """A Durchgang in the table's channel, Anna signed up and to throw."""
    await table.open()
    await table.do("anna", Join("Anna"))
    return table


async def test_a_move_in_a_game_another_process_opened_is_read_first_then_written(store: Store) -> None:
    here = Table(Croupier(store=store, dice_factory=scripted([4, 5])), sender="here")
    there = Table(Croupier(store=store, dice_factory=scripted([4, 5])), sender="there")
    none = await here.say("anna", "weiter")  # no game yet: this process saw none, and says so
    assert none.lines == (said("error.nothing_open"),)
    await there.open()
    await there.do("anna", Join("Anna"))
    with counted(store.engine) as trips:
        moved = await here.say("anna", "weiter")
    assert moved.ok
    assert moved.lines[0] == said("v6.freiwurf", player="Anna", face=4, total=4)
    assert [t.ended for t in trips.transactions] == ["rollback", "commit"]  # the read, then the move
    with counted(store.engine) as trips:
        assert (await here.say("anna", "weiter")).ok  # now it knows the game: one transaction
    assert [t.ended for t in trips.transactions] == ["commit"]


async def test_a_line_for_a_game_another_process_closed_is_answered_with_one_read(store: Store) -> None:
    here = await anna_to_throw(Table(Croupier(store=store, dice_factory=scripted([4, 5])), sender="here"))
    there = Table(Croupier(store=store, dice_factory=scripted([])), sender="there")
    await there.do(MODERATOR, Close())
    before = await snapshot_of(store)
    with counted(store.engine) as trips:
        reply = await here.say("anna", "weiter")  # this process still thinks the Durchgang is open
    assert reply.lines == (said("error.nothing_open"),)  # none is (any more), nothing written
    assert [(t.ended, bool(t.statements)) for t in trips.transactions] == [("rollback", True)]
    assert await snapshot_of(store) == before


async def test_a_command_longer_than_a_discord_message_is_refused_and_changes_nothing(store: Store) -> None:
    table = await anna_to_throw(Table(Croupier(store=store, dice_factory=scripted([4]))))
    before = await snapshot_of(store)
    line = "weiter" + " " * LINE_MAX
    refused = await table.say("anna", line)
    assert not refused.ok
    assert refused.lines == (said("error.line_too_long", limit=LINE_MAX, length=len(line)),)
    assert await snapshot_of(store) == before
    sent = await table.croupier.handle_command_text(table.msg("anna", line))
    assert sent.lines == refused.lines
    assert await snapshot_of(store) == before


async def test_chit_chat_longer_than_a_discord_message_stays_chit_chat(store: Store) -> None:
    table = await anna_to_throw(Table(Croupier(store=store, dice_factory=scripted([4]))))
    before = await snapshot_of(store)
    with counted(store.engine) as trips:
        reply = await table.say("anna", "wieter " + "bla " * LINE_MAX)  # even a near miss up front
    assert reply.silent
    assert trips.transactions == []
    assert await snapshot_of(store) == before


async def test_a_line_of_exactly_a_discord_message_s_length_is_played(store: Store) -> None:
    table = await anna_to_throw(Table(Croupier(store=store, dice_factory=scripted([4]))))
    moved = await table.say("anna", "weiter" + " " * (LINE_MAX - len("weiter")))
    assert moved.ok
    assert moved.lines[0] == said("v6.freiwurf", player="Anna", face=4, total=4)
