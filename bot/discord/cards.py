"""The jokers a player brings, as cards under the reply: when they are chosen ("eingeblendet") and
again when the Spiel starts with its Freiwurf (V6-S2)."""

from __future__ import annotations

from typing import Any

from bot.discord.embeds import shown_name
from bot.replies import Reply


def chosen_jokers(state: Any, player: str) -> tuple[str, ...]:
    """The jokers the player chose for this Spiel (read leniently: other games have none)."""
    for participant in getattr(state, "participants", ()):
        spiel = getattr(participant, "spiel", None)
        if getattr(participant, "id", None) == player and spiel is not None:
            return tuple(getattr(spiel, "jokers", ()))
    return ()


def joker_cards(reply: Reply, state: Any) -> list[tuple[str, tuple[str, ...]]]:
    """(player name, jokers) for every joker choice shown in this reply, and at each Freiwurf."""
    names = {row.player: row.name for row in reply.table}
    cards: list[tuple[str, tuple[str, ...]]] = []
    shown: set[str] = set()
    for event in reply.events:
        player = str(event.get("player", ""))
        jokers: tuple[str, ...] = ()
        if event.get("kind") == "v6.jokers_chosen":
            jokers = tuple(str(joker) for joker in event.get("jokers") or ())
        elif event.get("kind") == "v6.freiwurf" and player not in shown:
            jokers = chosen_jokers(state, player)
        if jokers:
            cards.append((shown_name(names.get(player, player)), jokers))
            shown.add(player)
    return cards
