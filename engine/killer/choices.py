"""What the player to act may do now, as the forum words a button or select would send.

A press goes through the same parser and rules as a typed line, so every choice offered here is a
line the game accepts at this moment (the tests play whole games by pressing only these). What a
button shows is the catalogue's, in the reader's language: the engine names no label.
"""

from __future__ import annotations

from engine.errors import CroupierError
from engine.game import Choice
from engine.killer.commands import Attack, Pass
from engine.killer.names import resolve
from engine.killer.prompts import targets
from engine.killer.state import KillerState
from engine.killer.words import parse

KEEP_GROUP = "keep"
TARGET_GROUP = "target"


def choices(state: KillerState) -> list[Choice]:
    """Each choice's ``action`` names its label in the catalogue (``choice.<action>``) and ``facts`` fill
    it in; ``words`` are exactly what the parser reads."""
    turn = state.turn
    if state.over or turn is None or turn.due:
        return []
    if turn.step in ("setup", "keep"):
        return [
            *(
                Choice(
                    action="keep_die",
                    words=str(face),
                    facts={"face": face},
                    group=KEEP_GROUP,
                    multi=True,
                    prefix="garde",
                )
                for face in sorted(turn.roll, reverse=True)
            ),
            Choice(action="keep_all", words="garde tout", tone="go"),
            Choice(action="auto", words="auto", tone="go"),
            Choice(action="advice", words="conseil"),
        ]
    if turn.step == "direction":
        return [
            Choice(action="high", words="haut", facts={"value": state.rules.high}),
            Choice(action="low", words="bas", facts={"value": state.rules.low}),
        ]
    offered = [
        Choice(
            action="attack",
            words=_attack_words(state, pid),
            facts={"target": pid},
            group=TARGET_GROUP,
            tone="good",
        )
        for pid in targets(state, turn)
    ]
    if Pass in state.variant.accepts.get(turn.step, ()):
        offered.append(Choice(action="pass", words="passe"))
    if state.variant.self_attack:  # the attack turns on the player: shown as a warning
        offered.append(Choice(action="attack_self", words="attaque", tone="halt"))
    return offered


def _attack_words(state: KillerState, pid: str) -> str:
    """``attaque NAME`` when the display name reads back to this player, else a mention of the id."""
    text = f"attaque {state.player(pid).name}"
    try:
        command = parse(text)
        if isinstance(command, Attack) and command.target and resolve(state, command.target) == pid:
            return text
    except CroupierError:
        pass
    return f"attaque <@{pid}>"
