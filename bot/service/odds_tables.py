"""Killer's shipped odds tables, read from the package and handed to the engine.

The engine does no I/O, so it cannot open the file (``engine/killer/odds_tables.bin``) itself: this
module reads it — on the first question that needs it, not at import — and gives the decoded tables to
the solvers (:meth:`engine.killer.odds.Solvers.provide`). Every process that runs the croupier service
installs it (``bot.service.croupier`` does at import), as does ``croupier odds``. A missing or damaged
file, or
tables built for other rules, costs speed, never correctness: the solver then works the odds out as
before (a second or more for ten dice), and the log says why.
"""

from __future__ import annotations

import logging
import threading
from importlib import resources

from engine.killer import odds
from engine.killer.odds import Goal
from engine.killer.odds_tables import Table, Tables, decode

log = logging.getLogger(__name__)

PACKAGE = "engine.killer"
FILE = "odds_tables.bin"


def read() -> Tables | None:
    """The shipped tables; None (and a warning) when the file cannot be read or decoded."""
    try:
        data = (resources.files(PACKAGE) / FILE).read_bytes()
        tables = decode(data)
    except (OSError, ValueError) as error:
        log.warning("Killer odds tables unusable (%s): the odds are worked out instead", error)
        return None
    return tables


class Shipped:
    """The source of tables :meth:`Solvers.provide` takes: reads the file on the first call, once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()  # the service asks from worker threads
        self._tables: Tables | None = None
        self._read = False

    def __call__(self, dice: int, goal: Goal) -> Table | None:
        if not self._read:
            with self._lock:
                if not self._read:
                    self._tables = read()
                    self._read = True
        if self._tables is None:
            return None
        table = self._tables(dice, goal)
        if table is None and self._tables.holds(dice, goal):
            log.warning("Killer odds table for %d dice, %s, is for other rules: worked out", dice, goal)
        return table


def install(solvers: odds.Solvers = odds.solver) -> None:
    """Answer ``solvers``' questions from the shipped tables (idempotent)."""
    if not isinstance(solvers.source, Shipped):
        solvers.provide(Shipped())
