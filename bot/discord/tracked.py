"""What a post the bot must deliver is known by: the log entry whose answer it is (:class:`Tracked`), or
a finished game's result line in its thread's home (:class:`ResultLine`) — each with the nonce that
makes Discord take it once (:mod:`bot.discord.delivery`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from engine.numbers import SNOWFLAKE_MAX, whole_number

NONCE_MAX = 25  # Discord's limit for a message nonce


@dataclass(frozen=True)
class Tracked:
    """What identifies an answer in its channel: its log entry, and the message or interaction it
    answers (``answering`` / ``interaction``), or the time it was logged (a timeout's post)."""

    log_id: int
    answering: int | None = None  # the chat line it replies to
    interaction: int | None = None  # the interaction it answers
    logged_at: datetime | None = None

    @property
    def nonce(self) -> str:
        return f"croupier-{self.log_id}"[:NONCE_MAX]

    @property
    def what(self) -> str:
        return f"the answer of log entry {self.log_id}"

    @classmethod
    def of(cls, log_id: int, message_id: str, logged_at: datetime | None = None) -> Tracked:
        kind, _, number = message_id.partition(":")
        ident = whole_number(number, SNOWFLAKE_MAX)
        if kind == "discord":
            return cls(log_id, answering=ident, logged_at=logged_at)
        if kind == "interaction":
            return cls(log_id, interaction=ident, logged_at=logged_at)
        return cls(log_id, logged_at=logged_at)


@dataclass(frozen=True)
class ResultLine:
    """A finished game's result line in its thread's home: tracked by the game (its closing, recorded
    by the service), not by a log entry; found in the home's history by its text."""

    game_id: int
    logged_at: datetime  # when the game ended: the line is not older
    answering: None = None  # it answers no line …
    interaction: None = None  # … and no interaction

    @property
    def nonce(self) -> str:
        return f"croupier-end-{self.game_id}"[:NONCE_MAX]  # never one of a log entry's answer

    @property
    def what(self) -> str:
        return f"the result line of game {self.game_id}"


Key = Tracked | ResultLine
