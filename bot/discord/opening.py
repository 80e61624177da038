"""``/durchgang öffnen``: a game opened in a thread of its own.

The service is asked first where the game wants to be played (a plan, nothing written); the front end
then makes the thread — a network call, so with no channel held — and opens the game there, drawing
the thread's first message as the live table and pointing the moderator at it. Without a thread (the
channel's setting), the plan itself opens the game in place, answered like any slash command.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from bot import texts
from bot.discord import escape, threads
from bot.discord.answering import Answer
from bot.discord.context import from_interaction
from bot.discord.embeds import refusal_content
from bot.discord.limits import CONTENT_MAX, clip
from bot.discord.mentions import nobody
from bot.discord.outbox import ANSWERS
from bot.discord.outgoing import Outgoing
from bot.replies import Reply
from bot.service.requests import Incoming, Moderate, OpenGame

if TYPE_CHECKING:
    from bot.discord.front import Front


async def open_game(
    front: Front, interaction: discord.Interaction[Any], kind: str, options: dict[str, str]
) -> None:
    """Plan the game, make its thread, open it there; or answer the plan (a refusal, or the game
    opened in place)."""
    if not front.first_time(interaction.id):
        return
    answer = front.answer_for(interaction)
    try:
        await front.caught_up.wait_for(interaction.guild_id)
        msg = from_interaction(interaction)

        def answered(plan: Reply) -> None:
            if not plan.ok or plan.duplicate or not plan.thread_title:
                front.answer_with(answer, plan)  # a refusal, or the game opened in place

        plan = await front.ask(Moderate(msg, OpenGame(kind, options, plan=True)), then=answered)
        if not plan.ok or plan.duplicate or not plan.thread_title:
            return
        await _open_in_thread(front, answer, msg, kind, options, plan)
    except Exception as error:
        await front.failed(interaction, error)


async def _open_in_thread(
    front: Front, answer: Answer, msg: Incoming, kind: str, options: dict[str, str], plan: Reply
) -> None:
    interaction = answer.interaction
    lang = plan.language
    home = await threads.home_of(front.client, interaction.channel)
    placeholder = texts.render("discord.thread.placeholder", {"title": escape.plain(plan.thread_title)}, lang)
    try:
        if home is None:
            raise threads.CannotCreateThread("no home channel")
        made = await threads.create(front.client, home, plan.thread_title, placeholder)
    except threads.CannotCreateThread as refused:
        note = Outgoing([], nobody(), content=texts.render(refused.why, {}, lang))
        front.outbox.put(interaction.channel_id or 0, lambda: front.send_note(answer, note), lane=ANSWERS)
        return
    there = replace(
        msg,
        channel=str(made.thread_id),
        parent=str(made.home_id),
        place="post" if made.in_forum else "thread",
    )

    def opened(reply: Reply) -> None:
        """The live table and the pointer queued while the thread is still held."""
        if not reply.ok or reply.duplicate or reply.live is None:
            return
        tracked = front.tracked(reply, msg.message_id)
        front.live.redraw(reply, made.thread_id, front.spelling.commands(lang), tracked=tracked)
        facts = {"title": escape.plain(reply.title), "thread": f"<#{made.thread_id}>"}
        pointer = Outgoing([], nobody(), content=texts.render("discord.thread.opened", facts, lang))
        front.outbox.put(
            interaction.channel_id or 0, lambda: front.send_note(answer, pointer, private=False), lane=ANSWERS
        )

    opening = OpenGame(kind, options, live_message=made.live_message)
    try:
        reply = await front.ask(Moderate(there, opening), then=opened)
    except BaseException:
        await threads.remove(front.client, made, placeholder)
        raise
    if reply.ok and not reply.duplicate and reply.live is not None:
        return
    # Refused after all (another moderator was quicker): the thread goes, the refusal is told.
    said = clip(refusal_content(reply), CONTENT_MAX) if not reply.ok else placeholder
    await threads.remove(front.client, made, said)
    front.answer_with(answer, reply)
