"""A game's page lists what the game explains on request (its topics, as ``/info`` shows them) about
that very game — Die verflixte 6!'s jokers as the Durchgang was opened, Pig's odds with its target —
from the games' declarations alone: a game without topics shows no such section."""

from __future__ import annotations

from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient
from markupsafe import escape

from bot.games import GAMES, scope_of
from bot.texts import CONSOLE_COMMANDS, render
from tests.games.plugins import pig_plugin  # noqa: F401  (the fixture)
from tests.web.rooms import MODERATOR, Room


def of(kind: str, key: str, lang: str, **facts: object) -> str:
    return str(escape(render(key, facts, lang, str, CONSOLE_COMMANDS, scope_of(GAMES[kind]))))


async def game_page(room: Room, client: TestClient, *lines: str) -> str:
    answers = await room.say(*lines)
    assert all(answer.ok for answer in answers), [answer.text for answer in answers]
    address = await room.web_on()
    response = await client.get("/t/" + address.split("/t/", 1)[1] + "/game/1")
    assert response.status == 200
    return await response.text()


async def test_a_durchgang_s_page_shows_the_jokers_it_was_opened_with(room: Room, client: TestClient) -> None:
    html = await game_page(room, client, f"{MODERATOR}: /open verflixte6 jokers=Rattenlord,Beefmaker")
    assert render("web.topics", {}, "de") in html
    assert '<details class="topic" id="topic-jokers">' in html
    assert of("verflixte6", "info.jokers.title", "de") in html
    assert of("verflixte6", "info.jokers.summary", "de") in html
    assert of("verflixte6", "v6.joker_info.Rattenlord", "de") in html
    assert of("verflixte6", "v6.joker_info.Beefmaker", "de") in html
    assert of("verflixte6", "v6.joker_info.ALL IN", "de") not in html  # not in this Durchgang


async def test_a_killer_page_has_no_topics(room: Room, client: TestClient) -> None:
    html = await game_page(room, client, f"{MODERATOR}: /open killer")
    assert 'class="topic"' not in html
    assert render("web.topics", {}, "fr") not in html


@pytest.mark.usefixtures("pig_plugin")
async def test_a_pig_page_shows_its_odds_with_its_own_target(
    room: Room, client: TestClient, tmp_path: Path
) -> None:
    html = await game_page(room, client, f"{MODERATOR}: /open pig target=50")
    assert '<details class="topic" id="topic-odds">' in html
    assert of("pig", "info.odds.title", "en") in html
    assert of("pig", "info.odds", "en", target=50) in html
