"""What a Discord request costs the database, end to end through the real client: a typed move, a
press and a slash command are ONE transaction each; chit-chat is none, with or without a game; and no
unit of work is preceded by a connection ping. On SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from tests.conftest import BACKENDS
from tests.discord.helpers import Table, custom_id_for
from tests.roundtrips import RoundTrips, Transaction, counted

pytestmark = pytest.mark.parametrize("db_backend", BACKENDS, indirect=True)


def one_transaction(trips: RoundTrips, mark: int) -> Transaction:
    """The single transaction since ``mark``, committed, with its statements."""
    done = trips.since(mark)
    assert len(done) == 1, [t.statements for t in done]
    (transaction,) = done
    assert transaction.ended == "commit", transaction
    return transaction


async def test_a_typed_move_a_press_and_a_slash_command_are_one_transaction_each(table: Table) -> None:
    p = table.people
    table.dice.will_roll(3, 4)
    async with table.running():
        with counted(table.store.engine) as trips:
            mark = trips.mark
            await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
            one_transaction(trips, mark)

            mark = trips.mark
            await table.slash_message(p.anna, "mitmachen")
            one_transaction(trips, mark)

            mark = trips.mark
            board = await table.said(p.anna, "weiter")
            typed = one_transaction(trips, mark)
            # One read of the channel (settings and open game together), then the move's writes.
            assert typed.statements[0].startswith("SELECT")
            assert sum(s.startswith("SELECT") for s in typed.statements) == 1, typed.statements

            mark = trips.mark
            await table.pressed(board, custom_id_for(board, "Weiter"), p.anna)
            one_transaction(trips, mark)
            assert trips.pings == 0


async def test_chit_chat_costs_nothing_with_or_without_a_game(table: Table) -> None:
    p = table.people
    table.dice.will_roll(5)
    async with table.running():
        with counted(table.store.engine) as trips:
            mark = trips.mark
            await table.say(p.anna, "na, spielt heute jemand?")  # no game in the channel yet
            await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
            one_transaction(trips, mark)  # only the opening touched the store

            await table.slash_message(p.anna, "mitmachen")
            mark = trips.mark
            await table.say(p.ben, "viel Glück, Anna!")  # a game is open: still chit-chat
            await table.say(p.anna, "ich bin so weit")
            await table.said(p.anna, "weiter")  # answered after the chit-chat (one lock per channel)
            one_transaction(trips, mark)
            assert trips.pings == 0
