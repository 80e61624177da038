"""INTERACTION_CREATE bodies for what a user does in the Discord client: run a slash command, type into an
autocompleted option, press a button or pick from a select, submit a modal.

Options are checked against the synced command schema the way the Discord client enforces it, so a test
cannot send an interaction no real user could produce.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import payloads
from .models import DM, UsageError, World

APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING = 3
INTEGER = 4
BOOLEAN = 5
USER = 6
CHANNEL = 7
ROLE = 8
MENTIONABLE = 9
NUMBER = 10

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


def envelope(
    world: World,
    *,
    interaction_id: int,
    token: str,
    app_id: int,
    bot_id: int,
    kind: int,
    guild_id: int | None,
    channel_id: int,
    user_id: int,
    data: dict[str, Any],
    locale: str | None = None,
    message: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The interaction object around `data`, with the member's and the app's permissions in that channel."""
    user = world.user(user_id)
    channel = world.channel(channel_id)
    channel_payload = payloads.channel(world, channel)
    body: dict[str, Any] = {
        "id": str(interaction_id),
        "application_id": str(app_id),
        "type": kind,
        "data": data,
        "channel_id": str(channel_id),
        "token": token,
        "version": 1,
        "locale": locale or user.locale,
        "entitlements": [],
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    }
    if guild_id is not None:
        guild = world.guild(guild_id)
        member_permissions = world.permissions(guild_id, user_id, channel_id)
        channel_payload["permissions"] = str(member_permissions)
        body.update(
            guild_id=str(guild_id),
            guild={"id": str(guild_id), "locale": guild.locale, "features": []},
            guild_locale=guild.locale,
            member=payloads.member(world, world.member(guild_id, user_id), permissions=member_permissions),
            app_permissions=str(world.permissions(guild_id, bot_id, channel_id)),
            authorizing_integration_owners={"0": str(guild_id)},
            context=0,
        )
    else:
        body.update(
            user=payloads.user(user),
            app_permissions=str((1 << 51) - 1 & ~(1 << 3)),
            authorizing_integration_owners={"0": "0"},
            context=1 if channel.type == DM else 2,
        )
    body["channel"] = channel_payload
    if message is not None:
        body["message"] = message
    return body


class OptionBuilder:
    """Turns {name: value} into interaction options plus the `resolved` map Discord attaches."""

    def __init__(self, world: World, guild_id: int | None, channel_id: int, user_id: int) -> None:
        self.world = world
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.user_id = user_id
        self.resolved: dict[str, dict[str, Any]] = {}

    def _resolve_user(self, user_id: int) -> None:
        user = self.world.user(user_id)
        self.resolved.setdefault("users", {})[str(user_id)] = payloads.user(user)
        if self.guild_id is not None:
            member = self.world.guild(self.guild_id).members.get(user_id)
            if member is not None:
                permissions = self.world.permissions(self.guild_id, user_id, self.channel_id)
                self.resolved.setdefault("members", {})[str(user_id)] = payloads.member(
                    self.world, member, with_user=False, permissions=permissions
                )

    def _resolve_role(self, role_id: int) -> None:
        if self.guild_id is None or role_id not in self.world.guild(self.guild_id).roles:
            raise UsageError(f"unknown role {role_id}")
        role = self.world.guild(self.guild_id).roles[role_id]
        self.resolved.setdefault("roles", {})[str(role_id)] = payloads.role(role)

    def _resolve_channel(self, channel_id: int) -> None:
        channel = self.world.channel(channel_id)
        payload = payloads.channel(self.world, channel)
        if self.guild_id is not None:
            payload["permissions"] = str(self.world.permissions(self.guild_id, self.user_id, channel_id))
        self.resolved.setdefault("channels", {})[str(channel_id)] = payload

    def value(self, schema: dict[str, Any], raw: object) -> object:
        kind = schema["type"]
        name = schema["name"]
        if kind == STRING:
            if not isinstance(raw, str):
                raise UsageError(f"option {name!r} takes text, got {raw!r}")
            self._bounds(schema, len(raw), "min_length", "max_length")
            return raw
        if kind == INTEGER:
            if isinstance(raw, bool) or not isinstance(raw, int):
                raise UsageError(f"option {name!r} takes a whole number, got {raw!r}")
            self._bounds(schema, raw, "min_value", "max_value")
            return raw
        if kind == NUMBER:
            if isinstance(raw, bool) or not isinstance(raw, int | float):
                raise UsageError(f"option {name!r} takes a number, got {raw!r}")
            self._bounds(schema, raw, "min_value", "max_value")
            return raw
        if kind == BOOLEAN:
            if not isinstance(raw, bool):
                raise UsageError(f"option {name!r} takes true/false, got {raw!r}")
            return raw
        if not isinstance(raw, int):
            raise UsageError(f"option {name!r} takes an id, got {raw!r}")
        if kind == USER:
            self._resolve_user(raw)
        elif kind == ROLE:
            self._resolve_role(raw)
        elif kind == CHANNEL:
            self._resolve_channel(raw)
        elif kind == MENTIONABLE:
            if raw in self.world.users:
                self._resolve_user(raw)
            else:
                self._resolve_role(raw)
        else:
            raise UsageError(f"option type {kind} of {name!r} is not emulated")
        return str(raw)

    @staticmethod
    def _bounds(schema: dict[str, Any], value: float, low_key: str, high_key: str) -> None:
        low, high = schema.get(low_key), schema.get(high_key)
        if (low is not None and value < low) or (high is not None and value > high):
            raise UsageError(f"option {schema['name']!r} must lie within {low}..{high}, got {value}")

    def options(
        self, schema: list[dict[str, Any]], given: Mapping[str, object], *, focused: str | None = None
    ) -> list[dict[str, Any]]:
        by_name = {o["name"]: o for o in schema if o.get("type") not in (SUB_COMMAND, SUB_COMMAND_GROUP)}
        unknown = set(given) - set(by_name)
        if unknown:
            raise UsageError(f"unknown option(s) {sorted(unknown)}; the command has {sorted(by_name)}")
        result = []
        for option in schema:
            name = option["name"]
            if name not in given:
                if option.get("required") and name != focused:
                    raise UsageError(f"required option {name!r} is missing")
                continue
            raw = given[name]
            if name == focused:
                result.append({"name": name, "type": option["type"], "value": str(raw), "focused": True})
                continue
            choices = option.get("choices")
            if choices and raw not in [c["value"] for c in choices]:
                raise UsageError(f"{raw!r} is not one of the choices of {name!r}")
            result.append({"name": name, "type": option["type"], "value": self.value(option, raw)})
        return result


def command_data(
    world: World,
    command: dict[str, Any],
    *,
    guild_id: int | None,
    channel_id: int,
    user_id: int,
    options: Mapping[str, object],
    group: str | None,
    subcommand: str | None,
    focused: str | None = None,
) -> dict[str, Any]:
    builder = OptionBuilder(world, guild_id, channel_id, user_id)
    schema: list[dict[str, Any]] = command.get("options") or []
    path: list[tuple[int, str]] = []
    if group is not None:
        schema = _child(schema, group, SUB_COMMAND_GROUP)
        path.append((SUB_COMMAND_GROUP, group))
    if subcommand is not None:
        schema = _child(schema, subcommand, SUB_COMMAND)
        path.append((SUB_COMMAND, subcommand))
    if any(o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in schema):
        raise UsageError(f"/{command['name']} needs a subcommand (and group) to be chosen")
    leaf = builder.options(schema, options, focused=focused)
    for kind, name in reversed(path):
        leaf = [{"name": name, "type": kind, "options": leaf}]
    data: dict[str, Any] = {
        "id": command["id"],
        "name": command["name"],
        "type": command.get("type", 1),
        "options": leaf,
    }
    if command.get("guild_id"):
        data["guild_id"] = command["guild_id"]
    if builder.resolved:
        data["resolved"] = builder.resolved
    return data


def _child(schema: list[dict[str, Any]], name: str, kind: int) -> list[dict[str, Any]]:
    for option in schema:
        if option.get("name") == name and option.get("type") == kind:
            return list(option.get("options") or [])
    raise UsageError(f"no {'group' if kind == SUB_COMMAND_GROUP else 'subcommand'} named {name!r}")


def component_data(
    world: World,
    component: dict[str, Any],
    *,
    guild_id: int | None,
    channel_id: int,
    user_id: int,
    values: list[str] | list[int] | None,
) -> dict[str, Any]:
    """data of a MESSAGE_COMPONENT interaction: the custom_id, the type, and for selects the chosen values."""
    kind = component["type"]
    data: dict[str, Any] = {"custom_id": component["custom_id"], "component_type": kind}
    if kind == 2:
        if values:
            raise UsageError("a button takes no values")
        return data
    chosen = list(values or [])
    low, high = component.get("min_values", 1), component.get("max_values", 1)
    if not low <= len(chosen) <= high:
        raise UsageError(f"this select takes {low}..{high} values, got {len(chosen)}")
    if kind == 3:
        offered = [o["value"] for o in component.get("options") or []]
        wrong = [v for v in chosen if v not in offered]
        if wrong:
            raise UsageError(f"{wrong} are not options of the select (offered: {offered})")
        data["values"] = chosen
        return data
    builder = OptionBuilder(world, guild_id, channel_id, user_id)
    kinds = {5: USER, 6: ROLE, 7: MENTIONABLE, 8: CHANNEL}
    for value in chosen:
        builder.value({"name": component["custom_id"], "type": kinds[kind]}, int(str(value)))
    data["values"] = [str(v) for v in chosen]
    data["resolved"] = builder.resolved
    return data


def modal_components(modal: dict[str, Any], values: Mapping[str, object]) -> list[dict[str, Any]]:
    """The submitted components, mirroring the modal's layout (action rows or labels around inputs)."""
    known: set[str] = set()

    def answer(component: dict[str, Any]) -> dict[str, Any] | None:
        custom_id = component.get("custom_id")
        if custom_id is None:
            return None
        known.add(custom_id)
        if component.get("type") == 4:
            text = values.get(custom_id, component.get("value") or "")
            if not isinstance(text, str):
                raise UsageError(f"text input {custom_id!r} takes text")
            if component.get("required", True) and not text:
                raise UsageError(f"text input {custom_id!r} is required")
            return {"type": 4, "custom_id": custom_id, "value": text}
        chosen = values.get(custom_id, [])
        if not isinstance(chosen, list):
            raise UsageError(f"select {custom_id!r} takes a list of values")
        return {"type": component["type"], "custom_id": custom_id, "values": [str(v) for v in chosen]}

    result: list[dict[str, Any]] = []
    for top in modal.get("components") or []:
        if top.get("type") == 1:
            children = [a for a in (answer(c) for c in top.get("components") or []) if a]
            result.append({"type": 1, "components": children})
        elif top.get("type") == 18 and isinstance(top.get("component"), dict):
            inner = answer(top["component"])
            if inner is not None:
                result.append({"type": 18, "component": inner})
    unknown = set(values) - known
    if unknown:
        raise UsageError(f"the modal has no inputs {sorted(unknown)}")
    return result
