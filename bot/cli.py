"""``croupier``: the command line of the project.

    croupier start     the console (and the web pages on 127.0.0.1:8080) without a Discord token, else the bot
    croupier run       the Discord bot
    croupier console   play in the terminal ("NAME: TEXT" lines)
    croupier replay    a JSON script → the final state as JSON
    croupier export    the standings as csv / json / markdown / bbcode
    croupier verify    re-derive the dice of closed games from their seeds
    croupier audit     a game's log in order, undone moves marked with the undo's reason
    croupier migrate   bring the database schema to the newest revision
    croupier healthcheck  exit 0 when the running croupier is ready (or, with none, the database usable)
    croupier odds      exact Killer odds for N dice
    croupier web       the tournament pages (run and console serve them too when WEB_PORT is set)
    croupier stats     are the dice fair? face counts, χ² test and luck per player

Every failure a user can cause (bad file, unreachable database, missing token) ends with one clear
line on stderr and a non-zero exit code, never a traceback.

This module is the entry point only; the commands are in :mod:`bot.commands`, imported once the cyclic
garbage collector is paused (see :func:`main`), so that the pause covers every import of a start.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; its exit code.

    The cyclic garbage collector pauses while the command starts: a start builds a few hundred thousand
    objects that live as long as the process (modules, classes, catalogues) and next to no garbage, and
    walking them again and again cost a console start a seventh of its CPU (issue 22: a restart answers
    within 2 s). The command ends the pause once it has started (:func:`bot.commands.started`), and what
    the start built stays out of the collector's sight until the command returns."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        from bot.commands import run

        return run(argv)
    finally:
        gc.unfreeze()
        if collecting:
            gc.enable()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
