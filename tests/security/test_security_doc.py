"""docs/security.md: every test it cites exists, and every security test is cited."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")
CITED = set(re.findall(r"`(tests/[\w/]+\.py)::(\w+)`", re.sub(r"\s+", " ", DOC)))


def _defined(path: str, name: str) -> bool:
    file = ROOT / path
    return (
        file.exists()
        and re.search(rf"^(?:async )?def {name}\(", file.read_text(encoding="utf-8"), re.M) is not None
    )


def test_the_tests_the_page_cites_exist() -> None:
    assert len(CITED) > 40
    missing = sorted(f"{path}::{name}" for path, name in CITED if not _defined(path, name))
    assert missing == []


def test_the_page_cites_every_security_test() -> None:
    here = Path(__file__).resolve().parent
    uncited = []
    for file in sorted(here.glob("test_*.py")):
        if file.name == Path(__file__).name:
            continue
        path = f"tests/security/{file.name}"
        for name in re.findall(r"^(?:async )?def (test_\w+)\(", file.read_text(encoding="utf-8"), re.M):
            if (path, name) not in CITED:
                uncited.append(f"{path}::{name}")
    assert uncited == []


def test_every_promise_names_a_test() -> None:
    """Each numbered promise cites at least one test, and none is left "to be named"."""
    promises = re.split(r"^### ", DOC, flags=re.M)[1:]
    assert len(promises) >= 11
    untested = [p.splitlines()[0] for p in promises if "to be named" in p or "`tests/" not in p]
    assert untested == []
