"""The deployment files: docker-compose.yml as docker-compose itself reads it, the Dockerfile, .dockerignore.

`docker-compose config` (Debian's docker-compose package; it needs no Docker engine) validates and normalises
the compose file. Without the tool the test is skipped on a developer machine but fails under CI (the CI
environment variable), where `make test` is expected to have installed it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _compose_binary() -> str:
    found = shutil.which("docker-compose")
    if found is None:
        message = "docker-compose is not installed (Debian: apt-get install -y docker-compose)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return found


def _scalar(text: str) -> Any:
    if text in ("{}", "[]"):
        return {} if text == "{}" else []
    if len(text) >= 2 and text[0] == text[-1] == "'":
        return text[1:-1].replace("''", "'")
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return text[1:-1].replace('\\"', '"')
    if text in ("true", "false"):
        return text == "true"
    if text in ("null", "~"):
        return None
    return int(text) if re.fullmatch(r"-?\d+", text) else text


def parse_block_yaml(text: str) -> Any:
    """Read the normalised block YAML that `docker-compose config` prints (mappings, `- ` sequences, plain or
    quoted scalars, long scalars folded onto deeper lines): PyYAML is not a project dependency."""
    lines = [(len(raw) - len(raw.lstrip(" ")), raw.strip()) for raw in text.splitlines() if raw.strip()]
    lines = [(indent, body) for indent, body in lines if not body.startswith("#")]

    def starts_entry(body: str) -> bool:
        return body.startswith("- ") or bool(re.match(r"^[\w.-]+:( |$)", body))

    def block(index: int, indent: int) -> tuple[Any, int]:
        if lines[index][1].startswith("- ") or lines[index][1] == "-":
            return sequence(index, indent)
        return mapping(index, indent)

    def value_after(index: int, indent: int, rest: str) -> tuple[Any, int]:
        if rest:
            while index < len(lines) and lines[index][0] > indent and not starts_entry(lines[index][1]):
                rest += " " + lines[index][1]  # a long plain scalar folded over several lines
                index += 1
            return _scalar(rest), index
        if index < len(lines) and (lines[index][0] > indent or lines[index][1].startswith("- ")):
            return block(index, lines[index][0])
        return None, index

    def mapping(index: int, indent: int) -> tuple[dict[str, Any], int]:
        result: dict[str, Any] = {}
        while index < len(lines) and lines[index][0] == indent and not lines[index][1].startswith("- "):
            key, _, rest = lines[index][1].partition(":")
            result[_scalar(key.strip())], index = value_after(index + 1, indent, rest.strip())
        return result, index

    def sequence(index: int, indent: int) -> tuple[list[Any], int]:
        result: list[Any] = []
        while index < len(lines) and lines[index][0] == indent and lines[index][1].startswith("- "):
            item = lines[index][1][2:]
            if re.match(r"^[\w.-]+:( |$)", item):  # a mapping that starts on the dash line
                lines[index] = (indent + 2, item)
                value, index = mapping(index, indent + 2)
            else:
                value, index = value_after(index + 1, indent, item)
            result.append(value)
        return result, index

    parsed, _ = block(0, lines[0][0])
    return parsed


def load_yaml(text: str) -> Any:
    try:
        import yaml
    except ImportError:
        return parse_block_yaml(text)
    return yaml.safe_load(text)


def test_parse_block_yaml_reads_compose_output() -> None:
    text = (
        "a:\n  b:\n  - x\n  - 'y: z'\n  c: ''\n  d: {}\n"
        "  e:\n  - k: 1\n    l: two\n  f: a long\n    folded value\n"
    )
    assert parse_block_yaml(text) == {
        "a": {"b": ["x", "y: z"], "c": "", "d": {}, "e": [{"k": 1, "l": "two"}], "f": "a long folded value"}
    }


TEST_DB_PASSWORD = "compose-test-password"


def compose_project(folder: Path) -> Path:
    """A copy of the deployment files in ``folder``, with .env made from .env.example and the database
    password set (docker-compose refuses to start without one)."""
    shutil.copy(ROOT / "docker-compose.yml", folder / "docker-compose.yml")
    shutil.copy(ROOT / "Dockerfile", folder / "Dockerfile")
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    env = re.sub(r"^POSTGRES_PASSWORD=$", f"POSTGRES_PASSWORD={TEST_DB_PASSWORD}", example, flags=re.M)
    (folder / ".env").write_text(env, encoding="utf-8")
    return folder


def resolve_compose(project: Path, *files: str) -> dict[str, Any]:
    """``project``'s compose files (docker-compose.yml first) as `docker-compose config` resolves them."""
    command = [_compose_binary(), "--project-directory", str(project)]
    for name in ("docker-compose.yml", *files):
        command += ["--file", str(project / name)]
    env = {k: v for k, v in os.environ.items() if k != "POSTGRES_PASSWORD"}
    result = subprocess.run(
        [*command, "config"], capture_output=True, text=True, timeout=120, env=env, check=False
    )
    assert result.returncode == 0, result.stderr
    parsed = load_yaml(result.stdout)
    assert isinstance(parsed, dict)
    return parsed


@pytest.fixture(scope="module")
def compose(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """docker-compose.yml as docker-compose resolves it, in a project copy with .env from .env.example."""
    return resolve_compose(compose_project(tmp_path_factory.mktemp("compose")))


def test_compose_has_the_database_the_migration_and_the_bot(compose: dict[str, Any]) -> None:
    assert set(compose["services"]) == {"db", "migrate", "bot"}
    assert str(compose["services"]["db"]["image"]).startswith("postgres:16")


def test_bot_starts_only_after_the_migration_completed(compose: dict[str, Any]) -> None:
    bot, migrate = compose["services"]["bot"], compose["services"]["migrate"]
    assert bot["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    assert bot["depends_on"]["db"]["condition"] == "service_healthy"
    assert migrate["depends_on"]["db"]["condition"] == "service_healthy"
    assert migrate["command"] == ["croupier", "migrate"]
    assert migrate["restart"] == "no"
    assert bot["command"] == ["croupier", "run"]
    assert bot["restart"] == "unless-stopped"
    assert bot["healthcheck"]["test"] == ["CMD", "croupier", "healthcheck"]
    # the healthcheck asks the bot's readiness on its own endpoint, not just the database
    assert str(bot["environment"]["HEALTH_PORT"]) == "9180"


def test_database_is_healthchecked_and_kept_in_a_named_volume(compose: dict[str, Any]) -> None:
    db = compose["services"]["db"]
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])
    assert "croupier-db" in compose["volumes"]
    assert any(str(v).startswith("croupier-db:/var/lib/postgresql/data") for v in db["volumes"])


def test_bot_reads_env_file_and_points_at_the_database(compose: dict[str, Any]) -> None:
    for name in ("migrate", "bot"):
        environment = compose["services"][name]["environment"]
        assert "DISCORD_TOKEN" in environment  # came from the env_file
        assert environment["DATABASE_URL"] == "postgresql://croupier@db:5432/croupier"
        assert environment["PGPASSWORD"] == TEST_DB_PASSWORD  # the password beside the URL, not in it


def test_dockerfile_runs_the_bot_as_a_non_root_user() -> None:
    text = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.11-slim\b", text, re.M)
    users = re.findall(r"^USER\s+(\S+)", text, re.M)
    assert users
    assert users[-1] not in ("root", "0")
    assert re.search(r'^CMD \["croupier", "run"\]$', text, re.M)
    assert re.search(r"^COPY migrations ", text, re.M)  # `croupier migrate` needs the revisions
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".env", ".venv", ".git", "data"} <= set(ignored)
