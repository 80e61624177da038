"""Domain errors: a refused command raises one of these and the state stays untouched.

The layering follows python-chess: a text that is not a command at all (:class:`InvalidCommand`), a
command the rules forbid now (:class:`IllegalCommand`), a command from the wrong person
(:class:`NotYourTurn`). Every error carries a stable ``code`` and the ``facts`` a front end needs to
render a helpful reply in the player's language; the engine never formats sentences.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

T = TypeVar("T")


class CroupierError(Exception):
    """Base of every refusal. ``code`` names the reason; ``facts`` feed the message catalogue."""

    def __init__(self, code: str, **facts: Any) -> None:
        super().__init__(code)
        self.code = code
        self.facts: Mapping[str, Any] = facts

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self.facts.items())
        return f"{type(self).__name__}({self.code!r}{', ' if inner else ''}{inner})"


class InvalidCommand(CroupierError):
    """The text looks like a command but is malformed (unknown joker, missing name …)."""


class InvalidOptions(InvalidCommand):
    """Several options of one opening are bad: each is a refusal of its own (``errors``), told
    together so the moderator fixes them all in one go. Code and facts are the first one's."""

    def __init__(self, errors: Sequence[InvalidCommand]) -> None:
        super().__init__(errors[0].code, **errors[0].facts)
        self.errors = tuple(errors)


class OptionChecks:
    """Validates a moderator's options one by one, keeping every refusal instead of stopping at the
    first: ``/open killer modes=zombie,foo dice=12`` is told about the mode and the dice at once."""

    def __init__(self) -> None:
        self.errors: list[InvalidCommand] = []

    def refuse(self, error: InvalidCommand) -> None:
        self.errors.append(error)

    def value(self, check: Callable[[], T], fallback: T) -> T:
        """What ``check`` answers; ``fallback`` when it refuses (the refusal is kept)."""
        try:
            return check()
        except InvalidCommand as error:
            self.errors.append(error)
            return fallback

    def done(self) -> None:
        """Raise what was refused: the one refusal, or :class:`InvalidOptions` for several."""
        if len(self.errors) == 1:
            raise self.errors[0]
        if self.errors:
            raise InvalidOptions(self.errors)


class IllegalCommand(CroupierError):
    """A well-formed command the rules do not allow in the current phase."""


class NotYourTurn(CroupierError):
    """Someone other than the player to act tried to act."""


class DiceExhausted(CroupierError):
    """A scripted dice source ran out (replay scripts and tests only)."""
