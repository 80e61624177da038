"""Item 4 of the security issue: a nickname never makes someone act, or be announced, as another player.

Names come from the seats, by participant id (the Discord user id); the text of a nickname is only ever
shown. A member whose nickname is another player's user id (or mention) is announced by that nickname,
never as the other player, and the ping goes to the right person; a member who renames themself
mid-game to another player's name cannot act in that player's turn, and the table keeps each seat's
name as it joined (so a rename cannot put a second "Anna" on the table). The web pages show the game
played on Discord with the same names: only typed words have their mentions turned into names.
"""

from __future__ import annotations

import logging

import pytest
from aiohttp.test_utils import TestClient, TestServer
from markupsafe import escape as html_escaped

from bot.discord import escape
from bot.discord.mentions import quiet
from bot.discord.options import BotOptions
from bot.games import GAMES
from bot.markup import plain
from bot.service.croupier import Croupier
from bot.service.rendering import Narrator
from bot.store import ChannelDefaults, Store
from bot.web import make_app
from tests.dice import Dice
from tests.discord.helpers import (
    READY_QUICKLY,
    Clock,
    People,
    Table,
    asked,
    in_place,
    note,
    refusal,
    row,
    says,
    story,
    table_rows,
    title,
)
from tests.discord_emulator import DiscordEmulator


async def test_a_nickname_that_is_another_players_id_is_shown_as_that_nickname(table: Table) -> None:
    p = table.people
    digits = str(p.anna)
    await table.emu.update_member(p.guild, p.ben, nick=digits)
    await table.emu.update_member(p.guild, p.carl, nick=f"<@{p.anna}>")
    mention_shown = escape.name(f"<@{p.anna}>")
    table.dice.will_roll(3, 2, 4)
    async with table.running():
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        await table.slash_message(p.anna, "mitmachen")
        joined = await table.slash_message(p.ben, "mitmachen")
        assert story(joined)[0] == says("v6.joined", name=digits, position=2)
        joined = await table.slash_message(p.carl, "mitmachen")
        # a mention as nickname is no mention: broken by a zero-width space (escaped once rendering.py
        # applies DiscordSpelling.name to names in sentences)
        assert story(joined)[0] in {
            says("v6.joined", name=quiet(f"<@{p.anna}>"), position=3),
            says("v6.joined", name=mention_shown, position=3),
        }
        await table.said(p.anna, "weiter")
        await table.said(p.anna, "weiter")
        stopped = await table.said(p.anna, "stopp")
        assert story(stopped) == [
            says("v6.stopped", player="Anna", total=5),
            says("v6.next_up", next_player=digits),
        ]
        assert stopped.content == f"<@{p.ben}>"  # the ping goes to ben, whatever his nickname says
        assert stopped.pings.users == (p.ben,)
        thrown = await table.said(p.ben, "weiter")
        assert story(thrown) == [says("v6.freiwurf", player=digits, face=4, total=4), asked(digits)]
        assert table_rows(thrown) == [
            row("Anna", "prinzessin", 5),
            row(digits, "playing", 4, to_act=True),
            row(mention_shown, "jungfrau", 0),
        ]
        # carl, nicknamed as a mention of anna, is told it is ben's turn, ben named by his nickname
        refused = await table.said(p.carl, "weiter")
        assert refused.content == refusal("error.not_your_turn", player=digits)
    for message in table.emu.bot_messages:
        assert set(message.pings.users) <= {p.ben}  # nobody pinged anna: no one woke her up
        assert message.content in ("", f"<@{p.ben}>") or message.content.startswith("⚠️")
        assert f"<@{p.anna}>" not in message.text()  # carl's nickname never became a mention


async def test_a_member_renamed_mid_game_never_acts_as_the_player_they_named(table: Table) -> None:
    p = table.people
    table.dice.will_roll(3, 4)
    async with table.running():
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        await table.slash_message(p.anna, "mitmachen")
        await table.slash_message(p.ben, "mitmachen")
        before = await table.game()
        for nick in ("Anna", str(p.anna), f"<@{p.anna}>"):
            await table.emu.update_member(p.guild, p.ben, nick=nick)
            refused = await table.said(p.ben, "weiter")  # anna's turn, whatever ben calls himself
            assert refused.content == refusal("error.not_your_turn", player="Anna")
        after = await table.game()
        assert before is not None
        assert after is not None
        assert (after.version, after.snapshot) == (before.version, before.snapshot)
        thrown = await table.said(p.anna, "weiter")
        assert story(thrown) == [says("v6.freiwurf", player="Anna", face=3, total=3), asked("Anna")]
        assert table_rows(thrown) == [row("Anna", "playing", 3, to_act=True), row("Ben", "jungfrau", 0)]
        stopped = await table.said(p.anna, "stopp")
        assert stopped.content == f"<@{p.ben}>"
        mine = await table.said(p.ben, "weiter")  # ben acts in his own turn, under his seat's name
        assert story(mine) == [says("v6.freiwurf", player="Ben", face=4, total=4), asked("Ben")]
        assert row("Ben", "playing", 4, to_act=True) in table_rows(mine)
        assert row("Anna", "prinzessin", 3) in table_rows(mine)


@pytest.mark.parametrize("given", ["{id}", "<@&{id}>"])
async def test_a_moderator_role_given_by_id_is_that_role_alone(
    discord_emulator: DiscordEmulator,
    people: People,
    db_url: str,
    given: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """MODERATOR_ROLE as the role's id (or its mention): a role anyone may create under the same name —
    or named like the id itself — makes nobody a moderator, and the start warns of nothing."""
    p, emu = people, discord_emulator
    spoofs = [await emu.add_role(p.guild, "Spielleitung"), await emu.add_role(p.guild, str(p.moderators))]
    await emu.update_member(p.guild, p.anna, roles=spoofs)
    caplog.set_level(logging.WARNING, logger="bot.discord.client")
    store = await Store.open(db_url, defaults=ChannelDefaults(moderator_role=given.format(id=p.moderators)))
    try:
        in_place(store, p)
        options = BotOptions(guild_ids=(p.guild,), turn_clock_seconds=None, guild_ready_timeout=READY_QUICKLY)
        table = Table(emu, store, p, Dice(), Clock(), options)
        async with table.running():
            _, refused = await table.slash(p.anna, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
            assert note(refused) == refusal("error.not_moderator", game=None)
            assert await table.game() is None
            opened = await table.slash_message(
                p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen"
            )
            assert opened.embeds[0]["title"] == title(1)
    finally:
        await store.close()
    assert [r.getMessage() for r in caplog.records if "MODERATOR_ROLE" in r.getMessage()] == []


async def test_a_moderator_role_given_by_name_still_works_but_the_start_warns_with_its_id(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    """By name (how older setups name it) the role keeps working — and so would any role of that name,
    which whoever may create roles can make: the log says so at start, naming the id to use instead."""
    p = table.people
    caplog.set_level(logging.WARNING, logger="bot.discord.client")
    async with table.running():
        opened = await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        assert opened.embeds[0]["title"] == title(1)
    (warning,) = [r.getMessage() for r in caplog.records if "MODERATOR_ROLE" in r.getMessage()]
    assert "'Spielleitung'" in warning
    assert f"{p.moderators} in guild {p.guild}" in warning


def on_the_page(key: str, **facts: object) -> str:
    """A croupier's line as the game page shows it: rendered from the catalogue, escaped for HTML."""
    line = plain(Narrator().line(key, facts, "de", game=GAMES["verflixte6"]))
    return f'<p class="line">{html_escaped(line)}</p>'


async def test_a_nickname_that_is_at_another_players_id_is_that_nickname_on_the_web(table: Table) -> None:
    """The page used to turn every ``@<digits>`` of the croupier's lines into the roster name of that
    id: ben, nicknamed ``@`` + anna's id, was shown there as "@Anna ist dabei". Now such a mention in
    the croupier's lines is a bare sign: never a name, and no id either."""
    p = table.people
    impostor = f"@{p.anna}"
    await table.emu.update_member(p.guild, p.ben, nick=impostor)
    croupier = Croupier(
        store=table.store,
        dice_factory=table.dice.factory,
        clock=table.clock,
        web_base_url="https://x.example",
    )
    table.dice.will_roll(3)
    async with table.running(croupier):
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        await table.slash_message(p.anna, "mitmachen")
        joined = await table.slash_message(p.ben, "mitmachen")
        assert story(joined)[0] == says("v6.joined", name=impostor, position=2)
        await table.slash_message(p.moni, "durchgang", subcommand="starten")
        await table.said(p.anna, "weiter")
        await table.said(p.anna, "stopp")
        on = await table.slash_message(p.moni, "einstellungen", {"web": "on"})
        address = next(word for word in on.embeds[0]["description"].split() if "/t/" in word)
    record = await table.game()
    assert record is not None
    client = TestClient(TestServer(make_app(croupier)))
    await client.start_server()
    try:
        response = await client.get("/t/" + address.split("/t/", 1)[1] + f"/game/{record.id}")
        assert response.status == 200
        html = await response.text()
    finally:
        await client.close()
    assert on_the_page("v6.joined", name="@…", position=2) in html
    assert on_the_page("v6.next_up", next_player="@…") in html
    assert on_the_page("v6.stopped", player="Anna", total=3) in html  # anna's own line names her
    for false in (
        on_the_page("v6.joined", name="@Anna", position=2),
        on_the_page("v6.next_up", next_player="@Anna"),
    ):
        assert false not in html
