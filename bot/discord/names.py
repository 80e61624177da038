"""Display names for participant ids in the service's sentences."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping

from bot.replies import Reply
from bot.store import GameRecord

_USER_ID = re.compile(r"\b\d{15,21}\b")  # a Discord snowflake standing alone


def with_names(reply: Reply, roster: Mapping[str, str]) -> Reply:
    """Fill in the names of participants the reply could only call by id (one who just left or was
    removed is no longer in the table the service named people from)."""
    if not roster:
        return reply
    lines = tuple(_USER_ID.sub(lambda m: roster.get(m.group(0), m.group(0)), line) for line in reply.lines)
    return reply if lines == reply.lines else dataclasses.replace(reply, lines=lines)


def roster_of(record: GameRecord | None) -> dict[str, str]:
    return {seat.player: seat.name for seat in record.participants} if record is not None else {}
