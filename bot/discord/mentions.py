"""Mentions in both directions: players' ``<@id>`` become the ``@id`` the engines read, and nothing the
bot sends may ping anyone but the player it means to wake up."""

from __future__ import annotations

import re

import discord

from engine.numbers import SNOWFLAKE_MAX, whole_number

_USER_MENTION = re.compile(r"<@!?(\d+)>")


def service_text(content: str) -> str:
    """``raube <@123>`` → ``raube @123``: participant ids are Discord user ids, so the engines match them."""
    return _USER_MENTION.sub(r"@\1", content)


def nobody() -> discord.AllowedMentions:
    """Allowed mentions that ping no one (no @everyone/@here, no roles, no users, no reply ping)."""
    return discord.AllowedMentions(everyone=False, users=False, roles=False, replied_user=False)


def only(user_id: str | None) -> discord.AllowedMentions:
    """Ping at most this one user (the player to act); never @everyone, @here or a role."""
    if user_id is None or whole_number(user_id, SNOWFLAKE_MAX) is None:
        return nobody()
    return discord.AllowedMentions(
        everyone=False, users=[discord.Object(int(user_id))], roles=False, replied_user=False
    )


def quiet(text: str) -> str:
    """Text that cannot ping even if the allowed mentions were lost: ``@everyone`` gets a zero-width
    break, user and role mentions are shown as plain names."""
    return discord.utils.escape_mentions(text)
