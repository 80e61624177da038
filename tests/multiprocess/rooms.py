"""A guild of the test world and a Durchgang played in it, as Discord users would, through the emulator.

The bot processes roll real (seeded, secret) dice, so the script cannot know the faces in advance: after
the scripted steps, a player finishes her Spiel with whatever the game offers her (stop when she may, else
rob, else decline), read from the store the way the board under the reply shows it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.games import GAMES
from bot.store import GameRecord, Store
from engine.game import Choice
from tests.discord.helpers import asked, custom_id_for, says, story, title
from tests.discord_emulator import BotMessage, DiscordEmulator, InteractionResponse, SentInteraction

MODERATOR_ROLE = "Spielleitung"
ANSWER_PATIENCE_S = 15.0  # a safety net: several processes share two cores with the test
_PREFERRED = ("stop", "rob", "rob_none")


@dataclass(frozen=True)
class Room:
    """A guild with one game channel, a moderator (by role) and three members."""

    name: str
    guild: int
    channel: int
    moni: int
    anna: int
    ben: int
    carl: int


async def furnish(emu: DiscordEmulator, name: str, shard: tuple[int, int] | None = None) -> Room:
    guild = await emu.add_guild(name, shard=shard)
    channel = await emu.add_channel(guild, "verflixte-6")
    moderators = await emu.add_role(guild, MODERATOR_ROLE)
    return Room(
        name=name,
        guild=guild,
        channel=channel,
        moni=await emu.add_member(guild, "moni", nick="Moni", roles=[moderators]),
        anna=await emu.add_member(guild, "anna", nick="Anna"),
        ben=await emu.add_member(guild, "ben", nick="Ben"),
        carl=await emu.add_member(guild, "carl", nick="Carl"),
    )


def decide(choices: Sequence[Choice]) -> str:
    """The words of the choice a cautious player takes: stop, else rob, else let the robbery go."""
    for action in _PREFERRED:
        for choice in choices:
            if choice.action == action:
                return choice.words
    assert choices, "nothing to choose"
    return choices[0].words


@dataclass
class Round:
    """One Durchgang in a room. ``twice`` delivers every event two times (a gateway redelivery).

    ``applied`` lists the log ids ("discord:…", "interaction:…") of every event sent that the game
    must apply exactly once; ``answers`` the bot message that answered each. The round is played in the
    channel itself (its threads setting off), so every answer lands where the script looks.
    """

    emu: DiscordEmulator
    room: Room
    store: Store
    twice: bool = False
    applied: list[str] = field(default_factory=list)
    answers: dict[str, BotMessage] = field(default_factory=dict)
    interactions: list[SentInteraction] = field(default_factory=list)
    messages: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        with self.store.transaction() as uow:
            uow.settings.set(str(self.room.guild), str(self.room.channel), threads=False)
            uow.commit()

    # ------------------------------------------------------------------ what users do

    async def slash(
        self, user: int, name: str, options: dict[str, object] | None = None, *, subcommand: str | None = None
    ) -> BotMessage:
        """A slash command answered publicly; the message the bot posted for it."""
        sent = await self.emu.slash_command(
            self.room.guild, self.room.channel, user, name, options, subcommand=subcommand
        )
        return await self._answered(sent)

    async def press(self, board: BotMessage, label: str, user: int) -> BotMessage:
        sent = await self.emu.click(board, custom_id_for(board, label), user)
        return await self._answered(sent)

    async def say(self, user: int, text: str) -> BotMessage:
        """A chat line the game applies; the bot's reply to it."""
        message_id = await self.emu.send_message(self.room.channel, user, text, times=2 if self.twice else 1)
        self.messages.append(message_id)
        answer = await self.reply_to(message_id)
        self._note(f"discord:{message_id}", answer)
        return answer

    async def reply_to(self, message_id: int) -> BotMessage:
        return await self.emu.next_message(
            self.room.channel,
            predicate=lambda m: (
                m.message_reference is not None and int(m.message_reference["message_id"]) == message_id
            ),
            timeout=ANSWER_PATIENCE_S,
        )

    async def _answered(self, sent: SentInteraction) -> BotMessage:
        if self.twice:
            await self.emu.redeliver(sent.id)
        self.interactions.append(sent)
        response = await self.response_to(sent)
        assert response.type == 4, response
        assert not response.ephemeral, response
        answer = await self.emu.next_message(
            self.room.channel, predicate=lambda m: m.interaction_id == sent.id, timeout=ANSWER_PATIENCE_S
        )
        self._note(f"interaction:{sent.id}", answer)
        return answer

    async def response_to(self, sent: SentInteraction) -> InteractionResponse:
        return await self.emu.wait_for_response(sent, timeout=ANSWER_PATIENCE_S)

    def _note(self, log_id: str, answer: BotMessage) -> None:
        self.applied.append(log_id)
        self.answers[log_id] = answer

    # ------------------------------------------------------------------ the Durchgang

    async def play(self) -> None:
        """Open, two sign-ups, anna by typed words, a button and whatever her dice demand, ben by typed
        words, close: every way in (slash command, chat line, button) at least once."""
        room = self.room
        opened = await self.slash(room.moni, "durchgang", {"spiel": "verflixte6"}, subcommand="oeffnen")
        assert opened.embeds[0]["title"] == title(1), opened.embeds
        for position, (player, name) in enumerate([(room.anna, "Anna"), (room.ben, "Ben")], 1):
            joined = await self.slash(player, "mitmachen")
            assert story(joined)[0] == says("v6.joined", name=name, position=position), joined.text()
        freiwurf = await self.say(room.anna, "weiter")
        [face] = await self.dice_of(self.messages[-1])  # the dice are secret: read the face from the log
        expected = [says("v6.freiwurf", player="Anna", face=face, total=face), asked("Anna")]
        assert story(freiwurf) == expected, freiwurf.text()
        await self.press(freiwurf, says("choice.continue"), room.anna)
        await self.finish_spiel(room.anna)
        await self.say(room.ben, "weiter")
        stopped = await self.say(room.ben, "stopp")
        expected = says("v6.stopped", player="Ben", total=await self.points_of(room.ben))
        assert story(stopped)[0] == expected, stopped.text()
        closed = await self.slash(room.moni, "durchgang", subcommand="schliessen")
        # the close may also zombify a player left at 0 or below: the closing line is one of the story
        assert says("v6.closed") in story(closed), closed.text()

    async def finish_spiel(self, player: int) -> None:
        for _ in range(10):  # a Spiel ends with stopp; at most a robbery question comes first
            record = await self.game()
            assert record is not None
            game = GAMES[record.kind]
            state = game.load(record.snapshot)
            if game.to_act(state) != str(player):
                return
            await self.say(player, decide(game.choices(state)))
        raise AssertionError(f"the Spiel of {player} did not end")

    # ------------------------------------------------------------------ what the store holds

    async def game(self) -> GameRecord | None:
        with self.store.transaction(read_only=True) as uow:
            return uow.games.open_in(str(self.room.channel))

    async def dice_of(self, message_id: int) -> list[int]:
        """The faces the croupier rolled for a chat line, as its command log holds them."""
        with self.store.transaction(read_only=True) as uow:
            entry = uow.log.find(f"discord:{message_id}")
        assert entry is not None, message_id
        return list(entry.dice)

    async def points_of(self, player: int) -> int:
        """A player's points in the open game, as the store holds them."""
        record = await self.game()
        assert record is not None
        [points] = [seat.points for seat in record.participants if seat.player == str(player)]
        return points
