"""What a restart costs: a console started on a database at the newest schema answers its first line
without importing the web stack (aiohttp, Jinja2), Discord or Alembic. Each of them costs a start a
tenth of a second of CPU or more, and a restart must answer within 2 s with a million open games
(issue 22, ``python -m bench scale``); they are imported where they are used — a configured port,
the bot, a database that needs migrating."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from bot.store import Store

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("aiohttp", "alembic", "discord", "jinja2")
# The console as the `croupier` script starts it, then the heavy packages it imported, on stderr.
CHILD = f"""
import json, sys
from bot.cli import main
code = main(sys.argv[1:])
print(json.dumps(sorted({{name.split(".")[0] for name in sys.modules}} & set({HEAVY!r}))), file=sys.stderr)
sys.exit(code)
"""


def test_a_console_start_on_a_migrated_database_imports_no_web_discord_or_alembic(tmp_path: Path) -> None:
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
