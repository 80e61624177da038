"""LOG_FORMAT=json: one JSON object per line, the event's fields beside the message, no secret —
a traceback included; and the console's terminal gets no line per move unless JSON was asked for."""

from __future__ import annotations

import io
import json
import logging

from bot.commands import _logs_events
from bot.observability.logs import JsonFormatter
from bot.settings import Settings

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz012345"
DB_URL = "postgresql://croupier:Sup3r-Secret@db:5432/croupier"


def _written(logger: logging.Logger, emit: object) -> list[dict[str, object]]:
    lines = io.StringIO()
    handler = logging.StreamHandler(lines)
    handler.setFormatter(JsonFormatter(secrets=[TOKEN]))
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    try:
        assert callable(emit)
        emit()
    finally:
        logger.removeHandler(handler)
    text = lines.getvalue()
    assert TOKEN not in text
    assert "Sup3r-Secret" not in text
    return [json.loads(line) for line in text.splitlines()]


def test_a_traceback_is_one_line_and_names_no_secret() -> None:
    logger = logging.getLogger("tests.observability.traceback")

    def emit() -> None:
        try:
            raise ConnectionError(f"cannot reach {DB_URL} with token {TOKEN}")
        except ConnectionError:
            logger.exception("the store failed at %s", DB_URL)

    [line] = _written(logger, emit)
    assert line["level"] == "ERROR"
    assert line["logger"] == "tests.observability.traceback"
    assert line["message"] == "the store failed at postgresql://croupier:***@db:5432/croupier"
    assert "ConnectionError" in str(line["exception"])
    assert "Traceback" in str(line["exception"])


def test_an_event_s_fields_sit_beside_its_message() -> None:
    logger = logging.getLogger("tests.observability.event")
    fields = {"event": "request", "guild": "1", "game_id": 7, "outcome": "moved", "latency_ms": 3.25}

    [line] = _written(logger, lambda: logger.info("moved guild=1", extra={"fields": fields}))
    assert {key: line[key] for key in fields} == fields
    assert line["message"] == "moved guild=1"
    assert str(line["ts"]).endswith("+00:00")


def test_only_the_bot_logs_a_line_per_move_unless_json_is_asked_for() -> None:
    text, as_json = Settings(_env_file=None), Settings(_env_file=None, log_format="json")
    with_token = Settings(_env_file=None, discord_token="abc.def.ghi")
    assert not _logs_events("console", text)
    assert not _logs_events("start", text)  # without a token: the console
    assert _logs_events("start", with_token)  # with one: the bot
    assert _logs_events("run", text)
    assert _logs_events("console", as_json)
    assert not _logs_events("replay", text)  # a one-off command: its output is the answer
    assert not _logs_events("export", text)
