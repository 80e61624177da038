"""The site over plain HTTP (aiohttp's test client), on both stores: visibility, escaping, methods,
headers, the live endpoint, what is never shown, and the 503 page of a database outage."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from html.parser import HTMLParser
from types import SimpleNamespace
from typing import cast

import discord
import pytest
from aiohttp.test_utils import TestClient, TestServer
from markupsafe import escape

from bot.discord.context import from_message
from bot.exports import to_json
from bot.service.croupier import Croupier
from bot.service.pages import without_ids
from bot.service.requests import (
    ChangeSettings,
    Incoming,
    Line,
    Moderate,
    Move,
    NewTournament,
    OpenGame,
    TableOf,
    WebGame,
)
from bot.store import StoreUnavailable
from bot.texts import render
from bot.web import make_app
from bot.web.app import CONTENT_SECURITY_POLICY, STATIC_CACHE
from engine.game import Close, Join, Start
from tests.dice import scripted
from tests.web.rooms import Room, durchgang

HOSTILE = '<script>alert("x")</script>\'"><img src=x onerror=alert(1)>'


def path_of(address: str) -> str:
    return "/t/" + address.split("/t/", 1)[1]


class Rows(HTMLParser):
    """The standings rows' data-player / data-total, and anything that would run inline."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[tuple[str, int]] = []
        self.inline_scripts = 0
        self.style_attributes = 0
        self._in_standings = False
        self._script_without_src = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "table" and values.get("id") == "standings":
            self._in_standings = True
        if self._in_standings and tag == "tr" and "data-total" in values:
            self.rows.append((values["data-player"] or "", int(values["data-total"] or 0)))
        if tag == "script" and "src" not in values:
            self._script_without_src = True
        if "style" in values or tag == "style":
            self.style_attributes += 1
        if any(name.startswith("on") for name in values):
            self.style_attributes += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self._in_standings = False

    def handle_data(self, data: str) -> None:
        if self._script_without_src and data.strip():
            self.inline_scripts += 1

    def close(self) -> None:
        super().close()


def parsed(html: str) -> Rows:
    rows = Rows()
    rows.feed(html)
    rows.close()
    return rows


async def test_a_channel_is_on_the_web_only_while_a_moderator_says_so(room: Room, client: TestClient) -> None:
    await room.say(*durchgang(["anna", "ben"]))
    start = await client.get("/")
    assert start.status == 200
    assert "/t/" not in await start.text()
    assert (await client.get("/t/nothing-here")).status == 404

    refused = await room.say("anna: /settings web=on")
    assert not refused[0].ok  # players cannot publish the channel
    address = await room.web_on()
    assert address.startswith("http://x/t/")
    token = address.rsplit("/", 1)[1]
    assert len(token) >= 24  # unguessable: 18 random bytes
    page = await client.get(path_of(address))
    assert page.status == 200
    assert "/t/" not in await (await client.get("/")).text()  # unlisted: whoever has the address
    (listed,) = await room.say("mod: /settings listed=on")
    assert listed.text == render("web.listed_on", {}, "de")
    assert path_of(address) in await (await client.get("/")).text()  # listed on the start page
    assert await room.web_on() == address  # web=on again keeps the address

    (off,) = await room.say("mod: /settings web=off")
    assert off.ok
    assert off.text == render("web.switched_off", {}, "de")
    assert (await client.get(path_of(address))).status == 404
    assert (await client.get(path_of(address) + "/game/1")).status == 404
    assert (await client.get(path_of(address) + "/game/1/live.json")).status == 404
    assert "/t/" not in await (await client.get("/")).text()
    again = await room.web_on()
    assert again != address  # a new address: the old one stays dead
    assert (await client.get(path_of(address))).status == 404
    assert (await client.get(path_of(again))).status == 200


async def test_web_takes_on_and_off_in_three_languages_and_refuses_anything_else(room: Room) -> None:
    (answer,) = await room.say("mod: /settings web=vielleicht")
    assert not answer.ok
    assert answer.text == render("error.web_switch", {"value": "vielleicht"}, "de")
    for word in ("ja", "oui", "on"):
        (answer,) = await room.say(f"mod: /settings web={word}")
        assert answer.ok
        assert "/t/" in answer.text
    (answer,) = await room.say("mod: /settings web=non language=fr")
    assert answer.ok
    assert answer.text.splitlines()[-1] == render("web.switched_off", {}, "fr")


async def test_the_start_page_lists_only_the_channels_moderators_listed(
    room: Room, client: TestClient
) -> None:
    """On the web is not on the start page: an address there would make the token, masked in every
    log and kept from other sites by no-referrer, public. Listing is the moderators' choice, in the
    three languages' words, and may come before or after ``web=on``."""
    await room.say(*durchgang(["anna", "ben"]))
    (before,) = await room.say("mod: /settings listed=on")  # not on the web yet: listed once it is
    assert before.text == render("web.listed_on_later", {}, "de")
    (unlisted,) = await room.say("mod: /settings gelistet=nein")
    assert unlisted.text == render("web.listed_off", {}, "de")
    (on,) = await room.say("mod: /settings web=on")
    assert on.text.splitlines()[1] == render("web.unlisted_note", {}, "de")
    address = next(word for word in on.text.split() if "/t/" in word)
    assert (await client.get(path_of(address))).status == 200  # reachable by its address …
    index = await (await client.get("/")).text()
    assert "/t/" not in index  # … and found by nobody else
    assert render("web.index_empty", {}, "de") in index
    for listing, listed in (("liste=oui", True), ("listed=off", False), ("gelistet=ja", True)):
        (answer,) = await room.say(f"mod: /settings {listing}")
        assert answer.ok, answer.text
        assert answer.text == render("web.listed_on" if listed else "web.listed_off", {}, "de")
        assert (path_of(address) in await (await client.get("/")).text()) is listed, listing
    (refused,) = await room.say("mod: /settings listed=vielleicht")
    assert refused.text == render("error.listed_switch", {"value": "vielleicht"}, "de")
    (player,) = await room.say("anna: /settings listed=off")
    assert not player.ok  # only moderators choose
    assert path_of(address) in await (await client.get("/")).text()
    (off,) = await room.say("mod: /settings web=off")
    assert off.ok
    assert "/t/" not in await (await client.get("/")).text()  # off the web: listed or not, gone


async def test_the_start_page_lists_nothing_where_the_operator_turned_the_index_off(room: Room) -> None:
    """WEB_INDEX=off: the start page names no tournament and does not ask the database; every page
    stays reachable by its address."""
    await room.say(*durchgang(["anna", "ben"]))
    address = await room.web_on(listed=True)
    asked: list[str] = []
    croupier = Croupier(store=room.store)
    pages = croupier.pages
    listing = pages.index

    async def counted() -> tuple[object, ...]:
        asked.append("index")
        return await listing()

    pages.index = counted  # type: ignore[method-assign]
    test_client = TestClient(TestServer(make_app(croupier, listing=False)))
    await test_client.start_server()
    try:
        index = await (await test_client.get("/")).text()
        assert "/t/" not in index
        assert render("web.index_off", {}, "de") in index
        assert asked == []
        assert (await test_client.get(path_of(address))).status == 200
        assert (await test_client.get(path_of(address) + "/game/1")).status == 200
    finally:
        await test_client.close()


async def test_the_standings_are_the_json_export(room: Room, client: TestClient) -> None:
    await room.say(*durchgang(["anna", "ben", "cleo"], throws=3))
    await room.say(*durchgang(["anna", "ben", "cleo", "dora"], throws=1))
    address = await room.web_on()
    html = await (await client.get(path_of(address))).text()
    table = await room.console.croupier.handle(TableOf("console"))
    assert table is not None
    exported = json.loads(to_json(table))
    assert parsed(html).rows == [(row["name"], row["total"]) for row in exported["rows"]]
    assert len(exported["rows"]) == 4


async def test_hostile_names_are_escaped_everywhere(room: Room, client: TestClient) -> None:
    await room.say(f"mod: /tournament {HOSTILE}")
    await room.say(*durchgang([HOSTILE, "ben"]))
    await room.say("mod: /open verflixte6", f"{HOSTILE}: /join", f"{HOSTILE}: weiter {HOSTILE}")
    address = await room.web_on(listed=True)
    pages = [path_of(address), path_of(address) + "/game/1", path_of(address) + "/game/2", "/"]
    for page in pages:
        response = await client.get(page)
        assert response.status == 200, page
        html = await response.text()
        assert "<script>alert" not in html
        assert "<img src=x" not in html
        assert "&lt;script&gt;alert(" in html, page
        checked = parsed(html)
        assert checked.inline_scripts == 0
        assert checked.style_attributes == 0
    live = await client.get(path_of(address) + "/game/2/live.json")
    assert live.content_type == "application/json"  # data: the page puts it in with textContent
    assert (await live.json())["table"][0]["name"] == HOSTILE


def shown_line(key: str, facts: dict[str, str], lang: str = "de") -> str:
    """A catalogue line that quotes one value as Discord's inline code, as the game page draws it."""
    before, code, after = render(key, facts, lang).split("`")
    return f'<p class="line">{escape(before)}<code>{escape(code)}</code>{escape(after)}</p>'


async def test_the_commitment_and_the_seed_are_shown_as_code_without_backticks(
    room: Room, client: TestClient
) -> None:
    await room.say(*durchgang(["anna", "ben"], throws=1))
    address = await room.web_on()
    with room.store.transaction(read_only=True) as uow:
        record = uow.games.get(1)
    assert record is not None
    html = await (await client.get(path_of(address) + "/game/1")).text()
    assert shown_line("common.commitment", {"commitment": record.commitment}) in html
    assert shown_line("common.seed_revealed", {"seed": record.seed.hex()}) in html
    for line in re.findall(r'<p class="line">(.*?)</p>', html):
        assert "`" not in line
    live = await (await client.get(path_of(address) + "/game/1/live.json")).json()
    parts = [part for move in live["moves"] for line in move["lines"] for part in line[1::2]]
    assert parts == [record.commitment, record.seed.hex()]  # the code, each in its own part


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"])
async def test_anything_but_get_and_head_is_405(room: Room, client: TestClient, method: str) -> None:
    address = await room.web_on()
    for page in ("/", path_of(address), path_of(address) + "/game/1", "/static/site.css", "/no/such/page"):
        response = await client.request(method, page)
        assert response.status == 405, (method, page)
        assert response.headers["Allow"] == "GET, HEAD"
        assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    head = await client.head(path_of(address))
    assert head.status == 200


async def test_headers_caching_and_assets(room: Room, client: TestClient) -> None:
    await room.say(*durchgang(["anna", "ben"]))
    address = await room.web_on()
    page = await client.get(path_of(address) + "/game/1")
    assert page.status == 200
    headers = page.headers
    assert headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    assert "script-src 'self'" in CONTENT_SECURITY_POLICY
    assert "unsafe-inline" not in CONTENT_SECURITY_POLICY
    assert "unsafe-eval" not in CONTENT_SECURITY_POLICY
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"
    assert headers["Cache-Control"] == "private, no-cache"
    unchanged = await client.get(path_of(address) + "/game/1", headers={"If-None-Match": headers["ETag"]})
    assert unchanged.status == 304
    assert "aiohttp" not in headers.get("Server", "")
    html = await page.text()
    assets = re.findall(r'(?:src|href)="(/static/[^"]+)"', html)
    assert {a.split("?")[0] for a in assets} == {
        "/static/site.css",
        "/static/dice.js",
        "/static/game.js",
        "/static/favicon.svg",
    }
    assert not re.search(r'(?:src|href)="(?:https?:)?//', html)  # nothing from elsewhere: works offline
    for asset in assets:
        response = await client.get(asset)
        assert response.status == 200
        assert response.headers["Cache-Control"] == STATIC_CACHE
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        again = await client.get(asset, headers={"If-None-Match": response.headers["ETag"]})
        assert again.status == 304
    live = await client.get(path_of(address) + "/game/1/live.json")
    assert live.headers["Cache-Control"] == "no-store"
    assert (await client.get("/static/../bot/settings.py")).status == 404
    assert (await client.get("/static/nothing.js")).status == 404


async def test_a_database_outage_is_a_503_page(
    room: Room, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    address = await room.web_on()

    async def down(*args: object, **kwargs: object) -> None:
        raise StoreUnavailable("sqlite:///gone", "disk i/o error", "check the disk")

    monkeypatch.setattr(room.store, "run", down)
    for page in ("/", path_of(address), path_of(address) + "/game/1"):
        response = await client.get(page, headers={"Accept-Language": "fr-CH, fr;q=0.9, en;q=0.8"})
        assert response.status == 503
        assert response.headers["Retry-After"] == "30"
        assert response.headers["Cache-Control"] == "no-store"
        html = await response.text()
        assert render("web.error_unavailable", {}, "fr") in html
        assert "gone" not in html
        assert "Traceback" not in html
    live = await client.get(path_of(address) + "/game/1/live.json")
    assert live.status == 503
    assert await live.json() == {"error": "store_unavailable"}


async def test_bad_paths_and_parameters_are_404_and_400_never_500(
    room: Room, client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    """Unicode digits, ids beyond PostgreSQL's ``integer`` (games.id is 32-bit), tokens that no
    address could hold: no page, and nothing the database is asked about them."""
    await room.say("mod: /open verflixte6", "anna: /join", "mod: /start")
    base = path_of(await room.web_on())
    missing = [
        f"{base}/game/2147483648",
        f"{base}/game/2147483648/live.json",
        f"{base}/game/9999999999",
        f"{base}/tournament/2147483648",
        f"{base}/game/\u0661",  # ARABIC-INDIC DIGIT ONE: int() reads it, the route does not
        f"{base}/game/\u00b9",  # SUPERSCRIPT ONE
        f"{base}/game/{'1' * 19}",
        "/t/" + "x" * 65,
        "/t/%00",
        "/t/a%2Fb",
    ]
    for address in missing:
        response = await client.get(address)
        assert response.status == 404, address
    for after in ("\u00b2", "\u0663", "-1", "1e3", " 1", "2147483648", "9" * 30, ""):
        response = await client.get(f"{base}/game/1/live.json", params={"after": after})
        assert response.status == 400, after
        assert await response.json() == {"error": "bad_request"}
    assert (await client.get(f"{base}/game/1/live.json", params={"after": "0"})).status == 200
    assert [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")] == []


async def test_people_are_shown_by_name_only_and_an_open_game_keeps_its_seed(room: Room) -> None:
    """Discord-like participant ids never reach a page; an open game's seed neither."""
    croupier = room.console.croupier
    ids = {"Anna": "100000000000000001", "Ben": "100000000000000002"}

    def msg(name: str, text: str = "", n: list[int] = [0]) -> Incoming:  # noqa: B006
        n[0] += 1
        return Incoming(
            message_id=f"discord:{n[0]}",
            guild="guild-9",
            channel="chan-9",
            author=ids.get(name, "999000000000000009"),
            author_name=name,
            text=text,
            is_moderator=name == "Mod",
        )

    await croupier.handle(Moderate(msg("Mod"), OpenGame("verflixte6", {})))
    for name in ids:
        await croupier.handle(Move(msg(name), Join(name)))
    await croupier.handle(Move(msg("Mod"), Start()))
    await croupier.handle(Line(msg("Anna", "weiter")))
    await croupier.handle(Line(msg("Anna", "stopp")))
    await croupier.handle(Line(msg("Ben", f"raube <@{ids['Anna']}> <@&5551234567> <#5557654321>")))
    reply = await croupier.handle(Moderate(msg("Mod"), ChangeSettings({"web": "on", "listed": "on"})))
    token = next(line for line in reply.lines if "/t/" in line).rsplit("/", 1)[1]
    test_client = TestClient(TestServer(make_app(croupier)))
    await test_client.start_server()
    try:
        game = await croupier.handle(WebGame(token, 1))
        assert game is not None
        assert game.seed is None
        with room.store.transaction(read_only=True) as uow:
            record = uow.games.get(1)
        assert record is not None
        texts = []
        for page in (f"/t/{token}", f"/t/{token}/game/1", f"/t/{token}/game/1/live.json", "/"):
            response = await test_client.get(page)
            assert response.status == 200
            texts.append(await response.text())
        everything = "\n".join(texts)
        for ident in (*ids.values(), "999000000000000009", "5551234567", "5557654321", "guild-9", "chan-9"):
            assert ident not in everything
        assert record.seed.hex() not in everything
        await croupier.handle(Move(msg("Mod"), Close()))
        closed = await (await test_client.get(f"/t/{token}/game/1")).text()
        assert record.seed.hex() in closed
    finally:
        await test_client.close()


def test_mentions_become_names() -> None:
    names = {"42": "Anna", "100000000000000001": "Ben"}
    assert without_ids("raube <@42> und <@!42>", names) == "raube @Anna und @Anna"
    assert without_ids("<@7> <@&8> <#9>", names) == "@… @… #…"
    # What the Discord front end stores for <@id>: the bare @id, a snowflake of 15 to 20 digits.
    assert without_ids("raube @100000000000000001", names) == "raube @Ben"
    assert without_ids("raube @100000000000000009, dann @12345678901234567890", names) == "raube @…, dann @…"
    assert without_ids("@100000000000000001.", names) == "@Ben."
    kept = ("@1234", "anna@100000000000000001", "@123456789012345678901", "@@100000000000000001")
    for text in kept:  # too short or too long for an id, or not a mention of its own
        assert without_ids(text, names) == text


class _Author:
    def __init__(self, ident: str, name: str) -> None:
        self.id = int(ident)
        self.display_name = name


async def test_a_mention_typed_on_discord_shows_the_name_not_the_id(room: Room) -> None:
    """A message through the Discord front end's own translation (``from_message``): the engine gets
    ``raube @<id>``, the log keeps it so, and the pages show ``raube @Anna``."""
    croupier = Croupier(store=room.store, dice_factory=scripted([3, 2, 6, 1, 4]))  # ben robs anna
    ids = {"Anna": "100000000000000001", "Ben": "100000000000000002"}
    stranger = "100000000000000077"
    numbers = iter(range(1, 100))

    def message(name: str, content: str) -> Incoming:
        fake = SimpleNamespace(
            id=700000000000000000 + next(numbers),
            guild=SimpleNamespace(id=9),
            channel=SimpleNamespace(id=99),
            author=_Author(ids.get(name, "100000000000000099"), name),
            content=content,
        )
        incoming = from_message(cast(discord.Message, fake))
        return replace(incoming, is_moderator=name == "Mod")

    await croupier.handle(Moderate(message("Mod", "/tournament"), NewTournament(f"Cup @{stranger}")))
    await croupier.handle(Moderate(message("Mod", "/open"), OpenGame("verflixte6", {})))
    for name in ids:
        await croupier.handle(Move(message(name, "/join"), Join(name)))
    await croupier.handle(Move(message("Mod", "/start"), Start()))
    for name, text in (("Anna", "weiter"), ("Anna", "weiter"), ("Anna", "stopp"), ("Ben", "weiter")):
        assert (await croupier.handle(Line(message(name, text)))).ok
    assert (await croupier.handle(Line(message("Ben", "weiter")))).ok  # a 1: ben may rob
    typed = message("Ben", f"raube <@{ids['Anna']}>")
    assert typed.text == f"raube @{ids['Anna']}"  # what the engine reads and the log keeps
    robbed = await croupier.handle(Line(typed))
    assert robbed.ok
    reply = await croupier.handle(
        Moderate(message("Mod", "/settings web=on"), ChangeSettings({"web": "on", "listed": "on"}))
    )
    token = next(line for line in reply.lines if "/t/" in line).rsplit("/", 1)[1]
    test_client = TestClient(TestServer(make_app(croupier)))
    await test_client.start_server()
    try:
        shown = []
        for page in (f"/t/{token}/game/1", f"/t/{token}/game/1/live.json", f"/t/{token}", "/"):
            response = await test_client.get(page)
            assert response.status == 200
            shown.append(await response.text())
        said = re.findall(r"<q>([^<]*)</q>", shown[0])
        assert said[-1] == "raube @Anna"
        live = json.loads(shown[1])
        assert live["moves"][-1]["text"] == "raube @Anna"
        for html in (shown[0], shown[2], shown[3]):  # the tournament's name, where a page shows it
            assert "Cup @…" in html
        for ident in ids.values():
            assert ident not in "\n".join(shown)
        # No page shows the id the moderator typed, not even inside the croupier's own lines (which
        # quote the tournament's name): a mention there is a bare sign, never anyone's name.
        assert stranger not in "\n".join(shown)
        lines = ["".join(parts) for move in live["moves"] for parts in move["lines"]]
        assert any("Cup @…" in line for line in lines)
    finally:
        await test_client.close()


async def test_the_live_endpoint_answers_the_moves_after_a_cursor(room: Room, client: TestClient) -> None:
    await room.say("mod: /open verflixte6", "anna: /join", "ben: /join", "mod: /start")
    address = await room.web_on()
    first = await (await client.get(path_of(address) + "/game/1/live.json")).json()
    assert first["status"] == "open"
    assert [m["text"] for m in first["moves"]] == ["/open verflixte6", "/join", "/join", "/start"]
    await room.say("anna: weiter")
    later = await (await client.get(path_of(address) + f"/game/1/live.json?after={first['cursor']}")).json()
    assert [m["text"] for m in later["moves"]] == ["weiter"]
    assert later["moves"][0]["actor"] == "anna"
    assert len(later["moves"][0]["dice"]) == 1
    assert later["table"][0]["name"] == "anna"
    assert later["table"][0]["to_act"] is True
    assert later["cursor"] > first["cursor"]
    nothing = await (await client.get(path_of(address) + f"/game/1/live.json?after={later['cursor']}")).json()
    assert nothing["moves"] == []
    assert nothing["cursor"] == later["cursor"]
    assert (await client.get(path_of(address) + "/game/1/live.json?after=abc")).status == 400
    assert (await client.get(path_of(address) + "/game/999/live.json")).status == 404


async def test_the_pages_speak_the_channels_language(room: Room, client: TestClient) -> None:
    await room.say(*durchgang(["anna", "ben"]))
    address = await room.web_on()
    german = await (await client.get(path_of(address))).text()
    assert '<html lang="de">' in german
    assert render("web.standings", {}, "de") in german
    await room.say("mod: /settings language=fr")
    for page in (path_of(address), path_of(address) + "/game/1"):
        french = await (await client.get(page)).text()
        assert '<html lang="fr">' in french
        assert render("web.moves" if "game" in page else "web.fairness", {}, "fr") in french
    index = await (await client.get("/", headers={"Accept-Language": "en-GB,en;q=0.9"})).text()
    assert render("web.index_title", {}, "en") in index
