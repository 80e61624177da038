"""Every kind of bad command is refused with its class and code, and changes nothing (rules page §6)."""

from __future__ import annotations

import pytest

from .cases import REFUSALS, Refusal


@pytest.mark.parametrize("case", REFUSALS, ids=[case.id for case in REFUSALS])
def test_V6_refusal_changes_nothing(case: Refusal) -> None:
    table = case.build()
    table.refuse(case.actor, case.command, case.error, case.code)
