"""The web pages: time to first byte of a tournament page, of a 200-move game's page and of a
10,000-die tournament's page, and the time until a browser shows the green verification (WebCrypto
and the page's own SHA-256).

    python -m bench web_pages                       # the figures, one JSON line each
    python -m bench.web_pages --screenshots docs    # also the README's pictures (web-tournament.png,
                                                    # web-game.png)
    python -m bench web_pages --players 4 --moves 10 --dice 50 --samples 2 --browser-runs 1

Every game is played through the real service with verifiable dice (each move is the first choice of
the board the croupier drew, or "continue" while the player's target is not reached), closed, put on
the web, and served on 127.0.0.1: the README's tournament (four Durchgänge, a moderator's points
correction), one Durchgang of 200+ moves, and a tournament of Durchgänge until 10,000 dice are rolled
(whose fairness figures are printed too). The browser is Debian's Chromium driven by Playwright;
without it the browser figures are skipped with a JSON line saying so.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp

from bot.replies import Reply
from bot.service.croupier import Croupier, seed_from_text
from bot.service.fairness import p_text
from bot.service.requests import (
    Adjust,
    ChangeSettings,
    Incoming,
    Moderate,
    Move,
    NewTournament,
    OpenGame,
    Press,
    WebStats,
)
from bot.store import Store
from bot.web.server import start_site
from engine.game import Close, Join, Start

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
NAMES = ("Anna", "Ben", "Cleo", "Dora", "Emil", "Frieda", "Gustav", "Hanna", "Ida", "Jonas")
CROWD = 25
BIG_GAME_MOVES = 200
BIG_TOURNAMENT_DICE = 10_000
SAMPLES = 20  # requests per page timed
BROWSER_RUNS = 5  # page loads per verification engine


def _print(name: str, value: float, **extra: Any) -> None:
    print(json.dumps({"bench": "web_pages", "figure": name, "value": round(value, 1), **extra}), flush=True)


def crowd_of(count: int) -> list[str]:
    return [*NAMES, *(f"Gast {n}" for n in range(len(NAMES) + 1, count + 1))][: max(2, count)]


class Channel:
    def __init__(self, croupier: Croupier, channel: str = "web-bench") -> None:
        self.croupier = croupier
        self.channel = channel
        self.ids = itertools.count(1)

    def msg(self, author: str, text: str = "") -> Incoming:
        return Incoming(
            message_id=f"bench:{self.channel}:{next(self.ids)}",
            guild="bench",
            channel=self.channel,
            author=author.lower(),
            author_name=author,
            text=text,
            is_moderator=author == "mod",
            is_admin=author == "mod",
        )

    async def play_durchgang(self, players: list[str], *, min_moves: int = 0, target: int = 14) -> int:
        """One Durchgang to its end; answers how many messages its log holds."""
        reply = await self.croupier.handle(Moderate(self.msg("mod"), OpenGame("verflixte6", {})))
        game_id = reply.game_id
        for name in players:
            await self.croupier.handle(Move(self.msg(name), Join(name)))
        reply = await self.croupier.handle(Move(self.msg("mod"), Start()))
        moves = 2 + len(players)
        while reply.board is not None and moves < 5000:
            board = reply.board
            seat = next((row for row in reply.table if row.player == board.player), None)
            points = seat.points if seat is not None else 0
            go_on = points < target or moves < min_moves
            wanted = ("continue", "freiwurf") if go_on else ("stop",)
            pick = next((b for b in board.buttons if b.action in wanted), None)
            pick = pick or next((b for b in board.buttons if "joker" not in b.action), board.buttons[0])
            name = next(n for n in players if n.lower() == board.player)
            reply = await self.croupier.handle(
                Press(self.msg(name), board.game_id, board.version, (pick.index,))
            )
            moves += 1
            if not reply.ok:
                break
        await self.croupier.handle(Move(self.msg("mod"), Close()))
        assert game_id is not None
        return moves + 1

    async def web_on(self) -> str:
        reply: Reply = await self.croupier.handle(Moderate(self.msg("mod"), ChangeSettings({"web": "on"})))
        return next(word for line in reply.lines for word in line.split() if "/t/" in word)


async def _ttfb(url: str, runs: int = 20) -> tuple[float, float]:
    """Median time to the response's first byte and to its whole body, in ms."""
    first, whole = [], []
    async with aiohttp.ClientSession() as session:
        for _ in range(runs):
            started = time.perf_counter()
            async with session.get(url) as response:
                first.append((time.perf_counter() - started) * 1000)
                await response.read()
                whole.append((time.perf_counter() - started) * 1000)
                assert response.status == 200, response.status
    return statistics.median(first), statistics.median(whole)


def _browser_figures(
    game_url: str, tournament_url: str, small_game_url: str, screenshots: Path | None, runs: int
) -> list[tuple[str, float]]:
    from playwright.sync_api import sync_playwright

    figures = []
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            tempfile.mkdtemp(prefix="croupier-bench-"),
            executable_path=str(CHROMIUM),
            args=ARGS,
            headless=True,
            viewport={"width": 390, "height": 844},
        )
        try:
            page = context.new_page()
            for engine, suffix in (("webcrypto", ""), ("fallback", "?verify=fallback")):
                times, checks = [], []
                for _ in range(runs):
                    page.goto(game_url + suffix)
                    _wait_green(page, engine)
                    result = page.locator("#verify-result")
                    times.append(float(result.get_attribute("data-at") or 0))
                    checks.append(float(result.get_attribute("data-ms") or 0))
                figures.append((f"navigation_to_green_{engine}_ms", statistics.median(times)))
                figures.append((f"check_alone_{engine}_ms", statistics.median(checks)))
            if screenshots is not None:
                page.goto(tournament_url)
                page.screenshot(path=str(screenshots / "web-tournament.png"), full_page=True)
                page.goto(small_game_url)
                _wait_green(page, "webcrypto")
                page.screenshot(path=str(screenshots / "web-game.png"))  # the phone's first screen
        finally:
            context.close()
    return figures


def _wait_green(page: Any, engine: str) -> None:
    page.wait_for_function(
        "() => document.getElementById('verify-result').dataset.state !== 'pending'", timeout=60_000
    )
    result = page.locator("#verify-result")
    assert result.get_attribute("data-state") == "ok"
    assert result.get_attribute("data-engine") == engine


async def _big_tournament(
    croupier: Croupier, store: Store, players: list[str], wanted: int
) -> tuple[str, int, int, float]:
    """Durchgänge of the crowd in a channel of their own until ``wanted`` dice are rolled: the
    address, the games, the dice, and how long playing them took."""
    channel = Channel(croupier, "web-bench-10k")
    started = time.perf_counter()
    await croupier.handle(Moderate(channel.msg("mod"), NewTournament("10.000 Würfel")))
    games = dice = 0
    while dice < wanted:
        await channel.play_durchgang(players, target=10**6)
        games += 1
        with store.transaction(read_only=True) as uow:
            tournament = uow.tournaments.current("web-bench-10k")
            assert tournament is not None
            dice = sum(game.dice_used for game in uow.web.games_in(tournament.id))
    return await channel.web_on(), games, dice, time.perf_counter() - started


@dataclass(frozen=True)
class Sizes:
    """How big the games are and how often each figure is taken (smaller for a smoke run)."""

    players: int = CROWD  # in the big Durchgang and the big tournament's
    moves: int = BIG_GAME_MOVES  # the big Durchgang's moves at least
    dice: int = BIG_TOURNAMENT_DICE  # the big tournament's dice at least
    samples: int = SAMPLES
    browser_runs: int = BROWSER_RUNS


async def run(screenshots: Path | None = None, sizes: Sizes = Sizes()) -> None:
    with tempfile.TemporaryDirectory(prefix="croupier-web-bench-") as folder:
        store = await Store.open(f"sqlite:///{folder}/bench.sqlite3")
        try:
            site = await start_site(Croupier(store=store), "127.0.0.1", 0)
            croupier = Croupier(store=store, seed_source=seed_from_text("web-bench"), web_base_url=site.url)
            channel = Channel(croupier)  # the README's tournament: four Durchgänge of five or six players
            await croupier.handle(Moderate(channel.msg("mod"), NewTournament("Herbstturnier 2026")))
            rounds = ((NAMES[:5], 12), (NAMES[1:6], 15), (NAMES[:6], 10), (NAMES[:5], 18))
            for players, target in rounds:
                await channel.play_durchgang(list(players), target=target)
            await croupier.handle(Moderate(channel.msg("mod"), Adjust("Cleo", -3, "zu spät zum Durchgang 3")))
            shown = await channel.web_on()
            crowd = Channel(croupier, "web-bench-big")  # one Durchgang of many moves, in its own channel
            crowd_names = crowd_of(sizes.players)
            big = await crowd.play_durchgang(crowd_names, min_moves=sizes.moves, target=10**6)
            address = await crowd.web_on()
            with store.transaction(read_only=True) as uow:
                tournament = uow.tournaments.current("web-bench-big")
                assert tournament is not None
                games = uow.web.games_in(tournament.id)
                game = games[-1]
                moves = len(uow.log.of_game(game.id))
            _print("game_moves", moves, dice=game.dice_used, played=big)
            first, whole = await _ttfb(shown, sizes.samples)
            _print("tournament_page_ttfb_ms", first, whole_ms=round(whole, 1), games=len(rounds))
            first, whole = await _ttfb(f"{address}/game/{game.id}", sizes.samples)
            _print("game_page_ttfb_ms", first, whole_ms=round(whole, 1), moves=moves)
            first, whole = await _ttfb(f"{address}/game/{game.id}/live.json", sizes.samples)
            _print("live_json_ttfb_ms", first, whole_ms=round(whole, 1))

            huge, huge_games, huge_dice, played_s = await _big_tournament(
                croupier, store, crowd_names, sizes.dice
            )
            _print("big_tournament_played_s", played_s, games=huge_games, dice=huge_dice)
            cold, _ = await _ttfb(huge, runs=1)  # its dice read from the store
            again = max(1, sizes.samples // 2)
            first, whole = await _ttfb(huge, runs=again)  # again, while no game moved: remembered
            _print(
                "big_tournament_page_ttfb_ms",
                first,
                whole_ms=round(whole, 1),
                first_view_ms=round(cold, 1),
                games=huge_games,
                dice=huge_dice,
            )
            stats = await Croupier(store=store).handle(WebStats("web-bench-10k"))
            assert stats is not None
            faces = stats[2].faces
            print(
                json.dumps(
                    {
                        "bench": "web_pages",
                        "figure": "big_tournament_fairness",
                        "dice": faces.n,
                        "faces": list(faces.counts),
                        "chi2": round(faces.chi2, 3),
                        "p": p_text(faces.p),
                        "players_unusual": sum(
                            1 for p in stats[2].players if p.luck.enough and p.luck.p < 0.01
                        ),
                        "players": len(stats[2].players),
                    }
                ),
                flush=True,
            )

            try:
                if not await asyncio.to_thread(CHROMIUM.is_file):
                    print(json.dumps({"bench": "web_pages", "skipped": f"{CHROMIUM} is missing"}))
                    return
                figures = await asyncio.to_thread(
                    _browser_figures,
                    f"{address}/game/{game.id}",
                    shown,
                    f"{shown}/game/1",
                    screenshots,
                    sizes.browser_runs,
                )
                for name, value in figures:
                    _print(name, value, moves=moves, dice=game.dice_used)
            finally:
                await site.close()
        finally:
            await store.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.web_pages")
    parser.add_argument(
        "--screenshots",
        type=Path,
        metavar="DIR",
        help="write web-tournament.png and web-game.png (390×844) here",
    )
    parser.add_argument(
        "--players",
        type=int,
        default=CROWD,
        help=f"players of the big Durchgang and tournament (default {CROWD})",
    )
    parser.add_argument(
        "--moves",
        type=int,
        default=BIG_GAME_MOVES,
        help=f"the big Durchgang's moves (default {BIG_GAME_MOVES})",
    )
    parser.add_argument(
        "--dice",
        type=int,
        default=BIG_TOURNAMENT_DICE,
        help=f"the big tournament's dice (default {BIG_TOURNAMENT_DICE})",
    )
    parser.add_argument(
        "--samples", type=int, default=SAMPLES, help=f"requests per page timed (default {SAMPLES})"
    )
    parser.add_argument(
        "--browser-runs",
        type=int,
        default=BROWSER_RUNS,
        help=f"page loads per check in the browser (default {BROWSER_RUNS})",
    )
    args = parser.parse_args(argv or [])
    asyncio.run(
        run(
            args.screenshots,
            Sizes(args.players, args.moves, args.dice, max(1, args.samples), max(1, args.browser_runs)),
        )
    )


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
