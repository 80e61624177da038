"""Domain errors: a refused command raises one of these and the state stays untouched.

The layering follows python-chess: a text that is not a command at all (:class:`InvalidCommand`), a
command the rules forbid now (:class:`IllegalCommand`), a command from the wrong person
(:class:`NotYourTurn`). Every error carries a stable ``code`` and the ``facts`` a front end needs to
render a helpful reply in the player's language; the engine never formats sentences.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


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


class IllegalCommand(CroupierError):
    """A well-formed command the rules do not allow in the current phase."""


class NotYourTurn(CroupierError):
    """Someone other than the player to act tried to act."""


class DiceExhausted(CroupierError):
    """A scripted dice source ran out (replay scripts and tests only)."""
