"""The real command line in a process of its own, for the web tests: its environment, a loopback
address of its own, and its output read line by line with a timeout."""

from __future__ import annotations

import os
import queue
import random
import subprocess
import threading
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def environment(**extra: str) -> dict[str, str]:
    """This environment without the croupier's own settings (no .env is read: tests run elsewhere)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("WEB_", "DISCORD_", "DATABASE_"))}
    return {**env, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(REPO), **extra}


def own_loopback() -> str:
    """A loopback address nobody else uses (all of 127.0.0.0/8 reaches this machine), so port 8080
    on it is the test's own."""
    return f"127.{random.randint(1, 254)}.{random.randint(1, 254)}.{random.randint(2, 254)}"


class Lines:
    """A process's stdout read on a thread, so a test waits for a line with a timeout."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.queue: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        assert process.stdout is not None
        stream = process.stdout
        threading.Thread(target=lambda: [self.queue.put(line) for line in stream], daemon=True).start()

    def until(self, needle: str, timeout: float = 60) -> str:
        """The first line from now on that holds ``needle``."""
        while True:
            line = self.queue.get(timeout=timeout)
            self.seen.append(line)
            if needle in line:
                return line
