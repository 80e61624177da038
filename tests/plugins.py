"""A plugin package installed the way pip would leave it: a ``*.dist-info`` folder on the path whose
``entry_points.txt`` names its entry points. That is all ``importlib.metadata`` — and so the games'
and the languages' registries — sees of an installed distribution."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bot.games import GAMES
from bot.texts import LANGUAGES


@contextmanager
def installed(folder: Path, name: str, entry_points: str) -> Iterator[Path]:
    """The distribution ``name`` with ``entry_points`` installed under ``folder`` while inside; yields
    the folder on the path (for subprocesses' PYTHONPATH)."""
    site = folder / "plugins"
    info = site / f"{name.replace('-', '_')}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(entry_points)
    sys.path.insert(0, str(site))
    GAMES.refresh()
    LANGUAGES.refresh()
    try:
        yield site
    finally:
        sys.path.remove(str(site))
        GAMES.refresh()
        LANGUAGES.refresh()
