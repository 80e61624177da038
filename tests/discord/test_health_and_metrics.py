"""What an operator sees of the Discord bot: the real discord.py client against the emulator, the
croupier's endpoint read over HTTP.

A Durchgang played by slash commands and typed words moves ``croupier_moves_total`` and
``croupier_refusals_total`` by exactly the moves and refusals its command log holds, times every
answer, and logs one JSON line per request with its fields and no token. Readiness fails, naming
the condition, while the gateway is cut off, while a channel's posts are held for a missing permission
(the delivery's own hold), and while a shard whose session Discord invalidated catches up; it holds
again once the gateway is back, the permission granted and the shard caught up. The delivery's
metrics follow its failure classes and holds as the emulator refuses and then allows.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import math
import re
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest

from bot.discord import failures
from bot.discord.client import CroupierBot
from bot.discord.watch import DiscordHealth
from bot.observability.endpoint import Endpoint, serving
from bot.observability.health import Health, StoreHealth
from bot.observability.logs import JsonFormatter
from bot.service.croupier import Croupier
from bot.store import Store
from tests.dice import Dice
from tests.discord.helpers import Clock, Table, asked, says, story
from tests.discord.test_shards import SHARDS, Rooms, furnish, history_reads
from tests.discord.test_slow_answers import SlowStore
from tests.discord.test_store_unavailable import shut_down_after
from tests.discord_emulator import DiscordEmulator
from tests.discord_emulator import permissions as perms
from tests.faults import harness
from tests.observability.scraping import Samples, failing, liveness, moved, scrape, until_ready, value

FIELDS = ("guild", "channel", "game_id", "message_id", "outcome", "latency_ms")
DEPLOYMENT = (Path(__file__).resolve().parents[2] / "docs" / "deployment.md").read_text(encoding="utf-8")


def _family(sample: str) -> str:
    """A sample's metric family: its name without Prometheus' suffixes."""
    return re.sub(r"_(bucket|count|sum|created|total|info)$", "", sample)


def _documented_label_values() -> dict[tuple[str, str], set[str]]:
    """(metric family, label) → the values the deployment doc's metric table lists for it."""
    found: dict[tuple[str, str], set[str]] = {}
    for line in DEPLOYMENT.splitlines():
        cells = [cell.strip() for cell in line.split("|")]
        if len(cells) < 5 or not cells[1].startswith("`croupier_"):
            continue
        for label, values in re.findall(r"`(\w+)` \(([^)]*)\)", cells[3]):
            for name in re.findall(r"`(croupier_[a-z0-9_]+)`", cells[1]):
                found[(_family(name), label)] = set(re.findall(r"`([^`]+)`", values))
    return found


def _exposed_label_values(samples: Samples, family: str, label: str) -> set[str]:
    return {
        dict(labels)[label] for name, labels in samples if _family(name) == family and label in dict(labels)
    }


def _documented_conditions() -> list[str]:
    """The readiness conditions the deployment doc explains, in its order."""
    section = DEPLOYMENT.split("### What each readiness condition means", 1)[1].split("\n### ", 1)[0]
    return re.findall(r"^\| `([a-z_]+)` \|", section, flags=re.MULTILINE)


@contextlib.asynccontextmanager
async def endpoint_of(store: Store, bot: CroupierBot) -> AsyncIterator[Endpoint]:
    """The process's health, as ``croupier run`` puts it together, served on a free port."""
    health = Health()
    health.add("store", StoreHealth(store))
    health.add("discord", DiscordHealth(bot))
    async with serving(health, "127.0.0.1", 0) as endpoint:
        assert endpoint is not None
        yield endpoint


@contextlib.contextmanager
def json_log(secret: str) -> Iterator[io.StringIO]:
    """The process's log as LOG_FORMAT=json writes it, with the request lines at INFO."""
    lines = io.StringIO()
    handler = logging.StreamHandler(lines)
    handler.setFormatter(JsonFormatter(secrets=[secret]))
    root, events = logging.getLogger(), logging.getLogger("croupier.events")
    saved = events.level
    root.addHandler(handler)
    events.setLevel(logging.INFO)
    try:
        yield lines
    finally:
        root.removeHandler(handler)
        events.setLevel(saved)


async def test_a_durchgang_moves_the_counters_by_its_moves_and_refusals_and_logs_a_json_line_each(
    table: Table,
) -> None:
    p = table.people
    table.dice.will_roll(3, 4)  # anna: Freiwurf 3, stopp | ben: Freiwurf 4, stopp
    with json_log(table.emu.token) as logged:
        async with table.running() as bot, endpoint_of(table.store, bot) as endpoint:
            await until_ready(endpoint.url, True)
            before = await scrape(endpoint.url)
            await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
            await table.slash_message(p.anna, "mitmachen")
            await table.slash_message(p.ben, "mitmachen")
            out_of_turn = await table.said(p.ben, "weiter")  # refused: anna is to act
            assert not out_of_turn.embeds
            await table.said(p.anna, "weiter")
            await table.said(p.anna, "stopp")
            await table.said(p.ben, "weiter")
            _, not_theirs = await table.slash(p.anna, "durchgang", subcommand="schliessen")  # refused
            assert not_theirs.ephemeral
            await table.said(p.ben, "stopp")
            await table.slash_message(p.moni, "durchgang", subcommand="schliessen")
            after = await scrape(endpoint.url)
        log = (await harness.contents(table.store))["log"]

    moves = [e for e in log if e["command"] is not None and e["command"]["type"] != "Open"]
    refusals = [e for e in log if e["command"] is None and not e["reply"]["ok"]]
    assert (len(moves), len(refusals)) == (7, 2)  # two joins, four words, the close
    labels = {"game": "verflixte6", "front_end": "discord"}
    assert moved(before, after, "croupier_moves_total", **labels) == len(moves)
    assert moved(before, after, "croupier_refusals_total", **labels) == len(refusals)
    # every request was answered, and every answer timed from its arrival to its post
    requests = 10
    assert moved(before, after, "croupier_answer_latency_seconds_count", front_end="discord") == requests
    assert value(after, "croupier_discord_shard_ready", shard="0") == 1
    assert value(after, "croupier_discord_guilds", shard="0") == 1
    assert value(after, "croupier_delivery_backlog") == 0

    # docs/deployment.md lists every croupier metric a bot exposes, and its alert rules use no other
    exposed = {_family(name) for name, _ in after if name.startswith("croupier_")}
    documented = {_family(name) for name in re.findall(r"\bcroupier_[a-z0-9_]+", DEPLOYMENT)}
    assert documented == exposed
    # … every bounded label with the values it lists, and every readiness condition
    listed = _documented_label_values()
    assert {family for family, _ in listed} >= {"croupier_delivery_retries", "croupier_channels_held"}
    for (family, label), values in listed.items():
        assert _exposed_label_values(after, family, label) == values, (family, label)
    conditions = _exposed_label_values(after, "croupier_ready_condition", "condition")
    assert sorted(_documented_conditions()) == sorted(conditions)

    lines = [json.loads(line) for line in logged.getvalue().splitlines()]  # each line is one object
    assert table.emu.token not in logged.getvalue()
    requests_logged = {line["message_id"]: line for line in lines if line.get("event") == "request"}
    for entry in moves:
        line = requests_logged[entry["message_id"]]
        assert set(FIELDS) <= set(line), line
        assert line["outcome"] == "moved"
        assert (line["guild"], line["channel"]) == (str(p.guild), str(p.channel))
        assert line["game_id"] is not None
        assert line["latency_ms"] >= 0
        assert line["front_end"] == "discord"
    assert sorted(line["message_id"] for line in lines if line.get("outcome") == "refused") == sorted(
        entry["message_id"] for entry in refusals
    )


async def test_readiness_fails_while_the_gateway_is_cut_off_and_holds_again_after(table: Table) -> None:
    p = table.people
    table.dice.will_roll(4)
    async with table.running() as bot, endpoint_of(table.store, bot) as endpoint:
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        await table.slash_message(p.anna, "mitmachen")
        assert failing(await until_ready(endpoint.url, True)) == {}
        before = await scrape(endpoint.url)

        await table.emu.cut_gateway()
        outage = await until_ready(endpoint.url, False)
        assert list(failing(outage)) == ["gateway"]
        assert failing(outage)["gateway"].startswith("shard 0 disconnected for ")
        assert (await liveness(endpoint.url))[0] == 200
        assert value(await scrape(endpoint.url), "croupier_discord_shard_ready", shard="0") == 0
        typed = await table.say(p.anna, "weiter")  # while the bot is away: read back once it is in

        table.emu.restore_gateway()
        assert failing(await until_ready(endpoint.url, True)) == {}
        assert (await table.answer_to(typed)).embeds
        after = await scrape(endpoint.url)
        assert value(after, "croupier_discord_shard_ready", shard="0") == 1
        assert moved(before, after, "croupier_discord_shard_disconnects_total", shard="0") >= 1
        # discord.py's resume was refused during the outage, so it identified anew: a new session,
        # whose catch-up read the line from the history
        assert moved(before, after, "croupier_catch_up_runs_total", shard="0") == 1
        assert moved(before, after, "croupier_catch_up_lines_total", shard="0") == 1
        assert moved(before, after, "croupier_moves_total", game="verflixte6", front_end="discord") == 1


async def test_readiness_fails_while_a_channel_s_posts_are_held_for_a_missing_permission(
    table: Table,
) -> None:
    p, emu = table.people, table.emu
    async with table.running() as bot, endpoint_of(table.store, bot) as endpoint:
        ledger = bot.front.delivery.ledger
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        await table.slash_message(p.anna, "mitmachen")
        await until_ready(endpoint.url, True)
        before = await scrape(endpoint.url)

        # a moderator takes Send Messages from the bot: anna's move is stored, Discord refuses its
        # answer (403) and the delivery holds the channel
        await emu.set_overwrites(p.channel, [_denied(table, perms.SEND_MESSAGES)])
        table.dice.will_roll(5)
        typed = await table.say(p.anna, "weiter")
        held = await until_ready(endpoint.url, False)
        assert failing(held) == {
            "held_channels": f"1 channel(s) held — channel {p.channel}: missing Send Messages"
        }
        assert list(ledger.snapshot()["held"]) == [p.channel]  # the one hold readiness read
        samples = await scrape(endpoint.url)
        assert value(samples, "croupier_channels_held", reason="send_messages") == 1
        assert moved(before, samples, "croupier_delivery_retries_total", **{"class": "permission"}) == 1

        await emu.set_overwrites(p.channel, [])  # granted again: the update releases the held answer
        answer = await table.answer_to(typed)
        assert answer.embeds
        assert failing(await until_ready(endpoint.url, True)) == {}
        after = await scrape(endpoint.url)
        assert ledger.snapshot()["held"] == {}
        assert value(after, "croupier_channels_held", reason="send_messages") == 0
        assert moved(before, after, "croupier_answers_undeliverable_total", **{"class": "permanent"}) == 0
        # the one refused post counts against Discord's invalid request limit, as the log counts it
        assert moved(before, after, "croupier_discord_invalid_requests_total", status="403") == 1
        assert value(after, "croupier_discord_invalid_requests_10m") == ledger.invalid_recent() >= 1


def _denied(table: Table, permissions: int) -> perms.Overwrite:
    """A member overwrite that denies the bot ``permissions``."""
    return perms.Overwrite(table.emu.bot_id, perms.MEMBER_OVERWRITE, deny=permissions)


def _freiwurf(face: int, total: int) -> list[str]:
    return [says("v6.freiwurf", player="Anna", face=face, total=total), asked("Anna")]


async def test_retries_holds_and_undeliverable_answers_follow_discord_s_refusals_by_class(
    table: Table,
) -> None:
    """Production pacing: the delivery's backoff starts at one second."""
    p, emu = table.people, table.emu
    by_class = {kind: {"class": kind} for kind in failures.CLASSES}
    async with table.running() as bot, endpoint_of(table.store, bot) as endpoint:
        ledger = bot.front.delivery.ledger
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        await table.slash_message(p.anna, "mitmachen")
        await until_ready(endpoint.url, True)
        start = await scrape(endpoint.url)

        # transient: the connection drops before Discord answers; tried again after the backoff
        dropped = emu.fail_requests(operation="create_message", channel=p.channel, hang=0.01, then="drop")
        table.dice.will_roll(3)
        assert story(await table.said(p.anna, "weiter")) == _freiwurf(3, 3)
        assert dropped.spent
        transient = await scrape(endpoint.url)
        assert moved(start, transient, "croupier_delivery_retries_total", **by_class["transient"]) == 1
        assert moved(start, transient, "croupier_delivery_retries_total", **by_class["permission"]) == 0
        assert value(transient, "croupier_channels_held", reason="send_messages") == 0

        # permission: Send Messages denied, the answer held; granted, it goes out and the hold ends
        await emu.set_overwrites(p.channel, [_denied(table, perms.SEND_MESSAGES)])
        table.dice.will_roll(4)
        typed = await table.say(p.anna, "weiter")
        assert failing(await until_ready(endpoint.url, False)) == {
            "held_channels": f"1 channel(s) held — channel {p.channel}: missing Send Messages"
        }
        holding = await scrape(endpoint.url)
        assert moved(transient, holding, "croupier_delivery_retries_total", **by_class["permission"]) == 1
        assert value(holding, "croupier_channels_held", reason="send_messages") == 1
        assert sum(value(holding, "croupier_channels_held", reason=r) for r in _held_reasons(holding)) == 1
        await emu.set_overwrites(p.channel, [])
        assert (await table.answer_to(typed)).embeds
        await until_ready(endpoint.url, True)
        released = await scrape(endpoint.url)
        assert value(released, "croupier_channels_held", reason="send_messages") == 0

        # no Embed Links: not held, the answers go as text, and the channel counts as degraded
        await emu.set_overwrites(p.channel, [_denied(table, perms.EMBED_LINKS)])
        table.dice.will_roll(2)
        as_text = await table.said(p.anna, "weiter")
        assert not as_text.embeds
        degraded = await scrape(endpoint.url)
        assert value(degraded, "croupier_channels_degraded", permission="embed_links") == 1
        assert failing(await until_ready(endpoint.url, True)) == {}  # its answers do go out
        await emu.set_overwrites(p.channel, [])
        await _until(lambda: not ledger.degraded)
        assert value(await scrape(endpoint.url), "croupier_channels_degraded", permission="embed_links") == 0

        # refused (a request Discord never takes) and permanent (the channel is gone): given up at once
        given_up = await scrape(endpoint.url)
        emu.fail_requests(operation="create_message", channel=p.channel, status=400, code=50035)
        table.dice.will_roll(5)
        await table.say(p.anna, "weiter")
        await _until(lambda: ledger.undeliverable == 1)
        emu.fail_requests(
            operation="create_message", channel=p.channel, status=404, code=10003, message="Unknown Channel"
        )
        table.dice.will_roll(1)
        await table.say(p.anna, "weiter")
        await _until(lambda: ledger.undeliverable == 2)
        end = await scrape(endpoint.url)
        assert moved(given_up, end, "croupier_answers_undeliverable_total", **by_class["refused"]) == 1
        assert moved(given_up, end, "croupier_answers_undeliverable_total", **by_class["permanent"]) == 1
        assert moved(start, end, "croupier_delivery_retries_total", **by_class["transient"]) == 1
        assert moved(start, end, "croupier_delivery_retries_total", **by_class["permission"]) == 1
        assert failing(await until_ready(endpoint.url, True)) == {}  # nothing is held for them

    # the metrics say what the delivery's own ledger says
    counted = ledger.snapshot()["failures"]
    assert (counted["transient"], counted["permission"], counted["refused"], counted["permanent"]) == (
        1,
        1,
        1,
        1,
    )


def _held_reasons(samples: Samples) -> set[str]:
    return _exposed_label_values(samples, "croupier_channels_held", "reason")


async def _until(check: Callable[[], bool], patience: float = 10.0) -> None:
    """A safety net, not a measure: until ``check`` holds."""
    async with asyncio.timeout(patience):
        while True:
            if check():
                return
            await asyncio.sleep(0.02)


@pytest.fixture
async def rooms(discord_emulator: DiscordEmulator, croupier_store: Store) -> Rooms:
    """Two guilds, one on each of two shards, as ``tests/discord/test_shards.py`` has them."""
    playing = await furnish(discord_emulator, croupier_store, "Spelunke", 0)
    other = await furnish(discord_emulator, croupier_store, "Taverne", 1)
    return Rooms(discord_emulator, croupier_store, playing, other, Dice(), Clock())


async def test_a_shard_invalidated_alone_is_not_caught_up_until_it_read_its_gap(rooms: Rooms) -> None:
    emu, here, there = rooms.emu, rooms.playing, rooms.other
    rooms.dice.will_roll(4)
    async with rooms.running() as bot, endpoint_of(rooms.store, bot) as endpoint:
        await rooms.seated(here)
        assert failing(await until_ready(endpoint.url, True)) == {}
        before = await scrape(endpoint.url)
        assert value(before, "croupier_discord_guilds_caught_up", shard="0") == 1
        assert value(before, "croupier_discord_guilds_caught_up", shard="1") == 1

        gate = bot.hold(0)  # shard 0 identifies again only when the test lets it
        await emu.invalidate_shard(0)
        await emu.wait_for_gateway("invalid_session", lambda r: r.shard == (0, SHARDS))
        away = await until_ready(endpoint.url, False)
        assert list(failing(away)) == ["gateway"]
        assert failing(away)["gateway"].startswith("shard 0 disconnected for ")
        line = await emu.send_message(here.channel, here.anna, "weiter")  # in the gap: never an event

        slow = emu.fail_requests(  # the new session's read of the gap takes its time
            route="/channels/{channel_id}/messages",
            method="GET",
            channel=here.channel,
            hang=math.inf,
            then="process",
        )
        gate.set()
        await _until(lambda: slow.times == 0)  # the history read is held
        await _until(lambda: bot.gateway_watch.state(0)[0] == "ready")
        reading = await until_ready(endpoint.url, False)
        assert failing(reading) == {"caught_up": "shard(s) 0 reading what was typed while away"}
        gap = await scrape(endpoint.url)
        assert value(gap, "croupier_discord_guilds_caught_up", shard="0") == 0
        assert value(gap, "croupier_discord_guilds_caught_up", shard="1") == 1  # played live all along

        slow.release()
        answer = await rooms.answer_to(here, line)
        assert story(answer) == [says("v6.freiwurf", player="Anna", face=4, total=4), asked("Anna")]
        assert failing(await until_ready(endpoint.url, True)) == {}
        after = await scrape(endpoint.url)
        assert value(after, "croupier_discord_guilds_caught_up", shard="0") == 1
        # one run for shard 0's new session, which read the line typed in its gap; none for shard 1
        assert moved(before, after, "croupier_catch_up_runs_total", shard="0") == 1
        assert moved(before, after, "croupier_catch_up_lines_total", shard="0") == 1
        assert moved(before, after, "croupier_catch_up_runs_total", shard="1") == 0
        assert history_reads(emu, there.channel) == []


async def test_rate_limits_and_slow_or_expired_interactions_are_counted(table: Table) -> None:
    p, emu = table.people, table.emu
    slow = SlowStore(table.store.engine, table.store._url, table.store.defaults)
    croupier = Croupier(store=slow, dice_factory=table.dice.factory, clock=table.clock)
    table.dice.will_roll(2)
    async with (
        table.running(croupier) as bot,
        shut_down_after(slow),
        endpoint_of(table.store, bot) as endpoint,
    ):
        await table.slash_message(p.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        await table.slash_message(p.anna, "mitmachen")
        before = await scrape(endpoint.url)

        # Discord answers the first post with a 429: discord.py waits it out and posts again
        emu.fail_requests(operation="create_message", channel=p.channel, status=429, retry_after=0.05)
        assert (await table.said(p.anna, "weiter")).embeds

        # the database is slow: a slash command is deferred, then answered
        slow.gate = asyncio.Event()
        rules = await emu.slash_command(p.guild, p.channel, p.carl, "regeln")
        assert (await emu.wait_for_response(rules, timeout=4)).deferred
        slow.gate.set()
        await emu.wait_for_answers(rules, lambda a: bool(a.edits or a.followups), timeout=10)

        # the token runs out meanwhile: the answer is posted in the channel instead
        slow.gate = asyncio.Event()
        sent = await emu.slash_command(p.guild, p.channel, p.ben, "mitmachen")
        state = emu.interactions.pop(sent.id)
        emu.interactions_by_token.pop(state.sent.token)
        slow.gate.set()
        await emu.next_message(p.channel, predicate=lambda m: m.via == "channel" and bool(m.embeds))
        after = await scrape(endpoint.url)

    assert moved(before, after, "croupier_discord_rate_limited_total", scope="user") == 1
    assert moved(before, after, "croupier_discord_invalid_requests_total", status="429") == 1
    # the expired one could not even be deferred: it counts as expired, once
    assert moved(before, after, "croupier_interactions_deferred_total", kind="command") == 1
    assert moved(before, after, "croupier_interactions_expired_total") == 1
