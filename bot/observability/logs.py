"""Log lines a machine can read: with ``LOG_FORMAT=json`` every record is one JSON object on one line.

Each line has ``ts`` (UTC, ISO 8601), ``level``, ``logger`` and ``message``; an event's own fields —
the service's request lines carry ``event``, ``front_end``, ``guild``, ``channel``, ``game_id``,
``message_id``, ``outcome``, ``error`` and ``latency_ms`` — sit beside them at the top level, and a
traceback is one ``exception`` string (so a line is always one line). Text and fields go through the
same redaction as the text format (:mod:`bot.redaction`): no token, password or secret address.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from bot.redaction import redact

FIELDS = "fields"  # the ``extra={"fields": {...}}`` key whose entries become top-level JSON keys


class JsonFormatter(logging.Formatter):
    """One JSON object per record, secrets masked (see the module docstring)."""

    def __init__(self, *, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self.secrets = tuple(secret for secret in secrets if secret)

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": redact(record.getMessage(), self.secrets),
        }
        fields = getattr(record, FIELDS, None)
        if isinstance(fields, dict):
            for key, value in fields.items():
                if key not in line:
                    line[key] = redact(value, self.secrets) if isinstance(value, str) else value
        if record.exc_info:
            line["exception"] = redact(self.formatException(record.exc_info), self.secrets)
        if record.stack_info:
            line["stack"] = redact(self.formatStack(record.stack_info), self.secrets)
        return json.dumps(line, ensure_ascii=False, default=str)
