"""What players read on Discord, written out word for word in each language: the other Discord tests
spell their expected answers from the catalogues, so a wrong word in a catalogue would pass them; these
sentences would not. A Durchgang of Die verflixte 6! in the channel's language: two sign-ups, a move
out of turn, a Freiwurf, a stopp. Rule ids: V6-S3 (Freiwurf), V6-S7 (stopp)."""

from __future__ import annotations

import pytest

from tests.discord.helpers import Table, says, story

SENTENCES = {
    "de": {
        "joined": "Anna ist dabei – Platz 1 in der Warteschlange.",
        "refused": "⚠️ Geduld – gerade ist Anna am Zug.",
        "freiwurf": "Freiwurf für Anna: 🎲 3. Stand: 3.",
        "stopped": "Anna sagt stopp und sichert sich 5 Augen – Prinzessin!",
        "next_up": (
            "Ben, du bist dran! Wähle bis zu 3 Joker („Joker: A, B, C“) oder leg gleich mit „weiter“ los."
        ),
    },
    "en": {
        "joined": "Anna is in – place 1 in the queue.",
        "refused": "⚠️ Patience – it's Anna's turn.",
        "freiwurf": "Free throw for Anna: 🎲 3. Total: 3.",
        "stopped": "Anna stops and keeps 5 pips – Prinzessin!",
        "next_up": (
            "Ben, you're up! Choose up to 3 jokers (“Joker: A, B, C”) or start right away with “weiter”."
        ),
    },
    "fr": {
        "joined": "Anna est de la partie – place 1 dans la file d'attente.",
        "refused": "⚠️ Patience – c'est à Anna de jouer.",
        "freiwurf": "Freiwurf pour Anna : 🎲 3. Total : 3.",
        "stopped": "Anna dit stopp et met 5 points à l'abri – Prinzessin !",
        "next_up": (
            "Ben, à toi de jouer ! Choisis jusqu'à 3 jokers (« Joker: A, B, C ») ou lance-toi tout de suite "
            "avec « weiter »."
        ),
    },
}


@pytest.mark.parametrize("lang", ["de", "en", "fr"])
async def test_V6_S7_a_durchgang_reads_word_for_word_in_the_channels_language(
    table: Table, lang: str
) -> None:
    p = table.people
    said = SENTENCES[lang]
    table.dice.will_roll(3, 2)  # anna: Freiwurf 3, weiter 2, stopp → 5
    async with table.running():
        changed = await table.slash_message(p.moni, "einstellungen", {"sprache": lang})
        assert changed.embeds[0]["description"] == says(
            "common.settings_changed", lang, None, settings=f"language={lang}"
        )
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        joined = await table.slash_message(p.anna, "mitmachen")
        assert story(joined)[0] == said["joined"]
        await table.slash_message(p.ben, "mitmachen")
        refused = await table.said(p.ben, "weiter")
        assert refused.content == said["refused"]
        freiwurf = await table.said(p.anna, "weiter")
        assert story(freiwurf)[0] == said["freiwurf"]
        await table.said(p.anna, "weiter")
        stopped = await table.said(p.anna, "stopp")
        assert story(stopped) == [said["stopped"], said["next_up"]]
