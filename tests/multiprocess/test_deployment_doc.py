"""docs/deployment.md: its compose override is valid and splits the shards, and the tests it cites exist.

The override is read by docker-compose itself (``config``, which needs no Docker engine) on top of the
real docker-compose.yml; without the tool the compose test is skipped, unless CI is set.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.test_deploy import compose_project, resolve_compose

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "deployment.md").read_text(encoding="utf-8")
BOTS = ("bot", "bot-shard-1")


def _override() -> str:
    blocks = [block for block in re.findall(r"```yaml\n(.*?)```", DOC, re.S) if "\nservices:" in block]
    assert len(blocks) == 1, "docs/deployment.md should show exactly one compose override"
    return str(blocks[0])


@pytest.fixture(scope="module")
def resolved(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """docker-compose.yml plus the documented override, as docker-compose resolves them."""
    project = compose_project(tmp_path_factory.mktemp("compose-shards"))
    (project / "docker-compose.shards.yml").write_text(_override(), encoding="utf-8")
    shown = re.search(r"docker-compose -f docker-compose\.yml -f (\S+) up -d", DOC)
    assert shown is not None
    assert shown.group(1) == "docker-compose.shards.yml"
    return resolve_compose(project, "docker-compose.shards.yml")


def test_the_override_gives_each_bot_service_its_own_shard_of_one_database(resolved: dict[str, Any]) -> None:
    services = resolved["services"]
    assert set(services) == {"db", "migrate", *BOTS}
    environments = [services[name]["environment"] for name in BOTS]
    assert {str(env["DISCORD_SHARD_COUNT"]) for env in environments} == {"2"}
    assert sorted(str(env["DISCORD_SHARD_IDS"]) for env in environments) == ["0", "1"]
    assert len({env["DATABASE_URL"] for env in environments}) == 1
    assert environments[0]["DATABASE_URL"].endswith("@db:5432/croupier")
    assert "DISCORD_TOKEN" in environments[1]  # from .env, like the base service
    assert {str(env["HEALTH_PORT"]) for env in environments} == {"9180"}  # each its own container


def test_every_bot_service_waits_for_the_migration_and_is_health_checked(resolved: dict[str, Any]) -> None:
    services = resolved["services"]
    for name in BOTS:
        bot = services[name]
        assert bot["command"] == ["croupier", "run"]
        assert bot["image"] == services["migrate"]["image"]
        assert bot["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
        assert bot["depends_on"]["db"]["condition"] == "service_healthy"
        assert bot["restart"] == "unless-stopped"
        assert bot["healthcheck"]["test"] == ["CMD", "croupier", "healthcheck"]


def test_the_tests_the_page_cites_exist() -> None:
    cited = set(re.findall(r"`(tests/[\w/.]+)`", DOC))
    assert "tests/multiprocess/test_sharded_processes.py" in cited
    missing = sorted(path for path in cited if not (ROOT / path).exists())
    assert missing == []
