"""The Discord emulator, proven with the real discord.py client (Client, AutoShardedClient, CommandTree, UI).

Every end-to-end test starts the emulator on 127.0.0.1, points discord.py at it with
bot.discord.endpoint.use_endpoints, runs the client inside the test's event loop and closes it at the end.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import sys
import textwrap
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import aiohttp
import discord
import pytest
import yarl
from discord import app_commands
from discord.gateway import DiscordWebSocket

from bot.discord import endpoint
from bot.discord.endpoint import use_endpoints

try:  # tests/ is a package when the rootdir is on sys.path; otherwise pytest put tests/ itself there
    from tests import discord_emulator as emulator
except ImportError:
    import discord_emulator as emulator  # type: ignore[no-redef]

perms = emulator.permissions
DiscordEmulator = emulator.DiscordEmulator
running_client = emulator.running_client
discord_emulator = emulator.discord_emulator  # the shared fixture, collected from this module

READY_QUICKLY = 0.05  # discord.py waits this long after the last GUILD_CREATE before on_ready


def intents(*, content: bool = True, members: bool = True) -> discord.Intents:
    chosen = discord.Intents.default()
    chosen.message_content = content
    chosen.members = members
    return chosen


@dataclass(frozen=True)
class Table:
    guild: int
    channel: int
    anna: int
    bert: int
    moni: int


@pytest.fixture
def emu(discord_emulator: emulator.DiscordEmulator) -> emulator.DiscordEmulator:
    return discord_emulator


@pytest.fixture
async def table(emu: emulator.DiscordEmulator) -> Table:
    guild = await emu.add_guild("Spielhalle")
    channel = await emu.add_channel(guild, "verflixte-6", topic="Durchgang 1")
    anna = await emu.add_member(guild, "anna", nick="Anna")
    bert = await emu.add_member(guild, "bert")
    moni = await emu.add_member(guild, "moni", nick="Moni (Mod)", permissions=perms.MANAGE_GUILD)
    return Table(guild, channel, anna, bert, moni)


class EchoBot(discord.Client):
    """Answers every user message with a reply that pings nobody, as the croupier does."""

    def __init__(self, **options: Any) -> None:
        options.setdefault("intents", intents())
        super().__init__(
            guild_ready_timeout=READY_QUICKLY, allowed_mentions=discord.AllowedMentions.none(), **options
        )
        self.received: list[discord.Message] = []
        self.resumed = 0
        self._changed = asyncio.Condition()

    async def until(self, condition: Callable[[], bool], timeout: float = 5.0) -> None:  # noqa: ASYNC109
        """Until an event handler made `condition` true."""
        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(condition), timeout)

    async def noticed(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def on_message(self, message: discord.Message) -> None:
        self.received.append(message)
        await self.noticed()
        if message.author.bot:
            return
        await message.reply(f"{message.author.display_name}: {message.content}", mention_author=False)

    async def on_resumed(self) -> None:
        self.resumed += 1
        await self.noticed()

    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self.noticed()

    async def on_guild_channel_create(self, channel: discord.abc.GuildChannel) -> None:
        await self.noticed()

    async def on_member_join(self, member: discord.Member) -> None:
        await self.noticed()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py waits 5 s before every IDENTIFY but the first (Discord's identify rate limit)."""


class ShardedEchoBot(discord.AutoShardedClient):
    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """No 5 s pause before the second shard identifies."""


async def until(condition: Callable[[], bool]) -> None:
    async with asyncio.timeout(5):
        while True:
            if condition():
                return
            await asyncio.sleep(0.01)


# snowflakes, validation, mentions, permissions (no network) -------------------------------------------------


def test_snowflakes_carry_their_creation_time_and_route_guilds_to_shards() -> None:
    factory = emulator.SnowflakeFactory()
    before = datetime.now(tz=UTC) - timedelta(seconds=1)
    ids = [factory.next() for _ in range(5000)]
    assert ids == sorted(set(ids))
    assert before <= discord.utils.snowflake_time(ids[0]) <= datetime.now(tz=UTC) + timedelta(seconds=5)
    assert discord.utils.snowflake_time(ids[-1]) == emulator.snowflake_time(ids[-1])
    for count in (2, 3, 5):
        for shard in range(count):
            guild_id = factory.for_shard(shard, count)
            assert emulator.shard_of(guild_id, count) == shard == (guild_id >> 22) % count
    later = factory.next()
    assert later > guild_id


def test_message_limits_are_discords() -> None:
    validation = emulator.validation
    errors, empty = validation.check_message({"content": "x" * 2001}, creating=True, has_files=False)
    assert errors.to_payload()["content"]["_errors"][0]["code"] == "BASE_TYPE_MAX_LENGTH"
    assert not empty
    _, empty = validation.check_message({"content": "  "}, creating=True, has_files=False)
    assert empty
    too_big = [{"title": "t", "description": "d" * 4000, "fields": [{"name": "n", "value": "v" * 1000}] * 3}]
    errors, _ = validation.check_message({"embeds": too_big}, creating=True, has_files=False)
    assert errors.to_payload()["embeds"]["_errors"][0]["code"] == "MAX_EMBED_SIZE_EXCEEDED"
    twins = [{"type": 1, "components": [{"type": 2, "style": 1, "label": "a", "custom_id": "x"}] * 2}]
    errors, _ = validation.check_message({"components": twins}, creating=True, has_files=False)
    assert "COMPONENT_CUSTOM_ID_DUPLICATED" in json.dumps(errors.to_payload())
    errors, _ = validation.check_message(
        {"content": "hi", "allowed_mentions": {"parse": ["users"], "users": ["1"]}},
        creating=True,
        has_files=False,
    )
    assert "ALLOWED_MENTIONS_PARSE_EXCLUSIVE" in json.dumps(errors.to_payload())


def test_command_schemas_are_checked_like_discord_does() -> None:
    check = emulator.validation.check_commands
    good = {
        "name": "würfeln",
        "description": "Wirf",
        "type": 1,
        "options": [{"type": 3, "name": "joker", "description": "j"}],
    }
    assert not check([good])
    assert check([{**good, "name": "Würfeln"}])  # upper case is refused for slash commands
    assert check([good, good])  # duplicate name
    misordered = {
        **good,
        "options": [
            {"type": 3, "name": "a", "description": "a"},
            {"type": 3, "name": "b", "description": "b", "required": True},
        ],
    }
    assert "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID" in json.dumps(check([misordered]).to_payload())
    assert check([{**good, "description": ""}])
    assert not check([{"name": "Als Joker nehmen", "type": 3, "description": ""}])  # context menus may


def test_allowed_mentions_decide_who_is_pinged() -> None:
    effective = emulator.mentions.effective
    text = "@everyone <@1> <@!2> <@&7>"
    everything = effective(text, None, replied_author=3, mentionable_roles={7}, may_mention_everyone=False)
    assert everything == emulator.Pings(users=(1, 2), roles=(7,), everyone=False, replied_user=True)
    nothing = effective(
        text, {"parse": []}, replied_author=3, mentionable_roles={7}, may_mention_everyone=True
    )
    assert not nothing.anyone
    only_one = effective(
        text,
        {"parse": [], "users": ["2"]},
        replied_author=None,
        mentionable_roles=set(),
        may_mention_everyone=True,
    )
    assert only_one == emulator.Pings(users=(2,))


def test_channel_overwrites_follow_discords_order() -> None:
    p = perms
    base = p.VIEW_CHANNEL | p.SEND_MESSAGES
    overwrites = [
        p.Overwrite(10, p.ROLE_OVERWRITE, deny=p.SEND_MESSAGES),  # @everyone (guild id 10)
        p.Overwrite(20, p.ROLE_OVERWRITE, allow=p.SEND_MESSAGES),  # a player role
        p.Overwrite(30, p.MEMBER_OVERWRITE, deny=p.VIEW_CHANNEL),  # one member shut out
    ]
    granted = p.channel_permissions(
        base, guild_id=10, member_id=1, member_role_ids=[20], overwrites=overwrites
    )
    assert granted & p.SEND_MESSAGES
    muted = p.channel_permissions(base, guild_id=10, member_id=2, member_role_ids=[], overwrites=overwrites)
    assert muted & p.VIEW_CHANNEL
    assert not muted & p.SEND_MESSAGES
    assert (
        p.channel_permissions(base, guild_id=10, member_id=30, member_role_ids=[20], overwrites=overwrites)
        == 0
    )
    assert p.base_permissions(everyone=0, role_permissions=[p.ADMINISTRATOR], is_owner=False) == p.ALL


# bot/discord/endpoint.py ------------------------------------------------------------------------------------


@pytest.fixture
def restored_endpoints() -> Iterator[None]:
    saved = (discord.http.Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY, endpoint._ask_server_for_gateway)
    yield
    discord.http.Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY, endpoint._ask_server_for_gateway = saved


@pytest.mark.usefixtures("restored_endpoints")
def test_use_endpoints_moves_rest_and_gateway_and_is_idempotent() -> None:
    discord.http.Route.BASE = "https://discord.com/api/v10"
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL("wss://gateway.discord.gg/")
    use_endpoints(None, None)
    assert discord.http.Route.BASE == "https://discord.com/api/v10"
    assert yarl.URL("wss://gateway.discord.gg/") == DiscordWebSocket.DEFAULT_GATEWAY
    for _ in range(2):
        use_endpoints("http://127.0.0.1:9/api/", "ws://127.0.0.1:9/gateway")
        assert discord.http.Route.BASE == "http://127.0.0.1:9/api/v10"
        assert yarl.URL("ws://127.0.0.1:9/gateway") == DiscordWebSocket.DEFAULT_GATEWAY
    use_endpoints("http://127.0.0.1:9/api/v9", None)
    assert discord.http.Route.BASE == "http://127.0.0.1:9/api/v9"
    route = discord.http.Route(
        "POST", "/webhooks/{webhook_id}/{webhook_token}", webhook_id=1, webhook_token="t"
    )
    assert route.url == "http://127.0.0.1:9/api/v9/webhooks/1/t"  # interaction followups use the same base


@pytest.mark.usefixtures("restored_endpoints")
async def test_use_endpoints_without_gateway_url_asks_the_server(
    emu: emulator.DiscordEmulator, table: Table
) -> None:
    use_endpoints(emu.api_base, None)
    async with running_client(EchoBot(), emu.token) as client:
        assert client.get_guild(table.guild) is not None
    assert any(r.path == "/gateway/bot" for r in emu.requests)
    connect = await emu.wait_for_gateway("connect")
    assert connect.path == "/gateway"


# logging in -------------------------------------------------------------------------------------------------


async def test_client_logs_in_and_caches_guild_channels_and_members(
    emu: emulator.DiscordEmulator, table: Table
) -> None:
    async with running_client(EchoBot(), emu.token) as client:
        assert client.user is not None
        assert client.user.id == emu.bot_id
        assert client.user.bot
        assert client.application_id == emu.app_id
        guild = client.get_guild(table.guild)
        assert guild is not None
        assert guild.name == "Spielhalle"
        assert abs(guild.created_at - datetime.now(tz=UTC)) < timedelta(minutes=1)
        channel = guild.get_channel(table.channel)
        assert isinstance(channel, discord.TextChannel)
        assert channel.topic == "Durchgang 1"
        anna = guild.get_member(table.anna)
        assert anna is not None
        assert anna.display_name == "Anna"
        moni = guild.get_member(table.moni)
        assert moni is not None
        assert moni.guild_permissions.manage_guild
        assert guild.me is not None
        assert channel.permissions_for(guild.me).send_messages
    identify = await emu.wait_for_identify()
    assert identify.data["intents"] == intents().value
    connect = await emu.wait_for_gateway("connect")
    assert connect.data["compress"] == "zlib-stream"
    assert connect.data["encoding"] == "json"
    assert any(r.kind == "request_members" for r in emu.gateway_log)  # members were chunked on request
    assert [r.path for r in emu.requests][:2] == ["/users/@me", "/oauth2/applications/@me"]
    assert emu.unknown_requests() == []


async def test_what_is_added_while_connected_reaches_the_client(
    emu: emulator.DiscordEmulator, table: Table
) -> None:
    async with running_client(EchoBot(), emu.token) as client:
        guild_id = await emu.add_guild("Neuer Tisch")
        await client.until(lambda: client.get_guild(guild_id) is not None)
        channel_id = await emu.add_channel(guild_id, "killer")
        await client.until(lambda: client.get_channel(channel_id) is not None)
        player = await emu.add_member(guild_id, "claire", locale="fr")
        guild = client.get_guild(guild_id)
        assert guild is not None
        await client.until(lambda: guild.get_member(player) is not None)
        await emu.send_message(channel_id, player, "je tire")
        assert (await emu.next_message(channel_id)).content == "claire: je tire"


async def test_wrong_token_gives_login_failure(emu: emulator.DiscordEmulator, table: Table) -> None:
    with pytest.raises(discord.LoginFailure):
        async with running_client(EchoBot(), "not-the-token"):
            pytest.fail("a wrong token must not log in")
    refused = await emu.wait_for_request(lambda r: r.path == "/users/@me")
    assert refused.status == 401
    assert not refused.authorized
    assert refused.response == {"message": "401: Unauthorized", "code": 0}


async def test_disallowed_privileged_intent_is_refused_at_identify(table: Table) -> None:
    async with DiscordEmulator(allowed_privileged_intents=emulator.GUILD_MEMBERS) as strict:
        use_endpoints(strict.api_base, strict.gateway_url)
        with pytest.raises(discord.PrivilegedIntentsRequired):
            async with running_client(EchoBot(), strict.token):
                pytest.fail("message content was not granted")


# messages ---------------------------------------------------------------------------------------------------


async def test_message_create_is_answered_and_the_reply_recorded(
    emu: emulator.DiscordEmulator, table: Table
) -> None:
    async with running_client(EchoBot(), emu.token) as client:
        sent = await emu.send_message(table.channel, table.anna, f"raube <@{table.bert}>")
        reply = await emu.next_message(table.channel)
        assert reply.content == f"Anna: raube <@{table.bert}>"
        assert reply.via == "channel"
        assert reply.allowed_mentions == {"parse": [], "replied_user": False}
        assert reply.message_reference is not None
        assert int(reply.message_reference["message_id"]) == sent
        assert not reply.pings.anyone  # Bert is written into the text but nobody is notified
        assert reply.message["type"] == 19
        assert reply.message["author"]["id"] == str(emu.bot_id)
        incoming = client.received[0]
        assert incoming.id == sent
        assert [m.id for m in incoming.mentions] == [table.bert]
        assert isinstance(incoming.author, discord.Member)
        assert incoming.author.display_name == "Anna"
        assert incoming.created_at == discord.utils.snowflake_time(sent)
        await emu.wait_for_gateway(
            "dispatch",
            lambda r: r.data["t"] == "MESSAGE_CREATE" and r.data["d"]["id"] == str(reply.message_id),
        )
    assert [m["id"] for m in emu.messages_in(table.channel)] == [str(sent), str(reply.message_id)]


async def test_redelivered_message_reaches_the_bot_twice(emu: emulator.DiscordEmulator, table: Table) -> None:
    async with running_client(EchoBot(), emu.token) as client:
        sent = await emu.send_message(table.channel, table.anna, "weiter", times=2)
        first, second = await emu.next_message(table.channel), await emu.next_message(table.channel)
        assert first.content == second.content == "Anna: weiter"
        assert [m.id for m in client.received if not m.author.bot] == [sent, sent]
        await emu.redeliver(sent)
        third = await emu.next_message(table.channel)
        assert int(third.message_reference["message_id"]) == sent  # type: ignore[index]


async def test_without_the_content_intent_only_mentions_carry_text(
    emu: emulator.DiscordEmulator, table: Table
) -> None:
    class Listener(EchoBot):
        async def on_message(self, message: discord.Message) -> None:
            self.received.append(message)
            await self.noticed()

    async with running_client(Listener(intents=intents(content=False)), emu.token) as client:
        await emu.send_message(table.channel, table.anna, "stopp")
        await emu.send_message(table.channel, table.anna, f"<@{emu.bot_id}> stopp")
        await client.until(lambda: len(client.received) == 2)
        assert [m.content for m in client.received] == ["", f"<@{emu.bot_id}> stopp"]


async def test_bot_edits_deletes_and_validation_errors_are_discords(
    emu: emulator.DiscordEmulator, table: Table
) -> None:
    async with running_client(EchoBot(), emu.token) as client:
        channel = client.get_channel(table.channel)
        assert isinstance(channel, discord.TextChannel)
        message = await channel.send("Runde 1", embed=discord.Embed(title="Stand", description="Anna 12"))
        created = await emu.next_message(table.channel)
        assert created.embeds[0]["title"] == "Stand"
        assert created.embeds[0]["type"] == "rich"
        assert "Anna 12" in created.text()
        await message.edit(content="Runde 2")
        edited = await emu.next_message(table.channel, action="edit")
        assert edited.content == "Runde 2"
        assert edited.message["edited_timestamp"] is not None
        await message.delete()
        await emu.next_message(table.channel, action="delete")
        assert emu.messages_in(table.channel) == []
        with pytest.raises(discord.HTTPException) as too_long:
            await channel.send("x" * 2001)
        assert too_long.value.status == 400
        assert too_long.value.code == 50035
        await channel.send(file=discord.File(io.BytesIO(b"\x89PNG..."), filename="wurf.png"))
        with_file = await emu.next_message(table.channel)
        (attachment,) = with_file.message["attachments"]
        assert attachment["filename"] == "wurf.png"
        assert emu.attachment_data(attachment) == b"\x89PNG..."


async def test_a_bot_without_send_permission_gets_forbidden(
    emu: emulator.DiscordEmulator, table: Table
) -> None:
    closed = await emu.add_channel(
        table.guild,
        "archiv",
        overwrites=[perms.Overwrite(emu.bot_id, perms.MEMBER_OVERWRITE, deny=perms.SEND_MESSAGES)],
    )
    async with running_client(EchoBot(), emu.token) as client:
        channel = client.get_channel(closed)
        assert isinstance(channel, discord.TextChannel)
        with pytest.raises(discord.Forbidden) as refused:
            await channel.send("hallo")
        assert refused.value.code == 50013
        with pytest.raises(emulator.UsageError):
            await emu.send_message(table.channel, 12345, "ich bin kein Mitglied")


async def test_direct_messages_both_ways(emu: emulator.DiscordEmulator, table: Table) -> None:
    async with running_client(EchoBot(), emu.token) as client:
        user = await client.fetch_user(table.anna)
        await user.send("Dein Würfel: 6")
        dm = await emu.next_message()
        assert dm.guild_id is None
        assert dm.content == "Dein Würfel: 6"
        await emu.send_message(dm.channel_id, table.anna, "danke")
        answer = await emu.next_message(dm.channel_id)
        assert answer.content == "anna: danke"
        assert client.received[-1].guild is None


async def test_unknown_routes_are_404_and_recorded(emu: emulator.DiscordEmulator, table: Table) -> None:
    async with running_client(EchoBot(), emu.token) as client:
        with pytest.raises(discord.NotFound):
            await client.http.request(
                discord.http.Route("GET", "/guilds/{guild_id}/bans", guild_id=table.guild)
            )
    (unknown,) = emu.unknown_requests()
    assert unknown.path == f"/guilds/{table.guild}/bans"
    assert unknown.status == 404


# application commands, buttons, modals ----------------------------------------------------------------------


class CommandBot(EchoBot):
    """A CommandTree with guild commands: options of several types, a moderator group, autocomplete, defer."""

    def __init__(self, guild_id: int) -> None:
        super().__init__()
        self.tree = app_commands.CommandTree(self)
        self.home = discord.Object(guild_id)
        self.calls: list[tuple[str, Any]] = []
        tree, home = self.tree, self.home

        @tree.command(name="raube", description="Raube einen Mitspieler aus", guild=home)
        async def raube(interaction: discord.Interaction, opfer: discord.Member, punkte: int = 1) -> None:
            self.calls.append(("raube", (opfer.display_name, punkte, interaction.permissions.manage_guild)))
            await interaction.response.send_message(
                f"{interaction.user.display_name} raubt {opfer.mention} {punkte}",
                allowed_mentions=discord.AllowedMentions.none(),
            )
            await interaction.followup.send("Nur du siehst das.", ephemeral=True)

        @tree.command(name="joker", description="Wähle einen Joker", guild=home)
        async def joker(interaction: discord.Interaction, name: str) -> None:
            await interaction.response.defer(thinking=True)
            picture = discord.File(io.BytesIO(b"joker"), filename="joker.png")
            await interaction.edit_original_response(content=f"Joker {name} gewählt", attachments=[picture])

        @joker.autocomplete("name")
        async def joker_names(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            names = ["Rattenlord", "Anaconda", "Monokel"]
            return [app_commands.Choice(name=n, value=n) for n in names if current.casefold() in n.casefold()]

        spiel = app_commands.Group(
            name="spiel",
            description="Spielleitung",
            guild_ids=[home.id],
            default_permissions=discord.Permissions(manage_guild=True),
        )

        @spiel.command(name="start", description="Starte einen Durchgang")
        async def start(interaction: discord.Interaction, variante: str) -> None:
            self.calls.append(("spiel start", variante))
            await interaction.response.send_message(f"Durchgang ({variante}) beginnt", view=TurnView())

        tree.add_command(spiel)

    async def setup_hook(self) -> None:
        await self.tree.sync(guild=self.home)


class GlobalBot(EchoBot):
    """One global command, synced without a guild: usable in every guild and in direct messages."""

    def __init__(self) -> None:
        super().__init__()
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(name="hilfe", description="Zeigt die Befehle")
        async def hilfe(interaction: discord.Interaction) -> None:
            where = "DM" if interaction.guild is None else interaction.guild.name
            await interaction.response.send_message(f"Hilfe für {interaction.user.name} ({where})")

    async def setup_hook(self) -> None:
        await self.tree.sync()


class TurnView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.clicks: list[int] = []

    @discord.ui.button(label="Weiter", custom_id="turn:weiter", style=discord.ButtonStyle.primary)
    async def weiter(self, interaction: discord.Interaction, button: discord.ui.Button[TurnView]) -> None:
        self.clicks.append(interaction.user.id)
        await interaction.response.edit_message(
            content=f"{interaction.user.display_name} würfelt weiter", view=None
        )

    @discord.ui.button(label="Joker", custom_id="turn:joker", style=discord.ButtonStyle.secondary)
    async def joker(self, interaction: discord.Interaction, button: discord.ui.Button[TurnView]) -> None:
        await interaction.response.send_modal(JokerModal())


class JokerModal(discord.ui.Modal, title="Joker wählen"):
    name: discord.ui.TextInput[JokerModal] = discord.ui.TextInput(label="Joker", custom_id="joker:name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Joker: {self.name.value}", ephemeral=True)


async def test_slash_commands_are_synced_invoked_and_answered(
    emu: emulator.DiscordEmulator, table: Table
) -> None:
    async with running_client(CommandBot(table.guild), emu.token) as client:
        synced = emu.synced_commands(table.guild)
        assert sorted(c["name"] for c in synced) == ["joker", "raube", "spiel"]
        sync = await emu.wait_for_request(lambda r: r.method == "PUT")
        assert sync.route == "/applications/{app_id}/guilds/{guild_id}/commands"
        raube = next(c for c in synced if c["name"] == "raube")
        assert [(o["name"], o["type"], o.get("required", False)) for o in raube["options"]] == [
            ("opfer", 6, True),
            ("punkte", 4, False),
        ]

        sent = await emu.slash_command(
            table.guild, table.channel, table.anna, "raube", {"opfer": table.bert, "punkte": 3}
        )
        response = await emu.wait_for_response(sent)
        assert response.type == 4
        assert response.data is not None
        assert response.data["content"] == f"Anna raubt <@{table.bert}> 3"
        assert client.calls == [("raube", ("bert", 3, False))]
        answer = await emu.next_message(table.channel)
        assert answer.via == "interaction"
        assert answer.interaction_id == sent.id
        assert not answer.pings.anyone
        assert answer.message["interaction_metadata"]["user"]["id"] == str(table.anna)
        followup = await emu.next_message(table.channel)
        assert followup.via == "followup"
        assert followup.ephemeral
        assert followup.content == "Nur du siehst das."
        assert emu.original_response(sent) == emu.message(answer.message_id)
        assert [m["id"] for m in emu.messages_in(table.channel)] == [
            str(answer.message_id)
        ]  # ephemeral hidden


async def test_moderator_commands_carry_the_members_permissions(
    emu: emulator.DiscordEmulator, table: Table
) -> None:
    async with running_client(CommandBot(table.guild), emu.token) as client:
        with pytest.raises(emulator.UsageError, match="hidden"):
            await emu.slash_command(
                table.guild, table.channel, table.anna, "spiel", {"variante": "x"}, subcommand="start"
            )
        sent = await emu.slash_command(
            table.guild, table.channel, table.moni, "spiel", {"variante": "klassisch"}, subcommand="start"
        )
        assert sent.payload["member"]["permissions"] == str(
            emu.world.permissions(table.guild, table.moni, table.channel)
        )
        assert sent.payload["data"]["options"] == [
            {"name": "start", "type": 1, "options": [{"name": "variante", "type": 3, "value": "klassisch"}]}
        ]
        await emu.wait_for_response(sent)
        assert client.calls == [("spiel start", "klassisch")]
        with pytest.raises(emulator.UsageError, match="missing"):
            await emu.slash_command(table.guild, table.channel, table.anna, "raube", {})
        with pytest.raises(emulator.UsageError, match="no synced command"):
            await emu.slash_command(table.guild, table.channel, table.anna, "unbekannt")


async def test_global_commands_work_in_guilds_and_direct_messages(
    emu: emulator.DiscordEmulator, table: Table
) -> None:
    async with running_client(GlobalBot(), emu.token):
        assert [c["name"] for c in emu.synced_commands()] == ["hilfe"]
        in_guild = await emu.slash_command(table.guild, table.channel, table.bert, "hilfe")
        assert "guild_id" not in in_guild.payload["data"]
        answer = await emu.wait_for_response(in_guild)
        assert answer.data is not None
        assert answer.data["content"] == "Hilfe für bert (Spielhalle)"
        direct = await emu.slash_command(None, await emu.dm_channel(table.bert), table.bert, "hilfe")
        assert direct.payload["user"]["id"] == str(table.bert)
        answer = await emu.wait_for_response(direct)
        assert answer.data is not None
        assert answer.data["content"] == "Hilfe für bert (DM)"


async def test_button_clicks_run_view_callbacks_and_update_the_message(
    emu: emulator.DiscordEmulator, table: Table
) -> None:
    async with running_client(CommandBot(table.guild), emu.token):
        start = await emu.slash_command(
            table.guild, table.channel, table.moni, "spiel", {"variante": "v6"}, subcommand="start"
        )
        board = await emu.next_message(table.channel, predicate=lambda m: m.interaction_id == start.id)
        assert board.custom_ids() == ["turn:weiter", "turn:joker"]
        click = await emu.click(board, "turn:weiter", table.anna)
        assert click.payload["data"] == {"custom_id": "turn:weiter", "component_type": 2}
        update = await emu.wait_for_response(click)
        assert update.type == 7
        edited = await emu.next_message(table.channel, action="edit")
        assert edited.via == "component_update"
        assert edited.content == "Anna würfelt weiter"
        assert edited.components == []
        with pytest.raises(emulator.UsageError, match="no component"):
            await emu.click(board, "turn:weiter", table.bert)


async def test_modal_from_a_button_is_submitted_and_answered(
    emu: emulator.DiscordEmulator, table: Table
) -> None:
    async with running_client(CommandBot(table.guild), emu.token):
        start = await emu.slash_command(
            table.guild, table.channel, table.moni, "spiel", {"variante": "v6"}, subcommand="start"
        )
        board = await emu.next_message(table.channel, predicate=lambda m: m.interaction_id == start.id)
        click = await emu.click(board, "turn:joker", table.anna)
        modal = await emu.wait_for_response(click)
        assert modal.type == 9
        assert modal.data is not None
        assert modal.data["title"] == "Joker wählen"
        submitted = await emu.submit_modal(click, {"joker:name": "Rattenlord"})
        answer = await emu.wait_for_response(submitted)
        assert answer.type == 4
        assert answer.ephemeral
        assert answer.data is not None
        assert answer.data["content"] == "Joker: Rattenlord"


async def test_autocomplete_and_deferred_answers(emu: emulator.DiscordEmulator, table: Table) -> None:
    async with running_client(CommandBot(table.guild), emu.token):
        typing = await emu.autocomplete(
            table.guild, table.channel, table.anna, "joker", {"name": "rat"}, focused="name"
        )
        choices = await emu.wait_for_response(typing)
        assert choices.type == 8
        assert choices.data == {"choices": [{"name": "Rattenlord", "value": "Rattenlord"}]}
        sent = await emu.slash_command(
            table.guild, table.channel, table.anna, "joker", {"name": "Rattenlord"}
        )
        deferred = await emu.wait_for_response(sent)
        assert deferred.type == 5
        loading = await emu.next_message(table.channel)
        assert loading.flags & 128  # LOADING until the bot edits the original response
        done = await emu.next_message(table.channel, action="edit")
        assert done.via == "webhook_edit"
        assert done.content == "Joker Rattenlord gewählt"
        assert [a["filename"] for a in done.message["attachments"]] == ["joker.png"]
        assert not done.flags & 128


class GameButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"game:(?P<game>\d+):(?P<action>\w+)"
):
    """A button that carries its game id, so it works for a client that never saw the message being sent."""

    def __init__(self, game: int, action: str) -> None:
        super().__init__(discord.ui.Button(label=action, custom_id=f"game:{game}:{action}"))
        self.game, self.action = game, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> GameButton:
        return cls(int(match["game"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Spiel {self.game}: {self.action}")


class DynamicBot(EchoBot):
    async def setup_hook(self) -> None:
        self.add_dynamic_items(GameButton)


async def test_dynamic_item_buttons_work_after_a_restart(emu: emulator.DiscordEmulator, table: Table) -> None:
    async with running_client(DynamicBot(), emu.token) as first:
        channel = first.get_channel(table.channel)
        assert isinstance(channel, discord.TextChannel)
        view = discord.ui.View(timeout=None)
        view.add_item(GameButton(42, "stopp"))
        await channel.send("Spiel 42", view=view)
        board = await emu.next_message(table.channel)
    async with running_client(DynamicBot(), emu.token):  # a new process: no view in memory
        click = await emu.click(board.message_id, "game:42:stopp", table.bert)
        answer = await emu.wait_for_response(click)
        assert answer.type == 4
        assert answer.data is not None
        assert answer.data["content"] == "Spiel 42: stopp"
    assert len([r for r in emu.gateway_log if r.kind == "identify" and r.session_id]) == 2


# the gateway: drops, resumes, sessions, shards, several clients ---------------------------------------------


async def test_a_gateway_drop_is_resumed_and_missed_events_replayed(
    emu: emulator.DiscordEmulator, table: Table
) -> None:
    async with running_client(EchoBot(), emu.token) as client:
        session = (await emu.wait_for_identify()).session_id
        assert await emu.disconnect_all() == 1
        missed = await emu.send_message(table.channel, table.anna, "während der Pause")
        resumed = await emu.wait_for_gateway("resumed")
        assert resumed.session_id == session
        assert resumed.path == yarl.URL(emu.resume_url).path
        reply = await emu.next_message(table.channel)
        assert int(reply.message_reference["message_id"]) == missed  # type: ignore[index]
        await client.until(lambda: client.resumed == 1)
        await emu.request_reconnect()
        await emu.wait_for_gateway("resumed")
    assert not [r for r in emu.gateway_log if r.kind == "identify" and r.session_id != session]


async def test_an_invalidated_session_identifies_again(emu: emulator.DiscordEmulator, table: Table) -> None:
    async with running_client(EchoBot(), emu.token):
        first = await emu.wait_for_identify()
        assert await emu.invalidate_sessions() == 1
        second = await emu.wait_for_identify()
        assert second.session_id != first.session_id
        await emu.send_message(table.channel, table.anna, "noch da?")
        assert (await emu.next_message(table.channel)).content == "Anna: noch da?"


async def test_auto_sharded_client_gets_each_guild_on_its_shard(emu: emulator.DiscordEmulator) -> None:
    emu.recommended_shards = 2
    guilds = [await emu.add_guild(f"Tisch {n}", shard=(n, 2)) for n in range(2)]
    channels = [await emu.add_channel(g, "wuerfel") for g in guilds]
    player = await emu.add_member(guilds[1], "zoe")
    client = ShardedEchoBot(
        intents=intents(), guild_ready_timeout=READY_QUICKLY, allowed_mentions=discord.AllowedMentions.none()
    )
    seen: list[tuple[int, int | None]] = []

    @client.event
    async def on_message(message: discord.Message) -> None:
        if not message.author.bot and message.guild is not None:
            seen.append((message.guild.id, message.guild.shard_id))
            await message.channel.send(f"Shard {message.guild.shard_id}")

    async with running_client(client, emu.token):
        assert client.shard_count == 2
        assert sorted(s.shard for s in emu.connected_sessions()) == [(0, 2), (1, 2)]
        assert [client.get_guild(g).shard_id for g in guilds] == [0, 1]  # type: ignore[union-attr]
        await emu.send_message(channels[1], player, "hallo")
        assert (await emu.next_message(channels[1])).content == "Shard 1"
        assert seen == [(guilds[1], 1)]
        deliveries = [
            r.shard for r in emu.gateway_log if r.kind == "dispatch" and r.data["t"] == "MESSAGE_CREATE"
        ]
        assert set(deliveries) == {(1, 2)}
        await emu.disconnect_all()
        await emu.wait_for_gateway("resumed", lambda r: r.shard == (0, 2))
        await emu.wait_for_gateway("resumed", lambda r: r.shard == (1, 2))


async def test_one_shard_invalidated_alone_identifies_again_and_only_it_is_ready_again(
    emu: emulator.DiscordEmulator,
) -> None:
    """Discord invalidates one shard's session: that shard identifies again, discord.py fires
    on_shard_ready for it alone (on_ready never again), and the other shard's session goes on."""
    emu.recommended_shards = 2
    guilds = [await emu.add_guild(f"Tisch {n}", shard=(n, 2)) for n in range(2)]
    channel = await emu.add_channel(guilds[0], "wuerfel")
    player = await emu.add_member(guilds[0], "zoe")
    client = ShardedEchoBot(
        intents=intents(), guild_ready_timeout=READY_QUICKLY, allowed_mentions=discord.AllowedMentions.none()
    )
    events: list[str] = []
    received: list[int] = []

    @client.event
    async def on_ready() -> None:
        events.append("ready")

    @client.event
    async def on_shard_ready(shard_id: int) -> None:
        events.append(f"shard_ready {shard_id}")

    @client.event
    async def on_message(message: discord.Message) -> None:
        received.append(message.id)

    async with running_client(client, emu.token):
        before = {s.shard: s.id for s in emu.connected_sessions()}
        assert await emu.invalidate_shard(0) == 1
        lost = await emu.send_message(channel, player, "in der Lücke")
        again = await emu.wait_for_gateway(
            "identify", lambda r: r.shard == (0, 2) and r.session_id not in (None, before[(0, 2)])
        )
        after = {s.shard: s.id for s in emu.connected_sessions()}
        assert after[(1, 2)] == before[(1, 2)]  # shard 1 kept its session
        assert after[(0, 2)] == again.session_id
        await until(lambda: events.count("shard_ready 0") == 2)
        heard = await emu.send_message(channel, player, "wieder da")
        await until(lambda: heard in received)
    assert events.count("ready") == 1
    assert events.count("shard_ready 1") == 1
    assert lost not in received  # no replay after a new session: only a history read finds it


async def test_two_clients_on_one_shard_both_receive(emu: emulator.DiscordEmulator, table: Table) -> None:
    async with running_client(EchoBot(), emu.token) as one, running_client(EchoBot(), emu.token) as two:
        assert len(emu.connected_sessions()) == 2
        await emu.send_message(table.channel, table.anna, "an alle")
        replies = [await emu.next_message(table.channel), await emu.next_message(table.channel)]
        assert [r.content for r in replies] == ["Anna: an alle"] * 2
        assert [m.content for m in one.received if not m.author.bot] == ["an alle"]
        assert [m.content for m in two.received if not m.author.bot] == ["an alle"]


SUBPROCESS_BOT = textwrap.dedent(
    """
    import asyncio, os, discord
    from bot.discord.endpoint import use_endpoints

    use_endpoints(os.environ["EMU_API"], os.environ["EMU_GATEWAY"])
    intents = discord.Intents.default()
    intents.message_content = True
    client = discord.Client(intents=intents, guild_ready_timeout=0.05)

    @client.event
    async def on_ready():
        print("ready", flush=True)

    @client.event
    async def on_message(message):
        if not message.author.bot:
            await message.channel.send("aus dem Nebenprozess")
            await client.close()

    asyncio.run(client.start(os.environ["EMU_TOKEN"]))
    """
)


async def test_a_bot_in_another_process_connects_too(emu: emulator.DiscordEmulator, table: Table) -> None:
    env = {**os.environ, "EMU_API": emu.api_base, "EMU_GATEWAY": emu.gateway_url, "EMU_TOKEN": emu.token}
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        SUBPROCESS_BOT,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        assert process.stdout is not None
        assert await asyncio.wait_for(process.stdout.readline(), 30) == b"ready\n"
        await emu.send_message(table.channel, table.anna, "hallo Nebenprozess")
        assert (await emu.next_message(table.channel, timeout=10)).content == "aus dem Nebenprozess"
        assert await asyncio.wait_for(process.wait(), 30) == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def test_raw_gateway_protocol_plain_and_zlib_stream(
    emu: emulator.DiscordEmulator, table: Table
) -> None:
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(f"{emu.gateway_url}?v=10&encoding=json") as plain:
            hello = await plain.receive_json(timeout=5)
            assert hello["op"] == 10
            assert hello["d"]["heartbeat_interval"] == emu.heartbeat_interval_ms
            await plain.send_json({"op": 1, "d": None})
            assert (await plain.receive_json(timeout=5))["op"] == 11
            await plain.send_json({"op": 2, "d": {"token": "wrong", "intents": 1, "properties": {}}})
            closing = await plain.receive(timeout=5)
            assert closing.type is aiohttp.WSMsgType.CLOSE
            assert closing.data == 4004

        async with http.ws_connect(f"{emu.gateway_url}?v=10&encoding=json&compress=zlib-stream") as packed:
            inflate = zlib.decompressobj()

            async def receive() -> dict[str, Any]:
                message = await packed.receive(timeout=5)
                assert message.type is aiohttp.WSMsgType.BINARY
                assert message.data.endswith(b"\x00\x00\xff\xff")
                return dict(json.loads(inflate.decompress(message.data)))

            assert (await receive())["op"] == 10
            await packed.send_json(
                {"op": 2, "d": {"token": emu.token, "intents": 1, "shard": [0, 1], "properties": {}}}
            )
            ready = await receive()
            assert ready["t"] == "READY"
            assert ready["s"] == 1
            assert ready["d"]["guilds"] == [{"id": str(table.guild), "unavailable": True}]
            assert ready["d"]["application"]["id"] == str(emu.app_id)
            assert ready["d"]["shard"] == [0, 1]
            guild = await receive()
            assert guild["t"] == "GUILD_CREATE"
            assert guild["d"]["unavailable"] is False
            assert [c["name"] for c in guild["d"]["channels"]] == ["verflixte-6"]
            assert [m["user"]["id"] for m in guild["d"]["members"]] == [
                str(emu.bot_id)
            ]  # no presences intent

        async with http.ws_connect(f"{emu.resume_url}?v=10&encoding=json") as stale:
            await stale.receive_json(timeout=5)
            await stale.send_json({"op": 6, "d": {"token": emu.token, "session_id": "gone", "seq": 3}})
            assert await stale.receive_json(timeout=5) == {"op": 9, "d": False, "s": None, "t": None}
