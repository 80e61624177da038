"""The jokers a player brings, shown beside the reply: when they are chosen ("eingeblendet", V6-S2) and
again at the Freiwurf that starts the Spiel, so the table sees what this Spiel may bring; and the
overview of the jokers a Durchgang plays with (the ``jokers`` topic, ``/info jokers``)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.game import Event, Highlight, Line
from engine.verflixte6 import events as ev
from engine.verflixte6.jokers import registry
from engine.verflixte6.state import Durchgang, find

JOKERS = "highlight.jokers"


def joker_highlights(after: Durchgang, events: Sequence[Event]) -> list[Highlight]:
    """One highlight per player whose jokers were chosen or who threw the Freiwurf with some."""
    shown: list[Highlight] = []
    players: set[str] = set()
    for event in events:
        if isinstance(event, ev.JokersChosen):
            player, jokers = event.player, event.jokers
        elif isinstance(event, ev.Freiwurf):
            player, jokers = event.player, _chosen(after, event.player)
        else:
            continue
        if jokers and player not in players:
            players.add(player)
            items = tuple((name, f"v6.joker_info.{name}") for name in jokers)
            shown.append(Highlight(key=JOKERS, facts={"player": player}, items=items))
    return shown


def enabled_jokers(state: Durchgang | None) -> list[str]:
    """The jokers ``state`` plays with (without one: those enabled by default), in the order of the
    rule text."""
    enabled = state.options.jokers if state is not None else registry.DEFAULT_ENABLED
    return [name for name in registry.NAMES if name in enabled]


def joker_overview(state: Durchgang | None) -> list[Line]:
    """The description of every joker ``state`` plays with, in the order of the rule text."""
    return [Line(f"v6.joker_info.{name}") for name in enabled_jokers(state)]


def _chosen(state: Durchgang, pid: str) -> tuple[str, ...]:
    participant = find(state, pid)
    spiel = participant.spiel if participant is not None else None
    return spiel.jokers if spiel is not None else ()
