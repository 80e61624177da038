"""Moderators' corrections on the pages, on both stores: the standings equal the JSON export with
adjustments and disqualifications counted (and listed under the table), every correction is listed,
and an undone move stays on the game page marked as voided — live too — its dice still in the record,
its undo listed with the game's title as ``/corrections`` lists it."""

from __future__ import annotations

import json
from html.parser import HTMLParser

from aiohttp.test_utils import TestClient

from bot.exports import to_json
from bot.games import GAMES
from bot.markup import plain
from bot.service.rendering import Narrator
from bot.texts import render, signed
from bot.web.chart import chart_of
from tests.web.rooms import Room, durchgang


def path_of(address: str) -> str:
    return "/t/" + address.split("/t/", 1)[1]


class Lists(HTMLParser):
    """The attributes and text of every element with an id, and of the rows and items inside one."""

    def __init__(self) -> None:
        super().__init__()
        self.items: dict[str, list[tuple[dict[str, str], list[str]]]] = {}
        self._open: list[tuple[str, str | None]] = []  # (tag, id of the list it belongs to)
        self._current: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        within = next((owner for _, owner in reversed(self._open) if owner), None)
        if tag in ("ul", "ol", "table") and "id" in values:
            self._open.append((tag, values["id"]))
            self.items.setdefault(values["id"], [])
            return
        if tag in ("li", "tr") and within is not None and self._open[-1][0] in ("ul", "ol", "tbody"):
            self._current = []
            self.items[within].append((values, self._current))
        if tag not in ("br", "img", "meta", "link", "circle", "line", "rect", "polyline"):
            self._open.append((tag, None))

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            opened, _ = self._open.pop()
            if opened == tag:
                break
        if tag in ("li", "tr"):
            self._current = None

    def handle_data(self, data: str) -> None:
        if self._current is not None:
            self._current.append(data)


def lists(html: str) -> dict[str, list[tuple[dict[str, str], str]]]:
    parser = Lists()
    parser.feed(html)
    parser.close()
    return {
        key: [(attrs, " ".join("".join(text).split())) for attrs, text in found]
        for key, found in parser.items.items()
    }


CORRECTIONS = (
    "mod: /adjust anna -3 Strafe",
    "mod: /adjust ben +2 Bonus <b>fett</b>",
    "mod: /adjust anna +1 Nachtrag",
    "mod: /disqualify cleo Absprache",
)


async def test_the_standings_with_corrections_are_the_json_export(room: Room, client: TestClient) -> None:
    await room.say(*durchgang(["anna", "ben", "cleo", "dora"], throws=2))
    await room.say(*durchgang(["anna", "ben", "cleo"], throws=1))
    before = await room.console.croupier.standings_table("console")
    assert before is not None
    for line in CORRECTIONS:
        (answer,) = await room.say(line)
        assert answer.ok, answer.text
    address = await room.web_on()
    html = await (await client.get(path_of(address))).text()
    table = await room.console.croupier.standings_table("console")
    assert table is not None
    exported = json.loads(to_json(table))
    found = lists(html)

    shown = [
        (a["data-player"], int(a["data-total"]), int(a["data-adjustment"])) for a, _ in found["standings"]
    ]
    assert shown == [(row["name"], row["total"], row["adjustment"]) for row in exported["rows"]]
    totals = {row["name"]: row["total"] for row in exported["rows"]}
    was = {row.name: row.total for row in before.rows}
    assert totals["anna"] == was["anna"] - 2
    assert totals["ben"] == was["ben"] + 2
    assert "cleo" not in totals  # disqualified: out of the ranking

    adjustments = [
        (a["data-player"], int(a["data-points"]), a["data-reason"], text) for a, text in found["adjustments"]
    ]
    assert adjustments == [
        (
            note["name"],
            note["points"],
            note["reason"],
            render(
                "web.adjustment",
                {"name": note["name"], "points": signed(note["points"]), "reason": note["reason"]},
                "de",
            ),
        )
        for note in exported["adjustments"]
    ]
    assert len(adjustments) == 3  # each correction its own line
    disqualified = [(a["data-player"], a["data-reason"], text) for a, text in found["disqualified"]]
    assert disqualified == [
        (
            note["name"],
            note["reason"],
            f"{note['name']} {render('web.disqualified_because', {'reason': note['reason']}, 'de')}",
        )
        for note in exported["disqualified"]
    ]
    assert "<b>fett</b>" not in html
    assert "&lt;b&gt;fett&lt;/b&gt;" in html

    (listed,) = await room.say("anna: /corrections")
    assert [text for _, text in found["corrections"]] == listed.text.splitlines()[1:]
    assert len(found["corrections"]) == len(CORRECTIONS)

    chart = chart_of(table)  # the chart's lines end at the totals, corrections included
    assert [series.totals[-1] for series in chart.series] == [row.total for row in table.rows]
    assert chart.x_ticks[-1].label == "±"

    (reinstated,) = await room.say("mod: /reinstate cleo Irrtum")
    assert reinstated.ok
    again = lists(await (await client.get(path_of(address))).text())
    assert "cleo" in [a["data-player"] for a, _ in again["standings"]]
    assert "disqualified" not in again
    assert len(again["corrections"]) == len(CORRECTIONS) + 1


async def test_an_undone_move_stays_on_the_page_marked_voided(room: Room, client: TestClient) -> None:
    await room.say("mod: /open verflixte6", "anna: /join", "ben: /join", "mod: /start", "anna: weiter")
    address = await room.web_on()
    game = path_of(address) + "/game/1"
    first = await (await client.get(game + "/live.json")).json()
    moved = first["moves"][-1]
    assert moved["text"] == "weiter"
    assert moved["voided"] is None
    assert first["voided"] == []

    (undone,) = await room.say("mod: /undo Versehen")
    assert undone.ok, undone.text
    later = await (await client.get(game + f"/live.json?after={first['cursor']}")).json()
    # The page already shows the move: the update names it as voided, with who undid it and why.
    assert later["voided"] == [{"cursor": moved["cursor"], "by": "mod", "reason": "Versehen"}]
    assert [m["text"] for m in later["moves"]] == ["/undo Versehen"]
    assert later["moves"][0]["dice"] == []

    (answer,) = await room.say("anna: weiter")  # a new die, not the voided one again
    assert answer.ok
    whole = await (await client.get(game + "/live.json")).json()
    voided = [m for m in whole["moves"] if m["voided"]]
    assert [m["cursor"] for m in voided] == [moved["cursor"]]
    assert voided[0]["voided"] == {"by": "mod", "reason": "Versehen"}
    rolled = [m for m in whole["moves"] if m["dice"]]
    assert [m["dice_from"] for m in rolled] == [0, 1]  # the voided move's die stays used

    await room.say("anna: stopp", "ben: weiter", "ben: stopp", "mod: /close")
    html = await (await client.get(game)).text()
    rows = lists(html)["moves"]
    marked = [(a["data-cursor"], text) for a, text in rows if a.get("data-voided") == "true"]
    note = render("web.move_voided", {"moderator": "mod", "reason": "Versehen"}, "de")
    assert marked == [(str(moved["cursor"]), marked[0][1])]
    assert marked[0][1].endswith(note)
    dice_rows = [a for a, _ in rows if a["data-dice"]]
    assert int(dice_rows[0]["data-dice-from"]) == 0  # still in the record the browser checks
    assert "voided" in dice_rows[0]["class"]

    # The tournament's list words the undo as /corrections does, naming the game it took a move from.
    listed = lists(await (await client.get(path_of(address))).text())["corrections"]
    (console,) = await room.say("anna: /corrections")
    assert [text for _, text in listed] == console.text.splitlines()[1:]
    title = plain(Narrator().line("game.round", {"number": 1}, "de", game=GAMES["verflixte6"]))
    (undo,) = [text for _, text in listed]
    assert f"({title})" in undo
    assert undo.endswith("Versehen")
