"""One service serves Discord, the console and the web pages in one process: it says everything in
the neutral form (bot.markup) and each front end spells it for its medium. A player named
``*ben*_<@&1>`` is escaped on Discord (no emphasis, no role ping), plain on the console, HTML-escaped
on the web page of the Discord game; the Discord front end starting up changes nothing the console
says (it used to swap the service's spelling for its own)."""

from __future__ import annotations

import html

from aiohttp.test_utils import TestClient, TestServer

from bot.console.terminal import Console
from bot.discord import escape
from bot.service.requests import ChangeSettings, Incoming, Moderate
from bot.web import make_app
from tests.discord.helpers import Table, never_pings_broadly, says, story

NICK = "*ben*_<@&1>"
SHOWN = escape.name(NICK)  # as Discord must get it: "\*ben\*\_\<@&1>"


async def test_one_service_spells_for_discord_the_console_and_the_web(table: Table) -> None:
    p, emu = table.people, table.emu
    bennie = await emu.add_member(p.guild, "bennie", nick=NICK)
    croupier = table.croupier()
    console = Console(croupier, moderators=frozenset({"mod"}))
    table.dice.will_roll(4, 5, 3, 2)
    async with table.running(croupier) as bot:
        assert bot.front.croupier is croupier
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        await table.slash_message(p.anna, "mitmachen")
        joined = await table.slash_message(bennie, "mitmachen")
        assert SHOWN != NICK
        assert SHOWN in joined.text()
        assert story(joined)[0] == table.says("v6.joined", name=NICK, position=2)
        never_pings_broadly(joined)

        # The console, on the same service while the Discord front end runs: its own commands, names as typed.
        opened = await console.handle("mod: /open verflixte6")
        assert opened is not None
        assert opened.ok
        assert "/join" in opened.text
        assert "</" not in opened.text
        signed_up = await console.handle(f"{NICK}: /join")
        assert signed_up is not None
        assert signed_up.ok
        assert NICK in signed_up.text
        assert SHOWN not in signed_up.text
        assert "\\" not in signed_up.text

        # Discord again, after the console: still Discord's spelling (command mentions, escapes).
        started = await table.slash_message(p.moni, "durchgang", subcommand="starten")
        assert started.embeds
        thrown = await table.said(p.anna, "weiter")
        assert story(thrown)[0] == says("v6.freiwurf", player="Anna", face=4, total=4)
        for message in emu.bot_messages:
            never_pings_broadly(message, allowed_users={p.anna, bennie})
            assert NICK not in message.text()  # never unescaped on Discord

    # The web page of the Discord game, from the same store: the name as typed, escaped for HTML.
    moderator = Incoming(
        message_id="web-settings:1",
        guild=str(p.guild),
        channel=str(p.channel),
        author=str(p.moni),
        author_name="Moni",
        is_moderator=True,
        is_admin=True,
    )
    turned_on = await croupier.handle(Moderate(moderator, ChangeSettings({"web": "on"})))
    assert turned_on.ok
    token = next(line for line in turned_on.lines if "/t/" in line).rsplit("/", 1)[1]
    record = await table.game()
    assert record is not None
    client = TestClient(TestServer(make_app(croupier)))
    await client.start_server()
    try:
        page = await (await client.get(f"/t/{token}/game/{record.id}")).text()
    finally:
        await client.close()
    assert html.escape(NICK, quote=False) in page
    assert NICK not in page
    assert SHOWN not in page
    assert html.escape(SHOWN, quote=False) not in page
