"""The emulator checks every REST request against Discord's own OpenAPI description (the pinned
tests/discord_emulator/spec/openapi.json): unknown routes and bodies the schema refuses fail the test."""

from __future__ import annotations

import json
import re
from typing import Any

import aiohttp
import discord
import pytest

from tests.discord_emulator import DiscordEmulator, running_client
from tests.discord_emulator.conformance import SPEC_FILE, Allowed, load_spec
from tests.discord_emulator.fixtures import discord_emulator  # noqa: F401  (the fixture)

READY_QUICKLY = 0.05


@pytest.fixture
async def emu(discord_emulator: DiscordEmulator) -> DiscordEmulator:  # noqa: F811
    return discord_emulator


@pytest.fixture
async def channel(emu: DiscordEmulator) -> int:
    guild = await emu.add_guild("Spielhalle")
    return await emu.add_channel(guild, "verflixte-6")


async def raw(emu: DiscordEmulator, method: str, path: str, **kwargs: Any) -> tuple[int, Any]:
    """A request as a careless bot would make it, without discord.py."""
    headers = {"Authorization": f"Bot {emu.token}"}
    async with (
        aiohttp.ClientSession() as http,
        http.request(method, f"{emu.api_base}{path}", headers=headers, **kwargs) as response,
    ):
        text = await response.text()
        return response.status, json.loads(text) if text else None


# the pinned file --------------------------------------------------------------------------------------------


def test_the_pinned_spec_is_the_one_the_readme_names() -> None:
    document = json.loads(SPEC_FILE.read_text(encoding="utf-8"))
    version = document["info"]["x-discord-api-spec-version"]
    readme = (SPEC_FILE.parent / "README.md").read_text(encoding="utf-8")
    assert f"**{version}**" in readme
    assert f"{SPEC_FILE.stat().st_size:,} bytes" in readme
    assert "MIT License" in (SPEC_FILE.parent / "LICENSE").read_text(encoding="utf-8")
    operations = sum(len(methods) for methods in document["paths"].values())
    assert f"{len(document['paths'])} paths, {operations} operations" in readme


def test_paths_resolve_like_discords_router() -> None:
    spec = load_spec()

    def operation(method: str, path: str) -> str | None:
        found, _, _ = spec.resolve(method, path)
        return found.operation_id if found else None

    assert operation("POST", "/channels/1/messages") == "create_message"
    assert operation("GET", "/channels/1/messages/pins") == "list_pins"  # the literal wins
    assert operation("GET", "/channels/1/messages/2") == "get_message"
    assert operation("PATCH", "/webhooks/1/t/messages/@original") == "update_original_webhook_message"
    assert operation("PATCH", "/webhooks/1/t/messages/3") == "update_webhook_message"
    assert operation("POST", "/channels/1/threads") == "create_thread"
    assert operation("POST", "/channels/1/messages/2/threads") == "create_thread_from_message"
    assert operation("POST", "/interactions/1/tok/callback") == "create_interaction_response"
    assert operation("GET", "/users/@me") == "get_my_user"
    assert operation("GET", "/channels/1/nonsense") is None
    assert operation("POST", "/users/@me") is None


def test_bodies_are_checked_against_the_operations_schema() -> None:
    spec = load_spec()

    def reasons(method: str, path: str, body: Any, query: dict[str, str] | None = None) -> list[str]:
        _, found = spec.check(method, path, query or {}, body, has_body=body is not None)
        return [v.reason for v in found]

    assert reasons("POST", "/channels/1/messages", {"content": "hallo"}) == []
    assert reasons("POST", "/channels/1/messages", {"content": 6}) == ["body $.content (anyOf)"]
    assert reasons("POST", "/channels/1/messages", {"content": "x" * 4001}) == ["body $.content (maxLength)"]
    assert reasons("POST", "/channels/1/threads", {"name": "Durchgang", "auto_archive_duration": 61}) != []
    assert reasons("PATCH", "/channels/1", {"archived": True, "locked": True}) == []
    # what discord.py sends: ids as JSON numbers, timestamps with an offset
    reply = {
        "content": "ok",
        "message_reference": {"message_id": 123, "channel_id": 4, "fail_if_not_exists": False},
        "allowed_mentions": {"parse": [], "users": [5], "replied_user": False},
        "embeds": [{"title": "Stand", "type": "rich", "timestamp": "2024-05-01T20:00:00+00:00"}],
    }
    assert reasons("POST", "/channels/1/messages", reply) == []
    assert reasons("POST", "/channels/1/messages", {**reply, "message_reference": {"message_id": -1}}) != []
    assert reasons("GET", "/channels/1/messages", None, {"limit": "50", "after": "7"}) == []
    assert reasons("GET", "/channels/1/messages", None, {"limit": "viele"}) == ["query parameter limit"]
    assert reasons("GET", "/channels/1/messages", None, {"since": "7"}) == ["unknown query parameter since"]
    assert reasons("GET", "/channels/x/messages", None) == ["path parameter channel_id"]
    assert reasons("POST", "/channels/1/typing", {"content": "?"}) == ["unexpected body"]
    # every error of a body is recorded, not only the most relevant one
    both = reasons("POST", "/channels/1/messages", {"content": 6, "tts": "ja"})
    assert [reason.split(" (")[0] for reason in both] == ["body $.content", "body $.tts"]


def test_every_operation_the_emulator_serves_is_in_the_spec() -> None:
    spec = load_spec()
    routes = [(method, template) for method, template, *_ in DiscordEmulator()._rest._routes]
    assert len(routes) > 40
    for method, template in routes:
        concrete = re.sub(r"\{\w+\}", "1", template)
        found, _, _ = spec.resolve(method, concrete)
        assert found is not None, f"{method} {template} is not in Discord's spec"


# in the emulator --------------------------------------------------------------------------------------------


async def test_a_body_the_spec_refuses_is_answered_400_and_fails_the_test(
    emu: DiscordEmulator, channel: int
) -> None:
    status, answer = await raw(emu, "POST", f"/channels/{channel}/messages", json={"content": ["Würfel"]})
    assert status == 400
    assert answer["code"] == 50035
    assert "body $.content (anyOf)" in json.dumps(answer)
    assert emu.messages_in(channel) == []  # refused before anything happened
    (recorded,) = emu.requests
    assert recorded.operation == "create_message"
    assert [v.reason for v in recorded.violations] == ["body $.content (anyOf)"]
    with pytest.raises(AssertionError, match=r"create_message \(POST /channels/\{channel_id\}/messages\)"):
        emu.check_spec_violations()  # what the emulator does when it stops: the test fails
    (violation,) = emu.take_spec_violations()
    assert violation.key == ("create_message", "body $.content (anyOf)")
    emu.check_spec_violations()


async def test_a_multipart_requests_payload_json_is_checked(emu: DiscordEmulator, channel: int) -> None:
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps({"content": "Wurf", "attachments": [{"id": "null"}]}))
    form.add_field("files[0]", b"\x89PNG", filename="wurf.png", content_type="image/png")
    status, _ = await raw(emu, "POST", f"/channels/{channel}/messages", data=form)
    assert status == 400
    (violation,) = emu.take_spec_violations()
    assert violation.reason.startswith("body $.attachments[0]")


async def test_unknown_routes_and_wrong_methods_are_violations(emu: DiscordEmulator, channel: int) -> None:
    assert (await raw(emu, "GET", f"/channels/{channel}/secrets"))[0] == 404
    assert (await raw(emu, "DELETE", "/users/@me"))[0] == 405
    assert [(v.operation, v.reason) for v in emu.take_spec_violations()] == [
        (None, "unknown route"),
        (None, "method DELETE not allowed"),
    ]


async def test_the_emulator_raises_unexplained_violations_when_it_stops() -> None:
    with pytest.raises(AssertionError, match="unknown route"):
        async with DiscordEmulator() as emu:
            await raw(emu, "GET", "/nowhere")
    async with DiscordEmulator() as tolerant:  # an allowlist entry names the finding: no failure
        tolerant.spec_allowlist.append(Allowed(None, "unknown route", "a test of the allowlist"))
        await raw(tolerant, "GET", "/nowhere")


async def test_discord_py_sees_the_refusal_as_an_http_400(emu: DiscordEmulator, channel: int) -> None:
    client = discord.Client(intents=discord.Intents(guilds=True), guild_ready_timeout=READY_QUICKLY)
    async with running_client(client, emu.token):
        route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=channel)
        with pytest.raises(discord.HTTPException) as refused:
            await client.http.request(route, json={"content": "hallo", "tts": "ja"})
        assert refused.value.status == 400
        assert refused.value.code == 50035
        await client.http.request(route, json={"content": "hallo"})  # the same call, right, goes through
    assert [v.reason for v in emu.take_spec_violations()] == ["body $.tts (type)"]
    assert [m["content"] for m in emu.messages_in(channel)] == ["hallo"]
