"""engine.records.evolve: dataclasses.replace for the hot paths, refusing what it cannot copy right."""

from __future__ import annotations

import dataclasses
from functools import cached_property

import pytest

from engine.records import evolve
from engine.verflixte6.state import Participant


@dataclasses.dataclass(frozen=True)
class Point:
    x: int
    y: int = 0


def test_a_copy_has_the_changes_and_the_rest_of_the_original() -> None:
    point = Point(1, 2)
    moved = evolve(point, y=5)
    assert moved == Point(1, 5) == dataclasses.replace(point, y=5)
    assert point == Point(1, 2)  # the original is untouched
    assert type(moved) is Point
    with pytest.raises(dataclasses.FrozenInstanceError):
        moved.x = 3  # type: ignore[misc]


def test_it_copies_the_engines_records_as_replace_does() -> None:
    anna = Participant(id="anna", name="Anna")
    assert evolve(anna, points=7) == dataclasses.replace(anna, points=7)


def test_an_unknown_field_is_refused() -> None:
    with pytest.raises(TypeError, match="no field z"):
        evolve(Point(1), z=3)


@dataclasses.dataclass
class Mutable:
    x: int


@dataclasses.dataclass(frozen=True)
class Checked:
    x: int

    def __post_init__(self) -> None:
        if self.x < 0:
            raise ValueError("negative")


@dataclasses.dataclass(frozen=True)
class Cached:
    x: int

    @cached_property
    def double(self) -> int:
        return 2 * self.x


@pytest.mark.parametrize("record", [Mutable(1), Checked(1), Cached(1)])
def test_what_a_plain_copy_would_get_wrong_is_refused(record: object) -> None:
    # A mutable record, a check in __post_init__ that a copy would skip, a cached value a copy would keep.
    with pytest.raises(TypeError):
        evolve(record, x=2)
