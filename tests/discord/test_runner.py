"""Starting the bot: a wrong or malformed token and an unusable database each end in one clear line and
exit code 1; shard settings reach the gateway. (A refused Message Content intent is not fatal:
tests/discord/test_message_content.py.)"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.discord.options import BotOptions
from bot.discord.runner import LOGIN_REFUSED, run_bot, serve
from bot.service.croupier import Croupier
from bot.settings import Settings
from tests.discord.helpers import FastBot, Table
from tests.discord_emulator import DiscordEmulator, running_client


def settings_for(emu: DiscordEmulator, token: str, **more: object) -> Settings:
    return Settings(
        discord_token=SecretStr(token),
        discord_api_base=emu.api_base,
        discord_gateway_url=emu.gateway_url,
        discord_guild_ids=[],
        **more,  # type: ignore[arg-type]
    )


def one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


async def test_a_wrong_token_is_one_clear_line_and_exit_1(
    table: Table, capsys: pytest.CaptureFixture[str]
) -> None:
    code = await serve(Croupier(store=table.store), "not-the-token", table.options, client_factory=FastBot)
    assert code == 1
    assert one_line(capsys.readouterr().err) == f"croupier: {LOGIN_REFUSED}"


async def test_run_bot_with_a_wrong_token_from_the_settings(
    table: Table, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The real entry point (its own event loop, on a thread) against the emulator."""
    code = await asyncio.to_thread(run_bot, settings_for(table.emu, "wrong-token"), db_url)
    assert code == 1
    assert one_line(capsys.readouterr().err) == f"croupier: {LOGIN_REFUSED}"


@pytest.mark.parametrize(
    ("token", "reason"),
    [("", "DISCORD_TOKEN is empty"), ("Bot abc.def.ghi", "without the prefix")],
)
def test_a_malformed_token_is_refused_before_connecting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], token: str, reason: str
) -> None:
    settings = Settings(discord_token=SecretStr(token), discord_api_base="http://127.0.0.1:9/api")
    assert run_bot(settings, f"sqlite:///{tmp_path / 'never.sqlite3'}") == 1
    assert reason in one_line(capsys.readouterr().err)
    assert not (tmp_path / "never.sqlite3").exists()


def test_an_unusable_database_is_one_clear_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = Settings(discord_token=SecretStr("some-token"), discord_api_base="http://127.0.0.1:9/api")
    assert run_bot(settings, "mysql://nobody@nowhere/db") == 1
    assert "unsupported database" in one_line(capsys.readouterr().err)


async def test_shard_settings_reach_the_gateway(table: Table) -> None:
    options = BotOptions(shard_count=2, shard_ids=(0, 1), turn_clock_seconds=None, guild_ready_timeout=0.05)
    bot = FastBot(Croupier(store=table.store), options)
    async with running_client(bot, table.emu.token):
        assert sorted(session.shard for session in table.emu.connected_sessions()) == [(0, 2), (1, 2)]
        assert bot.shard_count == 2
    identify = await table.emu.wait_for_identify()
    assert identify.data["intents"] == (1 << 0) | (1 << 9) | (1 << 15)  # guilds, guild messages, content


def test_settings_become_client_options() -> None:
    settings = Settings(
        discord_token=SecretStr("t"),
        discord_guild_ids="11, 12",  # type: ignore[arg-type]
        discord_shard_count=4,
        discord_shard_ids="1,3",  # type: ignore[arg-type]
    )
    options = BotOptions.from_settings(settings)
    assert (options.guild_ids, options.shard_count, options.shard_ids) == ((11, 12), 4, (1, 3))
