"""The bot's configuration: one typed object read from environment variables and ``.env``.

Nothing here opens a connection or a file; callers ask :func:`get_settings` once and pass the values
on, so tests can build a :class:`Settings` of their own instead of patching globals.
"""

from __future__ import annotations

import base64
import binascii
import logging
import re
from functools import cache
from typing import Annotated, Any, Literal

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict, SettingsError

from bot.texts.languages import LANGUAGES
from bot.urls import mask_url
from engine.numbers import SNOWFLAKE_MAX, whole_number

DEFAULT_DATABASE_URL = "sqlite:///./data/croupier.sqlite3"
DEFAULT_TURN_TIMEOUT_SECONDS = 86_400  # a day: the pace of the forum games
LOG_LEVELS = ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG")
DEFAULT_WEB_HOST = "127.0.0.1"
DEFAULT_WEB_PORT = 8080
DEFAULT_HEALTH_HOST = "127.0.0.1"
DEFAULT_BACKLOG_MAX = 200

# A Discord bot token is three base64url parts joined by dots; the first encodes the bot's user id.
_TOKEN_PART = re.compile(r"^[A-Za-z0-9_-]+$")


class DatabaseURL(SecretStr):
    """DATABASE_URL: a secret that shows itself masked (``postgresql://bot:***@db/croupier``).

    ``repr``, ``str`` and f-strings give the masked URL, so a settings object in a log line or a
    traceback shows no password; :meth:`get_secret_value` gives the real one to the store.
    """

    def _display(self) -> str:
        return mask_url(self.get_secret_value())


def _split_ints(value: Any) -> Any:
    """Accept ``"1, 2,3"`` from the environment as well as real lists. A part that is no number is
    refused without quoting it: a token pasted into the wrong variable must not be printed back."""
    if isinstance(value, str):
        parts = [part.strip() for part in value.replace(";", ",").split(",")]
        try:
            return [_snowflake(part) for part in parts if part]
        except ValueError:
            raise ValueError("must be whole numbers separated by commas") from None
    if isinstance(value, int):
        return [value]
    return value


def _snowflake(text: str) -> int:
    value = whole_number(text, SNOWFLAKE_MAX)
    if value is None:
        raise ValueError(text)
    return value


class Settings(BaseSettings):
    """Every setting the bot reads; the environment variable is the field name in capitals."""

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        env_ignore_empty=True,  # `DISCORD_TOKEN=` in a copied .env.example means "not set"
        extra="ignore",
        case_sensitive=False,
    )

    database_url: DatabaseURL = DatabaseURL(DEFAULT_DATABASE_URL)
    discord_token: SecretStr | None = None
    discord_guild_ids: Annotated[list[int], NoDecode] = Field(default_factory=list)
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None
    discord_shard_count: int | None = Field(default=None, ge=1)
    discord_shard_ids: Annotated[list[int] | None, NoDecode] = None
    # Read typed words (privileged intent); false, or refused by Discord: buttons and /zug only.
    discord_message_content: bool = True
    log_level: str = "INFO"
    log_format: Literal["text", "json"] = "text"  # json: one JSON object per line (bot/observability/logs.py)
    croupier_language: str | None = None  # a registered language's code (bot/texts/languages.py)
    turn_timeout_seconds: int = Field(default=DEFAULT_TURN_TIMEOUT_SECONDS, gt=0)
    moderator_role: str | None = None
    # The tournament pages (bot/web): served by `croupier web`, and by the bot/console when WEB_PORT is set.
    web_host: str = DEFAULT_WEB_HOST
    web_port: int | None = Field(default=None, ge=1, le=65535)
    web_base_url: str | None = None  # what /settings web=on hands out, e.g. https://dice.example.org
    # Whether the start page lists the tournaments moderators listed (/settings listed=on); off: none.
    web_index: bool = True
    # Liveness, readiness and metrics over HTTP (bot/observability): blank serves none.
    health_host: str = DEFAULT_HEALTH_HOST
    health_port: int | None = Field(default=None, ge=1, le=65535)
    health_backlog_max: int = Field(default=DEFAULT_BACKLOG_MAX, ge=1)  # posts waiting: beyond, not ready

    @field_validator("discord_guild_ids", "discord_shard_ids", mode="before")
    @classmethod
    def _comma_separated(cls, value: Any) -> Any:
        return _split_ints(value)

    @field_validator("log_level", mode="before")
    @classmethod
    def _known_level(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = value.strip().upper()
            if value == "WARN":
                value = "WARNING"
            if value not in LOG_LEVELS:
                raise ValueError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}")
        return value

    @field_validator("log_format", mode="before")
    @classmethod
    def _lower_format(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("croupier_language", mode="before")
    @classmethod
    def _known_language(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = value.strip().lower() or None
            if value is not None and value not in LANGUAGES:
                raise ValueError(f"CROUPIER_LANGUAGE must be one of {', '.join(LANGUAGES)}")
        return value

    @field_validator(
        "discord_api_base", "discord_gateway_url", "moderator_role", "web_base_url", mode="before"
    )
    @classmethod
    def _blank_is_none(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = value.strip()
            return value or None
        return value

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        if self.discord_shard_ids is not None:
            if self.discord_shard_count is None:
                raise ValueError("DISCORD_SHARD_IDS needs DISCORD_SHARD_COUNT")
            if any(not 0 <= i < self.discord_shard_count for i in self.discord_shard_ids):
                raise ValueError("every DISCORD_SHARD_IDS must be at least 0 and below DISCORD_SHARD_COUNT")
        return self

    @property
    def public_web_url(self) -> str:
        """Where people reach the web pages: WEB_BASE_URL, else this process's own host and port."""
        if self.web_base_url:
            return self.web_base_url.rstrip("/")
        return f"http://{self.web_host}:{self.web_port or DEFAULT_WEB_PORT}"

    @property
    def health_url(self) -> str | None:
        """Where this process's health endpoint answers locally (None: HEALTH_PORT is not set); an
        address that listens everywhere is asked on the loopback."""
        if self.health_port is None:
            return None
        host = self.health_host.strip() or DEFAULT_HEALTH_HOST
        if host in ("0.0.0.0", ""):
            host = "127.0.0.1"
        elif host == "::":
            host = "::1"
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{self.health_port}"

    @property
    def log_level_number(self) -> int:
        return logging.getLevelNamesMapping()[self.log_level]

    def token_problem(self) -> str | None:
        """Why the bot cannot log in with DISCORD_TOKEN, in one sentence; None when it looks usable.

        A real Discord token is checked for its shape; against a Discord-compatible server
        (DISCORD_API_BASE set) any non-blank token without spaces is accepted, as such servers issue
        their own.
        """
        if self.discord_token is None:
            return "DISCORD_TOKEN is not set: put the bot token in the environment or in .env."
        token = self.discord_token.get_secret_value()
        stripped = token.strip()
        if not stripped:
            return "DISCORD_TOKEN is empty: put the bot token in the environment or in .env."
        if stripped.lower().startswith("bot "):
            return "DISCORD_TOKEN starts with 'Bot ': give the token alone, without the prefix."
        if stripped != token or any(c.isspace() for c in stripped) or stripped[0] in "\"'":
            return "DISCORD_TOKEN contains spaces or quotes: copy the token alone, with nothing around it."
        if self.discord_api_base is not None:
            return None
        parts = stripped.split(".")
        if len(parts) != 3 or not all(_TOKEN_PART.match(part) for part in parts):
            return (
                "DISCORD_TOKEN does not look like a Discord bot token (three parts separated by dots); "
                "copy it again from the Developer Portal (Bot → Reset Token)."
            )
        if not _encodes_user_id(parts[0]):
            return (
                "DISCORD_TOKEN does not look like a bot token: its first part should encode the bot's "
                "user id. Is this the client secret? Copy the token from the Bot page instead."
            )
        return None


def _encodes_user_id(part: str) -> bool:
    try:
        decoded = base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))
    except (binascii.Error, ValueError):
        return False
    return whole_number(decoded.decode("ascii", errors="replace"), SNOWFLAKE_MAX) is not None


def settings_problem(error: ValidationError | SettingsError) -> str:
    """What is wrong with the settings, in one line naming the variable — never its value, which
    may be a secret pasted into the wrong place."""
    if not isinstance(error, ValidationError):
        return f"invalid settings: {str(error).splitlines()[0] if str(error) else type(error).__name__}"
    problems = error.errors(include_url=False, include_input=False, include_context=False)
    first = problems[0]
    message = " ".join(str(first["msg"]).removeprefix("Value error, ").split())
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    if not first["loc"]:  # a check across settings: its message names them
        return f"invalid settings: {message}{more}"
    return f"invalid setting {str(first['loc'][0]).upper()}: {message}{more}"


@cache
def get_settings() -> Settings:
    """The process-wide settings, read once (``get_settings.cache_clear()`` re-reads them)."""
    return Settings()
