"""Installing a language the way a distribution of its own would be installed: a ``*.dist-info``
folder on the path whose ``entry_points.txt`` names the language's registry entry. That is all
``importlib.metadata`` — and so :data:`bot.texts.LANGUAGES` — sees of an installed package."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bot.texts import LANGUAGES

DUTCH_ENTRY_POINT = "[croupier.languages]\nnl = tests.languages.nl:DUTCH\n"


@contextmanager
def installed(
    folder: Path, name: str = "croupier-nl", entry_points: str = DUTCH_ENTRY_POINT
) -> Iterator[Path]:
    """The distribution ``name`` with ``entry_points`` installed under ``folder`` while inside."""
    site = folder / "plugins"
    info = site / f"{name.replace('-', '_')}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(entry_points)
    sys.path.insert(0, str(site))
    LANGUAGES.refresh()
    try:
        yield site
    finally:
        sys.path.remove(str(site))
        LANGUAGES.refresh()
