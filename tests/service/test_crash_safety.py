"""Crash safety: a console process killed with SIGKILL anywhere in a Durchgang loses and doubles nothing.

Each trial starts ``croupier console`` on a fresh SQLite file, feeds a scripted Durchgang one line at
a time, and kills the process at a chosen point — right after an answer, or a few milliseconds after
sending the next line (inside its transaction, or before it). A new process on the same file is then
fed the lines again from the last one answered, as a front end redelivers them. The final standings
and every answer must equal those of an uninterrupted run.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINES = [
    "mod: /open verflixte6",
    "anna: /join",
    "ben: /join",
    "cleo: /join",
    "anna: Joker: Hirtenschutz, Spelunkenbold",
    "anna: weiter",
    "anna: weiter",
    "anna: weiter mit Joker Hirtenschutz",
    "anna: raube nicht",
    "anna: weiter mit Joker Spelunkenbold",
    "anna: raube ben",
    "anna: stopp",
    "ben: weiter",
    "ben: weiter",
    "ben: raube anna",
    "ben: weiter",
    "ben: raube cleo",
    "ben: stopp",
    "cleo: Joker: ALL IN",
    "cleo: weiter",
    "cleo: weiter",
    "cleo: weiter mit Joker ALL IN",
    "cleo: raube anna",
    "cleo: stopp",
    "mod: /close",
    "mod: /export json",
]
SCRIPT = [f"#m{index} {line}" for index, line in enumerate(LINES, start=1)]


class ConsoleProcess:
    def __init__(self, db: Path) -> None:
        self.db = db
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot.cli",
            "console",
            "--json",
            "--db",
            f"sqlite:///{self.db}",
            "--moderator",
            "mod",
            "--admin",
            "mod",
            "--dice-seed",
            "crash-test",
            cwd=ROOT,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
            env={**os.environ, "LOG_LEVEL": "WARNING"},
        )

    async def send(self, line: str) -> None:
        assert self.proc
        assert self.proc.stdin
        self.proc.stdin.write((line + "\n").encode())
        await self.proc.stdin.drain()

    async def answer(self) -> dict[str, object]:
        assert self.proc
        assert self.proc.stdout
        raw = await asyncio.wait_for(self.proc.stdout.readline(), timeout=30)
        assert raw, "the console ended without answering"
        return dict(json.loads(raw))

    async def kill(self) -> None:
        assert self.proc
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()

    async def finish(self) -> None:
        assert self.proc
        assert self.proc.stdin
        self.proc.stdin.close()
        await asyncio.wait_for(self.proc.wait(), timeout=30)


async def _uninterrupted(db: Path) -> dict[str, dict[str, object]]:
    console = ConsoleProcess(db)
    await console.start()
    answers = {}
    for line in SCRIPT:
        await console.send(line)
        answer = await console.answer()
        answers[str(answer["id"])] = answer
    await console.finish()
    return answers


async def _with_kill(db: Path, kill_after: int, delay: float | None) -> dict[str, dict[str, object]]:
    """Answer ``kill_after`` lines, then kill (after sending the next line when ``delay`` is set)."""
    answers: dict[str, dict[str, object]] = {}
    console = ConsoleProcess(db)
    await console.start()
    for line in SCRIPT[:kill_after]:
        await console.send(line)
        answer = await console.answer()
        answers[str(answer["id"])] = answer
    if delay is not None and kill_after < len(SCRIPT):
        await console.send(SCRIPT[kill_after])
        await asyncio.sleep(delay)
    await console.kill()
    # A new process; the front end redelivers from the last line that was answered.
    restart = max(kill_after - 1, 0)
    console = ConsoleProcess(db)
    await console.start()
    for line in SCRIPT[restart:]:
        await console.send(line)
        answer = await console.answer()
        answers[str(answer["id"])] = answer
    await console.finish()
    return answers


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, object]]:
    return asyncio.run(_uninterrupted(tmp_path_factory.mktemp("reference") / "ref.sqlite3"))


def _trials() -> list[tuple[int, float | None]]:
    rng = random.Random(20261130)  # seeded: the same kill points on every run
    points = sorted(rng.sample(range(1, len(SCRIPT)), 6))
    return [(point, None if i % 2 else rng.uniform(0.0, 0.03)) for i, point in enumerate(points)]


def test_reference_run_plays_the_whole_durchgang(reference: dict[str, dict[str, object]]) -> None:
    export = json.loads(str(reference[f"m{len(SCRIPT)}"]["text"]))
    totals = {row["player"]: row["total"] for row in export["rows"]}
    assert set(totals) == {"anna", "ben", "cleo"}
    assert reference[f"m{len(SCRIPT) - 1}"]["ok"] is True  # the close


@pytest.mark.slow
@pytest.mark.parametrize(("kill_after", "delay"), _trials())
def test_sigkill_loses_and_doubles_nothing(
    tmp_path: Path, reference: dict[str, dict[str, object]], kill_after: int, delay: float | None
) -> None:
    answers = asyncio.run(_with_kill(tmp_path / "crash.sqlite3", kill_after, delay))
    assert set(answers) == set(reference)
    for line_id, answer in answers.items():
        assert answer == reference[line_id], f"line {line_id} was answered differently after the crash"
