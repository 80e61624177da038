"""Forum channels, threads and permission overwrites in the emulator, driven by the real discord.py client."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord
import pytest
from discord import app_commands

from tests.discord_emulator import FORUM, Allowed, DiscordEmulator, UsageError, running_client
from tests.discord_emulator import permissions as perms
from tests.discord_emulator.fixtures import discord_emulator  # noqa: F401  (the fixture)

READY_QUICKLY = 0.05


@dataclass(frozen=True)
class Hall:
    guild: int
    channel: int  # a text channel
    forum: int  # a forum with the tags "offen" and "beendet"
    anna: int
    bert: int
    moni: int  # may manage threads


# discord.py helpers these tests call that Discord's spec does not describe (the bot does not use them):
# ForumChannel.create_thread always adds ?use_nested_fields=1, a query parameter Discord accepts but its spec
# does not declare; GuildChannel.set_permissions sends allow/deny as strings ("1024"), as Discord's docs
# describe permission sets, where the spec types them as numbers. Discord accepts both.
DISCORD_PY_HELPERS = [
    Allowed(
        "create_thread",
        "unknown query parameter use_nested_fields",
        "discord.py's ForumChannel.create_thread",
    ),
    Allowed("set_channel_permission_overwrite", "body $.allow (anyOf)", "discord.py sends strings"),
    Allowed("set_channel_permission_overwrite", "body $.deny (anyOf)", "discord.py sends strings"),
]


@pytest.fixture
async def emu(discord_emulator: DiscordEmulator) -> DiscordEmulator:  # noqa: F811
    discord_emulator.spec_allowlist.extend(DISCORD_PY_HELPERS)
    return discord_emulator


@pytest.fixture
async def hall(emu: DiscordEmulator) -> Hall:
    guild = await emu.add_guild("Spielhalle", bot_permissions=perms.BOT_DEFAULT | perms.MANAGE_THREADS)
    channel = await emu.add_channel(guild, "tisch")
    forum = await emu.add_channel(guild, "durchgaenge", type=FORUM, tags=["offen", "beendet"])
    anna = await emu.add_member(guild, "anna", nick="Anna")
    bert = await emu.add_member(guild, "bert")
    moni = await emu.add_member(guild, "moni", permissions=perms.MANAGE_THREADS)
    return Hall(guild, channel, forum, anna, bert, moni)


class ThreadBot(discord.Client):
    """Records thread events and answers messages in threads; /wo tells where it was called."""

    def __init__(self) -> None:
        intents = discord.Intents.default()
        intents.message_content = True
        intents.members = True
        super().__init__(
            intents=intents,
            guild_ready_timeout=READY_QUICKLY,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.events: list[tuple[str, int]] = []
        self.received: list[discord.Message] = []
        self.tree = app_commands.CommandTree(self)
        self._changed = asyncio.Condition()

        @self.tree.command(name="wo", description="Wo bin ich?")
        async def wo(interaction: discord.Interaction) -> None:
            channel = interaction.channel
            parent = getattr(channel, "parent_id", None)
            view = discord.ui.View()
            view.add_item(discord.ui.Button(label="Weiter", custom_id="weiter"))
            await interaction.response.send_message(
                f"{type(channel).__name__} {getattr(channel, 'id', None)} in {parent}", view=view
            )

    async def setup_hook(self) -> None:
        await self.tree.sync()

    async def until(self, condition: Callable[[], bool], timeout: float = 5.0) -> None:  # noqa: ASYNC109
        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(condition), timeout)

    async def _note(self, kind: str, channel_id: int) -> None:
        self.events.append((kind, channel_id))
        async with self._changed:
            self._changed.notify_all()

    async def on_thread_create(self, thread: discord.Thread) -> None:
        await self._note("create", thread.id)

    async def on_thread_update(self, before: discord.Thread, after: discord.Thread) -> None:
        await self._note("update", after.id)

    async def on_thread_delete(self, thread: discord.Thread) -> None:
        await self._note("delete", thread.id)

    async def on_thread_join(self, thread: discord.Thread) -> None:
        await self._note("join", thread.id)

    async def on_message(self, message: discord.Message) -> None:
        self.received.append(message)
        await self._note("message", message.channel.id)
        if not message.author.bot and isinstance(message.channel, discord.Thread):
            await message.channel.send(f"{message.author.display_name} in {message.channel.name}")

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is discord.InteractionType.component:
            await interaction.response.send_message(f"gedrückt in {getattr(interaction.channel, 'id', None)}")

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None


def forum_of(client: discord.Client, forum_id: int) -> discord.ForumChannel:
    forum = client.get_channel(forum_id)
    assert isinstance(forum, discord.ForumChannel)
    return forum


def text_of(client: discord.Client, channel_id: int) -> discord.TextChannel:
    channel = client.get_channel(channel_id)
    assert isinstance(channel, discord.TextChannel)
    return channel


# forum posts ------------------------------------------------------------------------------------------------


async def test_the_bot_opens_a_forum_post_with_its_first_message(emu: DiscordEmulator, hall: Hall) -> None:
    async with running_client(ThreadBot(), emu.token) as client:
        forum = forum_of(client, hall.forum)
        assert [t.name for t in forum.available_tags] == ["offen", "beendet"]
        offen = forum.get_tag(emu.tag_id(hall.forum, "offen"))
        assert offen is not None
        post = await forum.create_thread(
            name="Durchgang 1",
            content="Der Tisch ist offen.",
            applied_tags=[offen],
            auto_archive_duration=10080,
        )
        thread, first = post.thread, post.message
        assert first.id == thread.id  # a forum post's first message has the thread's id
        assert thread.type is discord.ChannelType.public_thread
        assert thread.parent_id == hall.forum
        assert thread.owner_id == emu.bot_id
        assert thread.auto_archive_duration == 10080
        assert [t.name for t in thread.applied_tags] == ["offen"]
        await client.until(lambda: ("create", thread.id) in client.events)
        assert client.get_channel(thread.id) is not None
        starter = await emu.next_message(thread.id)
        assert starter.via == "forum_post"
        assert starter.content == "Der Tisch ist offen."
        assert emu.thread(thread.id)["thread_metadata"]["archived"] is False
        assert emu.thread(thread.id)["member"]["user_id"] == str(emu.bot_id)
        assert [t["name"] for t in emu.threads_in(hall.forum)] == ["Durchgang 1"]
        with pytest.raises(discord.HTTPException) as refused:
            await client.http.send_message(hall.forum, params=discord.http.handle_message_parameters("x"))
        assert refused.value.code == 50008  # a forum takes posts, not messages


async def test_a_forum_that_requires_a_tag_refuses_a_post_without(emu: DiscordEmulator, hall: Hall) -> None:
    strict = await emu.add_channel(hall.guild, "turniere", type=FORUM, tags=["killer"], require_tag=True)
    async with running_client(ThreadBot(), emu.token) as client:
        with pytest.raises(discord.HTTPException) as refused:
            await forum_of(client, strict).create_thread(name="Ohne Tag", content="?")
        assert refused.value.code == 40067
    with pytest.raises(UsageError, match="requires a tag"):
        await emu.post_in_forum(strict, hall.anna, "Ohne Tag", "?")


async def test_a_users_forum_post_reaches_the_bot_and_it_answers_inside(
    emu: DiscordEmulator, hall: Hall
) -> None:
    async with running_client(ThreadBot(), emu.token) as client:
        post = await emu.post_in_forum(hall.forum, hall.anna, "Frage", "Wann geht es los?", tags=["offen"])
        await client.until(lambda: ("create", post) in client.events)
        thread = client.get_channel(post)
        assert isinstance(thread, discord.Thread)
        assert thread.owner_id == hall.anna
        assert isinstance(thread.parent, discord.ForumChannel)
        answer = await emu.next_message(post)
        assert answer.content == "Anna in Frage"
        assert client.received[0].id == post  # the starter message, with the thread's id
        assert isinstance(client.received[0].channel, discord.Thread)


# threads in text channels -----------------------------------------------------------------------------------


async def test_a_thread_from_a_message_and_one_without(emu: DiscordEmulator, hall: Hall) -> None:
    async with running_client(ThreadBot(), emu.token) as client:
        channel = text_of(client, hall.channel)
        table = await channel.send("Tisch 1")
        thread = await table.create_thread(name="Tisch 1 – Züge", auto_archive_duration=1440)
        assert thread.id == table.id  # a thread started from a message has its id
        assert thread.parent_id == hall.channel
        update = await emu.wait_for_gateway(
            "dispatch", lambda r: r.data["t"] == "MESSAGE_UPDATE" and r.data["d"]["id"] == str(table.id)
        )
        assert update.data["d"]["thread"]["id"] == str(thread.id)
        with pytest.raises(discord.HTTPException) as twice:
            await table.create_thread(name="nochmal")
        assert twice.value.code == 160004
        loose = await channel.create_thread(name="Absprachen", type=discord.ChannelType.public_thread)
        assert loose.type is discord.ChannelType.public_thread
        notice = emu.messages_in(hall.channel)[-1]
        assert notice["type"] == 18  # THREAD_CREATED
        assert notice["message_reference"]["channel_id"] == str(loose.id)
        private = await channel.create_thread(name="Geheim", type=discord.ChannelType.private_thread)
        assert private.type is discord.ChannelType.private_thread
        assert emu.messages_in(hall.channel)[-1]["id"] == notice["id"]  # private threads leave no notice
        with pytest.raises(UsageError, match="cannot write"):
            await emu.send_message(private.id, hall.anna, "darf ich?")  # not a member
        await private.add_user(discord.Object(hall.anna))
        await emu.send_message(private.id, hall.anna, "jetzt schon")
        assert (await emu.next_message(private.id)).content == "Anna in Geheim"
        await client.until(lambda: ("create", loose.id) in client.events)


async def test_users_start_threads_and_the_bot_answers_in_them(emu: DiscordEmulator, hall: Hall) -> None:
    async with running_client(ThreadBot(), emu.token) as client:
        said = await emu.send_message(hall.channel, hall.anna, "Neuer Durchgang?")
        await client.until(lambda: ("message", hall.channel) in client.events)
        thread_id = await emu.start_thread(hall.channel, hall.anna, "Durchgang 2", message_id=said)
        assert thread_id == said
        await client.until(lambda: ("create", thread_id) in client.events)
        await emu.send_message(thread_id, hall.bert, "ich bin dabei")
        answer = await emu.next_message(thread_id)
        assert answer.content == "bert in Durchgang 2"
        assert answer.message["channel_id"] == str(thread_id)
        assert emu.thread(thread_id)["message_count"] == 2


async def test_threads_active_at_login_arrive_with_guild_create(emu: DiscordEmulator, hall: Hall) -> None:
    post = await emu.post_in_forum(hall.forum, hall.anna, "Alt", "schon da")
    done = await emu.post_in_forum(hall.forum, hall.anna, "Fertig", "vorbei")
    await emu.archive_thread(done, by=hall.moni)
    async with running_client(ThreadBot(), emu.token) as client:
        guild = client.get_guild(hall.guild)
        assert guild is not None
        assert [t.id for t in guild.threads] == [post]  # archived threads are not sent
        hidden = await emu.start_thread(hall.channel, hall.anna, "nur wir", private=True)
        closed = await emu.add_channel(
            hall.guild,
            "hinterzimmer",
            overwrites=[perms.Overwrite(emu.bot_id, perms.MEMBER_OVERWRITE, deny=perms.VIEW_CHANNEL)],
        )
        behind = await emu.start_thread(closed, hall.anna, "hinten")
        await asyncio.sleep(0.05)
        assert guild.get_thread(behind) is None  # the bot cannot see that channel: no THREAD_CREATE
        await emu.set_overwrites(closed, [])
        await emu.sync_threads(hall.guild, [closed, hall.channel])  # as Discord does on gaining access
        await client.until(lambda: ("join", behind) in client.events)
        assert guild.get_thread(hidden) is not None  # a thread moderator sees private threads too
        assert guild.get_thread(post) is not None
        fetched = await client.fetch_channel(done)
        assert isinstance(fetched, discord.Thread)
        assert fetched.archived
        await emu.delete_thread(post)
        await client.until(lambda: ("delete", post) in client.events)


# archiving and locking --------------------------------------------------------------------------------------


async def test_archived_and_locked_threads_refuse_messages(emu: DiscordEmulator, hall: Hall) -> None:
    async with running_client(ThreadBot(), emu.token) as client:
        post = await forum_of(client, hall.forum).create_thread(name="Durchgang 3", content="los")
        thread = post.thread
        await thread.send("Zug 1")
        await thread.edit(archived=True, locked=True)
        await client.until(lambda: ("update", thread.id) in client.events)
        metadata = emu.thread(thread.id)["thread_metadata"]
        assert metadata["archived"] is True
        assert metadata["locked"] is True
        with pytest.raises(discord.HTTPException) as archived:
            await thread.send("Zug 2")
        assert archived.value.code == 50083
        with pytest.raises(discord.HTTPException) as renamed:
            await thread.edit(name="umbenannt")
        assert renamed.value.code == 50083  # an archived thread only takes being unarchived
        with pytest.raises(UsageError, match="archived and locked"):
            await emu.send_message(thread.id, hall.anna, "hallo?")
        await emu.send_message(thread.id, hall.moni, "Moderation: wieder offen")  # unarchives it
        assert emu.thread(thread.id)["thread_metadata"]["archived"] is False
        await emu.next_message(thread.id, predicate=lambda m: m.content.startswith("moni"))
        await thread.edit(locked=False, archived=True)
        await emu.send_message(thread.id, hall.anna, "noch ein Zug")  # unlocked: anyone's message unarchives
        assert emu.thread(thread.id)["thread_metadata"]["archived"] is False


async def test_without_manage_threads_the_bot_may_archive_its_thread_but_not_lock_it(
    emu: DiscordEmulator,
) -> None:
    guild = await emu.add_guild("Ohne Rechte")
    forum = await emu.add_channel(guild, "durchgaenge", type=FORUM)
    async with running_client(ThreadBot(), emu.token) as client:
        thread = (await forum_of(client, forum).create_thread(name="D", content="x")).thread
        with pytest.raises(discord.Forbidden) as refused:
            await thread.edit(locked=True)
        assert refused.value.code == 50013
        await thread.edit(archived=True)  # its own thread
        await thread.edit(archived=False)
        assert emu.thread(thread.id)["thread_metadata"]["archived"] is False
        channel = await emu.add_channel(guild, "tisch")
        player = await emu.add_member(guild, "anna")
        hidden = await emu.start_thread(channel, player, "privat", private=True)
        await emu.send_message(hidden, player, "psst")
        await asyncio.sleep(0.05)
        assert client.get_channel(hidden) is None  # a private thread the bot is not in
        assert not [m for m in client.received if m.channel.id == hidden]
        with pytest.raises(discord.Forbidden):
            await client.fetch_channel(hidden)


# interactions in threads ------------------------------------------------------------------------------------


async def test_slash_commands_and_buttons_work_inside_a_thread(emu: DiscordEmulator, hall: Hall) -> None:
    async with running_client(ThreadBot(), emu.token) as client:
        post = await emu.post_in_forum(hall.forum, hall.anna, "Durchgang 4", "auf gehts")
        await client.until(lambda: ("create", post) in client.events)
        sent = await emu.slash_command(hall.guild, post, hall.anna, "wo")
        assert sent.payload["channel"]["type"] == 11
        assert sent.payload["channel"]["parent_id"] == str(hall.forum)
        assert sent.payload["channel_id"] == str(post)
        response = await emu.wait_for_response(sent)
        assert response.data is not None
        assert response.data["content"] == f"Thread {post} in {hall.forum}"
        board = await emu.next_message(post, predicate=lambda m: m.interaction_id == sent.id)
        click = await emu.click(board, "weiter", hall.bert)
        assert click.payload["channel"]["parent_id"] == str(hall.forum)
        answer = await emu.wait_for_response(click)
        assert answer.data is not None
        assert answer.data["content"] == f"gedrückt in {post}"


# permission overwrites --------------------------------------------------------------------------------------


async def test_overwrites_on_the_parent_decide_what_the_bot_may_do_in_threads(
    emu: DiscordEmulator, hall: Hall
) -> None:
    async with running_client(ThreadBot(), emu.token) as client:
        channel = text_of(client, hall.channel)
        thread = await channel.create_thread(name="Züge", type=discord.ChannelType.public_thread)
        bot_only = perms.Overwrite(emu.bot_id, perms.MEMBER_OVERWRITE, deny=perms.SEND_MESSAGES)
        await emu.set_overwrites(hall.channel, [bot_only])
        await thread.send("in Threads darf ich noch")  # SEND_MESSAGES_IN_THREADS is what counts there
        with pytest.raises(discord.Forbidden):
            await channel.send("hier nicht mehr")
        no_threads = perms.Overwrite(
            hall.guild,
            perms.ROLE_OVERWRITE,
            deny=perms.SEND_MESSAGES_IN_THREADS | perms.CREATE_PUBLIC_THREADS,
        )
        await emu.set_overwrites(hall.channel, [no_threads])
        with pytest.raises(discord.Forbidden) as send:
            await thread.send("jetzt nicht")
        assert send.value.code == 50013
        with pytest.raises(discord.Forbidden) as create:
            await channel.create_thread(name="noch einer", type=discord.ChannelType.public_thread)
        assert create.value.code == 50013
        with pytest.raises(UsageError, match="cannot write"):
            await emu.send_message(thread.id, hall.anna, "ich auch nicht")
        role = await emu.add_role(hall.guild, "Spieler")
        player = await emu.add_member(hall.guild, "carla", roles=[role])
        allowed = perms.Overwrite(role, perms.ROLE_OVERWRITE, allow=perms.SEND_MESSAGES_IN_THREADS)
        players = await soon(lambda: channel.guild.get_role(role))
        with pytest.raises(discord.Forbidden):  # the bot lacks MANAGE_ROLES
            await channel.set_permissions(players, overwrite=_overwrite(allow=allowed.allow))
        await emu.set_overwrites(hall.channel, [no_threads, allowed])
        await emu.send_message(thread.id, player, "ich schon")  # the role's allow beats @everyone's deny
        assert sent_by(emu, thread.id, player)


async def soon(look: Callable[[], Any]) -> Any:
    """What `look` finds once the client has caught up with the gateway."""
    for _ in range(200):
        found = look()
        if found is not None:
            return found
        await asyncio.sleep(0.01)
    raise AssertionError("the client never saw it")


def _overwrite(*, allow: int) -> discord.PermissionOverwrite:
    return discord.PermissionOverwrite.from_pair(discord.Permissions(allow), discord.Permissions.none())


def sent_by(emu: DiscordEmulator, channel_id: int, user_id: int) -> list[dict[str, Any]]:
    return [m for m in emu.messages_in(channel_id) if m["author"]["id"] == str(user_id)]


async def test_overwrites_hide_slash_commands(emu: DiscordEmulator, hall: Hall) -> None:
    quiet = await emu.add_channel(
        hall.guild,
        "ruhe",
        overwrites=[perms.Overwrite(hall.guild, perms.ROLE_OVERWRITE, deny=perms.USE_APPLICATION_COMMANDS)],
    )
    async with running_client(ThreadBot(), emu.token):
        with pytest.raises(UsageError, match="may not use application commands"):
            await emu.slash_command(hall.guild, quiet, hall.anna, "wo")


async def test_a_message_sent_into_an_archived_open_thread_unarchives_it_but_no_edit_goes_in(
    emu: DiscordEmulator, hall: Hall
) -> None:
    async with running_client(ThreadBot(), emu.token) as client:
        post = await forum_of(client, hall.forum).create_thread(name="Durchgang 4", content="Tabelle")
        thread = post.thread
        await emu.archive_thread(thread.id)  # Discord archived the quiet post
        with pytest.raises(discord.HTTPException) as refused:
            await post.message.edit(content="neue Tabelle")
        assert refused.value.code == 50083  # no message of an archived thread takes an edit
        sent = await client.get_partial_messageable(thread.id).send("Zug 5")  # a send unarchives it
        assert emu.thread(thread.id)["thread_metadata"]["archived"] is False
        assert emu.message(sent.id)["content"] == "Zug 5"
        await post.message.edit(content="neue Tabelle")  # now it goes in
        assert emu.message(post.message.id)["content"] == "neue Tabelle"


async def test_a_moderator_only_tag_needs_manage_threads(emu: DiscordEmulator, hall: Hall) -> None:
    no_managing = perms.Overwrite(emu.bot_id, perms.MEMBER_OVERWRITE, deny=perms.MANAGE_THREADS)
    strict = await emu.add_channel(
        hall.guild,
        "turniere",
        type=FORUM,
        tags=["Leitung", "Runde"],
        moderated_tags=["Leitung"],
        require_tag=True,
        overwrites=[no_managing],
    )
    async with running_client(ThreadBot(), emu.token) as client:
        forum = forum_of(client, strict)
        leitung, runde = (next(t for t in forum.available_tags if t.name == n) for n in ("Leitung", "Runde"))
        assert (leitung.moderated, runde.moderated) == (True, False)
        with pytest.raises(discord.HTTPException) as refused:
            await forum.create_thread(name="Mit Leitungs-Tag", content="?", applied_tags=[leitung])
        assert refused.value.code == 40066
        made = await forum.create_thread(name="Mit Runden-Tag", content="!", applied_tags=[runde])
        assert emu.thread(made.thread.id)["applied_tags"] == [str(runde.id)]
        await emu.set_overwrites(strict, [])  # with Manage Threads the moderators' tag will do
        await forum.create_thread(name="Mit Leitungs-Tag", content="!", applied_tags=[leitung])


async def test_a_guild_at_the_cap_of_active_threads_gets_no_new_one(emu: DiscordEmulator, hall: Hall) -> None:
    async with running_client(ThreadBot(), emu.token) as client:
        text = text_of(client, hall.channel)
        first = await text.create_thread(name="Eins", type=discord.ChannelType.public_thread)
        emu.active_thread_limit = 1
        starter = await text.send("Zwei")
        with pytest.raises(discord.HTTPException) as refused:
            await starter.create_thread(name="Zwei")
        assert refused.value.code == 160006
        with pytest.raises(discord.HTTPException) as in_forum:
            await forum_of(client, hall.forum).create_thread(name="Drei", content="!")
        assert in_forum.value.code == 160006
        await first.edit(archived=True)  # an archived thread does not count
        await client.until(lambda: ("update", first.id) in client.events)
        await starter.create_thread(name="Zwei")
