"""The web front end: aiohttp routes that draw the pages the croupier service answers (its read model,
:mod:`bot.service.pages`) with Jinja2 templates.

Read-only by construction: only GET and HEAD are answered (anything else is 405), and every handler
asks the service through :meth:`~bot.service.croupier.Croupier.handle` (``WebTournament``, ``WebGame``,
…), which runs one read-only unit of work; this module never touches the store. Every text goes
through Jinja's autoescaping; the Content-Security-Policy allows scripts and styles from this server
only (no inline ones), and every asset is served from here, so the pages work offline. A database
outage answers a 503 page, any other failure a 500 page — both ``no-store`` and without details; the
log names the route, never the address (it holds the secret token).

Routes::

    GET /                                       the tournaments listed on it (none with WEB_INDEX=off)
    GET /t/{token}                              a channel's newest tournament
    GET /t/{token}/tournament/{id}              one of its tournaments
    GET /t/{token}/game/{id}                    a game: opening, moves with dice, table, verification
    GET /t/{token}/game/{id}/live.json?after=N  an open game's table and the moves after cursor N
    GET /static/{file}                          CSS and JavaScript (cacheable)
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from importlib import resources
from typing import Any

from aiohttp import web
from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from bot import texts
from bot.exports import StandingsRow
from bot.service.croupier import Croupier
from bot.service.requests import FACES, StoreAddress, Voided, WebGame, WebIndex, WebLive, WebTournament
from bot.web.chart import chart_of
from bot.web.guard import answering
from bot.web.outage import described, outage
from bot.web.words import number, verdict_words
from engine.numbers import ID_MAX, whole_number

log = logging.getLogger(__name__)

CROUPIER_KEY = web.AppKey("croupier", Croupier)
STATIC_KEY = web.AppKey("static", dict)
JINJA_KEY = web.AppKey("jinja", Environment)
DEFAULT_LANGUAGE_KEY = web.AppKey("default_language", str)
INDEX_KEY = web.AppKey("index", bool)

READ_METHODS = frozenset({"GET", "HEAD"})
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    )
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    # The address itself is the secret of a channel's pages: never hand it on to another site.
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), interest-cohort=()",
}
# Pages change with every move: browsers keep them but ask again each time (an ETag makes that a 304).
PAGE_CACHE = "private, no-cache"
LIVE_CACHE = "no-store"
STATIC_CACHE = "public, max-age=604800"  # a week; the address carries the file's hash (?v=…)
ERROR_CACHE = "no-store"
SERVER = "croupier"  # the Server header: no software or version for anyone to look up
# What an answer the server gives before any page (a malformed request's 400) carries, as pages do.
ERROR_HEADERS = {**SECURITY_HEADERS, "Cache-Control": ERROR_CACHE, "Server": SERVER}
STATIC_TYPES = {".css": "text/css", ".js": "text/javascript", ".svg": "image/svg+xml"}
RETRY_AFTER_S = 30

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


# --- the application -------------------------------------------------------------------------------


def make_app(
    croupier: Croupier, *, default_language: str = texts.DEFAULT, listing: bool = True
) -> web.Application:
    """The site the service ``croupier`` answers; ``default_language`` words the start and error pages
    when the browser names none of de, en, fr; ``listing=False`` (WEB_INDEX=off) makes the start page
    list nothing."""
    app = web.Application(middlewares=[_watched, _read_only, _errors])
    app[CROUPIER_KEY] = croupier
    app[STATIC_KEY] = _static_files()
    app[JINJA_KEY] = _environment()
    app[DEFAULT_LANGUAGE_KEY] = default_language if default_language in texts.LANGUAGES else texts.DEFAULT
    app[INDEX_KEY] = listing
    app.router.add_get("/", index)
    # A token is what secrets.token_urlsafe writes; anything else is no page, without a query.
    token = "{token:[A-Za-z0-9_-]{1,64}}"
    app.router.add_get(f"/t/{token}", tournament)
    app.router.add_get(f"/t/{token}/tournament/{{tournament_id:[0-9]{{1,10}}}}", tournament)
    app.router.add_get(f"/t/{token}/game/{{game_id:[0-9]{{1,10}}}}", game)
    app.router.add_get(f"/t/{token}/game/{{game_id:[0-9]{{1,10}}}}/live.json", live)
    app.router.add_get("/static/{name}", static)
    app.on_response_prepare.append(_security_headers)
    return app


def _environment() -> Environment:
    env = Environment(
        loader=PackageLoader("bot.web", "templates"),
        autoescape=select_autoescape(["html"], default_for_string=True, default=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals["FACES"] = FACES
    return env


def _static_files() -> dict[str, tuple[bytes, str, str]]:
    """Every asset by name: its bytes, content type and a short hash for cache-busting addresses."""
    found: dict[str, tuple[bytes, str, str]] = {}
    for entry in (resources.files("bot.web") / "static").iterdir():
        suffix = "." + entry.name.rsplit(".", 1)[-1]
        if entry.is_file() and suffix in STATIC_TYPES:
            body = entry.read_bytes()
            found[entry.name] = (body, STATIC_TYPES[suffix], hashlib.sha256(body).hexdigest()[:12])
    return found


# --- middlewares -----------------------------------------------------------------------------------


@web.middleware
async def _watched(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Marks the connection as being answered (and as one that sent a request): the guard of the
    listening socket never closes such a one to make room (:mod:`bot.web.guard`)."""
    with answering(request.protocol):
        return await handler(request)


@web.middleware
async def _read_only(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Only GET and HEAD, whatever the address: the site changes nothing."""
    if request.method not in READ_METHODS:
        return _error_page(request, 405, "method", headers={"Allow": "GET, HEAD"})
    return await handler(request)


@web.middleware
async def _errors(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Unknown pages a 404 page; a database outage a 503 page; anything else a 500 page. None of them
    says more than that, and the log names the route's pattern, not the address."""
    try:
        return await handler(request)
    except web.HTTPNotFound:
        if request.path.endswith(".json"):
            return _json_error(404, "not_found")
        return _error_page(request, 404, "not_found")
    except web.HTTPMethodNotAllowed:
        return _error_page(request, 405, "method", headers={"Allow": "GET, HEAD"})
    except web.HTTPException:
        raise
    except Exception as error:
        down = outage(error, await request.app[CROUPIER_KEY].handle(StoreAddress()))
        if down is None:
            log.error("web page %s failed: %s", route_of(request), described(error))
            if request.path.endswith(".json"):
                return _json_error(500, "internal")
            return _error_page(request, 500, "internal")
        log.warning("web page %s: the database is unavailable: %s", route_of(request), down)
        headers = {"Retry-After": str(RETRY_AFTER_S)}
        if request.path.endswith(".json"):
            return _json_error(503, "store_unavailable", headers)
        return _error_page(request, 503, "unavailable", headers=headers)


def route_of(request: web.Request) -> str:
    """The route's pattern (``/t/{token}/game/{game_id}``): what a log may say of a request."""
    resource = request.match_info.route.resource
    return resource.canonical if resource is not None else "(no route)"


async def _security_headers(request: web.Request, response: web.StreamResponse) -> None:
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    response.headers.setdefault("Cache-Control", PAGE_CACHE)
    response.headers["Server"] = SERVER


# --- handlers --------------------------------------------------------------------------------------


async def index(request: web.Request) -> web.Response:
    """The tournaments moderators listed; none, without asking the database, where the operator turned
    the list off (the pages themselves stay reachable by their addresses)."""
    listing = request.app[INDEX_KEY]
    links = await request.app[CROUPIER_KEY].handle(WebIndex()) if listing else ()
    lang = browser_language(request)
    return _page(request, "index.html", lang, links=links, listing=listing)


def _id_in_path(request: web.Request, name: str) -> int:
    """An id from the address: one the database could hold (ten digits may exceed PostgreSQL's
    ``integer``), else the page does not exist."""
    found = whole_number(request.match_info[name], ID_MAX)
    if found is None:
        raise web.HTTPNotFound()
    return found


async def tournament(request: web.Request) -> web.Response:
    token = request.match_info["token"]
    wanted = _id_in_path(request, "tournament_id") if "tournament_id" in request.match_info else None
    page = await request.app[CROUPIER_KEY].handle(WebTournament(token, wanted))
    if page is None:
        raise web.HTTPNotFound()
    return _page(
        request,
        "tournament.html",
        page.language,
        page=page,
        chart=chart_of(page.standings),
        standings=page.standings,
        fairness=page.fairness,
        verdict=lambda p, enough: verdict_words(p, enough, page.language),
        cells=_cells,
    )


async def game(request: web.Request) -> web.Response:
    token = request.match_info["token"]
    page = await request.app[CROUPIER_KEY].handle(WebGame(token, _id_in_path(request, "game_id")))
    if page is None:
        raise web.HTTPNotFound()
    return _page(request, "game.html", page.language, page=page)


async def live(request: web.Request) -> web.Response:
    token = request.match_info["token"]
    game_id = _id_in_path(request, "game_id")
    cursor = whole_number(request.query.get("after", "0"), ID_MAX)  # a log entry's id
    if cursor is None:
        return _json_error(400, "bad_request")
    update = await request.app[CROUPIER_KEY].handle(WebLive(token, game_id, cursor))
    if update is None:
        raise web.HTTPNotFound()
    return web.json_response(update.to_json(), headers={"Cache-Control": LIVE_CACHE})


async def static(request: web.Request) -> web.Response:
    found = request.app[STATIC_KEY].get(request.match_info["name"])
    if found is None:
        raise web.HTTPNotFound()
    body, content_type, digest = found
    etag = f'"{digest}"'
    headers = {"Cache-Control": STATIC_CACHE, "ETag": etag}
    if request.headers.get("If-None-Match") == etag:
        return web.Response(status=304, headers=headers)
    return web.Response(body=body, content_type=content_type, charset="utf-8", headers=headers)


# --- drawing ---------------------------------------------------------------------------------------


def browser_language(request: web.Request) -> str:
    """The first registered language the browser asks for (Accept-Language), else the site's default."""
    for part in request.headers.get("Accept-Language", "").split(","):
        code = part.split(";")[0].strip().replace("_", "-").split("-")[0].lower()
        if code in texts.LANGUAGES:
            return code
    return request.app[DEFAULT_LANGUAGE_KEY]


def _page(request: web.Request, template: str, lang: str, **values: Any) -> web.Response:
    html = _render(request, template, lang, values)
    etag = '"' + hashlib.sha256(html.encode()).hexdigest()[:20] + '"'
    if request.headers.get("If-None-Match") == etag:
        return web.Response(status=304, headers={"ETag": etag})
    return web.Response(text=html, content_type="text/html", charset="utf-8", headers={"ETag": etag})


def _render(request: web.Request, template: str, lang: str, values: Mapping[str, Any]) -> str:
    files = request.app[STATIC_KEY]

    def static_url(name: str) -> str:
        return f"/static/{name}?v={files[name][2]}"

    def t(key: str, **facts: Any) -> str:
        return texts.render(f"web.{key}", facts, lang)

    def shown_number(value: float, digits: int = 2) -> str:
        return number(value, lang, digits)

    def voided_words(voided: Voided) -> str:
        if not voided.by:
            return t("move_voided_unknown")
        return t("move_voided", moderator=voided.by, reason=voided.reason)

    env = request.app[JINJA_KEY]
    return env.get_template(template).render(
        lang=lang,
        t=t,
        static=static_url,
        number=shown_number,
        signed=texts.signed,
        voided_words=voided_words,
        **values,
    )


def _cells(row: StandingsRow) -> tuple[str, ...]:
    return tuple("–" if value is None else str(value) for value in row.points)


def _error_page(
    request: web.Request, status: int, key: str, headers: Mapping[str, str] | None = None
) -> web.Response:
    lang = browser_language(request)
    html = _render(request, "error.html", lang, {"status": status, "key": key})
    response = web.Response(status=status, text=html, content_type="text/html", charset="utf-8")
    response.headers.update(headers or {})
    response.headers["Cache-Control"] = ERROR_CACHE
    return response


def _json_error(status: int, code: str, headers: Mapping[str, str] | None = None) -> web.Response:
    return web.json_response(
        {"error": code}, status=status, headers={"Cache-Control": ERROR_CACHE, **(headers or {})}
    )
