"""Pig installed as a plugin package would be, for any test that plays it (the games' own tests and
the Discord ones): a distribution on the path whose metadata names its ``croupier.games`` entry point.
Import the fixture into a test module to use it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.plugins import installed

ENTRY_POINT = "[croupier.games]\npig = tests.games.pig:GAME\n"


@pytest.fixture
def pig_plugin(tmp_path: Path) -> Iterator[Path]:
    """Pig on the path as an installed distribution. Yields the folder holding it (for subprocesses'
    PYTHONPATH)."""
    with installed(tmp_path, "croupier-pig", ENTRY_POINT) as site:
        yield site
