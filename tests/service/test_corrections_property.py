"""Property: whatever mix of moves and undos a game sees, the stored game is what its log replays to.

Random games of Die verflixte 6! and Killer (the players press random choices of their boards, people
join, moderators undo at random, turns time out, and any earlier message is delivered again) are played
through the service on both stores with verifiable dice.
After every request the stored snapshot and seats must equal a replay of the log — the opening's
options, then every move not voided, each with the dice it logged — and the log's dice, voided moves'
included, must be the committed sequence without a gap: an undo never gives a die back. (The console
tests check the same with each game's own seed, and ``/verify`` after the close.)
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bot.games import GAMES
from bot.service.corrections import command_of
from bot.service.croupier import Croupier
from bot.store import GameRecord, Store
from engine.dice import DiceSource, ScriptedDice, VerifiableDice, derive_die
from engine.game import Join, Start, Timeout
from tests.service.helpers import Table

PLAYERS = ("anna", "ben", "cleo")
EXAMPLES = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture
def opened(db_url: str) -> Iterator[Store]:
    """One store for all of a test's examples (each plays in a channel of its own)."""
    store = Store.open_now(db_url)
    try:
        yield store
    finally:
        store.close_now()


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True))


# Hypothesis replays a choice sequence to shrink it, so the dice must not depend on anything but the
# draws: every game rolls the same committed sequence (HMAC of SEED, as engine.dice derives it), however
# many games the store already holds.
SEED = b"undo-property"
GAME_KEY = "property"


def dice_for(record: GameRecord) -> DiceSource:
    return VerifiableDice(SEED, GAME_KEY, record.dice_used)


def check_replay(store: Store, game_id: int) -> tuple[int, int]:
    """The stored game equals the replay of its log; answers (moves standing, moves voided)."""
    with store.transaction(read_only=True) as uow:
        record = uow.games.get(game_id)
        assert record is not None
        entries = uow.log.of_game(game_id)
    game = GAMES[record.kind]
    state = game.open(record.options)
    standing = voided = 0
    position = 0
    for entry in entries:
        assert entry.dice_from == position, f"entry {entry.message_id} starts at a gap"
        derived = [derive_die(SEED, GAME_KEY, i) for i in range(position, position + len(entry.dice))]
        assert entry.dice == derived, f"entry {entry.message_id} rolled other dice than the sequence's"
        position += len(entry.dice)
        if entry.command is None or entry.command["type"] in ("Open", "Undo"):
            continue
        if entry.voided:
            voided += 1
            continue
        dice = ScriptedDice(entry.dice)
        state, _ = game.apply(state, entry.actor, command_of(game, entry.command), dice)
        assert dice.left == 0
        standing += 1
    assert position == record.dice_used  # voided moves' dice included: none given back
    assert record.version == len(entries)
    assert _json(game.dump(state)) == _json(record.snapshot)
    seats = [(s.player, s.name, s.role, s.points) for s in game.table(state)]
    assert [(p.player, p.name, p.role, p.points) for p in record.participants] == seats
    assert record.to_act == game.to_act(state)
    return standing, voided


ACTIONS = ("move", "move", "move", "undo", "join", "start", "timeout", "again")


async def _session(store: Store, kind: str, data: st.DataObject) -> None:
    channel = f"undo-{uuid.uuid4().hex[:12]}"
    croupier = Croupier(store=store, dice_factory=dice_for)
    table = Table(croupier, channel=channel, sender=channel)
    opened = await table.open(kind)
    assert opened.ok, opened.text
    assert opened.game_id is not None
    game_id = opened.game_id
    game = GAMES[kind]
    for player in PLAYERS[: data.draw(st.integers(2, 3), label="players")]:
        assert (await table.do(player, Join(player))).ok
    if kind == "killer":
        assert (await table.do("mod", Start())).ok
    standing, voided = check_replay(store, game_id)
    sent: list[tuple[str, str, str]] = []  # (message id, author, words) of every line typed so far
    redelivered = 0
    for _ in range(data.draw(st.integers(1, 30), label="requests")):
        # The same draws every time, whatever the game does with them: a replayable choice sequence.
        action = data.draw(st.sampled_from(ACTIONS), label="action")
        pick = data.draw(st.integers(0, 99), label="choice")
        joiner = data.draw(st.sampled_from(PLAYERS), label="joiner")
        with store.transaction(read_only=True) as uow:
            record = uow.games.get(game_id)
        assert record is not None
        if not record.is_open:
            continue
        state = game.load(record.snapshot)
        to_act, choices = game.to_act(state), game.choices(state)
        if action == "again" and sent:
            # A redelivery is answered from the log and changes nothing, whatever happened since (advice
            # is a question: never logged, answered afresh, and it writes nothing either).
            mid, author, words = sent[pick % len(sent)]
            before = (record.version, record.dice_used)
            again = await table.say(author, words, mid=mid)
            redelivered += 1
            assert again.duplicate or again.private, f"{mid} was judged a second time"
            with store.transaction(read_only=True) as uow:
                after = uow.games.get(game_id)
            assert after is not None
            assert (after.version, after.dice_used) == before
        elif action == "undo" or (action in ("move", "again") and (to_act is None or not choices)):
            await croupier.undo(table.msg("mod"), "Versehen")
        elif action in ("move", "again"):
            assert to_act is not None
            choice = choices[pick % len(choices)]
            words = choice.compose([choice.words]) if choice.multi else choice.words
            mid = f"{channel}:line:{len(sent)}"
            await table.say(to_act, words, mid=mid)
            sent.append((mid, to_act, words))
        elif action == "timeout":
            await croupier.execute(table.msg("mod", mid=f"{channel}:timeout:{pick}:{len(sent)}"), Timeout())
        elif action == "join":
            await table.do(joiner, Join(joiner))
        else:
            await table.do("mod", Start())
        standing, voided = check_replay(store, game_id)
    event(f"{kind}: moves voided > 0" if voided else f"{kind}: no move voided")
    event(f"{kind}: a line redelivered" if redelivered else f"{kind}: no line redelivered")
    event(f"{kind}: moves standing ≥ 5" if standing >= 5 else f"{kind}: moves standing < 5")


@EXAMPLES
@given(data=st.data())
def test_verflixte6_with_random_undos_is_always_its_replayed_log(opened: Store, data: st.DataObject) -> None:
    asyncio.run(_session(opened, "verflixte6", data))


@EXAMPLES
@given(data=st.data())
def test_killer_with_random_undos_is_always_its_replayed_log(opened: Store, data: st.DataObject) -> None:
    asyncio.run(_session(opened, "killer", data))
