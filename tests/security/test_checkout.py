"""The croupier reads what it needs from its checkout at start, so a process that can no longer read it
— one that dropped its rights, or a checkout in a private folder (``mktemp -d``, mode 0700) as the
fault tests' worker sees it — still speaks every sentence of every game.

The catalogues used to be read on the first sentence of each game, and the worker of
``tests/faults/test_database_gone.py`` — running as another user — failed with a PermissionError on
``bot/texts`` when the suite ran from a private clone. ``.ci/run`` now runs the whole suite from one.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# A fresh interpreter: start as the croupier does (the games' registry loads), then lose the checkout
# — every way bot.texts and the games read their catalogues now fails — and speak.
AFTER_START = """
import importlib.resources, json, pathlib
from bot import texts
from bot.games import GAMES, scope_of

kinds = list(GAMES)  # the start: every front end asks the registry first

def gone(*args, **kwargs):
    raise PermissionError(13, "Permission denied", "bot/texts")

texts.resources.files = gone
importlib.resources.files = gone
pathlib.Path.read_text = gone
pathlib.Path.iterdir = gone
spoken = 0
for kind in kinds:
    scope = scope_of(GAMES[kind])
    for lang in texts.LANGUAGES:
        for key in ("game.title", "error.not_moderator", "error.store_unavailable"):
            said = texts.render(key, {}, lang, scope=scope)
            assert not said.startswith("["), (kind, lang, key, said)
            spoken += 1
print(json.dumps({"games": kinds, "spoken": spoken}))
"""


def test_every_game_speaks_after_the_checkout_became_unreadable() -> None:
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_", "LOG_"))}
    done = subprocess.run(
        [sys.executable, "-c", AFTER_START],
        capture_output=True,
        text=True,
        timeout=120,
        env={**environment, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    spoke = json.loads(done.stdout)
    assert len(spoke["games"]) >= 2
    assert spoke["spoken"] == len(spoke["games"]) * 3 * 3


def test_ci_runs_the_whole_suite_from_a_private_clone() -> None:
    """Once per CI run the suite runs from a clone in a ``mktemp -d`` folder (mode 0700), where only
    root can look in: what passes there passes from any checkout location."""
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "mktemp -d" in script
    assert "git clone" in script
    assert "make test" in script
