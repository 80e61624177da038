"""No croupier message can ping @everyone, @here or a role — not even when a player's nickname says
"@everyone" — and the only user ever pinged is the player whose turn it now is."""

from __future__ import annotations

from tests.discord.helpers import Table, never_pings_broadly, refusal, says, story

EVE_SHOWN = "@\u200beveryone Eve @\u200bhere"  # eve's nickname as the bot must write it: no pings


async def test_a_nickname_with_everyone_pings_nobody(table: Table) -> None:
    p = table.people
    table.dice.will_roll(3, 6)
    async with table.running():
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        joined = await table.slash_message(p.eve, "mitmachen")
        assert story(joined) == [
            says("v6.joined", name=EVE_SHOWN, position=1),
            says("v6.next_up", next_player=EVE_SHOWN),
        ]
        await table.slash_message(p.anna, "mitmachen")
        await table.said(p.eve, "weiter")
        busted = await table.said(p.eve, "weiter")  # a 6: eve is a Zombie, anna is up
        assert story(busted) == [says("v6.busted", player=EVE_SHOWN), says("v6.next_up", next_player="Anna")]
        assert busted.content == f"<@{p.anna}>"
        assert busted.pings.users == (p.anna,)
        refused = await table.said(p.eve, f"raube <@{p.anna}> @everyone")
        assert refused.content == refusal("error.spiel_over")
        await table.slash_message(p.moni, "durchgang", subcommand="schliessen")
    everything = list(table.emu.bot_messages)
    assert len(everything) >= 8
    for message in everything:
        never_pings_broadly(message, allowed_users={p.anna})
        assert "@everyone" not in message.content
        assert "@here" not in message.content
    shown = [m.text() for m in everything if "Eve" in m.text()]
    assert shown
    assert all("@everyone" not in text and "@here" not in text for text in shown)
    assert any(EVE_SHOWN in text for text in shown)
