"""Item 1 of the security issue: no password of a database URL is ever printed or shown.

``croupier migrate`` prints the URL it migrated (docker-compose's ``migrate`` service does so on every
``up``, into the logs), ``croupier start`` shows it in the console banner, and the settings object may
end up in a log line or a traceback. Every one of them shows the URL with its password masked —
also a password given as a query parameter, and a password holding a raw ``@``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot import cli
from bot.settings import Settings, get_settings
from bot.store import Store
from bot.urls import mask_url, mask_urls_in

SECRET = "s3cret-Pa55"

# (URL as an operator writes it, what any output may show of it)
URLS = [
    (f"postgresql://croupier:{SECRET}@db:5432/croupier", "postgresql://croupier:***@db:5432/croupier"),
    (
        f"postgresql://croupier:{SECRET}@db/croupier?sslmode=require",
        "postgresql://croupier:***@db/croupier?sslmode=require",
    ),
    (
        f"postgresql://croupier@db/croupier?password={SECRET}&sslmode=require",
        "postgresql://croupier@db/croupier?password=***&sslmode=require",
    ),
    (
        f"postgresql://croupier@db/croupier?sslmode=require&PASSWORD={SECRET}",
        "postgresql://croupier@db/croupier?sslmode=require&PASSWORD=***",
    ),
    (f"postgresql://croupier:p@{SECRET}@db/croupier", "postgresql://croupier:***@db/croupier"),  # raw @
    (f"postgresql://croupier:{SECRET}@@db/croupier", "postgresql://croupier:***@db/croupier"),
    (f"postgresql+asyncpg://:{SECRET}@db/croupier", "postgresql+asyncpg://:***@db/croupier"),
    (f"postgresql://croupier:a/b?{SECRET}@db/croupier", "postgresql://croupier:***@db/croupier"),
    (f"host=db user=croupier password={SECRET}", "host=db user=croupier password=***"),  # libpq's form
]
IDS = [
    "plain",
    "with-query",
    "query-password",
    "query-password-upper",
    "raw-at",
    "trailing-at",
    "no-user",
    "slash-and-question",
    "key-value",
]
# URLs the store refuses before any driver sees them (a raw "@", a parameter libpq does not know,
# libpq's key=value form);
# they are still masked wherever they are shown.
REFUSED = {"query-password-upper", "raw-at", "trailing-at", "key-value"}
USED = [url for url, name in zip(URLS, IDS, strict=True) if name not in REFUSED]
USED_IDS = [name for name in IDS if name not in REFUSED]


@pytest.fixture(autouse=True)
def _fresh_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Any:
    monkeypatch.chdir(tmp_path)  # no .env of the developer's
    for name in Settings.model_fields:
        monkeypatch.delenv(name.upper(), raising=False)
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


@pytest.mark.parametrize(("url", "shown"), URLS, ids=IDS)
def test_mask_url_hides_every_password(url: str, shown: str) -> None:
    assert mask_url(url) == shown
    assert SECRET not in mask_url(url)
    assert mask_url(mask_url(url)) == shown  # masking what is already masked changes nothing


def test_urls_inside_a_message_are_masked() -> None:
    text = f"cannot use the database postgresql://u:p@{SECRET}@db/x: refused. And sqlite:///./data/c.sqlite3"
    masked = mask_urls_in(text)
    assert SECRET not in masked
    assert (
        masked == "cannot use the database postgresql://u:***@db/x: refused. And sqlite:///./data/c.sqlite3"
    )


@pytest.mark.parametrize(("url", "shown"), USED, ids=USED_IDS)
def test_croupier_migrate_prints_the_url_masked(
    url: str, shown: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    migrated: list[str] = []
    monkeypatch.setattr("bot.store.migrate.upgrade", lambda given, revision="head": migrated.append(given))
    assert cli.main(["migrate", "--db", url]) == 0
    assert migrated == [url]  # the real URL is used …
    out, err = capsys.readouterr()
    assert SECRET not in out + err  # … and never shown
    assert shown in out


def test_croupier_migrate_from_the_environment_prints_the_url_masked(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """docker-compose's `migrate` service: DATABASE_URL from the environment, output into the logs."""
    url, shown = URLS[0]
    monkeypatch.setenv("DATABASE_URL", url)
    migrated: list[str] = []
    monkeypatch.setattr("bot.store.migrate.upgrade", lambda given, revision="head": migrated.append(given))
    assert cli.main(["migrate"]) == 0
    assert migrated == [url]
    out, err = capsys.readouterr()
    assert SECRET not in out + err
    assert shown in out


async def _sqlite_store(tmp_path: Path) -> Store:
    return await Store.open(f"sqlite:///{tmp_path / 'banner.sqlite3'}")


@pytest.mark.parametrize(("url", "shown"), USED, ids=USED_IDS)
def test_the_console_banner_shows_the_url_masked(
    url: str, shown: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    opened: list[str] = []
    real_open = Store.open

    async def open_sqlite(given: str, **options: Any) -> Store:
        opened.append(given)
        return await real_open(f"sqlite:///{tmp_path / 'banner.sqlite3'}")

    banners: list[str | None] = []

    async def no_input(console: Any, *args: Any, banner: str | None = None, **kwargs: Any) -> int:
        banners.append(banner)
        return 0

    monkeypatch.setattr(Store, "open", open_sqlite)
    monkeypatch.setattr("bot.console.terminal.run_console", no_input)
    assert cli.main(["start", "--db", url]) == 0
    assert opened[0] == url  # the console's store …
    assert set(opened) == {url}  # … and the pages' own, on their thread, when port 8080 was free
    assert banners
    assert banners[0] is not None
    assert SECRET not in banners[0]
    assert shown in banners[0]


def test_the_settings_never_show_the_database_password(monkeypatch: pytest.MonkeyPatch) -> None:
    url, shown = URLS[2]  # the password as a query parameter
    monkeypatch.setenv("DATABASE_URL", url)
    settings = Settings()
    assert SECRET not in repr(settings)
    assert SECRET not in str(settings)
    assert SECRET not in f"{settings.database_url}"
    assert SECRET not in settings.model_dump_json()
    assert str(settings.database_url) == shown  # recognisable, but masked
    assert settings.database_url.get_secret_value() == url  # the real value for the store


def test_store_errors_on_the_command_line_never_show_the_password(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Whatever the store puts into its error message, the CLI prints it with URLs masked."""
    from bot.store import StoreUnavailable

    url = URLS[7][0]  # "/" and "?" in the password

    async def unreachable(given: str, **options: Any) -> Store:
        raise StoreUnavailable(given, "connection refused", "is the server running?")

    monkeypatch.setattr(Store, "open", unreachable)
    assert cli.main(["healthcheck", "--db", url]) == 1
    out, err = capsys.readouterr()
    assert SECRET not in out + err
    assert "postgresql://croupier:***@db/croupier" in err


RAW_AT_PASSWORD = "p@ssw0rdLONG"


@pytest.mark.parametrize("command", ["migrate", "healthcheck", "start"])
def test_a_raw_at_in_the_password_is_refused_before_any_driver_reads_it(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """SQLAlchemy splits at the first "@", so the driver would look up the host "ssw0rdLONG@db" and say
    so; the croupier refuses the URL first, saying how to write it."""
    assert cli.main([command, "--db", f"postgresql://croupier:{RAW_AT_PASSWORD}@db/croupier"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1
    assert "%40" in err
    assert "postgresql://croupier:***@db/croupier" in err
    for piece in (RAW_AT_PASSWORD, *RAW_AT_PASSWORD.split("@")[1:]):
        assert piece not in err


@pytest.mark.parametrize(
    ("url", "hint"),
    [
        (f"postgresql://croupier:{SECRET}@nowhere.invalid/croupier", "check the host name"),
        (f"postgresql://croupier:{SECRET}@127.0.0.1:9/croupier", "is the database server running"),
        (f"postgresql://croupier-nobody@127.0.0.1/croupier?password={SECRET}", "check the user name"),
    ],
    ids=["unknown-host", "refused", "unknown-role"],
)
def test_real_driver_errors_never_show_the_password(
    url: str, hint: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The store's real error texts (psycopg's, not a fake): one line, the password masked, the hint
    naming what to check. (Without a server on 127.0.0.1:5432 the last one is refused instead.)"""
    assert cli.main(["healthcheck", "--db", url]) == 1
    out, err = capsys.readouterr()
    assert err.startswith("croupier: cannot use the database postgresql://croupier")
    assert err.count("\n") == 1
    assert SECRET not in out + err
    assert hint in err or (hint == "check the user name" and "is the database server running" in err)


def test_a_key_value_connection_string_is_refused_not_taken_for_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """libpq's "host=… password=…" is no URL; taken for a SQLite file name, it was created and echoed."""
    assert cli.main(["migrate", "--db", f"host=db user=croupier password={SECRET}"]) == 2
    out, err = capsys.readouterr()
    assert SECRET not in out + err
    assert "postgresql://" in err
    assert list(tmp_path.iterdir()) == []  # no file named after the password


@pytest.mark.parametrize("password", ["%20%20%20", "%20"])
def test_a_password_of_only_blanks_is_refused(password: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["healthcheck", "--db", f"postgresql://croupier:{password}@db/croupier"]) == 2
    assert "only blanks" in capsys.readouterr().err


@pytest.mark.parametrize(("url", "shown"), URLS[2:6], ids=IDS[2:6])
def test_the_store_masks_urls_as_bot_urls_does(url: str, shown: str) -> None:
    """The store names the URL in StoreUnavailable and SchemaNotCurrent; its masking must be as strict."""
    from bot.store import mask_url as store_mask_url

    assert store_mask_url(url) == shown
