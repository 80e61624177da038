"""The pages in a real browser: Debian's Chromium (/usr/bin/chromium, installed by
scripts/ensure-tools.sh — never a downloaded browser), driven by Playwright's sync API.

The croupier (console front end, verifiable dice) and the site run on a background event loop over
``db_url`` (both stores); the browser loads the site like anyone would. Without Chromium these tests
are skipped — or fail when the environment variable CI is set (``.ci/run`` sets it).

The phone-sized screenshots (390×844) are kept in ``test-artifacts/web/`` at the top of the checkout
(git-ignored), one per page and store, overwritten by every run.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update

from bot.console.terminal import Console
from bot.store import create_engine
from bot.store.repositories import log_t
from bot.texts import render
from tests.web.processes import Lines, environment, own_loopback
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
ARTIFACTS = REPO / "test-artifacts" / "web"


def artifact(name: str, db_url: str) -> Path:
    """Where a screenshot is kept: ``test-artifacts/web/<name>-<store>.png``."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS / f"{name}-{db_url.split(':', 1)[0].split('+', 1)[0]}.png"


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


def scrolls_sideways(page: Any, selector: str) -> bool:
    """The box stays within the page and shows every per-Durchgang column, scrolling sideways when the
    table is wider than the screen — with the players' names still in view at its far end."""
    return bool(
        page.evaluate(
            """(selector) => {
                const root = document.documentElement;
                const box = document.querySelector(selector);
                const rounds = [...box.querySelectorAll('.round')];
                const shown = rounds.length > 0 && rounds.every(c => getComputedStyle(c).display !== 'none');
                const inPage = root.scrollWidth <= root.clientWidth
                    && box.getBoundingClientRect().right <= root.clientWidth;
                box.scrollLeft = box.scrollWidth;
                const name = box.querySelector('tbody .name').getBoundingClientRect();
                const named = name.left >= box.getBoundingClientRect().left - 1;
                box.scrollLeft = 0;
                return shown && inPage && named && getComputedStyle(box).overflowX === 'auto';
            }""",
            selector,
        )
    )


def test_the_standings_equal_the_json_export_and_fit_a_phone(
    page: Any, room: Room, background: Background, db_url: str
) -> None:
    names = ["anna", "ben", "Cleopatra-von-Hohenzollern-Sigmaringen", "dora", "emil"]
    for round_players in (names, names[:3], names[1:], names):
        background.call(room.say(*durchgang(round_players, throws=2)))
    corrections = (
        "mod: /adjust anna -3 Strafe",
        "mod: /adjust dora +2 Nachtrag",
        "mod: /disqualify emil Absprache",
    )
    for answer in background.call(room.say(*corrections)):
        assert answer.ok, answer.text
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
        "#standings tbody tr",
        "rows => rows.map(r => [r.dataset.player, Number(r.dataset.total), Number(r.dataset.adjustment)])",
    )
    assert shown == [[row["name"], row["total"], row["adjustment"]] for row in export["rows"]]
    assert len(shown) == len(names) - 1  # emil is out
    notes = page.eval_on_selector_all(
        "#adjustments li",
        "items => items.map(i => [i.dataset.player, Number(i.dataset.points), i.dataset.reason])",
    )
    assert notes == [[note["name"], note["points"], note["reason"]] for note in export["adjustments"]]
    out = page.eval_on_selector_all(
        "#disqualified li", "items => items.map(i => [i.dataset.player, i.dataset.reason])"
    )
    assert out == [[note["name"], note["reason"]] for note in export["disqualified"]]
    assert page.locator("#disqualified li s").inner_text() == "emil"  # struck through
    assert page.locator("#chart .series").count() == len(names) - 1
    ends = page.eval_on_selector_all(  # each line ends at the total, corrections included
        "#chart .series",
        "groups => groups.map(g => g.querySelector('circle:last-of-type title').textContent)",
    )
    assert ends == [f"{row['name']}: {row['total']}" for row in export["rows"]]

    page.set_viewport_size(PHONE)
    page.goto(address)
    shot = artifact("tournament-390x844", db_url)
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    assert scrolls_sideways(page, "#standings-box")  # every Durchgang's column, none hidden
    assert page.locator("#chart-adjustment").inner_text() == render("web.chart_adjustment", {}, "de")  # "±"
    for selector in (
        "#adjustments",
        "#disqualified",
        "#corrections",
        "#luck",
        "#chart",
        "#games",
    ):
        assert fits(page, selector), selector
    page.goto(address + "/game/1")
    assert verified(page)[0] == "ok"
    page.screenshot(path=str(artifact("game-390x844", db_url)), full_page=True)
    for selector in ("#game-table", "#moves", "#verify"):
        assert fits(page, selector), selector


def test_an_undone_move_is_shown_voided_and_its_dice_still_verify(
    page: Any, room: Room, background: Background, db_url: str
) -> None:
    background.call(room.say("mod: /open verflixte6", "anna: /join", "ben: /join", "mod: /start"))
    address = background.call(room.web_on())
    page.goto(address + "/game/1")  # open: the page follows the game live
    background.call(room.say("anna: weiter"))
    page.wait_for_function(
        "() => document.querySelectorAll('#moves .move[data-dice]:not([data-dice=\\'\\'])').length === 1"
    )
    (undone,) = background.call(room.say("mod: /undo Versehen"))
    assert undone.ok, undone.text
    page.wait_for_selector("#moves .move.voided", timeout=5_000)  # marked live, without a reload
    live_note = page.locator("#moves .move.voided .voided-note").inner_text()
    assert live_note == render("web.move_voided", {"moderator": "mod", "reason": "Versehen"}, "de")

    for answer in background.call(
        room.say("anna: weiter", "anna: stopp", "ben: weiter", "ben: stopp", "mod: /close")
    ):
        assert answer.ok, answer.text
    page.wait_for_selector("#verify-result", timeout=10_000)  # closed: the page reloads itself
    assert verified(page)[0] == "ok"
    voided = page.locator("#moves .move[data-voided='true']")
    assert voided.count() == 1
    assert voided.get_attribute("data-dice-from") == "0"  # its die was the game's first …
    assert voided.get_attribute("data-verified") == "ok"  # … and is checked like the others
    assert voided.locator(".mark").inner_text() == "✓"
    assert voided.locator(".voided-note").inner_text() == live_note
    froms = page.eval_on_selector_all(
        "#moves .move[data-dice]:not([data-dice=''])", "rows => rows.map(r => Number(r.dataset.diceFrom))"
    )
    assert froms == list(range(len(froms)))  # the next roll took the next die: no die used twice
    used = int(page.locator("#verify").get_attribute("data-dice-used"))
    assert used == len(froms)
    assert render("web.verify_ok", {"count": used}, "de") == page.locator("#verify-result").inner_text()
    page.set_viewport_size(PHONE)
    page.reload()
    verified(page)
    page.screenshot(path=str(artifact("game-undone-390x844", db_url)), full_page=True)
    assert fits(page, "#moves")


def test_a_moderator_named_like_a_replacement_pattern_is_shown_as_typed_in_the_undone_note(
    page: Any, room: Room, background: Background
) -> None:
    """The live note is filled in the browser: a name holding ``$&`` (String.replace's "the match") and
    a placeholder of the sentence itself must come out as typed, the same as the page's own drawing."""
    moderator, reason = "Mod$&X{reason}", "Grund {moderator} $1 $$"
    hostile = Console(room.console.croupier, moderators=frozenset({moderator}))
    background.call(room.say("mod: /open verflixte6", "anna: /join", "ben: /join", "mod: /start"))
    address = background.call(room.web_on())
    page.goto(address + "/game/1")
    background.call(room.say("anna: weiter"))
    page.wait_for_function(
        "() => document.querySelectorAll('#moves .move[data-dice]:not([data-dice=\\'\\'])').length === 1"
    )
    undone = background.call(hostile.handle(f"{moderator}: /undo {reason}"))
    assert undone is not None
    assert undone.ok, undone.text
    page.wait_for_selector("#moves .move.voided", timeout=5_000)
    expected = render("web.move_voided", {"moderator": moderator, "reason": reason}, "de")
    assert page.locator("#moves .move.voided .voided-note").inner_text() == expected  # drawn live
    page.reload()
    assert page.locator("#moves .move.voided .voided-note").inner_text() == expected  # drawn by the server


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

    added: list[str] = []  # the lines the live update draws, as HTML (the page reloads right after)
    page.on("console", lambda message: added.append(message.text) if message.type == "log" else None)
    page.evaluate(
        """() => new MutationObserver((changes) => changes.forEach((change) =>
             change.addedNodes.forEach((node) => node.querySelectorAll &&
               node.querySelectorAll('.line').forEach((line) => console.log(line.innerHTML)))))
           .observe(document.getElementById('moves'), { childList: true })"""
    )
    background.call(room.say("anna: stopp", "ben: weiter", "mod: /close"))
    page.wait_for_selector("#verify-result", timeout=10_000)  # closed: the page reloads itself
    assert verified(page)[0] == "ok"
    with room.store.transaction(read_only=True) as uow:
        record = uow.games.get(1)
    assert record is not None
    seed = record.seed.hex()
    assert any(f"<code>{seed}</code>" in line for line in added)  # drawn live: the seed as code
    assert not any("`" in line for line in added)
    codes = page.eval_on_selector_all("#moves .line code", "codes => codes.map(c => c.textContent)")
    assert codes == [record.commitment, seed]  # and once reloaded


def readme_tour() -> tuple[str, list[str]]:
    """The README's first tour of the pages: its section, and the console lines of its Durchgang."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("## The tournament on the web", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```text\n(.*?)```", section, re.S)
    assert block is not None
    return section, [line.strip() for line in block.group(1).strip().splitlines()]


def test_the_readme_tour_works_as_written(browser: Any, tmp_path: Path) -> None:
    """`make run` (``croupier start`` in a fresh folder: SQLite under ./data, pages on port 8080), the
    README's Durchgang, `/settings web=on`, the address in a browser while the console runs: the
    table, the record and a green verification."""
    section, lines = readme_tour()
    assert section.split("\n1. ", 1)[1].startswith("`make run` — ")
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^run: .*\n\t\$\(BIN\)/croupier start$", makefile, re.M)  # what make run runs
    assert render("web.switched_on", {"url": "http://127.0.0.1:8080/t/Xq3…"}, "de") in section
    assert render("web.verify_ok", {"count": "N"}, "de") in section

    host = own_loopback()  # 127.x.y.z: port 8080 there is this test's, whatever else runs
    process = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "start"],
        cwd=tmp_path,
        env=environment(WEB_HOST=host),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None
    tab = browser.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    try:
        output = Lines(process)
        assert f"http://{host}:8080/" in output.until("/settings web=on")  # the banner names the pages
        process.stdin.write("\n".join([*lines, "mod: /settings web=on"]) + "\n")
        process.stdin.flush()
        answer = output.until("/t/")
        address = next(word for word in answer.split() if "/t/" in word)
        assert address.startswith(f"http://{host}:8080/t/")

        tab.goto(address)
        players = sorted({line.split(":", 1)[0] for line in lines if not line.startswith("mod:")})
        rows = tab.eval_on_selector_all("#standings tbody tr", "rows => rows.map(r => r.dataset.player)")
        assert sorted(rows) == players
        tab.locator("#games a").first.click()
        said = tab.eval_on_selector_all("#moves .move q", "quotes => quotes.map(q => q.textContent)")
        assert said == [line.split(": ", 1)[1] for line in lines]  # the record: every line, in order
        assert verified(tab)[0] == "ok"
        assert tab.locator("#verify-result.ok").is_visible()  # green
    finally:
        tab.close()
        process.stdin.close()
        process.wait(timeout=60)
    assert process.returncode == 0
    assert errors == []
