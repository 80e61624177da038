"""Every prompt says what to type, in the channel's language, played through the croupier service with
scripted dice. Expectations are rendered from the catalogues, never copied from the bot's output.

* Die verflixte 6!: after the Freiwurf and every throw the valid words; the running table's jokers in
  hand and valve level (``Row.details``, in ``Reply.text`` and Discord's table); the moderator told
  that the close ends the Durchgang; an empty close said as such.
* Killer: the keep words after each roll, ``attaque NOM`` with who may be targeted; in the older
  revision ``attaque NOM`` or ``passe`` after a positive strength and after a hit.
* Moderator refusals that name the fix: /remove of an unknown name, /open killer with bad options.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from bot.discord.embeds import shown_name, table_fields
from bot.games import GAMES, scope_of
from bot.replies import Reply, Row
from bot.service.croupier import Croupier
from bot.service.rendering import Narrator
from bot.spelling import CONSOLE
from bot.store import Store
from bot.texts import LANGUAGES, number, render
from engine.errors import CroupierError
from engine.game import Close, Join, Remove, Start
from tests.dice import Dice
from tests.service.helpers import MODERATOR, Table

SQLITE_ONLY = pytest.mark.parametrize("db_backend", ["sqlite"], indirect=True)  # texts are not stored
NAMES = {"anna": "Anna", "ben": "Ben", "cleo": "Cleo"}


def says(key: str, lang: str, game: str | None = None, **facts: Any) -> str:
    """What the croupier says for ``key`` on the console (its command spelling), players by name."""
    scope = scope_of(GAMES[game]) if game is not None else None
    return render(key, facts, lang, lambda pid: NAMES.get(pid, pid), scope=scope)


async def table_in(store: Store, lang: str, dice: Dice) -> Table:
    table = Table(Croupier(store=store, dice_factory=dice.factory))
    changed = await table.croupier.change_settings(table.msg(MODERATOR), {"language": lang})
    assert changed.ok
    return table


async def join(table: Table, *players: str) -> None:
    for player in players:
        assert (await table.do(player, Join(NAMES[player]))).ok


def row_of(reply: Reply, player: str) -> Row:
    return next(row for row in reply.table if row.player == player)


@SQLITE_ONLY
@pytest.mark.parametrize("lang", LANGUAGES)
async def test_verflixte6_says_the_words_after_every_throw_and_shows_jokers_and_valve(
    store: Store, lang: str
) -> None:
    dice = Dice()
    table = await table_in(store, lang, dice)
    await table.open("verflixte6")
    await join(table, "anna", "ben")
    chosen = await table.say("anna", "Joker: Rattenlord, Ventil")
    in_hand = ("Rattenlord", "Venoms Sicherheitsventil")
    jokers = says("seat.details.jokers", lang, "verflixte6", jokers=in_hand)
    assert row_of(chosen, "anna").details == jokers

    dice.will_roll(4)
    freiwurf = await table.say("anna", "weiter")
    words = ["weiter", "weiter mit Joker Rattenlord", "weiter mit Joker Venoms Sicherheitsventil", "stopp"]
    assert freiwurf.lines == (
        says("v6.freiwurf", lang, "verflixte6", player="anna", delta=4, total=4, face=4),
        says("v6.move_asked", lang, "verflixte6", player="anna", valid=words),
    )

    dice.will_roll(2)
    valve = await table.say("anna", "weiter mit Joker Ventil")  # the valve at 4, the compulsory throw: 6
    assert valve.lines[-1] == says(
        "v6.move_asked",
        lang,
        "verflixte6",
        player="anna",
        valid=["weiter", "weiter mit Joker Rattenlord", "stopp"],
    )
    details = " · ".join(
        [
            says("seat.details.jokers", lang, "verflixte6", jokers=("Rattenlord",)),
            says("seat.details.valve", lang, "verflixte6", valve=4),
        ]
    )
    assert row_of(valve, "anna").details == details
    role = row_of(valve, "anna").role_label
    row = says("common.table_row", lang, name="Anna", role=role, points=6, details=f" · {details}")
    assert f"▶ {row}" in valve.text.splitlines()
    assert row_of(valve, "ben").details == ""

    stopped = await table.say("anna", "stopp")
    assert row_of(stopped, "anna").details == ""  # the Spiel is over
    dice.will_roll(3)
    await table.say("ben", "weiter")
    last = await table.say("ben", "stopp")
    assert last.lines[-1] == says("v6.all_played", lang, "verflixte6")
    assert "/close" in last.lines[-1]
    closed = await table.do(MODERATOR, Close())
    assert says("v6.closed", lang, "verflixte6", players=["anna", "ben"]) in closed.lines


@SQLITE_ONLY
@pytest.mark.parametrize("lang", LANGUAGES)
async def test_closing_an_empty_durchgang_says_nobody_played(store: Store, lang: str) -> None:
    table = await table_in(store, lang, Dice())
    await table.open("verflixte6")
    closed = await table.do(MODERATOR, Close())
    assert closed.lines[0] == says("v6.closed_empty", lang, "verflixte6")
    assert says("v6.closed", lang, "verflixte6", players=[]) not in closed.lines


@SQLITE_ONLY
@pytest.mark.parametrize("lang", LANGUAGES)
async def test_killer_asks_for_the_keep_after_every_roll_and_names_the_targets(
    store: Store, lang: str
) -> None:
    # setup: anna 30, ben 30, cleo 30 (kept whole); anna's turn: 5 6 6 4 4 = 25, an attack of 1
    dice = Dice([6, 6, 6, 6, 6] * 3 + [5, 6, 6, 4, 4])
    table = await table_in(store, lang, dice)
    await table.open("killer")
    await join(table, "anna", "ben", "cleo")
    started = await table.do(MODERATOR, Start())
    assert started.lines[-1] == says("killer.keep_asked", lang, "killer", player="anna", example="6 6")
    for player, after in (("anna", "ben"), ("ben", "cleo")):
        kept = await table.say(player, "garde tout")
        assert kept.lines[-1] == says("killer.keep_asked", lang, "killer", player=after, example="6 6")
    rolled = await table.say("cleo", "garde tout")  # anna's roll 5 6 6 4 4: its first dice, as rolled
    assert rolled.lines[-1] == says("killer.keep_asked", lang, "killer", player="anna", example="5 6")
    attack = await table.say("anna", "garde tout")
    assert attack.lines[-1] == says(
        "killer.target_asked", lang, "killer", player="anna", value=1, targets=["ben", "cleo"]
    )
    assert "attaque" in attack.lines[-1]


@SQLITE_ONLY
@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_older_killer_asks_attack_or_pass_after_a_strength_and_after_a_hit(
    store: Store, lang: str
) -> None:
    # setup: 30 each with six dice; anna keeps 36: strength 6; the attack 6 1 2 3 4 5 hits once
    dice = Dice([5] * 6 + [5] * 6 + [6] * 6 + [6, 1, 2, 3, 4, 5])
    table = await table_in(store, lang, dice)
    await table.open("killer-classic")
    await join(table, "anna", "ben")
    await table.do(MODERATOR, Start())
    await table.say("anna", "garde tout")
    await table.say("ben", "garde tout")
    strength = await table.say("anna", "garde tout")
    assert strength.lines[-1] == says(
        "killer.target_or_pass_asked", lang, "killer-classic", player="anna", value=6, targets=["ben"]
    )
    hit = await table.say("anna", "attaque ben")
    assert hit.lines[-1] == says(
        "killer.again_asked", lang, "killer-classic", player="anna", value=6, targets=["ben"]
    )
    for line in (strength.lines[-1], hit.lines[-1]):
        assert "attaque" in line
        assert "passe" in line


@SQLITE_ONLY
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("kind", ["verflixte6", "killer"])
async def test_removing_a_name_nobody_has_says_who_is_there(store: Store, lang: str, kind: str) -> None:
    table = await table_in(store, lang, Dice())
    await table.open(kind)
    await join(table, "anna", "ben")
    refused = await table.do(MODERATOR, Remove("zed"))
    assert not refused.ok
    assert refused.lines == (says("error.no_such_player", lang, kind, name="zed", players=["anna", "ben"]),)
    close = await table.do(MODERATOR, Remove("ana"))
    assert close.lines == (says("error.unknown_player", lang, kind, name="ana", suggestions=["Anna"]),)


BAD_OPTIONS = [
    ({"modes": "foo"}, "killer_unknown_mode", {"mode": "foo", "valid": ["terminator", "zombie", "mythic"]}),
    ({"dice": "2"}, "killer_too_few_dice", {"dice": 2, "minimum": 3, "maximum": 10}),
]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("options", "code", "facts"), BAD_OPTIONS)
def test_a_bad_killer_option_is_refused_with_what_is_valid(
    lang: str, options: Mapping[str, Any], code: str, facts: Mapping[str, Any]
) -> None:
    game = GAMES["killer"]
    with pytest.raises(CroupierError) as caught:
        game.open(options)
    assert (caught.value.code, dict(caught.value.facts)) == (code, facts)
    refused = Narrator().refusal(caught.value, lang, game=game).spelled(CONSOLE)  # rendered in its scope
    assert refused.lines == (says(f"error.{code}", lang, "killer", **facts),)
    for valid in ("terminator", "zombie", "mythic") if "valid" in facts else ("3", "10"):
        assert valid in refused.lines[0]


@SQLITE_ONLY
@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize(("options", "code", "facts"), BAD_OPTIONS)
async def test_opening_killer_with_bad_options_names_what_is_valid(
    store: Store, lang: str, options: Mapping[str, Any], code: str, facts: Mapping[str, Any]
) -> None:
    table = await table_in(store, lang, Dice())
    refused = await table.open("killer", options)
    assert not refused.ok
    assert refused.lines == (says(f"error.{code}", lang, "killer", **facts),)


@SQLITE_ONLY
@pytest.mark.parametrize("lang", LANGUAGES)
async def test_killer_without_modes_says_so_instead_of_an_empty_list(store: Store, lang: str) -> None:
    dice = Dice([6] * 5)
    table = await table_in(store, lang, dice)
    await table.open("killer")
    await join(table, "anna", "ben")
    started = await table.do(MODERATOR, Start())
    said = says("killer.started", lang, "killer", players=["anna", "ben"], dice=5, low=11, high=24, modes=[])
    assert started.lines[0] == said
    assert ": ." not in said


def test_discord_shows_the_details_after_the_points_escaped_like_names() -> None:
    mention = "<@123456789012345678>"
    row = Row("u1", "**Anna**", "playing", "am Zug", -3, True, details=f"🃏 Rattenlord · _x_ {mention}")
    [(_, value)] = table_fields((row,), "de")
    assert value.endswith(f"**{number(-3)}** · {shown_name(row.details)}")
    assert mention not in value
    assert "\\_x\\_" in value
    assert shown_name("**Anna**") in value


def test_reply_text_shows_details_after_the_points_and_old_logs_still_load() -> None:
    reply = Reply(
        ok=True, title="T", table=(Row("u1", "Anna", "playing", "am Zug", -3, True, details="🃏 Pony"),)
    )
    shown = render(
        "common.table_row", {"name": "Anna", "role": "am Zug", "points": -3, "details": " · 🃏 Pony"}, "de"
    )
    assert reply.text.splitlines()[-1] == f"▶ {shown}"
    assert f"{number(-3)} · 🃏 Pony" in shown  # the points with a typographic minus, then the details
    logged = reply.to_log()
    assert Reply.from_log(logged).table == reply.table
    del logged["table"][0]["details"]  # a reply logged before rows had details
    assert Reply.from_log(logged).table[0].details == ""
