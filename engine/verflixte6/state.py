"""The canonical state of one Durchgang: plain frozen data that round-trips through JSON.

Everything the rules need to decide the next step lives here and nowhere else, so a snapshot in the
store, a replay and a test all describe the same game. ``dump``/``load`` carry a format version so an
old snapshot is refused loudly instead of being misread.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from engine.errors import InvalidCommand
from engine.records import evolve

FORMAT = 1

JUNGFRAU = "jungfrau"
PLAYING = "playing"
PRINZESSIN = "prinzessin"
ZOMBIE = "zombie"
DID_NOT_PLAY = "did_not_play"
ROLES = (JUNGFRAU, PLAYING, PRINZESSIN, ZOMBIE, DID_NOT_PLAY)

SIGNUP = "signup"
SHUFFLED = "shuffled"
ORDERS = (SIGNUP, SHUFFLED)

MAX_JOKERS = 3


@dataclasses.dataclass(frozen=True)
class Options:
    """What the moderator fixed when opening the Durchgang."""

    jokers: tuple[str, ...]  # enabled jokers, canonical names in registry order
    order: str = SIGNUP
    parallel: bool = False


@dataclasses.dataclass(frozen=True)
class Pending:
    """A question the croupier waits on before the step can finish (V6-S6)."""

    decision: str  # "victim" | "fight" | "retreat" | "keep"
    source: str  # "eins" for the robbing 1, else the canonical name of the joker that asked
    amount: int = 0  # pips at stake in a victim choice
    faces: tuple[int, ...] = ()  # dice already shown: the Anaconda's attack, the rat duel, the Monokel pair


@dataclasses.dataclass(frozen=True)
class Spiel:
    """One participant's game: the joker choice before the Freiwurf, the bookkeeping after it."""

    jokers: tuple[str, ...] = ()  # chosen jokers
    used: tuple[str, ...] = ()  # jokers spent (Kälteschutz once it expired)
    cold_uses: int = 0  # Kälteschutz uses so far
    robberies: int = 0  # the robbing-1 counter k (V6-N5)
    fumo: bool = False
    valve: int | None = None  # the Sicherheitsventil's level once armed
    pending: Pending | None = None


@dataclasses.dataclass(frozen=True)
class Participant:
    """A row of the Durchgang; ``points`` is the balance, and the running total while playing."""

    id: str
    name: str
    role: str = JUNGFRAU
    points: int = 0
    spiel: Spiel | None = None


@dataclasses.dataclass(frozen=True)
class Durchgang:
    """One tournament round. ``participants`` is the turn order."""

    options: Options
    participants: tuple[Participant, ...] = ()
    started: bool = False  # the moderator's Start (needed before the first Spiel in shuffled order)
    closed: bool = False
    beefmaker_victims: tuple[str, ...] = ()  # harmed by a Beefmaker already (V6-R4)
    keuler_victims: tuple[str, ...] = ()  # Prinzessinnen whose zombification paid a Keuler bonus (V6-R5)
    departed: tuple[Participant, ...] = ()  # Jungfrauen who left; a rejoin brings their balance back


def find(state: Durchgang, pid: str) -> Participant | None:
    for participant in state.participants:
        if participant.id == pid:
            return participant
    return None


def with_participant(state: Durchgang, changed: Participant) -> Durchgang:
    """``state`` with ``changed`` in place of the row with its id (slices of the old rows: a move
    changes a row or two, and a generator over every row cost more than the change)."""
    rows = state.participants
    for index, participant in enumerate(rows):
        if participant.id == changed.id:
            return evolve(state, participants=(*rows[:index], changed, *rows[index + 1 :]))
    return evolve(state, participants=rows)


def ids_with_role(state: Durchgang, *roles: str) -> tuple[str, ...]:
    return tuple(p.id for p in state.participants if p.role in roles)


# --- JSON -----------------------------------------------------------------------------------------


def dump(state: Durchgang) -> dict[str, Any]:
    """The canonical JSON form (lists for tuples, a format version on top); :func:`load` reverses it."""
    options = state.options
    return {
        "format": FORMAT,
        "options": {"jokers": list(options.jokers), "order": options.order, "parallel": options.parallel},
        "participants": [_dump_participant(p) for p in state.participants],
        "started": state.started,
        "closed": state.closed,
        "beefmaker_victims": list(state.beefmaker_victims),
        "keuler_victims": list(state.keuler_victims),
        "departed": [_dump_participant(p) for p in state.departed],
    }


def _dump_participant(participant: Participant) -> dict[str, Any]:
    spiel = participant.spiel
    return {
        "id": participant.id,
        "name": participant.name,
        "role": participant.role,
        "points": participant.points,
        "spiel": None if spiel is None else _dump_spiel(spiel),
    }


def _dump_spiel(spiel: Spiel) -> dict[str, Any]:
    pending = spiel.pending
    return {
        "jokers": list(spiel.jokers),
        "used": list(spiel.used),
        "cold_uses": spiel.cold_uses,
        "robberies": spiel.robberies,
        "fumo": spiel.fumo,
        "valve": spiel.valve,
        "pending": None
        if pending is None
        else {
            "decision": pending.decision,
            "source": pending.source,
            "amount": pending.amount,
            "faces": list(pending.faces),
        },
    }


def load(data: Mapping[str, Any]) -> Durchgang:
    """Rebuild a state from :func:`dump`'s output; anything malformed raises InvalidCommand."""
    version = data.get("format")
    if version != FORMAT:
        raise InvalidCommand("unsupported_format", version=version, expected=FORMAT)
    try:
        options = data["options"]
        return Durchgang(
            options=Options(
                jokers=_strs(options["jokers"]),
                order=str(options["order"]),
                parallel=bool(options["parallel"]),
            ),
            participants=tuple(_participant(p) for p in data["participants"]),
            started=bool(data["started"]),
            closed=bool(data["closed"]),
            beefmaker_victims=_strs(data["beefmaker_victims"]),
            keuler_victims=_strs(data["keuler_victims"]),
            departed=tuple(_participant(p) for p in data["departed"]),
        )
    except (KeyError, TypeError, ValueError) as error:
        raise InvalidCommand("unsupported_format", version=version, expected=FORMAT) from error


def _strs(values: Sequence[Any]) -> tuple[str, ...]:
    return tuple(str(v) for v in values)


def _participant(data: Mapping[str, Any]) -> Participant:
    spiel = data["spiel"]
    return Participant(
        id=str(data["id"]),
        name=str(data["name"]),
        role=str(data["role"]),
        points=int(data["points"]),
        spiel=None if spiel is None else _spiel(spiel),
    )


def _spiel(data: Mapping[str, Any]) -> Spiel:
    pending = data["pending"]
    valve = data["valve"]
    return Spiel(
        jokers=_strs(data["jokers"]),
        used=_strs(data["used"]),
        cold_uses=int(data["cold_uses"]),
        robberies=int(data["robberies"]),
        fumo=bool(data["fumo"]),
        valve=None if valve is None else int(valve),
        pending=None
        if pending is None
        else Pending(
            decision=str(pending["decision"]),
            source=str(pending["source"]),
            amount=int(pending["amount"]),
            faces=tuple(int(f) for f in pending["faces"]),
        ),
    )
