"""The invite link asks for exactly the permissions the croupier needs — with the three for games in
threads — and docs/discord.md shows that link and says what breaks without each thread permission."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import discord
import pytest

from bot.discord.invite import invite_url, needed
from tests.discord.helpers import Table

DOC = (Path(__file__).resolve().parents[2] / "docs" / "discord.md").read_text(encoding="utf-8")
THREAD_PERMISSIONS = ("Create Public Threads", "Send Messages in Threads", "Manage Threads")


def test_the_invite_asks_for_the_thread_permissions_and_no_dangerous_ones() -> None:
    wanted = needed()
    needs = ("create_public_threads", "send_messages_in_threads", "manage_threads")
    needs += ("view_channel", "send_messages", "read_message_history", "embed_links", "attach_files")
    assert [name for name in needs if not getattr(wanted, name)] == []
    dangerous = discord.Permissions(
        administrator=True, mention_everyone=True, manage_messages=True, manage_roles=True, manage_guild=True
    )
    assert wanted.value & dangerous.value == 0


def test_the_docs_show_the_invite_and_what_breaks_without_each_thread_permission() -> None:
    assert invite_url(0).replace("client_id=0", "client_id=APP_ID") in DOC
    assert f"Permissions ({needed().value})" in DOC
    rows = {
        match.group(1): match.group(2) for match in re.finditer(r"^\| ([A-Z][\w ]+) \| (.+) \|$", DOC, re.M)
    }
    for permission in THREAD_PERMISSIONS:
        assert permission in rows, permission


async def test_the_bot_logs_its_invite_link_at_start(table: Table, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="bot.discord.client")
    async with table.running():
        pass
    assert invite_url(table.emu.app_id) in caplog.text
