"""A third game, added the documented way: Pig lives in its own package (tests/games/pig) and is
registered only through the ``croupier.games`` entry-point group — no other file names it. It is then
played through the console (in this process and as ``croupier console``) and through ``croupier
replay``, and counts in the standings like any ranked game."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from bot.console.terminal import Console
from bot.games import GAMES, game_named, scope_of
from bot.service.croupier import Croupier
from bot.store import Store
from bot.texts import CONSOLE_COMMANDS, render
from tests.dice import scripted
from tests.games.pig import GAME as PIG

ROOT = Path(__file__).resolve().parents[2]


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


def common(key: str, lang: str = "en", **facts: Any) -> str:
    """A sentence of the croupier's own catalogue, as the console says it."""
    return render(key, facts, lang, str, CONSOLE_COMMANDS)


def pig_console(store: Store) -> Console:
    croupier = Croupier(store=store, dice_factory=scripted([4, 6]))
    return Console(croupier, moderators=frozenset({"mod"}), admins=frozenset({"mod"}))


async def test_pig_explains_its_odds_in_the_console_from_what_it_declares(
    pig_plugin: Path, store: Store
) -> None:
    console = pig_console(store)

    async def say(line: str) -> tuple[bool, str]:
        answer = await console.handle(line)
        assert answer is not None
        return answer.ok, answer.text

    assert GAMES.default is GAMES["verflixte6"]  # Pig declares itself no default
    rules = await say("anna: /rules")  # no game was ever played here: the default game's rules
    assert rules == (True, render("help.rules", {}, "de", str, CONSOLE_COMMANDS, scope_of(GAMES.default)))
    # No game open: every game's topics, each as its game opens without options, said to be so.
    listed = (await say("anna: /info"))[1].splitlines()
    v6 = GAMES["verflixte6"]
    v6_says = lambda key: render(key, {}, "de", str, CONSOLE_COMMANDS, scope_of(v6))  # noqa: E731
    assert listed == [
        common("common.topics_any", "de"),
        common(
            "common.topic_entry_of", "de", topic="jokers", title=v6_says("info.jokers.title"),
            game=v6_says("game.title"), summary=v6_says("info.jokers.summary"),
        ),
        common(
            "common.topic_entry_of", "de", topic="odds", title=says("info.odds.title", "de"),
            game=says("game.title", "de"), summary=says("info.odds.summary", "de"),
        ),
    ]  # fmt: skip
    assert await say("anna: /info odds") == (
        True,
        "\n".join(
            [
                common("common.topic_unopened", "de", game=says("game.title", "de")),
                says("info.odds", "de", target=30),
            ]
        ),
    )

    assert (await say("mod: /open pig target=50"))[0]
    assert (await say("anna: /join"))[0]
    assert (await say("anna: roll"))[0]
    before = await _game_version(store)
    assert await say("anna: /info") == (
        True,
        "\n".join(
            [
                common("common.topics_of", game=says("game.title")),
                common(
                    "common.topic_entry", topic="odds", title=says("info.odds.title"),
                    summary=says("info.odds.summary"),
                ),
            ]
        ),
    )  # fmt: skip
    odds = (True, says("info.odds", target=50))  # the open game's own target, in its language
    assert await say("anna: /info odds") == odds
    assert await say("anna: /info The Odds") == odds  # its title, as the channel's language spells it
    assert await say("anna: /odds") == odds  # a topic's name typed as a command
    # Bad input: a clear sentence, and nothing changes.
    assert await say("anna: /info odsd") == (
        False,
        common("error.unknown_topic", topic="odsd") + "\n" + common("error.did_you_mean", word="odds"),
    )
    assert await say("anna: /info weather") == (False, common("error.unknown_topic", topic="weather"))
    v6_elsewhere = render(
        "info.jokers.elsewhere", {"game": says("game.title")}, "en", str, CONSOLE_COMMANDS, scope_of(v6)
    )
    assert await say("anna: /info jokers") == (False, v6_elsewhere)  # another game's topic
    assert await say("anna: /frobnicate") == (False, common("error.unknown_command", command="/frobnicate"))
    assert await _game_version(store) == before


async def _game_version(store: Store) -> int:
    def read(uow: Any) -> int:
        record = uow.games.open_in("console")
        assert record is not None
        return int(record.version)

    return await store.run(read, read_only=True)


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
    lines = ["mod: /open pig", "anna: /join", "anna: roll", "anna: hold", "anna: /rules", "anna: /info odds"]
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
    assert [answer["ok"] for answer in answers] == [True, True, True, True, True, True]
    assert answers[2]["text"].splitlines()[0] == says("pig.started", player="anna")
    assert answers[4]["text"] == says("help.rules")
    assert answers[5]["text"] == says("info.odds", target=30)
