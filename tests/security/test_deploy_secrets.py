"""Item 11 of the security issue: docker-compose never starts PostgreSQL with a password everyone knows.

Without POSTGRES_PASSWORD (an empty one in a copied .env.example included) `docker-compose` refuses with a
message saying what to set, instead of falling back on a fixed password; with one, the database and the
bot's DATABASE_URL use it.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

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


def test_compose_uses_the_password_it_is_given(tmp_path: Path) -> None:
    project = compose_project(tmp_path)
    env_file = project / ".env"
    env_file.write_text(
        re.sub(
            r"^POSTGRES_PASSWORD=.*$", "POSTGRES_PASSWORD=Zq8-long-random", env_file.read_text(), flags=re.M
        ),
        encoding="utf-8",
    )
    services = resolve_compose(project)["services"]
    assert services["db"]["environment"]["POSTGRES_PASSWORD"] == "Zq8-long-random"
    for name in ("migrate", "bot"):
        assert (
            services[name]["environment"]["DATABASE_URL"]
            == "postgresql://croupier:Zq8-long-random@db:5432/croupier"
        )


def test_no_password_is_written_into_the_deployment_files() -> None:
    compose = (ROOT / "docker-compose.yml").read_text(encoding="utf-8")
    assert ":-" not in compose  # no fallback values at all (a password above all)
    assert (
        re.findall(r"\$\{POSTGRES_PASSWORD[^}]*\}", compose)
        == ["${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD in .env}"] * 2
    )
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    assert re.search(r"^POSTGRES_PASSWORD=$", example, re.M)  # the example holds none either
    comment = example.split("POSTGRES_PASSWORD=")[0].rstrip().splitlines()[-1]
    assert "required" in comment
