"""The command-line side of the web pages: ``croupier web``, ``croupier stats``, and the site served
beside the bot or the console when WEB_PORT is set (wired up in :mod:`bot.cli`)."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager

from bot.pages import Pages
from bot.settings import DEFAULT_WEB_PORT, Settings
from bot.store import ChannelDefaults, Store
from bot.web.server import Site, SiteThread, serve_forever, start_site
from bot.web.words import fairness_json, fairness_text


def serve_command(settings: Settings, db_url: str, host: str | None, port: int | None) -> int:
    """``croupier web [--host] [--port]``: the pages until Ctrl-C."""
    return asyncio.run(
        serve_forever(
            db_url,
            host or settings.web_host,
            port if port is not None else settings.web_port or DEFAULT_WEB_PORT,
            defaults=ChannelDefaults.from_settings(settings),
        )
    )


async def stats_command(store: Store, channel: str, tournament_id: int | None, as_json: bool) -> int:
    """``croupier stats``: the fairness figures of a tournament, in its channel's language."""
    found = await Pages(store).stats(channel, tournament_id)
    if found is None:
        print("croupier: no such tournament", file=sys.stderr)
        return 1
    lang, tournament, fairness = found
    if as_json:
        print(json.dumps(fairness_json(tournament.name, lang, fairness), ensure_ascii=False, indent=2))
    else:
        print(fairness_text(tournament.name, lang, fairness))
    return 0


@contextmanager
def site_beside(settings: Settings, db_url: str) -> Iterator[SiteThread | None]:
    """The pages on a thread of this process while the bot runs, when WEB_PORT is set."""
    if settings.web_port is None:
        yield None
        return
    site = SiteThread(
        db_url, settings.web_host, settings.web_port, defaults=ChannelDefaults.from_settings(settings)
    )
    site.start()
    print(f"croupier: the tournament pages are on {settings.public_web_url}/", file=sys.stderr)
    try:
        yield site
    finally:
        site.stop()


@asynccontextmanager
async def site_in_loop(settings: Settings, store: Store) -> AsyncIterator[Site | None]:
    """The pages on the running loop over ``store`` (the console's), when WEB_PORT is set."""
    if settings.web_port is None:
        yield None
        return
    language = settings.croupier_language or "de"
    site = await start_site(Pages(store), settings.web_host, settings.web_port, default_language=language)
    try:
        yield site
    finally:
        await site.close()
