"""Items 8 (long lines) and 9 (clear errors) of the security issue, for the command line.

Discord takes at most 2,000 characters a message, so neither the console nor ``croupier replay`` takes a
longer line: the console answers that the line is too long and does nothing, replay refuses the script
naming the line (exit 2). Whatever a user feeds the CLI — a script nested 100,000 deep, a file that is
not UTF-8, settings that do not fit together — ends in one line on stderr and exit code 2, never a
traceback.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest
from pydantic import ValidationError
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource
from sqlalchemy import text
from sqlalchemy.engine import make_url

from bot.console.terminal import LINE_MAX, Console, run_console
from bot.service.croupier import Croupier
from bot.settings import Settings
from bot.store import Store, create_engine, upgrade
from tests.conftest import BACKENDS, PostgresServer

ROOT = Path(__file__).resolve().parents[2]
SUBCOMMANDS = [
    ["start"],
    ["run"],
    ["console"],
    ["replay", "-"],
    ["export"],
    ["verify"],
    ["migrate"],
    ["healthcheck"],
    ["odds"],
]


def croupier(
    *args: str, env: dict[str, str] | None = None, stdin: str = "", cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """The real command line in a fresh process (no .env: the working directory is a temp folder)."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_", "LOG_"))}
    environment.update(env or {})
    environment["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env=environment,
        cwd=cwd,
        check=False,
    )


def one_clear_line(done: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("croupier: "), lines[0]
    return lines[0]


# ---------------------------------------------------------------------- settings


@pytest.mark.parametrize("args", SUBCOMMANDS, ids=[a[0] for a in SUBCOMMANDS])
def test_settings_that_do_not_fit_together_are_one_line_naming_them(args: list[str], tmp_path: Path) -> None:
    done = croupier(*args, env={"DISCORD_SHARD_IDS": "5", "DISCORD_SHARD_COUNT": "2"}, cwd=tmp_path)
    assert done.returncode == 2
    line = one_clear_line(done)
    assert "DISCORD_SHARD_IDS" in line
    assert "DISCORD_SHARD_COUNT" in line


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("LOG_LEVEL", "loud"),
        ("TURN_TIMEOUT_SECONDS", "soon"),
        ("DISCORD_SHARD_COUNT", "0"),
        ("DISCORD_GUILD_IDS", "my-guild"),
        ("CROUPIER_LANGUAGE", "tlh"),
    ],
)
def test_an_invalid_setting_is_one_line_naming_it(name: str, value: str, tmp_path: Path) -> None:
    done = croupier("healthcheck", env={name: value}, cwd=tmp_path)
    assert done.returncode == 2
    line = one_clear_line(done)
    assert f"invalid setting {name}:" in line


PASTED_TOKEN = "MTIz.secret-token-part"  # shaped like the start of a bot token


class _Given(Settings):
    """The settings' fields and checks, fed nothing but the values given (no environment, no .env)."""

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (init_settings,)


def refusing(value: str) -> list[str]:
    """Every setting that refuses ``value`` (the others take any text), as its variable is named."""
    names = []
    for name in Settings.model_fields:
        try:
            _Given(**{name: value})
        except ValidationError:
            names.append(name.upper())
    return names


REFUSING_A_TOKEN = refusing(PASTED_TOKEN)


def test_every_setting_that_can_be_invalid_is_checked_for_echoes() -> None:
    assert {"DISCORD_SHARD_IDS", "DISCORD_GUILD_IDS", "TURN_TIMEOUT_SECONDS", "WEB_PORT"} <= set(
        REFUSING_A_TOKEN
    )


@pytest.mark.parametrize("name", REFUSING_A_TOKEN)
def test_an_invalid_setting_is_named_without_its_value(name: str, tmp_path: Path) -> None:
    """A token pasted into the wrong variable must not be printed back, whichever variable it is."""
    done = croupier("healthcheck", env={name: PASTED_TOKEN}, cwd=tmp_path)
    assert done.returncode == 2
    line = one_clear_line(done)
    assert f"invalid setting {name}:" in line
    assert "secret-token-part" not in line
    assert "MTIz" not in line


DB_SECRET = "s3cret-Pa55"


@pytest.mark.parametrize(
    ("url", "says"),
    [
        (f"mysql://croupier:{DB_SECRET}@db/croupier", "unsupported database 'mysql'"),
        (f"postgresql://croupier:{DB_SECRET}@db:notaport/croupier", "the port must be a number"),
        (
            f"postgresql://croupier@db/croupier?PASSWORD={DB_SECRET}",
            "unknown connection parameter 'PASSWORD'",
        ),
    ],
    ids=["mysql", "bad-port", "upper-case-parameter"],
)
def test_a_database_url_the_store_cannot_use_is_one_line_exit_2(url: str, says: str, tmp_path: Path) -> None:
    done = croupier("migrate", env={"DATABASE_URL": url}, cwd=tmp_path)  # what docker-compose runs first
    assert done.returncode == 2
    line = one_clear_line(done)
    assert says in line
    assert DB_SECRET not in line


def test_an_env_file_that_is_not_utf8_is_one_line_exit_2(tmp_path: Path) -> None:
    (tmp_path / ".env").write_bytes("MODERATOR_ROLE=Modérateur\n".encode("latin-1"))
    done = croupier("healthcheck", cwd=tmp_path)
    assert done.returncode == 2
    line = one_clear_line(done)
    assert ".env" in line
    assert "UTF-8" in line


def test_a_failed_start_is_one_line(tmp_path: Path) -> None:
    """`croupier run` that cannot reach Discord: the reason alone, without discord.py's notes above it
    (voice support missing — the bot has no voice —, "logging in using static token")."""
    token = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GhIjKl.abcdefghijklmnopqrstuvwxyz0123"  # a well-formed bot token
    env = {"DISCORD_TOKEN": token, "DISCORD_API_BASE": "http://127.0.0.1:9/api"}  # nobody listens on 9
    done = croupier("run", "--db", f"sqlite:///{tmp_path / 'run.sqlite3'}", env=env, cwd=tmp_path)
    assert done.returncode == 1
    assert "cannot reach Discord" in one_clear_line(done)


# ---------------------------------------------------------------------- replay


def test_a_script_nested_100000_deep_is_one_line_exit_2(tmp_path: Path) -> None:
    script = tmp_path / "deep.json"
    script.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    done = croupier("replay", str(script), cwd=tmp_path)
    assert done.returncode == 2
    assert "nested" in one_clear_line(done)


def test_a_script_that_is_not_utf8_is_one_line_exit_2(tmp_path: Path) -> None:
    script = tmp_path / "latin1.json"
    script.write_bytes('{"game": "verflixte6", "players": ["Zoë"]}'.encode("latin-1"))
    done = croupier("replay", str(script), cwd=tmp_path)
    assert done.returncode == 2
    assert "UTF-8" in one_clear_line(done)


def test_a_script_number_of_more_than_4300_digits_is_one_line_exit_2(tmp_path: Path) -> None:
    done = croupier("replay", "-", stdin='{"game": "verflixte6", "dice": [' + "3" * 5000 + "]}", cwd=tmp_path)
    assert done.returncode == 2
    assert "digits" in one_clear_line(done)


def _script(text: str, player: str = "anna") -> str:
    return json.dumps(
        {"game": "verflixte6", "players": [player], "dice": [3], "lines": [{"from": player, "text": text}]}
    )


def test_a_replay_line_longer_than_discord_allows_is_refused_naming_it(tmp_path: Path) -> None:
    done = croupier("replay", "-", stdin=_script("weiter " + "x" * LINE_MAX), cwd=tmp_path)
    assert done.returncode == 2
    line = one_clear_line(done)
    assert "lines[0].text" in line or "lines.0.text" in line
    assert str(LINE_MAX) in line


def test_a_replay_line_of_exactly_the_limit_is_played(tmp_path: Path) -> None:
    text = "weiter" + " " * (LINE_MAX - len("weiter"))
    done = croupier("replay", "-", stdin=_script(text), cwd=tmp_path)
    assert done.returncode == 0, done.stderr


def test_a_too_long_replay_player_name_is_refused(tmp_path: Path) -> None:
    done = croupier("replay", "-", stdin=_script("weiter", player="a" * 101), cwd=tmp_path)
    assert done.returncode == 2
    assert "players" in one_clear_line(done)


def test_a_too_large_script_is_refused_unread(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot import cli
    from bot.console import replay

    monkeypatch.setattr(replay, "SCRIPT_MAX_BYTES", 1000)
    script = tmp_path / "big.json"
    script.write_text(_script("weiter " + "x" * 1000), encoding="utf-8")
    assert cli.main(["replay", str(script)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "larger than" in err


# ---------------------------------------------------------------------- console


@pytest.fixture
def console(store: Store) -> Console:
    return Console(Croupier(store=store), moderators=frozenset({"mod"}), admins=frozenset({"mod"}))


async def test_a_console_line_longer_than_discord_allows_is_refused(console: Console, store: Store) -> None:
    await console.handle("mod: /open verflixte6")
    long_line = "anna: /join " + "x" * LINE_MAX
    answer = await console.handle(long_line)
    assert answer is not None
    assert not answer.ok
    assert str(LINE_MAX) in answer.text
    joined = await console.handle("anna: /standings")  # the long line did nothing: anna never joined
    assert joined is not None
    record = await store.run(lambda uow: uow.games.open_in("console"), read_only=True)
    assert record is not None
    assert "anna" not in json.dumps(record.snapshot)


async def test_a_console_line_of_exactly_the_limit_is_handled(console: Console) -> None:
    await console.handle("mod: /open verflixte6")
    line = "anna: /join"
    answer = await console.handle(line + " " * (LINE_MAX - len(line)))
    assert answer is not None
    assert answer.ok, answer.text


async def test_a_console_line_of_blanks_is_answered_at_once(console: Console) -> None:
    """The line pattern must not backtrack for ages on a long line of blanks without a colon."""
    started = time.monotonic()
    answer = await console.handle("x" + " " * 200_000 + "y")
    assert answer is not None
    assert not answer.ok
    assert time.monotonic() - started < 2


async def test_a_huge_console_line_is_read_in_bounded_pieces_and_refused_once(console: Console) -> None:
    stdin = io.StringIO("anna: " + "x" * 5_000_000 + "\nmod: /help\n")
    stdout = io.StringIO()
    assert await asyncio.wait_for(run_console(console, stdin=stdin, stdout=stdout, as_json=True), 30) == 0
    answers = [json.loads(line) for line in stdout.getvalue().splitlines()]
    assert [a["ok"] for a in answers] == [False, True]
    assert str(LINE_MAX) in answers[0]["text"]


# ---------------------------------------------------------------------- croupier migrate

_LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ [A-Z]+ ")


def one_line_among_the_log(done: subprocess.CompletedProcess[str]) -> str:
    """``croupier migrate`` logs each step (docker-compose shows it on every ``up``): beside those log
    lines, one ``croupier: …`` line and no traceback, no statement."""
    assert "Traceback" not in done.stderr, done.stderr
    assert "CREATE TABLE" not in done.stderr
    said = [line for line in done.stderr.splitlines() if not _LOG_LINE.match(line)]
    assert len(said) == 1, done.stderr
    assert said[0].startswith("croupier: "), said[0]
    return said[0]


@pytest.mark.parametrize("db_backend", BACKENDS, indirect=True)
def test_migrating_a_database_a_newer_croupier_migrated_is_one_line(
    blank_db_url: str, tmp_path: Path
) -> None:
    """What rolling the image back does: the database is at a revision this Croupier does not know."""
    upgrade(blank_db_url)
    engine = create_engine(blank_db_url)
    try:
        with engine.begin() as connection:
            connection.execute(text("UPDATE alembic_version SET version_num = '0099_newer'"))
    finally:
        engine.dispose()
    done = croupier("migrate", "--db", blank_db_url, cwd=tmp_path)
    assert done.returncode == 1
    line = one_line_among_the_log(done)
    assert "0099_newer" in line
    assert "newer Croupier" in line


@pytest.mark.postgres
def test_migrating_where_tables_may_not_be_created_is_one_line(
    postgres_server: PostgresServer, tmp_path: Path
) -> None:
    """A database user without CREATE on the schema: the server refuses the first table."""
    database = postgres_server.create("nocreate")
    role = f"{postgres_server.prefix}_nocreate"
    admin = make_url(postgres_server.url(database))
    with psycopg.connect(admin.render_as_string(hide_password=False), autocommit=True) as connection:
        connection.execute(f'CREATE ROLE "{role}" LOGIN')
        connection.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC")  # as PostgreSQL 15 has it
    try:
        url = admin.set(username=role, password=None).render_as_string(hide_password=False)
        done = croupier("migrate", "--db", url, cwd=tmp_path)
        assert done.returncode == 1
        line = one_line_among_the_log(done)
        assert "permission denied for schema public" in line
        assert "nothing was changed" in line
    finally:
        with psycopg.connect(admin.render_as_string(hide_password=False), autocommit=True) as connection:
            connection.execute(f'DROP ROLE "{role}"')


# ---------------------------------------------------------------------- a reader that goes away

PLAYED = (
    "mod: /tournament Cup\nmod: /open verflixte6\nanna: /join\nben: /join\nmod: /start\n"
    "anna: weiter\nanna: stopp\nben: weiter\nben: stopp\n"
)


def _into_a_closed_pipe(*args: str, cwd: Path) -> tuple[int, str]:
    """The command with its stdout a pipe whose reader is gone already (``croupier … | head`` once head
    has what it wanted): its exit code and stderr."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_", "LOG_"))}
    process = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**environment, "PYTHONPATH": str(ROOT)},
        cwd=cwd,
    )
    assert process.stdout is not None
    assert process.stderr is not None
    process.stdout.close()
    err = process.stderr.read().decode()
    return process.wait(timeout=120), err


def test_output_piped_into_a_reader_that_stops_ends_quietly(tmp_path: Path) -> None:
    """``croupier stats --json | head`` and ``croupier replay … | head``: no BrokenPipeError traceback,
    no "Exception ignored" at exit; the exit code is a shell's for a process SIGPIPE ended."""
    url = f"sqlite:///{tmp_path / 'cup.sqlite3'}"
    played = croupier(
        "console", "--db", url, "--moderator", "mod", "--dice-seed", "s", stdin=PLAYED, cwd=tmp_path
    )
    assert played.returncode == 0, played.stderr
    script = tmp_path / "script.json"
    script.write_text(_script("weiter"), encoding="utf-8")
    for args in (["stats", "--db", url, "--json"], ["replay", str(script)], ["export", "--db", url]):
        code, err = _into_a_closed_pipe(*args, cwd=tmp_path)
        assert (code, err) == (141, ""), args
