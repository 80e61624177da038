"""When the database cannot be reached, a command gets "try again", chit-chat stays unanswered, nothing
changes, and the bot goes on once the database is back."""

from __future__ import annotations

from typing import Any

from bot.croupier import Croupier
from bot.store import Store, StoreUnavailable, UnitOfWork
from tests.discord.helpers import Table, asked, note, says, story


class Outage:
    """A unit of work that cannot begin, as when the server is gone."""

    async def __aenter__(self) -> Any:
        raise StoreUnavailable(
            "postgresql://croupier:***@db/croupier", "connection refused", "is it running?"
        )

    async def __aexit__(self, *exc: object) -> None:
        return None


class FlakyStore(Store):
    down = False

    def unit_of_work(self, *, read_only: bool = False) -> UnitOfWork:
        if self.down:
            return Outage()  # type: ignore[return-value]
        return super().unit_of_work(read_only=read_only)


async def test_store_outage_answers_try_again_and_the_bot_keeps_running(table: Table) -> None:
    p = table.people
    flaky = FlakyStore(table.store.engine, table.store._url, table.store.defaults)
    table.dice.will_roll(4)
    croupier = Croupier(store=flaky, dice_factory=table.dice.factory, clock=table.clock)
    async with table.running(croupier):
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        await table.slash_message(p.anna, "mitmachen")
        flaky.down = True
        chat = await table.say(p.anna, "gleich geht's los")
        refused = await table.said(p.anna, "weiter")
        assert refused.content == says("error.store_unavailable", game=None)
        assert not refused.embeds
        _, slash = await table.slash(p.ben, "mitmachen")
        assert slash.ephemeral
        assert note(slash) == says("error.store_unavailable", game=None)
        flaky.down = False
        record = await table.game()
        assert record is not None
        assert record.dice_used == 0
        assert len(record.participants) == 1
        thrown = await table.said(p.anna, "weiter")
        assert story(thrown) == [says("v6.freiwurf", player="Anna", face=4, total=4), asked("Anna")]
        answered = [m.message_reference for m in table.emu.bot_messages if m.message_reference]
        assert all(int(ref["message_id"]) != chat for ref in answered)
