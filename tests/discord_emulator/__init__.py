"""A local emulation of Discord's REST API and gateway, for end-to-end tests of the real discord.py client.

Start it with `async with DiscordEmulator() as emu`, point discord.py at it with
`bot.discord.endpoint.use_endpoints(emu.api_base, emu.gateway_url)`, run the client with `running_client`,
then act as users (`send_message`, `slash_command`, `click`, `post_in_forum`, `start_thread`, …) and read what
the bot did (`next_message`, `wait_for_response`, `answers`, `requests`, `gateway_log`). Threads and forums:
threads.py; the interaction clock (3 s to acknowledge, 15 min of token): `interaction_window`,
`token_lifetime`; injected REST failures: `fail_requests` (faults.py) with `quick_retries` (fixtures.py);
enforced nonces: a channel post repeating a nonce of the last minutes is answered with the message made;
the bot's permissions per channel (`set_overwrites`): a post needs Send Messages (in threads Send Messages
in Threads), a reply Read Message History (else 403 160002), embeds Embed Links (dropped from a post with
text, an embed-only post refused, an edit's embeds ignored) — interaction answers need none of them; a
followup right after a deferred response edits that response (rest.py cites the docs for each);
`remove_bot` kicks the bot from a guild.
Every REST request is checked against Discord's OpenAPI description (conformance.py, spec/README.md).
"""

from .conformance import Allowed, SpecViolation
from .faults import Fault
from .fixtures import discord_emulator, quick_discord_retries, quick_retries, running_client
from .gateway import (
    DIRECT_MESSAGES,
    GUILD_MEMBERS,
    GUILD_MESSAGES,
    GUILD_PRESENCES,
    GUILDS,
    MESSAGE_CONTENT,
    PRIVILEGED,
    GatewayRecord,
)
from .journal import EmulatorTimeout, Journal
from .mentions import Pings
from .models import (
    ANNOUNCEMENT_THREAD,
    CATEGORY,
    DM,
    FORUM,
    MEDIA,
    NEWS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    TEXT,
    VOICE,
    UsageError,
)
from .permissions import Overwrite
from .records import (
    BotMessage,
    InteractionAnswers,
    InteractionResponse,
    RecordedRequest,
    SentInteraction,
    UploadedFile,
)
from .server import DiscordEmulator
from .snowflakes import SnowflakeFactory, shard_of, snowflake_time

__all__ = [
    "ANNOUNCEMENT_THREAD",
    "CATEGORY",
    "DIRECT_MESSAGES",
    "DM",
    "FORUM",
    "GUILDS",
    "GUILD_MEMBERS",
    "GUILD_MESSAGES",
    "GUILD_PRESENCES",
    "MEDIA",
    "MESSAGE_CONTENT",
    "NEWS",
    "PRIVATE_THREAD",
    "PRIVILEGED",
    "PUBLIC_THREAD",
    "TEXT",
    "VOICE",
    "Allowed",
    "BotMessage",
    "DiscordEmulator",
    "EmulatorTimeout",
    "Fault",
    "GatewayRecord",
    "InteractionAnswers",
    "InteractionResponse",
    "Journal",
    "Overwrite",
    "Pings",
    "RecordedRequest",
    "SentInteraction",
    "SnowflakeFactory",
    "SpecViolation",
    "UploadedFile",
    "UsageError",
    "discord_emulator",
    "quick_discord_retries",
    "quick_retries",
    "running_client",
    "shard_of",
    "snowflake_time",
]
