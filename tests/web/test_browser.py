"""The pages in a real browser: Debian's Chromium (/usr/bin/chromium, installed by
scripts/ensure-tools.sh — never a downloaded browser), driven by Playwright's sync API.

The croupier (console front end, verifiable dice) and the site run on a background event loop over
``db_url`` (both stores); the browser loads the site like anyone would. Without Chromium these tests
are skipped — or fail when the environment variable CI is set.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update

from bot.store import create_engine
from bot.store.repositories import log_t
from tests.web.rooms import Background, Room, durchgang

CHROMIUM = Path("/usr/bin/chromium")
# "croupier.test" is this machine reached by a name: plain HTTP there is not a secure context, so the
# page has no crypto.subtle and must verify with its own SHA-256, as it would behind a plain-HTTP host.
INSECURE_HOST = "croupier.test"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    f"--host-resolver-rules=MAP {INSECURE_HOST} 127.0.0.1",
]
PHONE = {"width": 390, "height": 844}
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A Chromium with a fresh profile, for this module."""
    if not CHROMIUM.is_file():
        message = f"{CHROMIUM} is missing: `make test` installs it (scripts/ensure-tools.sh)"
        if os.environ.get("CI"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")),
            executable_path=str(CHROMIUM),
            args=CHROMIUM_ARGS,
            headless=True,
            viewport={"width": 1024, "height": 800},
        )
        try:
            yield context
        finally:
            context.close()


@pytest.fixture
def page(browser: Any, room: Room) -> Iterator[Any]:
    """A tab, closed before the room's site stops (so nothing it still loads meets a closed port)."""
    opened = browser.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    try:
        yield opened
    finally:
        opened.close()
    assert errors == []  # no script error, no refused resource (CSP), no missing asset


@pytest.fixture(scope="module")
def background() -> Iterator[Background]:
    loop = Background()
    try:
        yield loop
    finally:
        loop.close()


@pytest.fixture
def room(background: Background, db_url: str) -> Iterator[Room]:
    opened = background.call(Room.open(db_url))
    try:
        yield opened
    finally:
        background.call(opened.close())


def verified(page: Any, timeout_ms: int = 20_000) -> tuple[str, str]:
    """Wait for the verification to finish; answers (state, engine)."""
    page.wait_for_function(
        "() => document.getElementById('verify-result').dataset.state !== 'pending'", timeout=timeout_ms
    )
    result = page.locator("#verify-result")
    return result.get_attribute("data-state"), result.get_attribute("data-engine")


def fits(page: Any, selector: str) -> bool:
    """The element and the page do not overflow horizontally."""
    return bool(
        page.evaluate(
            """(selector) => {
                const root = document.documentElement;
                const element = document.querySelector(selector);
                return root.scrollWidth <= root.clientWidth
                    && element.scrollWidth <= element.clientWidth
                    && element.getBoundingClientRect().right <= root.clientWidth;
            }""",
            selector,
        )
    )


def test_the_standings_equal_the_json_export_and_fit_a_phone(
    page: Any, room: Room, background: Background, db_url: str, tmp_path: Path
) -> None:
    names = ["anna", "ben", "Cleopatra-von-Hohenzollern-Sigmaringen", "dora", "emil"]
    for round_players in (names, names[:3], names[1:], names):
        background.call(room.say(*durchgang(round_players, throws=2)))
    address = background.call(room.web_on())
    exported = subprocess.run(
        [sys.executable, "-m", "bot.cli", "export", "--format", "json", "--db", db_url],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    export = json.loads(exported.stdout)

    page.goto(address)
    shown = page.eval_on_selector_all(
        "#standings tbody tr", "rows => rows.map(r => [r.dataset.player, Number(r.dataset.total)])"
    )
    assert shown == [[row["name"], row["total"]] for row in export["rows"]]
    assert len(shown) == len(names)
    assert page.locator("#chart .series").count() == len(names)

    page.set_viewport_size(PHONE)
    page.goto(address)
    shot = tmp_path / "tournament-390x844.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    for selector in ("#standings", "#luck", "#chart", "#games"):
        assert fits(page, selector), selector
    page.goto(address + "/game/1")
    verified(page)
    page.screenshot(path=str(tmp_path / "game-390x844.png"), full_page=True)
    for selector in ("#game-table", "#moves", "#verify"):
        assert fits(page, selector), selector


def test_a_real_game_verifies_and_an_altered_die_does_not(
    page: Any, room: Room, background: Background, db_url: str
) -> None:
    background.call(room.say(*durchgang(["anna", "ben", "cleo"], throws=3)))
    address = background.call(room.web_on())
    game = address + "/game/1"

    page.goto(game)
    assert verified(page) == ("ok", "webcrypto")  # 127.0.0.1 is a secure context
    marks = page.eval_on_selector_all(
        "#moves .move[data-dice]:not([data-dice=''])", "rows => rows.map(r => r.dataset.verified)"
    )
    assert marks
    assert set(marks) == {"ok"}
    dice_used = int(page.locator("#verify").get_attribute("data-dice-used"))
    assert str(dice_used) in page.locator("#verify-result").inner_text()

    page.goto(game + "?verify=fallback")  # the page's own SHA-256/HMAC, forced
    assert verified(page) == ("ok", "fallback")
    insecure = address.replace("127.0.0.1", INSECURE_HOST)
    page.goto(insecure + "/game/1")  # plain HTTP on another host: no crypto.subtle at all
    assert page.evaluate("window.isSecureContext") is False
    assert verified(page) == ("ok", "fallback")

    with room.store.transaction(read_only=True) as uow:
        entry = [e for e in uow.log.of_game(1) if e.dice][1]
    altered = [*entry.dice]
    altered[0] = altered[0] % 6 + 1
    engine = create_engine(db_url)
    try:
        with engine.begin() as connection:
            connection.execute(update(log_t).where(log_t.c.id == entry.id).values(dice=altered))
    finally:
        engine.dispose()

    page.goto(game)
    assert verified(page) == ("mismatch", "webcrypto")
    row = page.locator(f"#moves .move[data-cursor='{entry.id}']")
    assert row.get_attribute("data-verified") == "mismatch"
    assert row.get_attribute("data-dice") == ",".join(map(str, altered))
    assert row.locator(".mark").inner_text() == "✗"
    others = page.eval_on_selector_all(
        f"#moves .move[data-dice]:not([data-dice='']):not([data-cursor='{entry.id}'])",
        "rows => rows.map(r => r.dataset.verified)",
    )
    assert set(others) == {"ok"}
    page.goto(insecure + "/game/1")
    assert verified(page) == ("mismatch", "fallback")


def test_the_pages_own_sha256_and_hmac_are_the_standard_ones(
    page: Any, room: Room, background: Background
) -> None:
    background.call(room.say(*durchgang(["anna", "ben"])))
    page.goto(background.call(room.web_on()) + "/game/1")
    messages = ["", "abc", "17:0", "x" * 55, "y" * 56, "z" * 64, "w" * 119, "ü€😀" * 40]
    keys = [b"", b"k", bytes(range(32)), bytes(range(64)), bytes(range(100))]
    computed = page.evaluate(
        """([messages, keys]) => {
            const D = window.CroupierDice;
            return {
                sha: messages.map(m => D.toHex(D.sha256(D.utf8(m)))),
                mac: keys.map(k => messages.map(m => D.toHex(D.hmacSha256(D.fromHex(k), D.utf8(m))))),
            };
        }""",
        [messages, [key.hex() for key in keys]],
    )
    assert computed["sha"] == [hashlib.sha256(m.encode()).hexdigest() for m in messages]
    assert computed["mac"] == [
        [hmac.new(key, m.encode(), hashlib.sha256).hexdigest() for m in messages] for key in keys
    ]


def test_a_console_move_shows_up_on_the_open_game_without_a_reload(
    page: Any, room: Room, background: Background
) -> None:
    background.call(room.say("mod: /open verflixte6", "anna: /join", "ben: /join", "mod: /start"))
    address = background.call(room.web_on())
    page.goto(address + "/game/1")
    assert page.locator("#verify").count() == 0  # open: no seed, nothing to check yet
    page.evaluate("window.__sameDocument = true")
    before = page.locator("#moves .move").count()

    (answer,) = background.call(room.say("anna: weiter"))
    assert answer.ok
    moved = time.monotonic()
    page.wait_for_function(
        "(before) => document.querySelectorAll('#moves .move').length > before", arg=before, timeout=5_000
    )
    waited = time.monotonic() - moved
    assert waited < 5
    assert page.evaluate("window.__sameDocument") is True  # no reload
    last = page.locator("#moves .move").last
    assert last.locator("q").inner_text() == "weiter"
    assert last.get_attribute("data-dice") != ""
    points = answer.text.splitlines()[-2].rsplit(":", 1)[1].strip()  # "▶ anna (…): N"
    page.wait_for_function(
        "(points) => document.querySelector('#game-table tr[data-player=anna]').dataset.points === points",
        arg=points,
        timeout=5_000,
    )

    background.call(room.say("anna: stopp", "ben: weiter", "mod: /close"))
    page.wait_for_selector("#verify-result", timeout=10_000)  # closed: the page reloads itself
    assert verified(page)[0] == "ok"
