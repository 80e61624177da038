"""What the participant to act may do now, as the forum words a button or select would send.

Buttons go through the same parser and rules as typed lines, so every choice here is a line that the
game accepts at this moment; the tests hold it to that.
"""

from __future__ import annotations

from functools import lru_cache

from engine.errors import CroupierError
from engine.game import Choice
from engine.verflixte6 import players, words
from engine.verflixte6.answers import FIGHT, KEEP, RETREAT, VICTIM
from engine.verflixte6.commands import Rob
from engine.verflixte6.jokers import beefmaker, registry
from engine.verflixte6.robbery import eligible
from engine.verflixte6.state import JUNGFRAU, MAX_JOKERS, PLAYING, Durchgang, Spiel, find
from engine.verflixte6.turns import can_act, to_act

JOKER_GROUP = "jokers"

# Tones: how strongly a front end may stress a choice (Discord's button colours).
GO, HALT, GOOD = "go", "halt", "good"


def choices(state: Durchgang) -> list[Choice]:
    """Each choice's ``action`` names its label in the catalogue (``choice.<action>`` over ``facts``)."""
    pid = to_act(state)
    participant = find(state, pid) if pid is not None else None
    if participant is None or not can_act(state, participant.id):
        return []
    spiel = participant.spiel
    if participant.role == JUNGFRAU:
        options = [
            Choice(
                action="choose_jokers",
                words=name,
                facts={"joker": name},
                group=JOKER_GROUP,
                multi=True,
                prefix=words.JOKERS_PREFIX,
                separator=", ",
                limit=MAX_JOKERS,
            )
            for name in state.options.jokers
        ]
        if spiel is not None and spiel.jokers:
            options.append(Choice(action="no_jokers", words=f"{words.JOKERS_PREFIX} {words.NO_JOKERS}"))
        return [*options, Choice(action="freiwurf", words="weiter", tone=GO)]
    if participant.role != PLAYING or spiel is None:  # pragma: no cover - can_act allows nothing else
        return []
    pending = spiel.pending
    if pending is None:
        return [
            Choice(action="continue", words=CONTINUE, tone=GO),
            *(
                Choice(action="joker", words=joker_words(name), facts={"joker": name}, group="joker")
                for name in playable(spiel)
            ),
            Choice(action="stop", words=STOP, tone=HALT),
        ]
    if pending.decision == VICTIM:
        exclude = state.beefmaker_victims if pending.source == beefmaker.NAME else ()
        victims = eligible(state, participant.id, exclude)
        return [
            *(
                Choice(
                    action="rob", words=_rob_words(state, victim), facts={"player": victim}, group="victim"
                )
                for victim in victims
            ),
            Choice(action="rob_none", words="raube nicht"),
        ]
    if pending.decision == FIGHT:
        return [Choice(action="fight", words="kämpfen", tone=GOOD), Choice(action="decline", words="kneifen")]
    if pending.decision == RETREAT:
        return [
            Choice(action="second_throw", words="weiter", tone=GO),
            Choice(action="retreat", words="zurücktreten"),
        ]
    if pending.decision == KEEP:
        return [
            Choice(action="keep", words="behalten", tone=GOOD),
            Choice(action="repeat", words="wiederholen"),
        ]
    return []  # pragma: no cover - every decision is listed above


CONTINUE, STOP = "weiter", "stopp"


def playable(spiel: Spiel) -> list[str]:
    """The jokers still in hand that are announced (autojokers act by themselves)."""
    return _playable(spiel.jokers, spiel.used)


def _playable(jokers: tuple[str, ...], used: tuple[str, ...]) -> list[str]:
    return [name for name in jokers if registry.spec(name).announced and name not in used]


def joker_words(name: str) -> str:
    return f"weiter mit Joker {name}"


def running_words(spiel: Spiel) -> tuple[str, ...]:
    """What the owner of a running Spiel with nothing pending may type: the words of the buttons."""
    return _running_words(spiel.jokers, spiel.used)


# Asked after every move of a running Spiel, and the jokers in hand change a few times per Spiel.
@lru_cache(maxsize=1024)
def _running_words(jokers: tuple[str, ...], used: tuple[str, ...]) -> tuple[str, ...]:
    return (CONTINUE, *(joker_words(name) for name in _playable(jokers, used)), STOP)


def _name(state: Durchgang, pid: str) -> str:
    participant = find(state, pid)
    return participant.name if participant is not None else pid


def _rob_words(state: Durchgang, pid: str) -> str:
    """``raube NAME`` when the display name reads back to this participant, else a mention of the id."""
    text = f"raube {_name(state, pid)}"
    try:
        command = words.parse(text)
        if isinstance(command, Rob) and command.target and players.resolve(state, command.target) == pid:
            return text
    except CroupierError:
        pass
    return f"raube <@{pid}>"
