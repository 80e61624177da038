"""An interaction's reply on its way: sent as the interaction's answer (private for a refusal),
behind the posts queued before it in its channel, and — once per hold — the user told privately why
the channel takes no posts."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord

from bot import texts
from bot.discord.answering import Answer, AnsweredElsewhere, InteractionGone
from bot.discord.embeds import game_embeds, refusal_content
from bot.discord.failures import PERMISSION
from bot.discord.holds import Holds
from bot.discord.mentions import nobody
from bot.discord.outgoing import Outgoing, answer_for, outgoing, plain
from bot.discord.rights import label
from bot.replies import Reply

if TYPE_CHECKING:
    from bot.discord.front import Front

log = logging.getLogger(__name__)


async def behind(holds: Holds, channel_id: int, before: asyncio.Event) -> None:
    """Until the posts queued before are out, or the channel's posts stop going out (held, failing)."""
    if before.is_set():
        return
    waits = [
        asyncio.ensure_future(before.wait()),
        asyncio.ensure_future(holds.troubled(channel_id).wait()),
    ]
    try:
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for wait in waits:
            wait.cancel()


async def tell_if_held(holds: Holds, answer: Answer, lang: str) -> None:
    """Once per hold: the player who used a command in a channel the bot cannot post in learns
    (privately) what permission is missing — the channel itself takes no post."""
    channel_id = answer.interaction.channel_id or 0
    hold = holds.hold_of(channel_id)
    if hold is None or hold.told or hold.kind != PERMISSION:
        return
    hold.told = True
    facts = {"permission": label(hold.missing, lang) if hold.missing else ""}
    key = "discord.permission.held" if hold.missing else "discord.permission.held_unknown"
    try:
        await answer.send(Outgoing([], nobody(), content=texts.render(key, facts, lang)), True)
    except (AnsweredElsewhere, InteractionGone, discord.HTTPException) as error:
        hold.told = False
        log.info(
            "could not tell interaction %s why channel %s is held: %s",
            answer.interaction.id,
            channel_id,
            error,
        )


async def answer_reply(front: Front, answer: Answer, reply: Reply, ephemeral: bool) -> None:
    """Send an interaction's reply: a refusal privately, a public move's answer tracked — and when
    the interaction is gone, a stored move's answer posted in the channel, naming the player."""
    interaction = answer.interaction
    channel_id = interaction.channel_id or 0
    if not reply.ok:
        out, private = Outgoing.of([], nobody(), content=refusal_content(reply)), True
    elif reply.game_id is None:
        out, private = plain(reply), ephemeral or reply.private
    elif reply.private:  # advice: the story for the asker alone, no board
        out, private = Outgoing.of(game_embeds(reply), nobody()), True
    else:
        out, private = outgoing(reply), ephemeral
    tracked = None if private else front.tracked(reply, f"interaction:{interaction.id}")
    try:
        message_id = await answer.send(out, private)
    except AnsweredElsewhere:
        log.info("interaction %s was answered by another process of the bot", interaction.id)
        return
    except (InteractionGone, discord.HTTPException) as error:
        if private or (isinstance(error, discord.HTTPException) and tracked is None):
            log.warning("the answer to interaction %s is lost: %s", interaction.id, error)
            return
        # A stored move's answer must not get lost: in the channel, naming the player.
        lang = reply.language
        line = answer_for(interaction.user.id, lang)
        sent = await front.delivery.post(
            channel_id, out.headed(line, out.allowed_mentions), tracked=tracked, lang=lang
        )
        message_id = sent.id if sent is not None else None
    else:
        await front.delivery.acknowledge(tracked)
    if not private and reply.game_id is not None:
        await front.board_moved(channel_id, message_id if out.view is not None else None)
