"""Item 11 of the security issue: docker-compose never starts PostgreSQL with a password everyone knows.

Without POSTGRES_PASSWORD (an empty one in a copied .env.example included) `docker-compose` refuses with a
message saying what to set, instead of falling back on a fixed password; one of blanks only is refused by
`croupier migrate`, so no bot starts. With a password, the database gets it and the bot too, as PGPASSWORD
beside a DATABASE_URL without one: any character works, and no URL holds it.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import Any

import psycopg
import pytest

from bot.store import create_engine
from tests.security.test_clear_errors import croupier, one_clear_line
from tests.test_deploy import ROOT, _compose_binary, compose_project, resolve_compose


def compose_config(project: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "POSTGRES_PASSWORD"}
    return subprocess.run(
        [
            _compose_binary(),
            "--project-directory",
            str(project),
            "--file",
            str(project / "docker-compose.yml"),
            "config",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )


def test_compose_refuses_to_run_without_a_database_password(tmp_path: Path) -> None:
    project = compose_project(tmp_path)
    env_file = project / ".env"
    env_file.write_text(
        re.sub(r"^POSTGRES_PASSWORD=.*$", "POSTGRES_PASSWORD=", env_file.read_text(), flags=re.M),
        encoding="utf-8",
    )
    done = compose_config(project)
    assert done.returncode != 0
    assert "set POSTGRES_PASSWORD" in done.stderr


def _with_password(project: Path, line: str) -> dict[str, Any]:
    """The resolved services of ``project`` with ``line`` as its .env's POSTGRES_PASSWORD line."""
    env_file = project / ".env"
    env_file.write_text(
        re.sub(r"^POSTGRES_PASSWORD=.*$", lambda _: line, env_file.read_text(), flags=re.M), encoding="utf-8"
    )
    services: dict[str, Any] = resolve_compose(project)["services"]
    return services


@pytest.mark.parametrize(
    "password", ["Zq8-long-random", "p@ss:w/rd?#%40 x"], ids=["plain", "every-url-special-character"]
)
def test_compose_gives_the_password_to_the_database_and_the_bot_as_it_is(
    tmp_path: Path, password: str
) -> None:
    """The bot gets the password as PGPASSWORD beside a URL without one: a raw "@", ":", "/", "?",
    "#", "%" or blank needs no encoding, and no URL holds it (so no URL shown anywhere can)."""
    services = _with_password(compose_project(tmp_path), f"POSTGRES_PASSWORD={password}")
    assert services["db"]["environment"]["POSTGRES_PASSWORD"] == password
    for name in ("migrate", "bot"):
        environment = services[name]["environment"]
        assert environment["PGPASSWORD"] == password
        assert environment["DATABASE_URL"] == "postgresql://croupier@db:5432/croupier"


def test_a_password_of_only_blanks_stops_the_migration_and_so_the_bot(tmp_path: Path) -> None:
    """A quoted "   " passes docker-compose's check (it is not empty); `croupier migrate`, with the very
    environment compose gives it, refuses it in one line before connecting, and the bot starts only
    after a successful migration."""
    services = _with_password(compose_project(tmp_path), 'POSTGRES_PASSWORD="   "')
    migrate = services["migrate"]["environment"]
    assert migrate["PGPASSWORD"] == "   "
    done = croupier(
        "migrate", env={"DATABASE_URL": migrate["DATABASE_URL"], "PGPASSWORD": "   "}, cwd=tmp_path
    )
    assert done.returncode == 2
    assert "PGPASSWORD" in one_clear_line(done)
    assert services["bot"]["depends_on"]["migrate"]["condition"] == "service_completed_successfully"


@pytest.mark.parametrize(
    "db_backend", [pytest.param("postgresql", marks=pytest.mark.postgres)], indirect=True
)
def test_the_store_hands_pgpassword_to_postgresql(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """What docker-compose relies on: a URL without a password, and libpq takes PGPASSWORD."""
    password = "p@ss:w/rd?#%40 x"
    monkeypatch.setenv("PGPASSWORD", password)
    engine = create_engine(db_url)
    try:
        with engine.connect() as connection:
            driver = connection.connection.driver_connection
            assert isinstance(driver, psycopg.Connection)
            assert driver.info.password == password
    finally:
        engine.dispose()


def test_no_password_is_written_into_the_deployment_files() -> None:
    compose = (ROOT / "docker-compose.yml").read_text(encoding="utf-8")
    assert ":-" not in compose  # no fallback values at all (a password above all)
    assert (
        re.findall(r"\$\{POSTGRES_PASSWORD[^}]*\}", compose)
        == ["${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD in .env}"] * 2
    )
    assert not re.search(r"postgresql://[^\s/@:]*:", compose)  # no URL with a password in it
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    assert re.search(r"^POSTGRES_PASSWORD=$", example, re.M)  # the example holds none either
    comment = example.split("POSTGRES_PASSWORD=")[0].rstrip().splitlines()[-1]
    assert "required" in comment
