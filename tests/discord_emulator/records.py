"""What tests read back: the bot's requests, messages and interaction answers, and interactions sent."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .conformance import SpecViolation
from .mentions import Pings
from .validation import iter_components


@dataclass(frozen=True)
class UploadedFile:
    field: str
    filename: str
    content_type: str
    data: bytes

    def __repr__(self) -> str:
        return (
            f"UploadedFile({self.field!r}, {self.filename!r}, {self.content_type!r}, {len(self.data)} bytes)"
        )


@dataclass(frozen=True)
class RecordedRequest:
    """One HTTP request to the REST API. `path` is relative to /api/vN; `route` is the matched template
    (e.g. "/channels/{channel_id}/messages") or None for a route the emulator does not know."""

    method: str
    path: str
    route: str | None
    params: dict[str, str]
    query: dict[str, str]
    json: Any
    files: tuple[UploadedFile, ...]
    status: int
    response: Any
    authorized: bool
    api_version: int | None
    operation: str | None = None  # the operationId of Discord's OpenAPI description
    violations: tuple[SpecViolation, ...] = ()
    injected: str | None = None  # the injected failure that answered it, if any


@dataclass(frozen=True)
class BotMessage:
    """A message the bot created, edited or deleted, by whatever route (channel post, interaction response,
    followup, webhook edit, component update). `message` is the full message object right after the action."""

    action: str
    via: str
    message_id: int
    channel_id: int
    guild_id: int | None
    interaction_id: int | None
    body: dict[str, Any]
    files: tuple[UploadedFile, ...]
    message: dict[str, Any]
    pings: Pings
    ephemeral: bool
    answering: int | None = None  # the interaction this create/edit/delete answered (callback, followup, …)

    @property
    def content(self) -> str:
        return str(self.message.get("content") or "")

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return list(self.message.get("embeds") or [])

    @property
    def components(self) -> list[dict[str, Any]]:
        return list(self.message.get("components") or [])

    @property
    def allowed_mentions(self) -> dict[str, Any] | None:
        return self.body.get("allowed_mentions")

    @property
    def message_reference(self) -> dict[str, Any] | None:
        return self.body.get("message_reference")

    @property
    def flags(self) -> int:
        return int(self.message.get("flags") or 0)

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in iter_components(self.components) if "custom_id" in c]

    def text(self) -> str:
        """Content plus every embed's visible text, for assertions that do not care where a word appears."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            parts += [f"{f.get('name', '')} {f.get('value', '')}" for f in embed.get("fields") or []]
            parts += [
                (embed.get("footer") or {}).get("text") or "",
                (embed.get("author") or {}).get("name") or "",
            ]
        return "\n".join(p for p in parts if p)


@dataclass(frozen=True)
class SentInteraction:
    """An INTERACTION_CREATE the emulator dispatched on behalf of a user."""

    id: int
    token: str
    type: int
    guild_id: int | None
    channel_id: int
    user_id: int
    payload: dict[str, Any]


@dataclass(frozen=True)
class InteractionResponse:
    """The bot's callback to an interaction (type 4 message, 5 deferred, 6 deferred update, 7 update,
    8 autocomplete choices, 9 modal)."""

    interaction_id: int
    type: int
    data: dict[str, Any] | None
    message_id: int | None
    files: tuple[UploadedFile, ...]
    after: float = 0.0  # seconds between INTERACTION_CREATE and this callback

    @property
    def ephemeral(self) -> bool:
        return bool(int((self.data or {}).get("flags") or 0) & 64)

    @property
    def deferred(self) -> bool:
        """Type 5 (a message follows) or 6 (the clicked message will be edited)."""
        return self.type in (5, 6)


@dataclass
class InteractionState:
    sent: SentInteraction
    command_name: str | None = None
    source_message_id: int | None = None
    response: InteractionResponse | None = None
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    dispatched_at: float = 0.0  # the emulator's interaction_clock() when INTERACTION_CREATE went out
    refused: list[tuple[str, int, int]] = field(default_factory=list)  # (callback|webhook, status, code)


@dataclass(frozen=True)
class InteractionAnswers:
    """Everything the bot did about one interaction: the accepted callback, the refused attempts, and every
    message it created, edited or deleted answering it (original response, followups, component updates)."""

    interaction_id: int
    response: InteractionResponse | None
    refused: tuple[tuple[str, int, int], ...]
    messages: tuple[BotMessage, ...]

    @property
    def acknowledged(self) -> bool:
        return self.response is not None

    @property
    def deferred(self) -> bool:
        return self.response is not None and self.response.deferred

    @property
    def late(self) -> bool:
        """The bot's callback came after the window and Discord answered 10062 Unknown interaction."""
        return any(code == 10062 for _, _, code in self.refused)

    @property
    def followups(self) -> list[BotMessage]:
        return [m for m in self.messages if m.via == "followup" and m.action == "create"]

    @property
    def edits(self) -> list[BotMessage]:
        return [m for m in self.messages if m.action == "edit"]
