"""The layers of bot/, read from the source: the front ends reach the service through one entry,
nothing but the Discord front end imports it, and no module or class outgrows being read whole.

The front ends — Discord, the console, ``replay``, ``odds``, the web pages and the command line — may
import from the service only the request records (:mod:`bot.service.requests`) and, to start one,
:class:`~bot.service.croupier.Croupier` itself; of a ``Croupier`` they may use only ``handle`` and
the ``clock`` the service keeps time with (a delivery is acknowledged at the service's time)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

BOT = Path(__file__).resolve().parent.parent / "bot"
FRONT_ENDS = ("discord", "console", "web")
ALLOWED_IMPORTS = {
    "bot.service.requests": None,  # any record
    "bot.service.croupier": {"Croupier", "seed_from_text"},  # the composition roots start the service
}
SERVICE_MEMBERS = {"handle", "clock"}
# The command line starts every front end, Discord's included.
IMPORTS_DISCORD = {"bot/commands.py"}
MODULE_LINES_MAX = 600
CLASS_METHODS_MAX = 30


def front_end_modules() -> Iterator[Path]:
    yield BOT / "cli.py"
    yield BOT / "commands.py"
    for folder in FRONT_ENDS:
        yield from sorted((BOT / folder).rglob("*.py"))


def relative(path: Path) -> str:
    return path.relative_to(BOT.parent).as_posix()


def service_imports(tree: ast.AST) -> Iterator[tuple[str, str]]:
    """(module, name) for every import from the service (``import bot.service.x`` gives name "")."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("bot.service"):
            for alias in node.names:
                yield node.module, alias.name
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("bot.service"):
                    yield alias.name, ""


def croupier_members(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """Attributes read off anything named like the service: ``croupier.x``, ``self.croupier.x``,
    ``front.croupier.x``, ``self._croupier.x``."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        owner = node.value
        name = (
            owner.id
            if isinstance(owner, ast.Name)
            else owner.attr
            if isinstance(owner, ast.Attribute)
            else ""
        )
        if name.lstrip("_") == "croupier":
            yield node.lineno, node.attr


@pytest.mark.parametrize("path", list(front_end_modules()), ids=relative)
def test_a_front_end_reaches_the_service_only_through_handle(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    wrong = [
        f"from {module} import {name}" for module, name in service_imports(tree) if not allowed(module, name)
    ]
    wrong += [
        f"line {line}: croupier.{attr}"
        for line, attr in croupier_members(tree)
        if attr not in SERVICE_MEMBERS
    ]
    assert wrong == []


def allowed(module: str, name: str) -> bool:
    if module not in ALLOWED_IMPORTS:
        return False
    names = ALLOWED_IMPORTS[module]
    return names is None or name in names


def test_the_check_sees_a_front_end_that_reaches_past_handle() -> None:
    """The two checks above find what they look for (so an empty list means something)."""
    tree = ast.parse(
        "from bot.service.playing import line\nfrom bot.service.requests import Line\n"
        "async def f(front):\n    await front.croupier.handle(Line(1))\n    front.croupier.narrator\n"
    )
    assert list(service_imports(tree)) == [("bot.service.playing", "line"), ("bot.service.requests", "Line")]
    assert sorted(attr for _, attr in croupier_members(tree)) == ["handle", "narrator"]


@pytest.mark.parametrize(
    "path",
    [
        path
        for path in sorted(BOT.rglob("*.py"))
        if "discord" not in path.relative_to(BOT).parts and relative(path) not in IMPORTS_DISCORD
    ],
    ids=relative,
)
def test_nothing_but_the_discord_front_end_imports_it(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = [
        node.module if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom | ast.Import)
        for alias in node.names
        if (node.module if isinstance(node, ast.ImportFrom) else alias.name) or ""
    ]
    assert [name for name in imported if name and name.split(".")[:2] == ["bot", "discord"]] == []


def test_every_module_and_class_of_bot_is_small_enough_to_read_whole() -> None:
    """No module over 600 lines, no class over 30 methods (issue 21)."""
    too_long, too_wide = [], []
    for path in sorted(BOT.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if len(text.splitlines()) > MODULE_LINES_MAX:
            too_long.append((relative(path), len(text.splitlines())))
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef):
                methods = sum(isinstance(b, ast.FunctionDef | ast.AsyncFunctionDef) for b in node.body)
                if methods > CLASS_METHODS_MAX:
                    too_wide.append((f"{relative(path)}::{node.name}", methods))
    assert (too_long, too_wide) == ([], [])
