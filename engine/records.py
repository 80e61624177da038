"""A copy of a frozen record with some fields changed, made for the hot paths.

``dataclasses.replace`` builds the copy through ``__init__``: it looks up every field, fetches every
value and, for a frozen class, sets each through ``object.__setattr__``. A move makes a dozen such
copies (a participant, the Durchgang, the reply, the stored game), which cost more than the rule
they apply. :func:`evolve` copies the instance's ``__dict__`` and overwrites the changed fields: the
same result for a plain frozen dataclass, which is all it accepts.

The copy's ``__dict__`` is a new plain dict, set whole, rather than the one ``copy.__dict__`` makes
and ``update`` fills: on CPython 3.11 that one stays a *split* dict (keys shared with the class), and
the interpreter's specialised attribute read falls back to the generic lookup for every field of such
an instance — a record read a dozen times per move cost three times as much to read.
"""

from __future__ import annotations

import dataclasses
from functools import cached_property
from typing import Any, TypeVar

T = TypeVar("T")

_FIELDS: dict[type, frozenset[str]] = {}  # per class: the fields a copy may change


def evolve(record: T, /, **changes: Any) -> T:
    """``dataclasses.replace(record, **changes)`` for a frozen dataclass without ``__post_init__``,
    slots or cached properties (anything else is refused, so a copy never skips a check or keeps a
    stale cached value)."""
    cls = type(record)
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = _fields_of(cls)
    if not names.issuperset(changes):
        unknown = ", ".join(sorted(set(changes) - names))
        raise TypeError(f"{cls.__name__} has no field {unknown}")
    copy = object.__new__(cls)
    object.__setattr__(copy, "__dict__", {**record.__dict__, **changes})  # a plain dict: see above
    return copy


def _fields_of(cls: type) -> frozenset[str]:
    parameters = getattr(cls, "__dataclass_params__", None)
    if parameters is None or not parameters.frozen:
        raise TypeError(f"evolve copies frozen dataclasses, not {cls.__name__}")
    if hasattr(cls, "__post_init__") or "__slots__" in vars(cls):
        raise TypeError(f"{cls.__name__} has __post_init__ or slots: use dataclasses.replace")
    if any(isinstance(value, cached_property) for klass in cls.__mro__ for value in vars(klass).values()):
        raise TypeError(f"{cls.__name__} caches properties: use dataclasses.replace")
    fields = dataclasses.fields(cls)
    if any(not field.init for field in fields):
        raise TypeError(f"{cls.__name__} has fields outside __init__: use dataclasses.replace")
    return frozenset(field.name for field in fields)
