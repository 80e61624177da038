"""Discord's documented limits on what a bot sends, answered with the same 400 "Invalid Form Body" shape.

Production rejects an over-long embed or a bad command name at the worst moment; the emulator rejects it in
the test instead.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

Path = tuple[str | int, ...]

IS_COMPONENTS_V2 = 1 << 15
SELECT_TYPES = {3, 5, 6, 7, 8}
INTERACTIVE_TYPES = {2, *SELECT_TYPES, 4}


class FormErrors:
    """Collects (path, code, message) triples and renders Discord's nested `errors` object."""

    def __init__(self) -> None:
        self.items: list[tuple[Path, str, str]] = []

    def add(self, path: Path, code: str, message: str) -> None:
        self.items.append((path, code, message))

    def __bool__(self) -> bool:
        return bool(self.items)

    def to_payload(self) -> dict[str, Any]:
        root: dict[str, Any] = {}
        for path, code, message in self.items:
            node = root
            for part in path:
                node = node.setdefault(str(part), {})
            node.setdefault("_errors", []).append({"code": code, "message": message})
        return root


def _max_length(errors: FormErrors, path: Path, value: object, limit: int) -> None:
    if isinstance(value, str) and len(value) > limit:
        errors.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def _required_text(errors: FormErrors, path: Path, value: object, limit: int) -> None:
    if not isinstance(value, str) or not value:
        errors.add(path, "BASE_TYPE_REQUIRED", "This field is required")
    else:
        _max_length(errors, path, value, limit)


def check_embeds(errors: FormErrors, embeds: object) -> None:
    if not isinstance(embeds, list):
        return
    if len(embeds) > 10:
        errors.add(("embeds",), "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
    total = 0
    for i, embed in enumerate(embeds):
        if not isinstance(embed, dict):
            errors.add(("embeds", i), "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
            continue
        path: Path = ("embeds", i)
        for key, limit in (("title", 256), ("description", 4096)):
            _max_length(errors, (*path, key), embed.get(key), limit)
            total += len(embed.get(key) or "")
        footer = embed.get("footer") or {}
        _max_length(errors, (*path, "footer", "text"), footer.get("text"), 2048)
        total += len(footer.get("text") or "")
        author = embed.get("author") or {}
        _max_length(errors, (*path, "author", "name"), author.get("name"), 256)
        total += len(author.get("name") or "")
        fields = embed.get("fields") or []
        if len(fields) > 25:
            errors.add((*path, "fields"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        for j, item in enumerate(fields):
            _required_text(errors, (*path, "fields", j, "name"), item.get("name"), 256)
            _required_text(errors, (*path, "fields", j, "value"), item.get("value"), 1024)
            total += len(item.get("name") or "") + len(item.get("value") or "")
    if total > 6000:
        errors.add(("embeds",), "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")


def iter_components(components: Iterable[Any]) -> Iterable[dict[str, Any]]:
    """Every component, depth first (action rows, sections, containers and their children)."""
    for component in components:
        if not isinstance(component, dict):
            continue
        yield component
        yield from iter_components(component.get("components") or [])
        accessory = component.get("accessory")
        if isinstance(accessory, dict):
            yield from iter_components([accessory])


def check_components(errors: FormErrors, components: object, *, flags: int) -> None:
    if not isinstance(components, list):
        return
    v2 = bool(flags & IS_COMPONENTS_V2)
    if not v2 and len(components) > 5:
        errors.add(("components",), "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
    for i, row in enumerate(components):
        if not isinstance(row, dict):
            continue
        if not v2 and row.get("type") != 1:
            errors.add(("components", i, "type"), "UNION_TYPE_CHOICES", 'Value of field "type" must be 1.')
            continue
        if row.get("type") == 1:
            children = row.get("components") or []
            selects = [c for c in children if c.get("type") in SELECT_TYPES]
            if not children or len(children) > 5 or (selects and len(children) > 1):
                errors.add(
                    ("components", i, "components"),
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 5 in length (one select menu alone).",
                )
    seen: set[str] = set()
    for component in iter_components(components):
        kind = component.get("type")
        custom_id = component.get("custom_id")
        if kind == 2:
            _max_length(errors, ("components", "label"), component.get("label"), 80)
            style = component.get("style")
            if style == 5 and not component.get("url"):
                errors.add(("components", "url"), "BASE_TYPE_REQUIRED", "This field is required")
            if style in (1, 2, 3, 4) and not custom_id:
                errors.add(("components", "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
        if kind == 3:
            options = component.get("options") or []
            if not 1 <= len(options) <= 25:
                errors.add(
                    ("components", "options"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length."
                )
            for option in options:
                _required_text(errors, ("components", "options", "label"), option.get("label"), 100)
                _required_text(errors, ("components", "options", "value"), option.get("value"), 100)
        if kind in SELECT_TYPES:
            _max_length(errors, ("components", "placeholder"), component.get("placeholder"), 150)
        if custom_id is not None:
            _max_length(errors, ("components", "custom_id"), custom_id, 100)
            if custom_id in seen:
                errors.add(
                    ("components", "custom_id"),
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    "Component custom id cannot be duplicated",
                )
            seen.add(custom_id)


def check_allowed_mentions(errors: FormErrors, allowed: object) -> None:
    if not isinstance(allowed, dict):
        return
    parse = allowed.get("parse") or []
    for i, kind in enumerate(parse):
        if kind not in ("users", "roles", "everyone"):
            errors.add(
                ("allowed_mentions", "parse", i),
                "ENUM_TYPE_COERCE",
                f'Value "{kind}" is not a valid enum value.',
            )
    for kind in ("users", "roles"):
        if kind in parse and allowed.get(kind):
            errors.add(
                ("allowed_mentions",),
                "ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                f'parse:["{kind}"] and {kind}: [ids...] are mutually exclusive.',
            )


def check_message(body: dict[str, Any], *, creating: bool, has_files: bool) -> tuple[FormErrors, bool]:
    """Validate a message create/edit body. Returns the form errors and whether the message would be empty."""
    errors = FormErrors()
    flags = int(body.get("flags") or 0)
    content = body.get("content")
    if content is not None and not isinstance(content, str):
        errors.add(("content",), "BASE_TYPE_STRING", "Must be a string")
    _max_length(errors, ("content",), content, 2000)
    check_embeds(errors, body.get("embeds"))
    check_components(errors, body.get("components"), flags=flags)
    check_allowed_mentions(errors, body.get("allowed_mentions"))
    if flags & IS_COMPONENTS_V2 and (body.get("content") or body.get("embeds")):
        errors.add(
            ("content",),
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
            "Content and embeds are not allowed",
        )
    empty = creating and not (
        (isinstance(content, str) and content.strip())
        or body.get("embeds")
        or body.get("components")
        or body.get("sticker_ids")
        or body.get("poll")
        or has_files
        or body.get("attachments")
    )
    return errors, bool(empty)


def _check_name(errors: FormErrors, path: Path, name: object, *, chat_input: bool) -> None:
    if not isinstance(name, str) or not 1 <= len(name) <= 32:
        errors.add(path, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
        return
    if chat_input and not all((ch.isalnum() and ch == ch.lower()) or ch in "-_" for ch in name):
        errors.add(path, "APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid: {name!r}")


def _check_description(errors: FormErrors, path: Path, description: object) -> None:
    if not isinstance(description, str) or not 1 <= len(description) <= 100:
        errors.add(path, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")


def _check_options(errors: FormErrors, path: Path, options: object, *, depth: int) -> int:
    """Validate an options list; returns the characters it contributes to the 4000-character budget."""
    if not isinstance(options, list):
        return 0
    if len(options) > 25:
        errors.add(path, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    size = 0
    kinds = {o.get("type") for o in options if isinstance(o, dict)}
    if kinds & {1, 2} and kinds - {1, 2}:
        errors.add(path, "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Sub-commands cannot mix with options")
    names: set[str] = set()
    optional_seen = False
    for i, option in enumerate(options):
        here: Path = (*path, i)
        name = option.get("name")
        _check_name(errors, (*here, "name"), name, chat_input=True)
        if name in names:
            errors.add(
                (*here, "name"), "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", "Duplicate option name"
            )
        names.add(name)
        _check_description(errors, (*here, "description"), option.get("description"))
        size += len(name or "") + len(option.get("description") or "")
        kind = option.get("type")
        if kind == 2 and depth > 0:
            errors.add((*here, "type"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Groups cannot be nested")
        if kind == 1 and depth > 1:
            errors.add((*here, "type"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Too deeply nested")
        if kind in (1, 2):
            if kind == 2 and any(o.get("type") != 1 for o in option.get("options") or []):
                errors.add(
                    (*here, "options"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Groups hold sub-commands"
                )
            size += _check_options(errors, (*here, "options"), option.get("options"), depth=depth + 1)
            continue
        if option.get("required"):
            if optional_seen:
                errors.add(
                    (*here, "required"),
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
        else:
            optional_seen = True
        choices = option.get("choices") or []
        if len(choices) > 25:
            errors.add((*here, "choices"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        for j, choice in enumerate(choices):
            _required_text(errors, (*here, "choices", j, "name"), choice.get("name"), 100)
            value = choice.get("value")
            if isinstance(value, str):
                _max_length(errors, (*here, "choices", j, "value"), value, 100)
            size += len(choice.get("name") or "") + len(str(value))
        if choices and option.get("autocomplete"):
            errors.add(
                (*here, "autocomplete"),
                "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID",
                "Choices and autocomplete",
            )
    return size


def check_commands(commands: object) -> FormErrors:
    """Validate a bulk-overwrite body (PUT …/commands)."""
    errors = FormErrors()
    if not isinstance(commands, list):
        errors.add((), "BASE_TYPE_ARRAY", "Must be an array")
        return errors
    seen: set[tuple[int, str]] = set()
    per_type: dict[int, int] = {}
    for i, command in enumerate(commands):
        if not isinstance(command, dict):
            errors.add((i,), "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
            continue
        errors.items.extend(check_command(command, index=i).items)
        kind = int(command.get("type", 1))
        per_type[kind] = per_type.get(kind, 0) + 1
        key = (kind, command.get("name", ""))
        if key in seen:
            errors.add(
                (i, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", f"Duplicate command name {key[1]!r}"
            )
        seen.add(key)
    if per_type.get(1, 0) > 100:
        errors.add((), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer chat input commands.")
    for kind in (2, 3):
        if per_type.get(kind, 0) > 15:
            errors.add((), "BASE_TYPE_MAX_LENGTH", "Must be 15 or fewer context menu commands of a type.")
    return errors


def check_command(command: dict[str, Any], *, index: int | None = None) -> FormErrors:
    errors = FormErrors()
    root: Path = () if index is None else (index,)
    kind = int(command.get("type", 1))
    chat_input = kind == 1
    _check_name(errors, (*root, "name"), command.get("name"), chat_input=chat_input)
    if chat_input:
        _check_description(errors, (*root, "description"), command.get("description"))
        size = len(command.get("name") or "") + len(command.get("description") or "")
        size += _check_options(errors, (*root, "options"), command.get("options"), depth=0)
        if size > 4000:
            errors.add(root, "APPLICATION_COMMAND_TOO_LARGE", "Command exceeds maximum size (4000)")
    elif command.get("description"):
        errors.add(
            (*root, "description"), "BASE_TYPE_BAD_LENGTH", "Context menu commands have no description"
        )
    permissions = command.get("default_member_permissions")
    numeric = isinstance(permissions, int) or (isinstance(permissions, str) and permissions.isdigit())
    if permissions is not None and not numeric:
        errors.add((*root, "default_member_permissions"), "BASE_TYPE_STRING", "Must be a permission bit set")
    return errors
