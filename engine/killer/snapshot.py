"""The one JSON form of a Killer state, as the store keeps it: versioned and checked on the way in.

Snapshots stored before the format had a version carry no ``format`` key; they are the first format,
which is still the current one. A newer or unknown version is refused (``unsupported_format``);
anything malformed — a wrong type, an unknown key, a player id nobody has — is refused as
``killer_bad_snapshot`` naming the field, never a KeyError or TypeError from deep inside.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, get_args

from engine.errors import CroupierError, InvalidCommand
from engine.killer.classic import Classic
from engine.killer.rules import MAX_DICE, MIN_DICE, MODES, Rules
from engine.killer.state import KillerState, Player, Status, Step, Turn
from engine.killer.variant import Variant

FORMAT = 1

# How a snapshot names its variant: a ``classic`` flag among the rules.
VARIANTS: Mapping[bool, Variant] = {False: Variant(), True: Classic()}


def dump(state: KillerState) -> dict[str, Any]:
    """The canonical JSON form: lists for tuples, a format version on top; :func:`load` reverses it."""
    classic = next(flag for flag, variant in VARIANTS.items() if variant == state.variant)
    rules = dataclasses.asdict(state.rules)
    turn = state.turn
    return {
        "format": FORMAT,
        "rules": {"dice": rules.pop("dice"), "classic": classic, **rules},
        "players": [dataclasses.asdict(player) for player in state.players],
        "started": state.started,
        "order": list(state.order),
        "turn": None if turn is None else _dump_turn(turn),
        "cycle": state.cycle,
        "over": state.over,
        "winner": state.winner,
    }


def _dump_turn(turn: Turn) -> dict[str, Any]:
    data = dataclasses.asdict(turn)
    return {**data, "kept": list(turn.kept), "roll": list(turn.roll)}


class _Malformed(Exception):
    def __init__(self, field: str) -> None:
        super().__init__(field)
        self.field = field


def load(data: Mapping[str, Any], variant: Variant | None = None) -> KillerState:
    """Rebuild a state from :func:`dump`'s output (or a snapshot stored before the version); with
    ``variant``, a snapshot of the other rule text is refused too."""
    if not isinstance(data, Mapping):
        raise InvalidCommand("killer_bad_snapshot", field="snapshot")
    version = data.get("format", FORMAT)
    if type(version) is not int or version != FORMAT:  # not True, which equals 1
        raise InvalidCommand("unsupported_format", version=version, expected=FORMAT)
    try:
        return _state(data, variant)
    except _Malformed as bad:
        raise InvalidCommand("killer_bad_snapshot", field=bad.field) from None


def _state(data: Mapping[str, Any], expected: Variant | None) -> KillerState:
    fields = _fields(data, "", required=("rules",), optional=_TOP)
    variant, rules = _rules(fields["rules"], expected)
    players = tuple(_player(p, f"players[{i}]") for i, p in enumerate(_list(fields["players"], "players")))
    ids = [p.id for p in players]
    if len(set(ids)) != len(ids):
        raise _Malformed("players")
    order = _strs(fields["order"], "order")
    for i, pid in enumerate(order):
        if pid not in ids or pid in order[:i]:
            raise _Malformed(f"order[{i}]")
    turn = fields["turn"]
    return KillerState(
        variant=variant,
        rules=rules,
        players=players,
        started=_bool(fields["started"], "started"),
        order=order,
        turn=None if turn is None else _turn(turn, ids, variant, rules.dice),
        cycle=_int(fields["cycle"], "cycle", minimum=0),
        over=_bool(fields["over"], "over"),
        winner=_optional_member(fields["winner"], ids, "winner"),
    )


def _defaults(cls: type[Any], **more: Any) -> dict[str, Any]:
    """The fields a stored object may leave out: those with a default (older snapshots did)."""
    fields = dataclasses.fields(cls)
    return {f.name: f.default for f in fields if f.default is not dataclasses.MISSING} | more


_TOP = _defaults(KillerState, format=FORMAT)
_RULES = _defaults(Rules, classic=False)
_PLAYER = _defaults(Player)
_TURN = _defaults(Turn)
_ROLLING = ("regenerate", "attack", "revive")  # steps that only wait for a roll


def _rules(data: Any, expected: Variant | None) -> tuple[Variant, Rules]:
    fields = _fields(data, "rules", required=(), optional=_RULES)
    variant = VARIANTS[_bool(fields["classic"], "rules.classic")]
    if expected is not None and variant != expected:
        raise _Malformed("rules.classic")
    dice = _int(fields["dice"], "rules.dice", minimum=MIN_DICE, maximum=MAX_DICE)
    modes = [mode for mode in MODES if _bool(fields[mode], f"rules.{mode}")]
    try:  # the variant's own option check: the older revision plays six dice and no modes
        rules = variant.rules({"dice": dice, "modes": modes})
    except CroupierError:
        raise _Malformed("rules") from None
    return variant, rules


def _player(data: Any, where: str) -> Player:
    fields = _fields(data, where, required=("id", "name"), optional=_PLAYER)
    return Player(
        id=_str(fields["id"], f"{where}.id"),
        name=_str(fields["name"], f"{where}.name"),
        hp=_int(fields["hp"], f"{where}.hp"),
        status=_one_of(fields["status"], get_args(Status), f"{where}.status"),
        terminator=_int(fields["terminator"], f"{where}.terminator", minimum=0),
        removed=_bool(fields["removed"], f"{where}.removed"),
    )


def _turn(data: Any, ids: Sequence[str], variant: Variant, dice: int) -> Turn:
    fields = _fields(data, "turn", required=("player", "step"), optional=_TURN)
    step = _one_of(fields["step"], get_args(Step), "turn.step")
    if step not in variant.accepts and step not in _ROLLING:  # a step of the other rule text
        raise _Malformed("turn.step")
    kept = _faces(fields["kept"], "turn.kept")
    roll = _faces(fields["roll"], "turn.roll")
    if len(kept) + len(roll) > dice:
        raise _Malformed("turn.roll")
    return Turn(
        player=_member(fields["player"], ids, "turn.player"),
        step=step,
        kept=kept,
        roll=roll,
        direction=_one_of(fields["direction"], (None, "low", "high"), "turn.direction"),
        deciding=_bool(fields["deciding"], "turn.deciding"),
        regenerated=_bool(fields["regenerated"], "turn.regenerated"),
        value=_int(fields["value"], "turn.value", minimum=0, maximum=6),
        target=_optional_member(fields["target"], ids, "turn.target"),
        hits=_int(fields["hits"], "turn.hits", minimum=0),
        left=_int(fields["left"], "turn.left", minimum=0, maximum=dice),
    )


# Checked readers: each names the field it refuses.


def _fields(data: Any, where: str, *, required: Sequence[str], optional: Mapping[str, Any]) -> dict[str, Any]:
    """The keys of an object, defaults filled in; a missing required or an unknown key is refused."""
    if not isinstance(data, Mapping):
        raise _Malformed(where or "snapshot")
    for key in data:
        if key not in required and key not in optional:
            raise _Malformed(f"{where}.{key}" if where else str(key))
    for key in required:
        if key not in data:
            raise _Malformed(f"{where}.{key}" if where else key)
    return {**optional, **data}


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list | tuple):
        raise _Malformed(where)
    return list(value)


def _str(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise _Malformed(where)
    return value


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise _Malformed(where)
    return value


def _int(value: Any, where: str, *, minimum: int | None = None, maximum: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):  # True is no number of PDV
        raise _Malformed(where)
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        raise _Malformed(where)
    return value


def _strs(value: Any, where: str) -> tuple[str, ...]:
    return tuple(_str(item, f"{where}[{i}]") for i, item in enumerate(_list(value, where)))


def _faces(value: Any, where: str) -> tuple[int, ...]:
    items = _list(value, where)
    return tuple(_int(face, f"{where}[{i}]", minimum=1, maximum=6) for i, face in enumerate(items))


def _one_of(value: Any, allowed: Sequence[str | None], where: str) -> Any:
    if not (value is None or isinstance(value, str)) or value not in allowed:
        raise _Malformed(where)
    return value


def _member(value: Any, ids: Sequence[str], where: str) -> str:
    """A participant's id: nobody's id is refused."""
    if _str(value, where) not in ids:
        raise _Malformed(where)
    return str(value)


def _optional_member(value: Any, ids: Sequence[str], where: str) -> str | None:
    return None if value is None else _member(value, ids, where)
