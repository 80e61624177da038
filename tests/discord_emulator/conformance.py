"""Every REST request is checked against Discord's own published OpenAPI description (spec/openapi.json,
pinned from the npm package discord-api-spec; see spec/README.md): the method and path must name an operation
of the spec, query parameters must be declared there, and a JSON body (or a multipart request's
`payload_json`) must validate against the operation's request-body schema.

The emulator stays the judge of behaviour (permissions, limits it knows, state); this module makes sure that
whatever it accepts, Discord's schema accepts too. A request that breaks the spec is answered like Discord
would (404 for an unknown route, 400 "Invalid Form Body" for a bad body) and recorded as a `SpecViolation`
(every error of a body, not only the most relevant one);
the emulator raises them into the test at the end unless an allowlist entry (operation, reason) names them.

One deliberate reading of the spec, documented in spec/README.md: where the spec says SnowflakeType (a string
of digits) a non-negative JSON integer is accepted as well. Discord's API takes both, and discord.py sends ids
as numbers (message_reference, allowed_mentions, applied_tags, …).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SPEC_FILE = Path(__file__).parent / "spec" / "openapi.json"
SPEC_URI = "urn:discord:openapi"

SNOWFLAKE_PATTERN = re.compile(r"^(0|[1-9][0-9]*)$")
NUMBER_PATTERN = re.compile(r"^-?\d+(\.\d+)?$")
BOOLEANS = {"true", "false", "True", "False", "1", "0"}


@dataclass(frozen=True)
class SpecViolation:
    """A request Discord's OpenAPI description does not allow. `operation` is the spec's operationId (None
    for a route the spec does not have); `reason` is stable across runs (an allowlist names it), `detail`
    is the validator's full message."""

    method: str
    path: str
    operation: str | None
    template: str | None
    reason: str
    detail: str
    body: Any = None

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.operation, self.reason)

    def __str__(self) -> str:
        where = f"{self.operation} ({self.method} {self.template})" if self.operation else self.method
        return f"{where} {self.path}: {self.reason} — {self.detail}"


@dataclass(frozen=True)
class Allowed:
    """An allowlist entry: a known violation of the bot, kept visible until the bot is fixed."""

    operation: str | None
    reason: str
    why: str = ""


ALLOWLIST: list[Allowed] = []
"""Violations every emulator tolerates; tests/conftest.py fills it (each entry a bug of the bot to fix)."""


@dataclass
class Operation:
    method: str
    template: str
    operation_id: str
    path_parameters: dict[str, dict[str, Any]]
    query_parameters: dict[str, dict[str, Any]]
    body_schema: dict[str, Any] | None
    body_required: bool
    _validator: Draft202012Validator | None = field(default=None, repr=False)

    def validator(self, registry: Registry[Any]) -> Draft202012Validator | None:
        if self.body_schema is None:
            return None
        if self._validator is None:  # compiled once per operation, on first use
            self._validator = Draft202012Validator(self.body_schema, registry=registry)
        return self._validator


class Spec:
    """The operations of the OpenAPI document, with a path resolver like Discord's router."""

    def __init__(self, document: Mapping[str, Any]) -> None:
        document = _with_integer_snowflakes(document)
        self.version = str(document["info"].get("x-discord-api-spec-version", "?"))
        resource: Resource[Any] = Resource.from_contents(document, default_specification=DRAFT202012)
        self.registry: Registry[Any] = Registry().with_resource(SPEC_URI, resource)
        self._routes: list[tuple[int, re.Pattern[str], str, dict[str, Operation]]] = []
        for template, methods in document["paths"].items():
            operations = {
                method.upper(): self._operation(method.upper(), template, raw)
                for method, raw in methods.items()
            }
            pattern = re.sub(r"\\{(\w+)\\}", r"(?P<\1>[^/]+)", re.escape(template))
            literals = sum(1 for part in template.split("/") if part and not part.startswith("{"))
            self._routes.append((literals, re.compile(f"^{pattern}$"), template, operations))
        self._routes.sort(key=lambda r: -r[0])  # /messages/pins before /messages/{message_id}

    def _operation(self, method: str, template: str, raw: Mapping[str, Any]) -> Operation:
        parameters = raw.get("parameters") or []
        body = raw.get("requestBody")
        schema = None
        if body is not None:
            pointer = "/".join(
                part.replace("~", "~0").replace("/", "~1")
                for part in ("paths", template, method.lower(), "requestBody", "content", "application/json")
            )
            schema = {"$ref": f"{SPEC_URI}#/{pointer}/schema"}
        return Operation(
            method=method,
            template=template,
            operation_id=str(raw["operationId"]),
            path_parameters={p["name"]: p["schema"] for p in parameters if p["in"] == "path"},
            query_parameters={p["name"]: p["schema"] for p in parameters if p["in"] == "query"},
            body_schema=schema,
            body_required=bool(body and body.get("required")),
        )

    def resolve(self, method: str, path: str) -> tuple[Operation | None, str | None, dict[str, str]]:
        """The operation for this request, the matching template (even when the method is wrong), and the
        path parameters."""
        template_found: str | None = None
        for _, pattern, template, operations in self._routes:
            hit = pattern.match(path)
            if hit is None:
                continue
            operation = operations.get(method)
            if operation is not None:
                return operation, template, hit.groupdict()
            template_found = template_found or template
        return None, template_found, {}

    def check(
        self,
        method: str,
        path: str,
        query: Mapping[str, str],
        body: Any,
        *,
        has_body: bool,
    ) -> tuple[Operation | None, list[SpecViolation]]:
        operation, template, params = self.resolve(method, path)
        if operation is None:
            reason = "unknown route" if template is None else f"method {method} not allowed"
            detail = (
                f"no path of the spec matches {path}"
                if template is None
                else f"{template} has no {method} operation"
            )
            return None, [SpecViolation(method, path, None, template, reason, detail, body)]
        found: list[SpecViolation] = []

        def violation(reason: str, detail: str) -> None:
            found.append(
                SpecViolation(method, path, operation.operation_id, operation.template, reason, detail, body)
            )

        for name, value in params.items():
            problem = _parameter_problem(operation.path_parameters.get(name, {}), value)
            if problem:
                violation(f"path parameter {name}", f"{value!r} {problem}")
        for name, value in query.items():
            if name not in operation.query_parameters:
                violation(
                    f"unknown query parameter {name}",
                    f"{operation.operation_id} takes {sorted(operation.query_parameters) or 'no query'}",
                )
                continue
            problem = _parameter_problem(operation.query_parameters[name], value)
            if problem:
                violation(f"query parameter {name}", f"{value!r} {problem}")
        validator = operation.validator(self.registry)
        if has_body:
            if validator is None:
                violation("unexpected body", f"{operation.operation_id} takes no request body")
            else:
                # Every error of the body, each as its most relevant part (best_match descends into an
                # error's anyOf/oneOf branches the way it would for the whole body).
                for error in sorted(validator.iter_errors(body), key=lambda e: e.json_path):
                    relevant = best_match([error]) or error
                    violation(_reason(relevant), _detail(relevant))
        elif operation.body_required:
            violation("missing body", f"{operation.operation_id} requires a request body")
        return operation, found


def _reason(error: ValidationError) -> str:
    return f"body {error.json_path} ({error.validator})"


def _detail(error: ValidationError) -> str:
    message = error.message
    return message if len(message) <= 300 else message[:297] + "..."


def _parameter_problem(schema: Mapping[str, Any], value: str) -> str | None:
    ref = str(schema.get("$ref", ""))
    if ref.endswith("/SnowflakeType"):
        return None if SNOWFLAKE_PATTERN.match(value) else "is not a snowflake"
    kind = schema.get("type")
    if kind in ("number", "integer"):
        return None if NUMBER_PATTERN.match(value) else "is not a number"
    if kind == "boolean":
        return None if value in BOOLEANS else "is not a boolean"
    return None


def _with_integer_snowflakes(document: Mapping[str, Any]) -> dict[str, Any]:
    """SnowflakeType: the spec's string of digits, or a non-negative integer (see the module doc)."""
    schemas = dict(document["components"]["schemas"])
    snowflake = schemas["SnowflakeType"]
    schemas["SnowflakeType"] = {"anyOf": [snowflake, {"type": "integer", "minimum": 0}]}
    return {**document, "components": {**document["components"], "schemas": schemas}}


@functools.cache
def load_spec(path: Path = SPEC_FILE) -> Spec:
    """The pinned spec, parsed once per process."""
    return Spec(json.loads(path.read_text(encoding="utf-8")))


def unexplained(violations: Iterable[SpecViolation], allowed: Iterable[Allowed]) -> list[SpecViolation]:
    keys = {(a.operation, a.reason) for a in allowed}
    return [v for v in violations if v.key not in keys]


def report(violations: Iterable[SpecViolation]) -> str:
    lines = [f"  {v}" for v in violations]
    return (
        "requests that Discord's OpenAPI description rejects (fix the request, or — for the bot's own "
        "requests, until it is fixed — name (operation, reason) in the allowlist of tests/conftest.py):\n"
        + "\n".join(lines)
    )
