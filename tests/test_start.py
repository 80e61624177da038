"""What a restart costs: a restart must answer within 2 s with a million open games (issue 22,
``python -m bench scale``), nearly all of it the CPU of the start.

A console started on a database at the newest schema answers its first line without importing the web
stack (aiohttp, Jinja2), Discord, Alembic or SQLAlchemy's ORM — each costs a start a twentieth of a
second of CPU or more, and is imported where it is used: a configured port, the bot, a database that
needs migrating (the store itself runs Core statements only). And the cyclic garbage collector pauses
while a command starts, and only then (:func:`bot.cli.main`)."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import bot.console.terminal
from bot.cli import main
from bot.console.terminal import Console
from bot.store import Store

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("aiohttp", "alembic", "discord", "jinja2", "sqlalchemy.orm")
# The console as the `croupier` script starts it, then the heavy packages it imported, on stderr.
CHILD = f"""
import json, sys
from bot.cli import main
code = main(sys.argv[1:])
heavy = [h for h in {HEAVY!r} if any(n == h or n.startswith(h + ".") for n in sys.modules)]
print(json.dumps(heavy), file=sys.stderr)
sys.exit(code)
"""


def test_a_console_start_imports_no_web_stack_discord_alembic_or_orm(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'croupier.sqlite3'}"
    Store.open_now(url).close_now()  # the first start migrates the new file (with Alembic)
    unset = {"HEALTH_PORT", "WEB_PORT", "DATABASE_URL"}  # an endpoint or pages would need aiohttp
    env = {key: value for key, value in os.environ.items() if key not in unset}
    started = subprocess.run(
        [sys.executable, "-c", CHILD, "console", "--json", "--db", url, "--moderator", "mod"],
        input="mod: /open verflixte6\nanna: /join\n",
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,  # no .env of the developer's
        env={**env, "PYTHONPATH": str(ROOT), "LOG_LEVEL": "WARNING"},
        check=False,
    )
    assert started.returncode == 0, started.stderr
    assert [json.loads(line)["ok"] for line in started.stdout.splitlines()] == [True, True]
    assert json.loads(started.stderr.splitlines()[-1]) == []


def test_the_collector_pauses_while_the_console_starts_and_only_then(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[bool, bool]] = []

    async def run(console: Console, **options: object) -> int:
        seen.append((gc.isenabled(), gc.get_freeze_count() > 0))
        return 0

    monkeypatch.setattr(bot.console.terminal, "run_console", run)
    assert main(["console", "--db", f"sqlite:///{tmp_path / 'console.sqlite3'}"]) == 0
    assert seen == [(True, True)]  # collecting while it plays; what the start built set aside
    assert (gc.isenabled(), gc.get_freeze_count()) == (True, 0)  # all as before once it returned


def test_a_command_that_fails_to_start_leaves_the_collector_as_it_was() -> None:
    assert main(["console", "--db", "mysql://nobody@nowhere/croupier"]) == 2  # an unsupported database
    assert (gc.isenabled(), gc.get_freeze_count()) == (True, 0)
