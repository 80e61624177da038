"""Pig installed as a plugin package would be, for any test that plays it (the games' own tests and
the Discord ones): a distribution on the path whose metadata names its ``croupier.games`` entry point.
Import the fixture into a test module to use it."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.games import GAMES

ENTRY_POINT = "[croupier.games]\npig = tests.games.pig:GAME\n"


@pytest.fixture
def pig_plugin(tmp_path: Path) -> Iterator[Path]:
    """Pig on the path as an installed distribution. Yields the folder holding it (for subprocesses'
    PYTHONPATH)."""
    site = tmp_path / "plugins"
    info = site / "croupier_pig-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: croupier-pig\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(ENTRY_POINT)
    sys.path.insert(0, str(site))
    GAMES.refresh()
    try:
        yield site
    finally:
        sys.path.remove(str(site))
        GAMES.refresh()
