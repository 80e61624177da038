"""The pieces under the delivery, without Discord: how a failure is classified, how the invalid
requests of ten minutes are counted and reported, and how long text and embeds are laid out in
messages within Discord's limits with nothing dropped."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import aiohttp
import discord
import pytest

from bot.discord import failures
from bot.discord.embeds import game_embeds
from bot.discord.failures import PERMANENT, PERMISSION, REFUSED, TRANSIENT, Ledger, classify
from bot.discord.limits import CONTENT_MAX, content_chunks, fits, messages
from bot.discord.outgoing import Outgoing, outgoing
from bot.replies import Reply, Row


@dataclass
class _Response:
    status: int
    reason: str = "x"


def http_error(status: int, code: int = 0, message: str = "refused") -> discord.HTTPException:
    response: Any = _Response(status)
    return discord.HTTPException(response, {"code": code, "message": message})


@pytest.mark.parametrize(
    ("error", "known", "kind"),
    [
        (http_error(500), True, TRANSIENT),
        (http_error(503), True, TRANSIENT),
        (http_error(429), True, TRANSIENT),
        (TimeoutError(), True, TRANSIENT),
        (aiohttp.ServerDisconnectedError(), True, TRANSIENT),
        (http_error(403, 50013, "Missing Permissions"), True, PERMISSION),
        (
            http_error(403, 160002, "Cannot reply without permission to read message history"),
            True,
            PERMISSION,
        ),
        (http_error(403, 50001, "Missing Access"), True, PERMISSION),  # View Channel, in a known channel
        (http_error(403, 50001, "Missing Access"), False, PERMANENT),  # the bot was removed
        (http_error(404, 10003, "Unknown Channel"), True, PERMANENT),
        (http_error(400, 50035, "Invalid Form Body"), True, REFUSED),
    ],
)
def test_every_failure_has_a_class(error: BaseException, known: bool, kind: str) -> None:
    assert classify(error, channel_known=known) == kind


def test_the_invalid_requests_of_ten_minutes_are_counted_and_reported_at_each_threshold() -> None:
    now = [0.0]
    ledger = Ledger(clock=lambda: now[0])
    reported = [figure for _ in range(1_200) if (figure := ledger.invalid_request()) is not None]
    assert reported == [100, 500, 1_000]  # one log line per threshold crossed, not one per request
    assert ledger.braking  # from 1,000 on: no probe, nothing that may be refused twice
    now[0] += failures.INVALID_WINDOW_S + 1  # ten minutes later the window is empty again …
    assert ledger.invalid_recent() == 0
    assert not ledger.braking
    assert [ledger.invalid_request() for _ in range(100)][-1] == 100  # … and reported afresh


def test_a_long_text_is_split_at_line_ends_and_code_blocks_stay_closed() -> None:
    lines = ["Stand:", "```text", *(f"• Spieler {n:03d}  Jungfrau  {n}" for n in range(300)), "```", "Ende"]
    pieces = content_chunks(lines)
    assert len(pieces) > 1
    assert all(len(piece) <= CONTENT_MAX for piece in pieces)
    assert all(piece.count("```") % 2 == 0 for piece in pieces)  # each renders on its own
    rows = [line for piece in pieces for line in piece.splitlines() if line.startswith("•")]
    assert rows == lines[2:302]  # nothing dropped, nothing doubled


def test_a_line_longer_than_a_message_is_broken_not_dropped() -> None:
    pieces = content_chunks(["x" * 5_000])
    assert "".join(pieces) == "x" * 5_000
    assert all(len(piece) <= CONTENT_MAX for piece in pieces)


def big_reply(players: int) -> Reply:
    rows = tuple(
        Row(
            str(n),
            f"{n:03d} *Wü_rfel~König* [x](y) ||z||",
            "playing",
            "Jungfrau",
            n,
            n == 0,
            "Joker: A, B, C",
        )
        for n in range(players)
    )
    story = tuple(f"Zeile {n} der Geschichte " + "x" * 200 for n in range(30))
    return Reply(
        ok=True,
        lines=(*story, "Würfel-Commitment: " + "ab" * 32),
        title="Durchgang 3",
        table=rows,
        language="de",
        game_id=7,
        game_kind="verflixte6",
        commitment="ab" * 32,
    )


def test_a_huge_answer_keeps_its_commitment_beside_the_story_and_continues_its_table() -> None:
    reply = big_reply(300)
    out = outgoing(reply)
    parts = out.parts()
    assert all(fits(part.embeds, part.content) for part in parts)
    first = parts[0].embeds[0]
    assert "Zeile 0 der Geschichte" in (first.description or "")
    assert any("Commitment" in (field.name or "") for field in first.fields)  # never what is dropped
    shown = [
        line
        for part in parts
        for embed in part.embeds
        for field in embed.fields
        for line in field.value.splitlines()
    ]
    assert sum("Jungfrau" in line for line in shown) == 300  # every seat, continued


def test_the_same_answer_as_text_fits_and_keeps_everything() -> None:
    reply = big_reply(300)
    text = outgoing(reply).as_text()
    parts = text.parts()
    assert all(not part.embeds and len(part.content or "") <= CONTENT_MAX for part in parts)
    said = "\n".join(part.content or "" for part in parts)
    assert said.count("Jungfrau") == 300
    assert "ab" * 32 in said


def test_embeds_are_packed_in_order_into_as_few_messages_as_hold_them() -> None:
    embeds = [discord.Embed(description="x" * 2_500) for _ in range(7)]
    packed = messages(embeds)
    assert [len(page) for page in packed] == [2, 2, 2, 1]
    assert [e for page in packed for e in page] == embeds
    assert all(fits(page) for page in packed)
    small = replace(big_reply(3), lines=("Anna wirft eine 4.",))
    assert Outgoing.of(game_embeds(small), discord.AllowedMentions.none()).more == []  # small: one message
