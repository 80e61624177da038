"""``croupier healthcheck`` as docker-compose runs it: a process of its own, configured by the
environment, asking the croupier's endpoint — and checking the database itself when none answers."""

from __future__ import annotations

import asyncio
import os
import socket
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from bot.observability.endpoint import serving
from bot.observability.health import Health, StoreHealth
from bot.settings import Settings
from bot.store import Store

ROOT = Path(__file__).resolve().parents[2]
_SETTINGS = {name.upper() for name in Settings.model_fields}


async def healthcheck(db_url: str, cwd: Path, port: int | None) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of ``croupier healthcheck`` with HEALTH_PORT=port."""
    env = {k: v for k, v in os.environ.items() if k.upper() not in _SETTINGS}
    env["PYTHONPATH"] = str(ROOT)
    if port is not None:
        env["HEALTH_PORT"] = str(port)
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.cli",
        "healthcheck",
        "--db",
        db_url,
        cwd=cwd,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@asynccontextmanager
async def croupier_serving(db_url: str, *, check: bool = True) -> AsyncIterator[int]:
    """A croupier's store and endpoint in this process; the port it listens on."""
    store = await Store.open(db_url, check=check)
    try:
        health = Health()
        health.add("store", StoreHealth(store))
        port = free_port()
        async with serving(health, "127.0.0.1", port):
            yield port
    finally:
        await store.close()


async def test_a_ready_croupier_is_healthy(db_url: str, tmp_path: Path) -> None:
    async with croupier_serving(db_url) as port:
        assert await healthcheck(db_url, tmp_path, port) == (0, "", "")


async def test_a_croupier_that_is_not_ready_is_unhealthy_naming_the_condition(
    blank_db_url: str, tmp_path: Path
) -> None:
    async with croupier_serving(blank_db_url, check=False) as port:  # a database never migrated
        code, out, err = await healthcheck(blank_db_url, tmp_path, port)
    assert (code, out) == (1, "")
    assert err.startswith("croupier: not ready: database: schema at no revision, needs ")
    assert err.rstrip().endswith(": croupier migrate")


async def test_without_a_croupier_running_the_database_is_checked_instead(
    db_url: str, tmp_path: Path
) -> None:
    port = free_port()  # nothing listens there
    code, out, err = await healthcheck(db_url, tmp_path, port)
    assert (code, err) == (0, "")
    assert (
        out
        == f"croupier: no croupier answers on http://127.0.0.1:{port}; the database answers and is migrated\n"
    )
    nobody = f"postgresql://croupier@127.0.0.1:{free_port()}/croupier"  # no database server there
    code, out, err = await healthcheck(nobody, tmp_path, port)
    assert (code, out) == (1, "")
    assert err.startswith("croupier: cannot ")
    assert await healthcheck(db_url, tmp_path, None) == (0, "", "")  # no HEALTH_PORT: as before


async def test_a_croupier_that_does_not_answer_is_unhealthy(db_url: str, tmp_path: Path) -> None:
    """It accepts the connection (the kernel does) but its event loop never answers: stuck."""
    held: list[asyncio.StreamWriter] = []

    async def silent(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        held.append(writer)

    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        code, out, err = await healthcheck(db_url, tmp_path, port)
    finally:
        server.close()
        for writer in held:
            writer.close()
    assert (code, out) == (1, "")
    assert err == f"croupier: the croupier on http://127.0.0.1:{port} did not answer within 5 s\n"
