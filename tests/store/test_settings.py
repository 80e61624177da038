"""Settings: environment and .env parsing, defaults, and the token check (bot/settings.py)."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import pytest
from pydantic import ValidationError
from pydantic_settings import SettingsConfigDict

from bot.settings import DEFAULT_DATABASE_URL, Settings, get_settings

ENV_NAMES = [name.upper() for name in Settings.model_fields]
REPO = Path(__file__).resolve().parents[2]
# Shaped like a real token (the id part is base64 of digits); not a working one.
WELL_FORMED_TOKEN = (
    base64.urlsafe_b64encode(b"123456789012345678").decode().rstrip("=") + ".GaBcDe." + "x" * 38
)


class NoDotenvSettings(Settings):
    """The real settings, minus the .env file: what the environment alone gives."""

    model_config = SettingsConfigDict(**{**Settings.model_config, "env_file": None})


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No setting leaks in from the developer's shell or a .env in the working directory."""
    for name in ENV_NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    get_settings.cache_clear()


def load(**env: str) -> Settings:
    """Settings read from exactly these environment variables (and no .env file)."""
    with pytest.MonkeyPatch.context() as patch:
        for name, value in env.items():
            patch.setenv(name, value)
        return NoDotenvSettings()


def test_defaults_need_no_configuration() -> None:
    settings = NoDotenvSettings()
    assert (
        settings.database_url.get_secret_value()
        == DEFAULT_DATABASE_URL
        == "sqlite:///./data/croupier.sqlite3"
    )
    assert settings.discord_token is None
    assert settings.discord_guild_ids == []
    assert settings.discord_api_base is None
    assert settings.discord_gateway_url is None
    assert settings.discord_shard_count is None
    assert settings.discord_shard_ids is None
    assert settings.log_level == "INFO"
    assert settings.croupier_language is None
    assert settings.turn_timeout_seconds == 86_400
    assert settings.moderator_role is None
    assert settings.log_format == "text"
    assert (settings.health_host, settings.health_port, settings.health_url) == ("127.0.0.1", None, None)
    assert settings.health_backlog_max == 200


def test_the_health_endpoint_is_asked_on_the_loopback_where_it_listens_everywhere() -> None:
    assert load(HEALTH_PORT="9180").health_url == "http://127.0.0.1:9180"
    assert load(HEALTH_PORT="9180", HEALTH_HOST="0.0.0.0").health_url == "http://127.0.0.1:9180"
    assert load(HEALTH_PORT="9180", HEALTH_HOST="::").health_url == "http://[::1]:9180"
    assert load(HEALTH_PORT="9180", HEALTH_HOST="10.0.0.5").health_url == "http://10.0.0.5:9180"
    assert load(LOG_FORMAT=" JSON ").log_format == "json"


def test_environment_variables_fill_every_field(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot:pw@db/croupier")
    monkeypatch.setenv("DISCORD_TOKEN", "abc.def.ghi")
    monkeypatch.setenv("DISCORD_GUILD_IDS", "111, 222,333")
    monkeypatch.setenv("DISCORD_API_BASE", "http://127.0.0.1:8080/api")
    monkeypatch.setenv("DISCORD_GATEWAY_URL", "ws://127.0.0.1:8080/gateway")
    monkeypatch.setenv("DISCORD_SHARD_COUNT", "4")
    monkeypatch.setenv("DISCORD_SHARD_IDS", "0,2")
    monkeypatch.setenv("LOG_LEVEL", "debug")
    monkeypatch.setenv("CROUPIER_LANGUAGE", "FR")
    monkeypatch.setenv("TURN_TIMEOUT_SECONDS", "3600")
    monkeypatch.setenv("MODERATOR_ROLE", "Spielleitung")
    settings = NoDotenvSettings()
    assert settings.database_url.get_secret_value() == "postgresql://bot:pw@db/croupier"
    assert "pw" not in repr(settings.database_url)
    assert settings.discord_token is not None
    assert settings.discord_token.get_secret_value() == "abc.def.ghi"
    assert "abc.def.ghi" not in repr(settings)
    assert settings.discord_guild_ids == [111, 222, 333]
    assert settings.discord_api_base == "http://127.0.0.1:8080/api"
    assert settings.discord_gateway_url == "ws://127.0.0.1:8080/gateway"
    assert settings.discord_shard_count == 4
    assert settings.discord_shard_ids == [0, 2]
    assert settings.log_level == "DEBUG"
    assert settings.log_level_number == 10
    assert settings.croupier_language == "fr"
    assert settings.turn_timeout_seconds == 3600
    assert settings.moderator_role == "Spielleitung"


def test_dotenv_file_is_read_and_blank_values_mean_unset(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(
        "DISCORD_TOKEN=\nDISCORD_GUILD_IDS=42\nTURN_TIMEOUT_SECONDS=60\nMODERATOR_ROLE=\n", encoding="utf-8"
    )
    settings = Settings()
    assert settings.discord_token is None
    assert settings.discord_guild_ids == [42]
    assert settings.turn_timeout_seconds == 60
    assert settings.moderator_role is None


def test_environment_beats_dotenv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".env").write_text("LOG_LEVEL=ERROR\n", encoding="utf-8")
    monkeypatch.setenv("LOG_LEVEL", "warn")
    assert Settings().log_level == "WARNING"


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("LOG_LEVEL", "chatty"),
        ("CROUPIER_LANGUAGE", "es"),
        ("TURN_TIMEOUT_SECONDS", "0"),
        ("DISCORD_GUILD_IDS", "12,abc"),
        ("DISCORD_SHARD_COUNT", "0"),
        ("LOG_FORMAT", "xml"),
        ("HEALTH_PORT", "70000"),
        ("HEALTH_BACKLOG_MAX", "0"),
    ],
)
def test_bad_values_are_refused_with_the_setting_named(name: str, value: str) -> None:
    with pytest.raises(ValidationError) as caught:
        load(**{name: value})
    assert name.lower() in str(caught.value)


def test_shard_ids_need_a_count_and_must_fit_it() -> None:
    with pytest.raises(ValidationError, match="DISCORD_SHARD_COUNT"):
        load(DISCORD_SHARD_IDS="0")
    with pytest.raises(ValidationError, match="below DISCORD_SHARD_COUNT"):
        load(DISCORD_SHARD_COUNT="2", DISCORD_SHARD_IDS="1,2")


def test_get_settings_is_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOG_LEVEL", "ERROR")
    first = get_settings()
    monkeypatch.setenv("LOG_LEVEL", "DEBUG")
    assert get_settings() is first
    assert first.log_level == "ERROR"
    get_settings.cache_clear()
    assert get_settings().log_level == "DEBUG"


def test_well_formed_token_has_no_problem() -> None:
    assert load(DISCORD_TOKEN=WELL_FORMED_TOKEN).token_problem() is None


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        (None, "is not set"),
        ("Bot " + WELL_FORMED_TOKEN, "without the prefix"),
        (f'"{WELL_FORMED_TOKEN}"', "spaces or quotes"),
        (WELL_FORMED_TOKEN[:10] + " " + WELL_FORMED_TOKEN[10:], "spaces or quotes"),
        ("just-a-password", "three parts"),
        ("a.b", "three parts"),
        ("abc.d$f.ghi", "three parts"),
        (base64.urlsafe_b64encode(b"not-an-id").decode().rstrip("=") + ".GaBcDe.xyz", "user id"),
    ],
)
def test_token_problem_explains_what_is_wrong(token: str | None, expected: str) -> None:
    settings = load() if token is None else load(DISCORD_TOKEN=token)
    problem = settings.token_problem()
    assert problem is not None
    assert "DISCORD_TOKEN" in problem
    assert expected in problem
    assert "\n" not in problem  # one clear line, no traceback


def test_a_compatible_server_may_issue_tokens_of_any_shape() -> None:
    settings = load(DISCORD_TOKEN="local-test-token", DISCORD_API_BASE="http://127.0.0.1:9999/api")
    assert settings.token_problem() is None
    assert load(DISCORD_TOKEN="two words", DISCORD_API_BASE="http://x/api").token_problem() is not None


def test_env_example_names_the_default_database_as_the_croupier_reads_it() -> None:
    """Its SQLite URL is the default the settings use — no driver the croupier no longer uses."""
    text = (REPO / ".env.example").read_text(encoding="utf-8")
    assert f"DATABASE_URL={DEFAULT_DATABASE_URL}\n" in text
    assert "aiosqlite" not in text


def test_env_example_lists_every_setting_with_a_comment() -> None:
    text = (REPO / ".env.example").read_text(encoding="utf-8")
    lines = text.splitlines()
    listed = {}
    for index, line in enumerate(lines):
        match = re.match(r"^#?\s*([A-Z_]+)=", line)
        if match:
            listed[match.group(1)] = index
    compose_only = {"POSTGRES_PASSWORD"}  # read by docker-compose.yml, not by the bot
    assert sorted(set(listed) - compose_only) == sorted(ENV_NAMES)
    for name, index in listed.items():
        assert index > 0, name
        assert lines[index - 1].startswith("# "), f"{name} needs a one-line comment above it"
