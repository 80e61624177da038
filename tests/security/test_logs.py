"""Secrets in logs: the bot token never, at any level; interaction tokens and webhook URLs (which let
anyone answer in the bot's name for 15 minutes) never at INFO or above; database passwords never.

A whole Durchgang runs through the emulator — slash commands, buttons, chat lines, a picture, an export,
an expired interaction, a store outage — with every logger at DEBUG, and every record is checked as
discord.py and the croupier log it, and as ``croupier``'s log handler writes it (its
:class:`~bot.redaction.RedactingFormatter` masks even what DEBUG records carry).
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

from bot.commands import LOG_FORMAT
from bot.observability.logs import JsonFormatter
from bot.redaction import RedactingFormatter, redact
from bot.service.croupier import Croupier
from bot.store import Store, StoreUnavailable, UnitOfWork
from bot.store import mask_url as store_mask_url
from tests.discord.helpers import Table
from tests.discord.test_store_unavailable import shut_down_after

T = TypeVar("T")

ROOT = Path(__file__).resolve().parents[2]
DB_SECRET = "Db-s3cret-Pa55"
DB_URL = f"postgresql://croupier:p@{DB_SECRET}@db/croupier"  # a raw "@" in the password


class FlakyStore(Store):
    """A store whose units of work cannot begin while ``down``; the message names the URL as the
    store masks it."""

    down = False

    async def run(self, work: Callable[[UnitOfWork], T], *, read_only: bool = False) -> T:
        if self.down:
            raise StoreUnavailable(store_mask_url(DB_URL), "connection refused", "is it running?")
        return await super().run(work, read_only=read_only)


def plain_text(record: logging.LogRecord) -> str:
    return logging.Formatter("%(name)s %(levelname)s %(message)s").format(record)


async def play(table: Table) -> None:
    p = table.people
    flaky = FlakyStore(table.store.engine, table.store._url, table.store.defaults)
    table.dice.will_roll(4, 2, 5, 3)
    croupier = Croupier(store=flaky, dice_factory=table.dice.factory, clock=table.clock)
    async with table.running(croupier), shut_down_after(flaky):
        await table.slash_message(p.moni, "turnier", {"name": "Frühjahr"})
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        await table.slash_message(p.anna, "mitmachen")
        # an interaction that expired: the answer is posted in the channel instead
        sent = await table.emu.slash_command(p.guild, p.channel, p.ben, "mitmachen")
        state = table.emu.interactions.pop(sent.id)
        table.emu.interactions_by_token.pop(state.sent.token)
        expired_token = state.sent.token
        await table.emu.next_message(p.channel, predicate=lambda m: m.via == "channel" and bool(m.embeds))
        table.emu.interactions_by_token[expired_token] = state  # keep it among the tokens checked
        flaky.down = True
        await table.said(p.anna, "weiter")
        await table.slash(p.ben, "regeln")
        flaky.down = False
        await table.said(p.anna, "weiter")
        await table.said(p.anna, "stopp")
        await table.said(p.ben, "weiter")
        await table.said(p.ben, "stopp")
        await table.slash_message(p.moni, "durchgang", subcommand="schliessen")
        await table.slash_message(p.anna, "tabelle", {"bild": True})
        await table.slash(p.ada, "export", {"format": "csv"})


@pytest.fixture
async def records(table: Table, caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    caplog.set_level(logging.DEBUG)
    await play(table)
    assert any(r.levelno >= logging.WARNING for r in caplog.records)  # the outage and the expiry were logged
    return list(caplog.records)


def tokens_of(table: Table) -> list[str]:
    tokens = [token for token in table.emu.interactions_by_token if token]
    assert tokens  # the run did answer interactions
    return tokens


async def test_the_bot_token_never_and_interaction_tokens_never_at_info(
    table: Table, records: list[logging.LogRecord]
) -> None:
    tokens = tokens_of(table)
    for record in records:
        text = plain_text(record)
        assert table.emu.token not in text, f"bot token in {record.name} {record.levelname}"
        if record.levelno >= logging.INFO:
            for token in tokens:
                assert token not in text, f"interaction token at {record.levelname}: {text[:300]}"
            assert "/webhooks/" not in text, text[:300]
            assert "/interactions/" not in text, text[:300]


async def test_the_log_handler_writes_no_secret_at_any_level(
    table: Table, records: list[logging.LogRecord]
) -> None:
    formatter = RedactingFormatter(LOG_FORMAT, secrets=[table.emu.token])
    tokens = tokens_of(table)
    written = [formatter.format(record) for record in records]
    assert any("/interactions/" in line for line in written)  # DEBUG lines name the callbacks …
    for line in written:
        assert DB_SECRET not in line
        assert table.emu.token not in line
        for token in tokens:
            assert token not in line  # … without their tokens


async def test_the_json_log_writes_no_secret_at_any_level_one_line_per_record(
    table: Table, records: list[logging.LogRecord]
) -> None:
    """LOG_FORMAT=json: the same records, each one JSON object on one line, with the same masking."""
    formatter = JsonFormatter(secrets=[table.emu.token])
    tokens = tokens_of(table)
    written = [formatter.format(record) for record in records]
    for line in written:
        assert "\n" not in line  # each record one line
        assert json.loads(line)["level"] in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
        assert DB_SECRET not in line
        assert table.emu.token not in line
        for token in tokens:
            assert token not in line


def test_redact_masks_tokens_urls_and_given_secrets() -> None:
    line = (
        "POST http://x/api/v10/interactions/123/aW50.abc-DEF_ghi/callback "
        "POST http://x/api/v10/webhooks/456/aW50.xyz/messages/@original "
        "{'id': '1', 'token': 'aW50.secret', 'type': 2} "
        '{"token": "aW50.json"} '
        "Authorization: Bot MTIz.GaBc.xyz "
        f"db {DB_URL} and the token MTIzNDU2.Gx.yz789"
    )
    shown = redact(line, ["MTIzNDU2.Gx.yz789", "short"])
    for secret in (
        "aW50.abc-DEF_ghi",
        "aW50.xyz",
        "aW50.secret",
        "aW50.json",
        "MTIz.GaBc.xyz",
        DB_SECRET,
        "MTIzNDU2",
    ):
        assert secret not in shown
    assert "/interactions/123/***/callback" in shown
    assert "postgresql://croupier:***@db/croupier" in shown
    assert redact("a short word", ["short"]) == "a short word"  # too short to be a token: left alone


def test_a_web_token_in_a_logged_path_is_masked() -> None:
    """A web page's path holds its channel's secret token (bot.service.actions: token_urlsafe(18))."""
    token = secrets.token_urlsafe(18)
    record = logging.LogRecord(
        "bot.web.app", logging.WARNING, __file__, 1, "web page %s: unavailable", (f"/t/{token}/game/3",), None
    )
    shown = RedactingFormatter(LOG_FORMAT).format(record)
    assert token not in shown
    assert "web page /t/***/game/3: unavailable" in shown
    assert redact("GET /static/app.css /t/short") == "GET /static/app.css /t/short"


def test_croupier_logs_through_the_redacting_formatter(tmp_path: Path) -> None:
    """What `croupier` itself writes to stderr (its handler, set up by cli.main) holds no secret."""
    token = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.very-secret-token-part"
    program = (
        "import logging\n"
        "from bot.commands import configure_logging\n"
        "from bot.settings import Settings\n"
        "configure_logging(Settings())\n"
        f"logging.getLogger('discord.gateway').warning('token %s url %s', {token!r}, {DB_URL!r})\n"
        "logging.getLogger('x').info('POST /api/v10/interactions/1/aW50.tok-en/callback')\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_", "LOG_"))}
    env.update(DISCORD_TOKEN=token, LOG_LEVEL="DEBUG", PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-c", program],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "token *** url postgresql://croupier:***@db/croupier" in done.stderr
    assert "/interactions/1/***/callback" in done.stderr
    assert "very-secret-token-part" not in done.stderr
    assert DB_SECRET not in done.stderr
