"""Real ``croupier`` processes for the tests: ``croupier migrate`` once, ``croupier run`` per bot.

Each bot runs ``python -m bot.cli run`` in a folder of its own (so no developer's ``.env`` is read),
configured only through the environment, its log (stderr and stdout) in a file the tests read.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Mapping
from pathlib import Path

from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
READY_LINE = "logged in as"  # CroupierBot.on_ready: every shard of the process is connected
START_PATIENCE_S = 30.0  # safety nets against a hung process, not measured times
STOP_PATIENCE_S = 10.0

# The bot's own settings are given explicitly; inherited ones (a developer's shell) must not leak in.
_SETTINGS = {name.upper() for name in Settings.model_fields}


def environment(settings: Mapping[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k.upper() not in _SETTINGS}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    env["PYTHONUNBUFFERED"] = "1"
    env.update(settings)
    return env


async def croupier(args: list[str], cwd: Path, settings: Mapping[str, str] | None = None) -> str:
    """Run one short ``croupier`` command to the end; its output, or an assertion naming the failure."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.cli",
        *args,
        cwd=cwd,
        env=environment(settings or {}),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    try:
        out, _ = await asyncio.wait_for(process.communicate(), START_PATIENCE_S)
    except TimeoutError:
        process.kill()
        await process.wait()
        raise AssertionError(f"croupier {' '.join(args)} did not finish") from None
    text = out.decode(errors="replace")
    assert process.returncode == 0, f"croupier {' '.join(args)} failed ({process.returncode}):\n{text}"
    return text


async def migrate(db_url: str, cwd: Path) -> None:
    await croupier(["migrate", "--db", db_url], cwd)


class BotProcess:
    """One ``croupier run``; ``await BotProcess.start(...)``, then ``ready()``, ``stop()``."""

    def __init__(self, name: str, log_path: Path, process: asyncio.subprocess.Process) -> None:
        self.name = name
        self.log_path = log_path
        self.process = process

    @classmethod
    async def start(cls, name: str, workdir: Path, settings: Mapping[str, str]) -> BotProcess:
        home = workdir / name
        home.mkdir(parents=True, exist_ok=True)
        log_path = home / "croupier.log"
        with log_path.open("wb") as log:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot.cli",
                "run",
                cwd=home,
                env=environment({"LOG_LEVEL": "INFO", **settings}),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=asyncio.subprocess.STDOUT,
            )
        return cls(name, log_path, process)

    @property
    def pid(self) -> int:
        return self.process.pid

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def tail(self, lines: int = 30) -> str:
        return "\n".join(self.log().splitlines()[-lines:])

    async def ready(self, timeout: float = START_PATIENCE_S) -> None:  # noqa: ASYNC109
        """Until every shard of the process is connected and its slash commands are registered."""
        try:
            async with asyncio.timeout(timeout):
                while READY_LINE not in self.log():
                    if self.process.returncode is not None:
                        raise AssertionError(
                            f"{self.name} exited with {self.process.returncode}:\n{self.tail()}"
                        )
                    await asyncio.sleep(0.05)
        except TimeoutError:
            raise AssertionError(f"{self.name} was not ready within {timeout}s:\n{self.tail()}") from None

    async def stop(self) -> int:
        """SIGTERM, as docker stop sends: the bot closes its gateway and store and exits; the exit code."""
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return await asyncio.wait_for(self.process.wait(), STOP_PATIENCE_S)
        except TimeoutError:
            self.kill()
            await self.process.wait()
            raise AssertionError(f"{self.name} ignored SIGTERM:\n{self.tail()}") from None

    def kill(self) -> None:
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()

    def problems(self) -> list[str]:
        """Log lines at ERROR or above, and tracebacks."""
        return [
            line
            for line in self.log().splitlines()
            if " ERROR " in line or " CRITICAL " in line or line.startswith("Traceback")
        ]
