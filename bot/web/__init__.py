"""The tournament on the web: live standings, every game's record, dice verified in the browser,
fairness statistics. A read-only front end over :mod:`bot.pages` (see :mod:`bot.web.app`)."""

from bot.web.app import make_app
from bot.web.server import SiteThread, serve_forever, start_site

__all__ = ["SiteThread", "make_app", "serve_forever", "start_site"]
