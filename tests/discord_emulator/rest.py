"""The REST side: the routes discord.py calls, with Discord's status codes and JSON error bodies.

Every request is recorded (unknown routes too, with `route=None`) so a test can assert what the bot asked.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from aiohttp import BodyPartReader, web

from . import conformance, payloads
from . import permissions as perms
from .conformance import SpecViolation
from .faults import Fault
from .gateway import DIRECT_MESSAGES, GUILD_MEMBERS, GUILD_MESSAGES
from .mentions import Pings, effective
from .messages import (
    CHAT_INPUT_COMMAND,
    DEFAULT,
    EPHEMERAL,
    LOADING,
    content_view,
    gateway_message,
    mark_edited,
    message_object,
    normalise_embed,
)
from .models import DM, THREAD_ONLY_TYPES, Channel, StoredMessage
from .records import BotMessage, InteractionResponse, InteractionState, RecordedRequest, UploadedFile
from .snowflakes import snowflake_time
from .threads import NOT_A_TEXT_CHANNEL, THREAD_ARCHIVED, ThreadRoutes
from .validation import FormErrors, check_command, check_commands, check_components, check_message

if TYPE_CHECKING:
    from .server import DiscordEmulator

SUPPRESS_EMBEDS = 1 << 2
SUPPRESS_NOTIFICATIONS = 1 << 12
IS_COMPONENTS_V2 = 1 << 15
EDITABLE_FLAGS = SUPPRESS_EMBEDS | IS_COMPONENTS_V2
SENDABLE_FLAGS = SUPPRESS_EMBEDS | EPHEMERAL | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2
NONCE_WINDOW_S = 300  # how long Discord remembers an enforced nonce ("a few minutes")

PONG = 1
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9


class ApiError(Exception):
    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.body: dict[str, Any] = {"message": message, "code": code}
        if errors:
            self.body["errors"] = errors


def invalid_form(errors: FormErrors | dict[str, Any]) -> ApiError:
    payload = errors.to_payload() if isinstance(errors, FormErrors) else errors
    return ApiError(400, 50035, "Invalid Form Body", payload)


UNKNOWN_CHANNEL = (404, 10003, "Unknown Channel")
UNKNOWN_GUILD = (404, 10004, "Unknown Guild")
UNKNOWN_MEMBER = (404, 10007, "Unknown Member")
UNKNOWN_MESSAGE = (404, 10008, "Unknown Message")
UNKNOWN_USER = (404, 10013, "Unknown User")
UNKNOWN_WEBHOOK = (404, 10015, "Unknown Webhook")
UNKNOWN_INTERACTION = (404, 10062, "Unknown interaction")
UNKNOWN_COMMAND = (404, 10063, "Unknown application command")
MISSING_ACCESS = (403, 50001, "Missing Access")
MISSING_PERMISSIONS = (403, 50013, "Missing Permissions")
EMPTY_MESSAGE = (400, 50006, "Cannot send an empty message")
# https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes
REPLY_WITHOUT_HISTORY = (403, 160002, "Cannot reply without permission to read message history")


def fail(error: tuple[int, int, str]) -> ApiError:
    return ApiError(*error)


def spec_refusal(violations: list[SpecViolation]) -> ApiError:
    """What Discord answers a request its schema refuses: 404 for a route it does not have, 405 for a method
    the route does not take, 400 Invalid Form Body otherwise."""
    first = violations[0]
    if first.operation is None:
        if first.template is None:
            return ApiError(404, 0, "404: Not Found")
        return ApiError(405, 0, "405: Method Not Allowed")
    errors: dict[str, Any] = {}
    for violation in violations:
        errors.setdefault("_spec", {}).setdefault("_errors", []).append(
            {"code": "SPEC_VIOLATION", "message": f"{violation.reason}: {violation.detail}"}
        )
    return invalid_form(errors)


@dataclass
class Call:
    """One parsed request as a handler sees it."""

    params: dict[str, str]
    query: dict[str, str]
    body: Any
    files: tuple[UploadedFile, ...]

    def int_param(self, name: str, missing: tuple[int, int, str]) -> int:
        try:
            return int(self.params[name])
        except ValueError:
            raise fail(missing) from None

    def flag(self, name: str) -> bool:
        return self.query.get(name, "").lower() in ("1", "true")


Handler = Callable[[Call], Awaitable[tuple[int, Any]]]


def _injected_body(response: web.Response) -> Any:
    text = response.text or ""
    if response.content_type == "application/json":
        return json.loads(text)
    return text


def json_response(status: int, body: Any) -> web.Response:
    """discord.py only decodes bodies whose content type is exactly application/json (no charset)."""
    if status == 204:
        return web.Response(status=204)
    return web.Response(
        status=status, body=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )


class RestApi:
    def __init__(self, emu: DiscordEmulator) -> None:
        self.emu = emu
        self.world = emu.world
        self._routes: list[tuple[str, str, re.Pattern[str], Handler, bool]] = []
        r = self._route
        r("GET", "/users/@me", self.get_me)
        r("GET", "/users/{user_id}", self.get_user)
        r("POST", "/users/@me/channels", self.create_dm)
        r("GET", "/gateway", self.get_gateway, auth=False)
        r("GET", "/gateway/bot", self.get_gateway_bot)
        r("GET", "/applications/@me", self.get_application)
        r("GET", "/oauth2/applications/@me", self.get_application)
        for prefix in ("/applications/{app_id}", "/applications/{app_id}/guilds/{guild_id}"):
            r("GET", prefix + "/commands", self.list_commands)
            r("PUT", prefix + "/commands", self.put_commands)
            r("POST", prefix + "/commands", self.post_command)
            r("GET", prefix + "/commands/{command_id}", self.get_command)
            r("PATCH", prefix + "/commands/{command_id}", self.patch_command)
            r("DELETE", prefix + "/commands/{command_id}", self.delete_command)
        r("GET", "/channels/{channel_id}", self.get_channel)
        r("GET", "/channels/{channel_id}/messages", self.list_messages)
        r("POST", "/channels/{channel_id}/messages", self.post_message)
        r("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message)
        r("PATCH", "/channels/{channel_id}/messages/{message_id}", self.patch_message)
        r("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message)
        r("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self.add_reaction)
        r(
            "DELETE",
            "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
            self.remove_reaction,
        )
        r("POST", "/channels/{channel_id}/typing", self.typing)
        r("GET", "/guilds/{guild_id}", self.get_guild)
        r("GET", "/guilds/{guild_id}/channels", self.get_guild_channels)
        r("GET", "/guilds/{guild_id}/roles", self.get_roles)
        r("GET", "/guilds/{guild_id}/members", self.list_members)
        r("GET", "/guilds/{guild_id}/members/search", self.search_members)
        r("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member)
        r("POST", "/interactions/{interaction_id}/{token}/callback", self.interaction_callback, auth=False)
        hook = "/webhooks/{app_id}/{token}"
        r("POST", hook, self.post_followup, auth=False)
        for target in ("@original", "{message_id}"):
            r("GET", f"{hook}/messages/{target}", self.get_webhook_message, auth=False)
            r("PATCH", f"{hook}/messages/{target}", self.patch_webhook_message, auth=False)
            r("DELETE", f"{hook}/messages/{target}", self.delete_webhook_message, auth=False)
        ThreadRoutes(self)

    def _route(self, method: str, template: str, handler: Handler, *, auth: bool = True) -> None:
        pattern = re.sub(r"\\{(\w+)\\}", r"(?P<\1>[^/]+)", re.escape(template))
        self._routes.append((method, template, re.compile(f"^{pattern}$"), handler, auth))

    # plumbing -----------------------------------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.StreamResponse:
        match = re.match(r"^/api/v(\d+)(/.*)$", request.path)
        version = int(match.group(1)) if match else None
        path = match.group(2) if match else request.path
        authorized = request.headers.get("Authorization") == f"Bot {self.emu.token}"
        query = dict(request.query)
        body: Any = None
        files: tuple[UploadedFile, ...] = ()
        route: str | None = None
        params: dict[str, str] = {}
        operation: str | None = None
        violations: list[SpecViolation] = []
        fault: Fault | None = None
        injected: web.Response | None = None
        try:
            body, files, has_body = await self._read_body(request)
            spec_operation, violations = self.emu.spec.check(
                request.method, path if version is not None else request.path, query, body, has_body=has_body
            )
            operation = spec_operation.operation_id if spec_operation is not None else None
            if violations:
                self.emu.spec_violations.extend(violations)
                refused = conformance.unexplained(violations, self.emu.spec_allowlist)
                if refused:  # an allowlisted violation is recorded, and the request goes through
                    raise spec_refusal(refused)
            found = self._match(request.method, path) if version in (9, 10) else None
            if found is None:
                raise ApiError(404, 0, "404: Not Found")
            route, params, handler, needs_auth = found
            template = spec_operation.template if spec_operation is not None else None
            fault = self.emu.faults.take(request.method, template, operation, self._channel_of(params))
            if fault is not None:
                if fault.hang is not None:
                    await self.emu.faults.hold(fault)
                if fault.then == "lose":
                    pass  # done below as usual; only its answer is lost on the way back
                elif fault.hang is None or fault.then == "fail":
                    injected = fault.response()
                elif fault.then == "drop":
                    injected = web.Response(status=499)  # never sent: the connection is closed instead
            if injected is not None:
                status, answer = injected.status, _injected_body(injected)
            else:
                if needs_auth and not authorized:
                    raise ApiError(401, 0, "401: Unauthorized")
                status, answer = await handler(Call(params, query, body, files))
        except ApiError as error:
            status, answer = error.status, error.body
        recorded = RecordedRequest(
            method=request.method,
            path=path,
            route=route,
            params=params,
            query=query,
            json=body,
            files=files,
            status=status,
            response=answer,
            authorized=authorized,
            api_version=version,
            operation=operation,
            violations=tuple(violations),
            injected=fault.describe() if fault is not None else None,
        )
        if fault is not None:
            fault.hits.append(recorded)
        await self.emu.requests.append(recorded)
        if fault is not None and (fault.then == "lose" or (fault.hang is not None and fault.then == "drop")):
            if request.transport is not None:
                request.transport.close()  # the client sees the connection die without an answer
            return web.Response(status=499)
        if injected is not None:
            return injected
        return json_response(status, answer)

    def _channel_of(self, params: dict[str, str]) -> int | None:
        """The channel a request is about: its path's channel, or the channel of the interaction answered."""
        if "channel_id" in params:
            return int(params["channel_id"]) if params["channel_id"].isdigit() else None
        state = None
        if "interaction_id" in params and params["interaction_id"].isdigit():
            state = self.emu.interactions.get(int(params["interaction_id"]))
        elif "token" in params:
            state = self.emu.interactions_by_token.get(params["token"])
        return state.sent.channel_id if state is not None else None

    def _match(self, method: str, path: str) -> tuple[str, dict[str, str], Handler, bool] | None:
        # the literal "@original"/"@me" routes are registered first, so they win over {message_id}/{user_id}
        for route_method, template, pattern, handler, auth in self._routes:
            if route_method != method:
                continue
            hit = pattern.match(path)
            if hit:
                return template, hit.groupdict(), handler, auth
        return None

    async def _read_body(self, request: web.Request) -> tuple[Any, tuple[UploadedFile, ...], bool]:
        """The JSON body (a multipart request's payload_json), the uploaded files, and whether there was a
        JSON body at all."""
        if not request.can_read_body:
            return None, (), False
        if request.content_type == "multipart/form-data":
            body: Any = None
            has_body = False
            files: list[UploadedFile] = []
            reader = await request.multipart()
            async for part in reader:
                if not isinstance(part, BodyPartReader):
                    continue
                if part.name == "payload_json":
                    try:
                        body, has_body = json.loads(await part.text()), True
                    except ValueError:
                        raise ApiError(400, 50109, "The request body contains invalid JSON.") from None
                elif part.filename:
                    data = bytes(await part.read())
                    content_type = part.headers.get("Content-Type", "application/octet-stream")
                    files.append(UploadedFile(part.name or "", part.filename, content_type, data))
            return body, tuple(files), has_body
        text = await request.text()
        if not text:
            return None, (), False
        try:
            return json.loads(text), (), True
        except ValueError:
            raise ApiError(400, 50109, "The request body contains invalid JSON.") from None

    # users, gateway, application ----------------------------------------------------------------------------

    async def get_me(self, call: Call) -> tuple[int, Any]:
        return 200, payloads.current_user(self.world.user(self.emu.bot_id))

    async def get_user(self, call: Call) -> tuple[int, Any]:
        user = self.world.users.get(call.int_param("user_id", UNKNOWN_USER))
        if user is None:
            raise fail(UNKNOWN_USER)
        return 200, payloads.user(user)

    async def create_dm(self, call: Call) -> tuple[int, Any]:
        recipient = int((call.body or {}).get("recipient_id", 0))
        if recipient not in self.world.users:
            raise invalid_form(
                {"recipient_id": {"_errors": [{"code": "USER_UNKNOWN", "message": "Unknown user"}]}}
            )
        channel_id = self.emu.dm_channel_sync(recipient)
        return 200, payloads.channel(self.world, self.world.channels[channel_id])

    async def get_gateway(self, call: Call) -> tuple[int, Any]:
        return 200, {"url": self.emu.gateway_url}

    async def get_gateway_bot(self, call: Call) -> tuple[int, Any]:
        return 200, {
            "url": self.emu.gateway_url,
            "shards": self.emu.recommended_shards,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 14_400_000,
                "max_concurrency": 1,
            },
        }

    async def get_application(self, call: Call) -> tuple[int, Any]:
        return 200, self.emu.application_payload()

    # application commands ---------------------------------------------------------------------------------

    def _command_scope(self, call: Call) -> int | None:
        if call.params["app_id"] != str(self.emu.app_id):
            raise fail(MISSING_ACCESS)
        if "guild_id" not in call.params:
            return None
        guild_id = call.int_param("guild_id", UNKNOWN_GUILD)
        if guild_id not in self.world.guilds:
            raise fail(UNKNOWN_GUILD)
        return guild_id

    def _command_object(self, body: dict[str, Any], guild_id: int | None, command_id: int) -> dict[str, Any]:
        permissions = body.get("default_member_permissions")
        command: dict[str, Any] = {
            "id": str(command_id),
            "application_id": str(self.emu.app_id),
            "version": str(self.emu.snowflakes.next()),
            "type": int(body.get("type", 1)),
            "name": body["name"],
            "name_localizations": body.get("name_localizations"),
            "description": body.get("description", ""),
            "description_localizations": body.get("description_localizations"),
            "options": copy.deepcopy(body.get("options") or []),
            "default_member_permissions": None if permissions is None else str(permissions),
            "nsfw": bool(body.get("nsfw", False)),
        }
        if guild_id is not None:
            command["guild_id"] = str(guild_id)
        else:
            command["dm_permission"] = body.get("dm_permission", True)
            command["contexts"] = body.get("contexts")
            command["integration_types"] = body.get("integration_types") or [0]
        return command

    def _existing_id(self, guild_id: int | None, body: dict[str, Any]) -> int:
        for command in self.emu.commands.get(guild_id, []):
            if command["name"] == body.get("name") and command["type"] == int(body.get("type", 1)):
                return int(command["id"])
        return self.emu.snowflakes.next()

    async def list_commands(self, call: Call) -> tuple[int, Any]:
        return 200, copy.deepcopy(self.emu.commands.get(self._command_scope(call), []))

    async def put_commands(self, call: Call) -> tuple[int, Any]:
        guild_id = self._command_scope(call)
        errors = check_commands(call.body)
        if errors:
            raise invalid_form(errors)
        commands = [self._command_object(c, guild_id, self._existing_id(guild_id, c)) for c in call.body]
        self.emu.commands[guild_id] = commands
        return 200, copy.deepcopy(commands)

    async def post_command(self, call: Call) -> tuple[int, Any]:
        guild_id = self._command_scope(call)
        body = call.body if isinstance(call.body, dict) else {}
        errors = check_command(body)
        if errors:
            raise invalid_form(errors)
        command = self._command_object(body, guild_id, self._existing_id(guild_id, body))
        existing = self.emu.commands.setdefault(guild_id, [])
        created = all(c["id"] != command["id"] for c in existing)
        existing[:] = [c for c in existing if c["id"] != command["id"]] + [command]
        return (201 if created else 200), copy.deepcopy(command)

    def _find_command(self, call: Call) -> tuple[int | None, dict[str, Any]]:
        guild_id = self._command_scope(call)
        for command in self.emu.commands.get(guild_id, []):
            if command["id"] == call.params["command_id"]:
                return guild_id, command
        raise fail(UNKNOWN_COMMAND)

    async def get_command(self, call: Call) -> tuple[int, Any]:
        return 200, copy.deepcopy(self._find_command(call)[1])

    async def patch_command(self, call: Call) -> tuple[int, Any]:
        guild_id, command = self._find_command(call)
        merged = {**command, **(call.body or {})}
        errors = check_command(merged)
        if errors:
            raise invalid_form(errors)
        updated = self._command_object(merged, guild_id, int(command["id"]))
        commands = self.emu.commands[guild_id]
        commands[commands.index(command)] = updated
        return 200, copy.deepcopy(updated)

    async def delete_command(self, call: Call) -> tuple[int, Any]:
        guild_id, command = self._find_command(call)
        self.emu.commands[guild_id].remove(command)
        return 204, None

    # channels and messages --------------------------------------------------------------------------------

    def _channel(self, call: Call, *, needed: int = perms.VIEW_CHANNEL) -> Channel:
        channel = self.world.channels.get(call.int_param("channel_id", UNKNOWN_CHANNEL))
        if channel is None:
            raise fail(UNKNOWN_CHANNEL)
        if channel.type == DM:
            return channel
        granted = self.world.permissions(channel.guild_id or 0, self.emu.bot_id, channel.id)
        if not granted & perms.VIEW_CHANNEL:
            raise fail(MISSING_ACCESS)
        if granted & needed != needed:
            raise fail(MISSING_PERMISSIONS)
        return channel

    def _message(self, call: Call, channel: Channel) -> StoredMessage:
        stored = self.world.messages.get(call.int_param("message_id", UNKNOWN_MESSAGE))
        if stored is None or stored.deleted or stored.channel_id != channel.id or stored.ephemeral:
            raise fail(UNKNOWN_MESSAGE)
        return stored

    async def get_channel(self, call: Call) -> tuple[int, Any]:
        return 200, payloads.channel(self.world, self._channel(call), viewer_id=self.emu.bot_id)

    async def typing(self, call: Call) -> tuple[int, Any]:
        channel = self._channel(call)
        self._channel(call, needed=perms.VIEW_CHANNEL | self.world.send_permission(channel))
        return 204, None

    async def list_messages(self, call: Call) -> tuple[int, Any]:
        """Discord's paging: at most `limit` (1-100, default 50) messages, always newest first — the newest
        ones (before `before`), the oldest ones after `after`, or those around `around` (itself included);
        only one of before/after/around at a time. Without Read Message History the list is empty, not
        refused (https://discord.com/developers/docs/resources/message#get-channel-messages: "If the
        current user is missing the READ_MESSAGE_HISTORY permission in the channel, then no messages
        will be returned")."""
        channel = self._channel(call)
        limit = int(float(call.query.get("limit", 50)))
        if not 1 <= limit <= 100:
            raise invalid_form(
                {"limit": {"_errors": [{"code": "NUMBER_TYPE_MAX", "message": "Must be between 1 and 100."}]}}
            )
        anchors = [k for k in ("before", "after", "around") if k in call.query]
        if len(anchors) > 1:
            raise invalid_form(
                {
                    anchors[1]: {
                        "_errors": [
                            {
                                "code": "BASE_TYPE_BAD_LENGTH",
                                "message": "before, after and around exclude each other",
                            }
                        ]
                    }
                }
            )
        ids = sorted(
            i
            for i in self.world.channel_messages.get(channel.id, [])
            if not self.world.messages[i].deleted and not self.world.messages[i].ephemeral
        )
        if channel.type != DM and not self.world.can(
            channel.guild_id, self.emu.bot_id, channel.id, perms.READ_MESSAGE_HISTORY
        ):
            ids = []
        if "after" in call.query:
            after = int(call.query["after"])
            page = [i for i in ids if i > after][:limit]
        elif "around" in call.query:
            around = int(call.query["around"])
            older = [i for i in ids if i < around]
            newer = [i for i in ids if i >= around]
            take_older = min(len(older), limit // 2)
            page = older[len(older) - take_older :] + newer[: limit - take_older]
        else:
            before = int(call.query["before"]) if "before" in call.query else None
            page = [i for i in ids if before is None or i < before][-limit:]
        return 200, [copy.deepcopy(self.world.messages[i].payload) for i in reversed(page)]

    async def get_message(self, call: Call) -> tuple[int, Any]:
        channel = self._channel(call, needed=perms.VIEW_CHANNEL | perms.READ_MESSAGE_HISTORY)
        return 200, copy.deepcopy(self._message(call, channel).payload)

    async def post_message(self, call: Call) -> tuple[int, Any]:
        body = call.body if isinstance(call.body, dict) else {}
        channel = self._channel(call)
        needed = perms.VIEW_CHANNEL | self.world.send_permission(channel)
        channel = self._channel(call, needed=needed | (perms.ATTACH_FILES if call.files else 0))
        if channel.type in THREAD_ONLY_TYPES:
            raise fail(NOT_A_TEXT_CHANNEL)  # a forum takes posts (threads), not messages
        if channel.thread is not None and channel.thread.archived:
            # Discord unarchives a thread a message is sent into, unless it is locked (see threads.py)
            if channel.thread.locked:
                raise fail(THREAD_ARCHIVED)
            await self.emu.threads.update(channel, by=self.emu.bot_id, archived=False)
        body = self._as_permitted(channel, body, call.files)
        reference = self._reference(channel, body.get("message_reference"))
        earlier = self._same_nonce(channel, body)
        if earlier is not None:  # Discord answers a repeated nonce with the message it already made
            return 200, copy.deepcopy(earlier.payload)
        stored = await self.create_bot_message(channel, body, call.files, via="channel", reference=reference)
        return 200, copy.deepcopy(stored.payload)

    def _as_permitted(
        self, channel: Channel, body: dict[str, Any], files: tuple[UploadedFile, ...]
    ) -> dict[str, Any]:
        """What a channel post may carry with the bot's permissions there (a DM allows everything).

        - A reply needs Read Message History: without it Discord refuses the post with 403 160002
          (https://discord.com/developers/docs/resources/message#create-message, "Limitations": "When
          creating a message as a reply to another message, the current user must have the
          READ_MESSAGE_HISTORY permission"; the code: .../topics/opcodes-and-status-codes#json).
        - Embeds need Embed Links (https://discord.com/developers/docs/topics/permissions, EMBED_LINKS):
          without it Discord drops the embeds of a post that has anything else to show, and refuses a
          post of embeds alone with 403 50013 Missing Permissions — as reported against the API in
          https://github.com/discord/discord-api-docs/issues/2601 (the docs say nothing more). Interaction
          responses and followups are not affected (changelog of 29 June 2022, "Changes to Bot Permissions
          for Interactions and Webhooks": ATTACH_FILES and EMBED_LINKS are not checked there)."""
        if channel.type == DM or channel.guild_id is None:
            return body
        granted = self.world.permissions(channel.guild_id, self.emu.bot_id, channel.id)
        reference = body.get("message_reference")
        replying = isinstance(reference, dict) and reference.get("message_id") is not None
        if replying and int(reference.get("type") or 0) == 0 and not granted & perms.READ_MESSAGE_HISTORY:
            raise fail(REPLY_WITHOUT_HISTORY)
        if body.get("embeds") and not granted & perms.EMBED_LINKS:
            content = body.get("content")
            rest = (
                (isinstance(content, str) and content.strip())
                or body.get("components")
                or body.get("sticker_ids")
                or body.get("poll")
                or files
            )
            if not rest:
                raise fail(MISSING_PERMISSIONS)
            return {**body, "embeds": []}
        return body

    def _editable(self, stored: StoredMessage, body: dict[str, Any]) -> dict[str, Any]:
        """An edit's embeds need Embed Links too: without it Discord ignores them — the message keeps the
        embeds it had — and an edit that carried nothing else is refused as empty (400 50006), as
        reported in https://github.com/discord/discord-api-docs/issues/2601 and issues/5648 (the
        permission: https://discord.com/developers/docs/topics/permissions, EMBED_LINKS)."""
        if stored.guild_id is None or "embeds" not in body:
            return body
        if self.world.can(stored.guild_id, self.emu.bot_id, stored.channel_id, perms.EMBED_LINKS):
            return body
        rest = {key: value for key, value in body.items() if key != "embeds"}
        shown = ("content", "components", "attachments")
        if body.get("embeds") and not any(rest.get(key) is not None for key in shown):
            raise fail(EMPTY_MESSAGE)
        return rest

    def _same_nonce(self, channel: Channel, body: dict[str, Any]) -> StoredMessage | None:
        """With ``enforce_nonce``, the bot's message of the last few minutes in this channel with the same
        nonce (Discord's documented way to make posting idempotent)."""
        nonce = body.get("nonce")
        if not body.get("enforce_nonce") or nonce is None:
            return None
        horizon = datetime.now(tz=UTC) - timedelta(seconds=NONCE_WINDOW_S)
        for message_id in reversed(self.world.channel_messages.get(channel.id, [])):
            stored = self.world.messages[message_id]
            if snowflake_time(stored.id) < horizon:
                break
            if stored.author_id == self.emu.bot_id and str(stored.payload.get("nonce")) == str(nonce):
                return None if stored.deleted else stored
        return None

    def _reference(self, channel: Channel, reference: Any) -> StoredMessage | None:
        if not isinstance(reference, dict) or reference.get("message_id") is None:
            return None
        stored = self.world.messages.get(int(reference["message_id"]))
        if stored is None or stored.deleted:
            if reference.get("fail_if_not_exists", True):
                raise invalid_form(
                    {
                        "message_reference": {
                            "_errors": [
                                {"code": "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "message": "Unknown message"}
                            ]
                        }
                    }
                )
            return None
        return stored

    async def patch_message(self, call: Call) -> tuple[int, Any]:
        channel = self._channel(call)
        stored = self._message(call, channel)
        if stored.author_id != self.emu.bot_id:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        if channel.thread is not None and channel.thread.archived:
            raise fail(THREAD_ARCHIVED)  # no message of an archived thread is edited (see threads.py)
        body = self._editable(stored, call.body if isinstance(call.body, dict) else {})
        await self.edit_bot_message(stored, body, call.files, via="channel_edit")
        return 200, copy.deepcopy(stored.payload)

    async def delete_message(self, call: Call) -> tuple[int, Any]:
        channel = self._channel(call)
        stored = self._message(call, channel)
        if stored.author_id != self.emu.bot_id and not self.world.can(
            stored.guild_id, self.emu.bot_id, channel.id, perms.MANAGE_MESSAGES
        ):
            raise fail(MISSING_PERMISSIONS)
        await self.delete_stored(stored, via="channel_delete")
        return 204, None

    async def _react(self, call: Call, add: bool) -> tuple[int, Any]:
        channel = self._channel(call, needed=perms.VIEW_CHANNEL | perms.READ_MESSAGE_HISTORY)
        stored = self._message(call, channel)
        emoji = call.params["emoji"]
        reactions = [r for r in stored.payload.get("reactions", []) if r["emoji"]["name"] != emoji]
        if add:
            if not self.world.can(stored.guild_id, self.emu.bot_id, channel.id, perms.ADD_REACTIONS):
                raise fail(MISSING_PERMISSIONS)
            reactions.append({"emoji": {"id": None, "name": emoji}, "count": 1, "me": True})
        stored.payload["reactions"] = reactions
        return 204, None

    async def add_reaction(self, call: Call) -> tuple[int, Any]:
        return await self._react(call, add=True)

    async def remove_reaction(self, call: Call) -> tuple[int, Any]:
        return await self._react(call, add=False)

    # the one path every bot-authored message takes ------------------------------------------------------

    def _attachments(
        self,
        channel_id: int,
        body: dict[str, Any],
        files: tuple[UploadedFile, ...],
        existing: list[dict[str, Any]],
    ) -> list[dict[str, Any]]:
        """Attachment objects: kept ones by id, new ones from the uploaded files (matched by index)."""
        by_id = {a["id"]: a for a in existing}
        listed = body.get("attachments")
        result: list[dict[str, Any]] = []
        if listed is None:
            result = list(existing)
            entries: list[dict[str, Any]] = [{"id": i} for i in range(len(files))]
        else:
            entries = []
            for entry in listed:
                if str(entry.get("id")) in by_id:
                    result.append(by_id[str(entry["id"])])
                else:
                    entries.append(entry)
        for entry in entries:
            try:
                upload = files[int(entry["id"])]
            except (ValueError, IndexError, KeyError):
                raise invalid_form(
                    {
                        "attachments": {
                            "_errors": [{"code": "ATTACHMENT_NOT_FOUND", "message": "Unknown attachment"}]
                        }
                    }
                ) from None
            attachment_id = self.emu.snowflakes.next()
            self.world.attachments[attachment_id] = upload.data
            filename = entry.get("filename") or upload.filename
            url = f"{self.emu.base_url}/attachments/{channel_id}/{attachment_id}/{filename}"
            result.append(
                {
                    "id": str(attachment_id),
                    "filename": filename,
                    "description": entry.get("description"),
                    "content_type": upload.content_type,
                    "size": len(upload.data),
                    "url": url,
                    "proxy_url": url,
                }
            )
        return result

    def _pings(self, channel: Channel, content: str, allowed: Any, reference: StoredMessage | None) -> Pings:
        guild_id = channel.guild_id
        roles = self.world.guild(guild_id).roles.values() if guild_id is not None else []
        return effective(
            content,
            allowed if isinstance(allowed, dict) else None,
            replied_author=reference.author_id if reference is not None else None,
            mentionable_roles={r.id for r in roles if r.mentionable},
            may_mention_everyone=self.world.can(
                guild_id, self.emu.bot_id, channel.id, perms.MENTION_EVERYONE
            ),
        )

    @staticmethod
    def _validate(body: dict[str, Any], files: tuple[UploadedFile, ...], *, creating: bool) -> None:
        errors, empty = check_message(body, creating=creating, has_files=bool(files))
        if errors:
            raise invalid_form(errors)
        if empty:
            raise ApiError(400, 50006, "Cannot send an empty message")

    async def create_bot_message(
        self,
        channel: Channel,
        body: dict[str, Any],
        files: tuple[UploadedFile, ...],
        *,
        via: str,
        reference: StoredMessage | None = None,
        interaction: InteractionState | None = None,
        loading: bool = False,
        message_id: int | None = None,
    ) -> StoredMessage:
        if not loading:
            self._validate(body, files, creating=True)
        message_id = message_id or self.emu.snowflakes.next()
        flags = int(body.get("flags") or 0) & SENDABLE_FLAGS
        if interaction is None:
            flags &= ~EPHEMERAL  # only interaction responses can be ephemeral
        if loading:
            flags |= LOADING
        content = str(body.get("content") or "")
        pings = self._pings(channel, content, body.get("allowed_mentions"), reference)
        users = list(pings.users)
        if pings.replied_user and reference is not None and reference.author_id not in users:
            users.append(reference.author_id)
        kind = DEFAULT
        extra: dict[str, Any] = {}
        if body.get("nonce") is not None:
            extra["nonce"] = body["nonce"]
        if interaction is not None:
            kind = CHAT_INPUT_COMMAND if interaction.sent.type == 2 else DEFAULT
            extra.update(self._interaction_fields(interaction, followup=via == "followup"))
        payload = message_object(
            self.world,
            message_id=message_id,
            channel_id=channel.id,
            author=self.world.user(self.emu.bot_id),
            content=content,
            pings=Pings(tuple(users), pings.roles, pings.everyone, pings.replied_user),
            kind=kind,
            embeds=body.get("embeds"),
            components=body.get("components"),
            attachments=self._attachments(channel.id, body, files, []),
            flags=flags,
            tts=bool(body.get("tts", False)),
            reference=reference,
            extra=extra,
        )
        stored = StoredMessage(
            id=message_id,
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author_id=self.emu.bot_id,
            payload=payload,
            ephemeral=bool(flags & EPHEMERAL),
            interaction_id=interaction.sent.id if interaction else None,
        )
        self.world.add_message(stored)
        if not stored.ephemeral:
            await self._dispatch_message("MESSAGE_CREATE", stored)
        answering = interaction.sent.id if interaction is not None else None
        await self._journal("create", via, stored, body, files, pings, answering=answering)
        return stored

    async def edit_bot_message(
        self,
        stored: StoredMessage,
        body: dict[str, Any],
        files: tuple[UploadedFile, ...],
        *,
        via: str,
        answering: int | None = None,
    ) -> None:
        self._validate(body, files, creating=False)
        candidate = copy.deepcopy(stored.payload)
        if "content" in body:
            candidate["content"] = body["content"] or ""
        if "embeds" in body:
            candidate["embeds"] = [normalise_embed(e) for e in body["embeds"] or []]
        if "components" in body:
            candidate["components"] = body["components"] or []
        if "attachments" in body or files:
            candidate["attachments"] = self._attachments(
                stored.channel_id, body, files, candidate["attachments"]
            )
        flags = int(candidate.get("flags") or 0) & ~LOADING
        if body.get("flags") is not None:
            flags = (flags & ~EDITABLE_FLAGS) | (int(body["flags"]) & EDITABLE_FLAGS)
        candidate["flags"] = flags
        if flags & IS_COMPONENTS_V2:
            errors = FormErrors()
            check_components(errors, candidate["components"], flags=flags)
            if errors:
                raise invalid_form(errors)
        elif not (
            candidate["content"].strip()
            or candidate["embeds"]
            or candidate["components"]
            or candidate["attachments"]
        ):
            raise ApiError(400, 50006, "Cannot send an empty message")
        channel = self.world.channels[stored.channel_id]
        pings = self._pings(channel, candidate["content"], body.get("allowed_mentions"), None)
        if "content" in body or "allowed_mentions" in body:
            candidate["mentions"] = [
                payloads.user(self.world.user(u)) for u in pings.users if u in self.world.users
            ]
            candidate["mention_roles"] = [str(r) for r in pings.roles]
            candidate["mention_everyone"] = pings.everyone
        mark_edited(candidate)
        stored.payload = candidate
        if not stored.ephemeral:
            await self._dispatch_message("MESSAGE_UPDATE", stored)
        await self._journal("edit", via, stored, body, files, pings, answering=answering)

    async def delete_stored(self, stored: StoredMessage, *, via: str, answering: int | None = None) -> None:
        stored.deleted = True
        if not stored.ephemeral:
            data: dict[str, Any] = {"id": str(stored.id), "channel_id": str(stored.channel_id)}
            if stored.guild_id is not None:
                data["guild_id"] = str(stored.guild_id)
            await self.emu.gateway.dispatch(
                "MESSAGE_DELETE", data, guild_id=stored.guild_id, intent=self._message_intent(stored)
            )
        await self._journal("delete", via, stored, {}, (), Pings(), answering=answering)

    @staticmethod
    def _message_intent(stored: StoredMessage) -> int:
        return GUILD_MESSAGES if stored.guild_id is not None else DIRECT_MESSAGES

    async def _dispatch_message(self, event: str, stored: StoredMessage) -> None:
        await self.emu.gateway.dispatch(
            event,
            gateway_message(self.world, stored),
            guild_id=stored.guild_id,
            intent=self._message_intent(stored),
            view=content_view(self.emu.bot_id),
        )

    async def _journal(
        self,
        action: str,
        via: str,
        stored: StoredMessage,
        body: dict[str, Any],
        files: tuple[UploadedFile, ...],
        pings: Pings,
        *,
        answering: int | None = None,
    ) -> None:
        await self.emu.bot_messages.append(
            BotMessage(
                action=action,
                via=via,
                message_id=stored.id,
                channel_id=stored.channel_id,
                guild_id=stored.guild_id,
                interaction_id=stored.interaction_id,
                body=copy.deepcopy(body),
                files=files,
                message=copy.deepcopy(stored.payload),
                pings=pings,
                ephemeral=stored.ephemeral,
                answering=answering,
            )
        )

    def _interaction_fields(self, state: InteractionState, *, followup: bool) -> dict[str, Any]:
        sent = state.sent
        user = payloads.user(self.world.user(sent.user_id))
        metadata: dict[str, Any] = {
            "id": str(sent.id),
            "type": sent.type,
            "user": user,
            "authorizing_integration_owners": {"0": str(sent.guild_id or 0)},
        }
        if state.command_name is not None:
            metadata.update(name=state.command_name, command_type=1)
        if state.source_message_id is not None:
            metadata["interacted_message_id"] = str(state.source_message_id)
        if followup and state.original_message_id is not None:
            metadata["original_response_message_id"] = str(state.original_message_id)
        return {
            "webhook_id": str(self.emu.app_id),
            "application_id": str(self.emu.app_id),
            "interaction_metadata": metadata,
            "interaction": {
                "id": str(sent.id),
                "type": sent.type,
                "name": state.command_name or "",
                "user": user,
            },
        }

    # guilds -------------------------------------------------------------------------------------------------

    def _guild(self, call: Call) -> int:
        guild_id = call.int_param("guild_id", UNKNOWN_GUILD)
        guild = self.world.guilds.get(guild_id)
        if guild is None or self.emu.bot_id not in guild.members:
            raise fail(UNKNOWN_GUILD)
        return guild_id

    async def get_guild(self, call: Call) -> tuple[int, Any]:
        guild_id = self._guild(call)
        return 200, payloads.guild(self.world, self.world.guilds[guild_id])

    async def get_guild_channels(self, call: Call) -> tuple[int, Any]:
        guild = self.world.guilds[self._guild(call)]
        return 200, [payloads.channel(self.world, self.world.channels[c]) for c in guild.channel_ids]

    async def get_roles(self, call: Call) -> tuple[int, Any]:
        guild = self.world.guilds[self._guild(call)]
        return 200, [payloads.role(r) for r in guild.roles.values()]

    async def get_member(self, call: Call) -> tuple[int, Any]:
        guild = self.world.guilds[self._guild(call)]
        member = guild.members.get(call.int_param("user_id", UNKNOWN_MEMBER))
        if member is None:
            raise fail(UNKNOWN_MEMBER)
        return 200, payloads.member(self.world, member)

    def _require_members_intent(self) -> None:
        if not self.emu.allowed_privileged_intents & GUILD_MEMBERS:
            raise fail(MISSING_ACCESS)

    async def list_members(self, call: Call) -> tuple[int, Any]:
        self._require_members_intent()
        guild = self.world.guilds[self._guild(call)]
        limit = max(1, min(1000, int(call.query.get("limit", 1))))
        after = int(call.query.get("after", 0))
        members = sorted((m for m in guild.members.values() if m.user_id > after), key=lambda m: m.user_id)
        return 200, [payloads.member(self.world, m) for m in members[:limit]]

    async def search_members(self, call: Call) -> tuple[int, Any]:
        guild = self.world.guilds[self._guild(call)]
        query = call.query.get("query", "").casefold()
        limit = max(1, min(1000, int(call.query.get("limit", 1))))
        found = [
            m
            for m in guild.members.values()
            if self.world.user(m.user_id).username.casefold().startswith(query)
            or (m.nick or "").casefold().startswith(query)
        ]
        return 200, [payloads.member(self.world, m) for m in found[:limit]]

    # interactions -------------------------------------------------------------------------------------------

    def _interaction_by_token(self, call: Call) -> InteractionState:
        if call.params["app_id"] != str(self.emu.app_id):
            raise fail(UNKNOWN_WEBHOOK)
        state = self.emu.interactions_by_token.get(call.params["token"])
        if state is None:
            raise fail(UNKNOWN_WEBHOOK)
        age = self.emu.interaction_clock() - state.dispatched_at
        if age > self.emu.token_lifetime:  # an interaction token lives 15 minutes
            state.refused.append(("webhook", 401, 50027))
            raise ApiError(401, 50027, "Invalid Webhook Token")
        return state

    async def interaction_callback(self, call: Call) -> tuple[int, Any]:
        state = self.emu.interactions.get(call.int_param("interaction_id", UNKNOWN_INTERACTION))
        if state is None:
            raise fail(UNKNOWN_INTERACTION)
        if state.sent.token != call.params["token"]:
            raise ApiError(401, 50027, "Invalid Webhook Token")
        if state.response is not None:
            state.refused.append(("callback", 400, 40060))
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        if self.emu.interaction_clock() - state.dispatched_at > self.emu.interaction_window:
            state.refused.append(("callback", *UNKNOWN_INTERACTION[:2]))
            raise fail(UNKNOWN_INTERACTION)  # Discord forgets an interaction not answered within 3 s
        body = call.body if isinstance(call.body, dict) else {}
        kind = body.get("type")
        data = body.get("data")
        sent = state.sent
        channel = self.world.channels[sent.channel_id]
        source = self.world.messages.get(state.source_message_id) if state.source_message_id else None

        def wrong_type(reason: str) -> ApiError:
            return invalid_form(
                {"type": {"_errors": [{"code": "INTERACTION_RESPONSE_TYPE_INVALID", "message": reason}]}}
            )

        message: StoredMessage | None = None
        if kind == PONG:
            raise wrong_type("PONG answers only PING interactions")
        if sent.type == 4 and kind != AUTOCOMPLETE_RESULT:
            raise wrong_type("autocomplete interactions take only autocomplete results")
        if kind == CHANNEL_MESSAGE:
            message = await self.create_bot_message(
                channel, data or {}, call.files, via="interaction", interaction=state
            )
            state.original_message_id = message.id
        elif kind == DEFERRED_CHANNEL_MESSAGE:
            message = await self.create_bot_message(
                channel, data or {}, (), via="interaction_deferred", interaction=state, loading=True
            )
            state.original_message_id = message.id
        elif kind in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE):
            if source is None or source.deleted:
                raise wrong_type("only interactions on a message can update it")
            if kind == UPDATE_MESSAGE:
                await self.edit_bot_message(
                    source, data or {}, call.files, via="component_update", answering=sent.id
                )
                message = source
            state.original_message_id = source.id
        elif kind == AUTOCOMPLETE_RESULT:
            if sent.type != 4:
                raise wrong_type("autocomplete results answer only autocomplete interactions")
            choices = (data or {}).get("choices") or []
            if len(choices) > 25:
                raise invalid_form(
                    {
                        "data": {
                            "choices": {
                                "_errors": [
                                    {
                                        "code": "BASE_TYPE_MAX_LENGTH",
                                        "message": "Must be 25 or fewer in length.",
                                    }
                                ]
                            }
                        }
                    }
                )
        elif kind == MODAL:
            if sent.type == 5:
                raise wrong_type("a modal cannot answer a modal submission")
            modal = data or {}
            title = modal.get("title") or ""
            if (
                not modal.get("custom_id")
                or not title
                or len(title) > 45
                or not 1 <= len(modal.get("components") or []) <= 5
            ):
                raise invalid_form(
                    {
                        "data": {
                            "_errors": [
                                {
                                    "code": "MODAL_INVALID",
                                    "message": "A modal needs a custom_id, a title (≤ 45) and 1-5 components",
                                }
                            ]
                        }
                    }
                )
            state.modal = copy.deepcopy(modal)
        else:
            raise wrong_type(f"unknown interaction response type {kind!r}")
        response = InteractionResponse(
            interaction_id=sent.id,
            type=int(kind),
            data=copy.deepcopy(data),
            message_id=message.id if message is not None else None,
            files=call.files,
            after=self.emu.interaction_clock() - state.dispatched_at,
        )
        state.response = response
        await self.emu.interaction_responses.append(response)
        if not call.flag("with_response"):
            return 204, None
        summary: dict[str, Any] = {"id": str(sent.id), "type": sent.type}
        answer: dict[str, Any] = {"interaction": summary}
        if message is not None:
            summary.update(
                response_message_id=str(message.id),
                response_message_loading=kind == DEFERRED_CHANNEL_MESSAGE,
                response_message_ephemeral=message.ephemeral,
            )
            answer["resource"] = {"type": kind, "message": copy.deepcopy(message.payload)}
        return 200, answer  # deferred updates, autocomplete results and modals create no resource

    async def post_followup(self, call: Call) -> tuple[int, Any]:
        state = self._interaction_by_token(call)
        if state.response is None or state.response.type in (AUTOCOMPLETE_RESULT, MODAL):
            raise fail(UNKNOWN_WEBHOOK)
        body = call.body if isinstance(call.body, dict) else {}
        original = self._still_loading(state)
        if original is not None:  # the deprecated way: the followup is the deferred answer itself
            edit = {key: value for key, value in body.items() if key != "flags"}
            await self.edit_bot_message(
                original, edit, call.files, via="followup_edit", answering=state.sent.id
            )
            return (200, copy.deepcopy(original.payload)) if call.flag("wait") else (204, None)
        channel = self.world.channels[state.sent.channel_id]
        message = await self.create_bot_message(channel, body, call.files, via="followup", interaction=state)
        state.followup_ids.append(message.id)
        if not call.flag("wait"):
            return 204, None
        return 200, copy.deepcopy(message.payload)

    def _still_loading(self, state: InteractionState) -> StoredMessage | None:
        """The deferred "thinking…" message of a DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE response nothing has
        answered yet: a followup then edits it instead of making a new message, and its ephemeral flag is
        ignored — the message keeps the privacy the defer chose
        (https://discord.com/developers/docs/interactions/receiving-and-responding#create-followup-message:
        "When using this endpoint directly after responding to an interaction with
        DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE, this endpoint will function as Edit Original Interaction
        Response … The ephemeral flag will be ignored")."""
        response = state.response
        if response is None or response.type != DEFERRED_CHANNEL_MESSAGE or state.original_message_id is None:
            return None
        original = self.world.messages.get(state.original_message_id)
        if original is None or original.deleted or not int(original.payload.get("flags") or 0) & LOADING:
            return None
        return original

    def _webhook_message(self, call: Call) -> tuple[InteractionState, StoredMessage]:
        state = self._interaction_by_token(call)
        if "message_id" in call.params:
            message_id = call.int_param("message_id", UNKNOWN_MESSAGE)
            if message_id not in (state.original_message_id, *state.followup_ids):
                raise fail(UNKNOWN_MESSAGE)
        else:
            if state.original_message_id is None:
                raise fail(UNKNOWN_MESSAGE)
            message_id = state.original_message_id
        stored = self.world.messages.get(message_id)
        if stored is None or stored.deleted:
            raise fail(UNKNOWN_MESSAGE)
        return state, stored

    async def get_webhook_message(self, call: Call) -> tuple[int, Any]:
        return 200, copy.deepcopy(self._webhook_message(call)[1].payload)

    async def patch_webhook_message(self, call: Call) -> tuple[int, Any]:
        state, stored = self._webhook_message(call)
        body = call.body if isinstance(call.body, dict) else {}
        await self.edit_bot_message(stored, body, call.files, via="webhook_edit", answering=state.sent.id)
        return 200, copy.deepcopy(stored.payload)

    async def delete_webhook_message(self, call: Call) -> tuple[int, Any]:
        state, stored = self._webhook_message(call)
        await self.delete_stored(stored, via="webhook_delete", answering=state.sent.id)
        return 204, None
