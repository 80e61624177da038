"""Dutch installed the way a distribution of its own would be: its registry entry named in the
``croupier.languages`` entry points of a package on the path (:mod:`tests.plugins`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests import plugins

DUTCH_ENTRY_POINT = "[croupier.languages]\nnl = tests.languages.nl:DUTCH\n"


@contextmanager
def installed(
    folder: Path, name: str = "croupier-nl", entry_points: str = DUTCH_ENTRY_POINT
) -> Iterator[Path]:
    """The distribution ``name`` with ``entry_points`` (Dutch unless told) installed while inside."""
    with plugins.installed(folder, name, entry_points) as site:
        yield site
