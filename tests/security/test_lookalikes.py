"""Look-alike nicknames: ``Anna``, ``anna``, ``Аnna`` (a Cyrillic А) and ``An\\u200bna`` (a zero-width
space inside) are four players. Actions went to the right one — they go by id — but the standings, the
corrections, the exports, the web pages and the running table showed four identical "Anna"s. Now
invisible characters are dropped from every name shown, and names that look alike (Unicode's
confusable skeleton, case-folded) are told apart by a short suffix, everywhere.
"""

from __future__ import annotations

import csv
import io
import json
import re

from aiohttp.test_utils import TestClient
from markupsafe import escape

from bot.shown_names import distinguished, looks, visible
from tests.web.rooms import Room

ANNAS = ["Anna", "anna", "\u0410nna", "An\u200bna"]  # Latin, lower case, Cyrillic А, a zero-width space
# In the console a player's id is the name typed before the colon: each Anna's id is her name.
SHOWN = list(distinguished({name: name for name in ANNAS}).values())


def test_invisible_characters_are_dropped_but_an_emoji_stays_whole() -> None:
    for hidden in ("\u200b", "\u200c", "\u2060", "\ufeff", "\u00ad", "\u202e", "\u2066", "\u3164", "\u115f"):
        assert visible(f"An{hidden}na") == "Anna", hex(ord(hidden))
    assert visible("\u200b\u200b") == "?"  # something must show
    assert visible("\U0001f469\u200d\U0001f4bb Cleo") == "\U0001f469\u200d\U0001f4bb Cleo"  # 👩‍💻 whole
    assert visible("Zoë") == "Zoë"


def test_names_that_look_alike_are_those_unicode_says() -> None:
    alike = [
        ("Anna", "anna"),
        ("Anna", "\u0410nna"),  # Cyrillic А
        ("Anna", "\u0391\u039d\u039d\u0391"),  # Greek ΑΝΝΑ
        ("Bob", "B0b"),
        ("Ida", "lda"),  # a capital I looks like an l …
        ("Ida", "ida"),  # … and folds to an i
        ("Emma", "Ernrna"),  # m looks like rn
        ("Anna", "\uff21\uff4e\uff4e\uff41"),  # full-width Ａｎｎａ
        ("Anna", "\U0001d400nna"),  # mathematical bold 𝐀
    ]
    for one, other in alike:
        assert looks(one) & looks(other), (one, other)
    different = [("Anna", "Ánna"), ("Anna", "Hanna"), ("Ben", "Ken"), ("Zoë", "Zoe")]
    for one, other in different:
        assert not looks(one) & looks(other), (one, other)


def test_each_look_alike_gets_a_suffix_of_its_own_the_same_in_every_view() -> None:
    names = dict(zip(("11", "22", "33", "44"), ANNAS, strict=True)) | {"55": "Ben"}
    shown = distinguished(names)
    assert shown["55"] == "Ben"  # a name nobody's looks like stays as it is
    suffixes = {
        player: re.fullmatch(r".* \(([A-Z]{2})\)", shown[player]) for player in ("11", "22", "33", "44")
    }
    assert all(suffixes.values()), shown
    assert "\u200b" not in shown["44"]
    everyone = list(shown.values())
    for index, one in enumerate(everyone):
        assert all(not looks(one) & looks(other) for other in everyone[index + 1 :]), (one, everyone)
    # Another view shows fewer of them, in another order: each keeps the suffix it had.
    fewer = distinguished({"33": ANNAS[2], "55": "Ben", "11": ANNAS[0]})
    assert fewer == {"33": shown["33"], "55": "Ben", "11": shown["11"]}
    # A player who took another's suffixed name as their nickname cannot pass for them.
    mimic = distinguished({**names, "66": shown["11"]})
    assert mimic["66"] == shown["11"]  # their own name: it looks like no other
    assert mimic["11"] != shown["11"]  # the real one's suffix grows a letter instead
    assert not looks(mimic["11"]) & looks(mimic["66"])


async def test_four_annas_are_four_names_everywhere(room: Room, client: TestClient) -> None:
    """The issue's four players play a Durchgang through the real service; every place a name is
    shown names them apart, and the moderator's correction still reaches the right one."""
    lines = ["mod: /tournament Frühling", "mod: /open verflixte6"]
    lines += [f"{name}: /join" for name in ANNAS] + ["mod: /start"]
    for name in ANNAS:
        lines += [f"{name}: weiter", f"{name}: stopp"]
    answers = await room.say(*lines)
    running = answers[-1].text
    for shown in SHOWN:
        assert shown in running  # the running table and the story
    assert "\u200b" not in running
    (closed,) = await room.say("mod: /close")
    assert closed.ok, closed.text
    (adjusted,) = await room.say("mod: /adjust \u0410nna -2 Absprache")  # the Cyrillic one, exactly
    assert adjusted.ok, adjusted.text
    assert SHOWN[2] in adjusted.text

    (standings,) = await room.say("mod: /standings")
    (corrections,) = await room.say("mod: /corrections")
    assert SHOWN[2] in corrections.text
    (exported,) = await room.say("mod: /export csv")
    (markdown,) = await room.say("mod: /export markdown")
    (as_json,) = await room.say("mod: /export json")
    for said in (standings.text, exported.text, markdown.text):
        assert "\u200b" not in said
        for shown in SHOWN:
            assert shown in said.replace("\\(", "(").replace("\\)", ")"), (shown, said)
    rows = list(csv.reader(io.StringIO(exported.text)))
    assert sorted(row[2] for row in rows[1:5]) == sorted(SHOWN)
    data = json.loads(as_json.text)
    by_id = {row["player"]: row["name"] for row in data["rows"]}
    assert by_id == dict(zip(ANNAS, SHOWN, strict=True))  # programs have the ids as well
    assert data["adjustments"][0]["player"] == "\u0410nna"

    address = await room.web_on()
    base = "/t/" + address.split("/t/", 1)[1]
    tournament = await (await client.get(base)).text()
    game = await (await client.get(base + "/game/1")).text()
    for page in (tournament, game):
        assert "\u200b" not in page
        for shown in SHOWN:
            assert str(escape(shown)) in page
    rows_on_page = re.findall(r'data-player="([^"]*)"', tournament)
    assert len(set(rows_on_page)) == 4


def test_where_names_are_cut_short_the_suffix_stays() -> None:
    """The Discord standings (text and picture) show 20 characters of a name: two long look-alikes
    keep what tells them apart."""
    from bot.discord.embeds import standings_cells
    from bot.exports import StandingsRow, StandingsTable

    long = "Maximiliane-Charlotte"
    names = distinguished({"1": long, "2": long.replace("a", "\u0430", 1)})  # a Cyrillic а
    rows = tuple(
        StandingsRow(rank=rank, player=player, name=name, points=(5,), total=5, best=5, zombies=0)
        for rank, (player, name) in enumerate(names.items(), 1)
    )
    _, cells = standings_cells(StandingsTable("Cup", "sum", (1,), rows), "de")
    shown = [row[1] for row in cells]
    assert all(len(name) <= 20 for name in shown)
    assert not looks(shown[0]) & looks(shown[1]), shown
