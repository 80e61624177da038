"""The tournament on the web: live standings, every game's record, dice verified in the browser,
fairness statistics. A read-only front end over the croupier service's page read model,
:mod:`bot.service.pages` (see :mod:`bot.web.app`).

The package imports its web stack (aiohttp, Jinja2) only when one of these names is first used, so
the command line can name :class:`~bot.web.errors.CannotServe` without paying for it.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.web.app import make_app
    from bot.web.server import SiteThread, serve_forever, start_site

__all__ = ["SiteThread", "make_app", "serve_forever", "start_site"]
_HOMES = {
    "make_app": "bot.web.app",
    "SiteThread": "bot.web.server",
    "serve_forever": "bot.web.server",
    "start_site": "bot.web.server",
}


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(import_module(_HOMES[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
