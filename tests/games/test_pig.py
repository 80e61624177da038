"""A third game, added the documented way: Pig lives in its own package (tests/games/pig) and is
registered only through the ``croupier.games`` entry-point group — no other file names it. It is then
played through the console (in this process and as ``croupier console``) and through ``croupier
replay``, and counts in the standings like any ranked game."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.console.terminal import Console
from bot.games import GAMES, game_named, scope_of
from bot.service.croupier import Croupier
from bot.store import Store
from bot.texts import CONSOLE_COMMANDS, render
from tests.dice import scripted
from tests.games.pig import GAME as PIG
from tests.service.helpers import Table

ROOT = Path(__file__).resolve().parents[2]
ENTRY_POINT = "[croupier.games]\npig = tests.games.pig:GAME\n"


@pytest.fixture
def pig_plugin(tmp_path: Path) -> Iterator[Path]:
    """Pig installed the way a plugin package would be: a distribution on the path whose metadata
    names its entry point. Yields the folder holding it (for subprocesses' PYTHONPATH)."""
    site = tmp_path / "plugins"
    info = site / "croupier_pig-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: croupier-pig\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(ENTRY_POINT)
    sys.path.insert(0, str(site))
    GAMES.refresh()
    try:
        yield site
    finally:
        sys.path.remove(str(site))
        GAMES.refresh()


def says(key: str, lang: str = "en", **facts: Any) -> str:
    return render(key, facts, lang, str, CONSOLE_COMMANDS, scope_of(PIG))


def test_pig_is_known_only_once_its_entry_point_is_installed(pig_plugin: Path) -> None:
    assert GAMES["pig"] is PIG
    assert game_named("Cochon") is PIG
    assert list(GAMES) == ["killer", "killer-classic", "pig", "verflixte6"]


def test_without_its_entry_point_there_is_no_pig() -> None:
    assert "pig" not in GAMES


async def test_pig_is_played_in_the_console_and_counts_in_the_standings(
    pig_plugin: Path, store: Store
) -> None:
    console = Console(
        Croupier(store=store, dice_factory=scripted([4, 6, 1, 5, 5, 3])),
        moderators=frozenset({"mod"}),
        admins=frozenset({"mod"}),
    )

    async def say(line: str) -> tuple[bool, str]:
        answer = await console.handle(line)
        assert answer is not None
        return answer.ok, answer.text

    opened = await say("mod: /open pig target=15")
    assert opened[0], opened
    tournament = says("common.default_tournament")  # started on the spot, in Pig's language
    assert opened[1].startswith(says("game.opened", number=1, tournament=tournament))
    assert (await say("anna: /join"))[0]
    assert (await say("ben: /join"))[0]
    assert (await say("ben: roll")) == (False, says("error.pig_not_your_turn", player="anna"))
    ok, first = await say("anna: roll")
    assert ok
    assert first.splitlines()[:2] == [
        says("pig.started", player="anna"),
        says("pig.rolled", player="anna", face=4, turn=4),
    ]
    assert (await say("anna: roll"))[1].splitlines()[0] == says("pig.rolled", player="anna", face=6, turn=10)
    held = (await say("anna: hold"))[1].splitlines()
    assert held[:2] == [
        says("pig.held", player="anna", banked=10, total=10),
        says("pig.your_turn", player="ben", total=0),
    ]
    pigged = (await say("ben: roll"))[1].splitlines()
    assert pigged[1] == says("pig.pigged", player="ben", lost=0)
    assert (await say("anna: roll"))[0]  # 5 → 5
    await say("anna: roll")  # 5 → 10
    won = (await say("anna: hold"))[1].splitlines()
    assert won[:2] == [
        says("pig.held", player="anna", banked=10, total=20),
        says("pig.won", player="anna", total=20),
    ]
    over = await say("anna: roll")  # the game is over: no game is open, and who opens one (once a while)
    assert over == (False, says("error.nothing_open"))
    assert (await say("anna: roll")) == (True, "")  # said once: then "roll" is chit-chat again

    standings = (await say("mod: /standings"))[1]
    assert "| 1 | anna | 20 | 20 |" in standings
    assert "| 2 | ben | 0 | 0 |" in standings
    help_text = (await say("anna: /help"))[1]
    assert "/open killer|killer-classic|pig|verflixte6" in help_text


async def test_pig_explains_its_own_topic_and_leaves_the_default_game_to_the_croupier_s_own(
    pig_plugin: Path, store: Store
) -> None:
    croupier = Croupier(store=store, dice_factory=scripted([]))
    table = Table(croupier)
    assert GAMES.default is GAMES["verflixte6"]  # Pig declares itself no default
    rules = await croupier.rules_reply(table.msg("anna"))  # no game was ever played here
    assert rules.lines == (render("help.rules", {}, "de", str, CONSOLE_COMMANDS, scope_of(GAMES.default)),)
    assert GAMES.explaining("odds") is PIG
    assert (await croupier.info_reply(table.msg("anna"), "odds")).lines == (
        says("info.odds", "de", target=30),
    )
    assert (await table.open("pig", {"target": "50"})).ok
    odds = await croupier.info_reply(table.msg("anna"), "odds")
    assert odds.lines == (says("info.odds", target=50),)  # the open game's own target, in its language


def _env(plugins: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(plugins), str(ROOT)]), "LOG_LEVEL": "WARNING"}


def test_pig_is_played_through_croupier_replay(pig_plugin: Path) -> None:
    script = {
        "game": "pig",
        "players": ["anna", "ben"],
        "options": {"target": 12},
        "dice": [6, 6, 2, 1],
        "lines": [
            {"from": "anna", "text": "roll"},
            {"from": "anna", "text": "roll"},
            {"from": "anna", "text": "hold"},
            {"from": "ben", "text": "roll"},
        ],
    }
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "replay", "-"],
        input=json.dumps(script),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=_env(pig_plugin),
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["players"] == {"anna": {"total": 12}, "ben": {"total": 0}}
    assert result["winner"] == "anna"
    assert result["finished"] is True
    assert [reply["ok"] for reply in result["replies"]] == [True, True, True, False]  # ben: the game was over
    assert result["dice_left"] == 2


def test_pig_is_played_in_the_croupier_console_process(pig_plugin: Path, tmp_path: Path) -> None:
    lines = ["mod: /open pig", "anna: /join", "anna: roll", "anna: hold", "anna: /rules"]
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot.cli",
            "console",
            "--json",
            "--db",
            f"sqlite:///{tmp_path / 'pig.sqlite3'}",
            "--moderator",
            "mod",
            "--dice-seed",
            "pig-test",
        ],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=_env(pig_plugin),
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [answer["ok"] for answer in answers] == [True, True, True, True, True]
    assert answers[2]["text"].splitlines()[0] == says("pig.started", player="anna")
    assert answers[4]["text"] == says("help.rules")
